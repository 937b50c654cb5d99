// Who is signed in, and the header that shows it.

import { api, ApiError, cookie, CSRF_COOKIE } from "./api.js";
import { applyDeck, settingsOf } from "./settings.js";

let current;
let loading = null;

// The signed-in user or null, asked once per page (every page's header shows it).
export function currentUser({ refresh = false } = {}) {
  if (!loading || refresh) loading = load();
  return loading;
}

async function load() {
  // A login sets the readable CSRF cookie beside the HttpOnly session cookie, and a
  // logout clears both: without it the visitor is a guest, and asking /users/me would
  // only log a 401 in the console.
  let user = null;
  if (cookie(CSRF_COOKIE)) {
    try {
      user = await api("GET", "/users/me");
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
    }
  }
  current = user;
  renderNav(current);
  applyDeck(settingsOf(current));
  return current;
}

export function formatCredits(amount) {
  return Number(amount).toLocaleString("en-US");
}

export function renderNav(user) {
  for (const part of document.querySelectorAll("[data-when]")) {
    part.hidden = (part.dataset.when === "user") !== Boolean(user);
  }
  if (!user) return;
  document.getElementById("nav-name").textContent = user.display_name || "you";
  document.getElementById("nav-avatar").src = user.avatar_url;
  document.getElementById("nav-balance").textContent = `${formatCredits(user.balance)} credits`;
  document.getElementById("nav-admin").hidden = user.role !== "admin";
}

export function setBalance(balance) {
  if (current) current.balance = balance;
  const slot = document.getElementById("nav-balance");
  if (slot) slot.textContent = `${formatCredits(balance)} credits`;
}

export function loginUrl(page = "/login") {
  const next = window.location.pathname + window.location.search;
  return `${page}?next=${encodeURIComponent(next)}`;
}

// The page `?next=` names (see nextPath) as a path of this site, or null.
export function nextPage() {
  const next = nextPath(null);
  if (!next) return null;
  const url = new URL(next);
  return url.pathname + url.search;
}

// Links to the login and sign-up pages that keep `?next=`, so a guest comes back to the
// page they were shown.
export function keepNext(...links) {
  const next = nextPage();
  if (!next) return;
  for (const link of links) {
    if (link) link.href = `${new URL(link.href).pathname}?next=${encodeURIComponent(next)}`;
  }
}

// The signed-in user, or off to the login page.
export async function requireUser() {
  const user = await currentUser();
  if (!user) {
    window.location.assign(loginUrl());
    return new Promise(() => {});
  }
  return user;
}

// Only a path on this origin, so a crafted ?next= cannot send people elsewhere. The URL is
// resolved the way the browser will follow it (WHATWG URL parsing: backslashes, tabs,
// newlines, percent-encoded dots and dot segments included), and what comes back is that
// resolved absolute URL, so nothing is parsed a second time: "/.//evil.example" resolves to
// the path "//evil.example", which handed back as a path would mean the host evil.example.
// A path that begins with "//" is no page of ours either way.
export function nextPath(fallback = "/") {
  const next = new URLSearchParams(window.location.search).get("next");
  if (!next || !next.startsWith("/")) return fallback;
  let target;
  try {
    target = new URL(next, window.location.origin);
  } catch {
    return fallback;
  }
  if (target.origin !== window.location.origin || target.pathname.startsWith("//")) {
    return fallback;
  }
  return target.href;
}

document.getElementById("nav-logout")?.addEventListener("click", async () => {
  // An expired session is logged out already; either way the login page is next.
  await api("POST", "/auth/logout").catch(() => null);
  window.location.assign("/login");
});
