import { api, ApiError } from "../api.js";
import { bindForm } from "../forms.js";
import { currentUser, keepNext, nextPath } from "../session.js";

const form = document.getElementById("login-form");
keepNext(document.querySelector('a[href="/signup"]'));

bindForm(form, async (values) => {
  try {
    await api("POST", "/auth/login", { email: values.email, password: values.password });
  } catch (error) {
    if (error instanceof ApiError && error.details.reason) error.message += ` (reason: ${error.details.reason})`;
    throw error;
  }
  window.location.assign(nextPath("/"));
}, { fieldsByCode: { account_banned: ["email"], rate_limited: [] }, busyText: "Logging in…" });

currentUser().then((user) => {
  if (user) window.location.replace(nextPath("/"));
});
