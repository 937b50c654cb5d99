import { api, ApiError } from "../api.js";
import { bindForm, clearErrors, setStatus } from "../forms.js";
import { chips, date, dateTime, el, ledgerReason, signed } from "../format.js";
import { renderNav, requireUser, setBalance } from "../session.js";
import { changeSetting } from "../settings.js";

const PER_PAGE = 10;
const settingsForm = document.getElementById("settings-form");
let user = await requireUser();
let ledgerPage = 1;

function mismatch(field) {
  return new ApiError(422, { error: { code: "invalid_payload", message: "The two passwords differ.",
    problems: [{ location: ["body", field], message: "The two passwords differ." }] } });
}

function showUser() {
  document.getElementById("avatar-preview").src = `${user.avatar_url}?t=${Date.now()}`;
  document.getElementById("name-display_name").value = user.display_name || "";
  document.getElementById("leaderboard-listed").checked = user.leaderboard_listed;
  for (const box of settingsForm.querySelectorAll("input[type=checkbox]")) box.checked = user.settings[box.name];
  document.getElementById("fact-email").textContent = user.email;
  document.getElementById("fact-since").textContent = date(user.created_at);
  document.getElementById("balance").textContent = chips(user.balance);
  document.getElementById("unverified").hidden = user.email_verified;
  document.getElementById("unverified-email").textContent = user.email;
  showDaily();
  setBalance(user.balance);
}

function showDaily() {
  const button = document.getElementById("daily-claim");
  const when = document.getElementById("daily-when");
  const next = new Date(user.daily_credits_available_at);
  if (!user.email_verified) {
    button.disabled = true;
    when.textContent = "Confirm your e-mail address first.";
  } else if (next > new Date()) {
    button.disabled = true;
    when.textContent = `Next claim ${dateTime(next)}.`;
  } else {
    button.disabled = false;
    when.textContent = "Available now.";
  }
}

async function loadLedger() {
  const data = await api("GET", `/users/me/ledger?page=${ledgerPage}&per_page=${PER_PAGE}`);
  const body = document.querySelector("#ledger tbody");
  body.replaceChildren(...data.items.map((entry) => el("tr", {},
    el("td", {}, dateTime(entry.created_at)),
    el("td", {}, ledgerReason(entry.reason), ledgerDetail(entry)),
    el("td", { className: `num ${entry.amount >= 0 ? "plus" : "minus"}` }, signed(entry.amount)),
    el("td", { className: "num" }, chips(entry.balance_after)),
  )));
  if (!data.items.length) body.append(el("tr", {}, el("td", { className: "empty", colSpan: 4 }, "Nothing yet.")));
  const pages = Math.max(1, Math.ceil(data.count / PER_PAGE));
  document.getElementById("ledger-page").textContent = `Page ${ledgerPage} of ${pages}`;
  document.getElementById("ledger-newer").disabled = ledgerPage <= 1;
  document.getElementById("ledger-older").disabled = ledgerPage >= pages;
}

document.getElementById("ledger-newer").addEventListener("click", () => { ledgerPage -= 1; loadLedger(); });
document.getElementById("ledger-older").addEventListener("click", () => { ledgerPage += 1; loadLedger(); });

const avatarForm = document.getElementById("avatar-form");
// A buy-in or cash-out names its table (a link to it); other entries show their note.
function ledgerDetail(entry) {
  if (entry.table_name) {
    return el("span", { className: "hint" }, " · ",
      el("a", { href: `/table/${encodeURIComponent(entry.reference)}` }, entry.table_name));
  }
  return entry.reference ? el("span", { className: "hint" }, ` · ${entry.reference}`) : null;
}

const avatarInput = document.getElementById("avatar-file");
avatarInput.addEventListener("change", () => {
  clearErrors(avatarForm);
  const file = avatarInput.files[0];
  document.getElementById("avatar-upload").disabled = !file;
  if (file) {
    document.getElementById("avatar-preview").src = URL.createObjectURL(file);
    setStatus(avatarForm, "Preview: upload to keep it.");
  }
});
bindForm(avatarForm, async () => {
  const upload = new FormData();
  upload.append("file", avatarInput.files[0]);
  user = await api("PUT", "/users/me/avatar", upload);
  avatarInput.value = "";
  showUser();
  renderNav(user);
  setStatus(avatarForm, "Avatar saved.", "ok");
}, { fieldsByCode: { invalid_payload: ["avatar"], payload_too_large: ["avatar"], unsupported_media_type: ["avatar"] } });

const nameForm = document.getElementById("name-form");
bindForm(nameForm, async (values) => {
  user = await api("PATCH", "/users/me", { display_name: values.display_name });
  showUser();
  renderNav(user);
  setStatus(nameForm, "Name saved.", "ok");
});

settingsForm.addEventListener("change", async (event) => {
  const box = event.target;
  try {
    await changeSetting(user, box.name, box.checked);
    setStatus(settingsForm, "Saved.", "ok");
  } catch (error) {
    box.checked = !box.checked;
    setStatus(settingsForm, error.message, "error");
  }
});

const leaderboardForm = document.getElementById("leaderboard-form");
document.getElementById("leaderboard-listed").addEventListener("change", async (event) => {
  const listed = event.target.checked;
  try {
    user = await api("PUT", "/users/me/leaderboard", { listed });
    setStatus(leaderboardForm, listed ? "You are on the leaderboard." : "You are off the leaderboard.", "ok");
  } catch (error) {
    event.target.checked = !listed;
    setStatus(leaderboardForm, error.message, "error");
  }
});

const dailyForm = document.getElementById("daily-form");
bindForm(dailyForm, async () => {
  const result = await api("POST", "/users/me/daily-credits");
  user.balance = result.balance;
  user.daily_credits_available_at = result.next_available_at;
  showUser();
  setStatus(dailyForm, `${signed(result.entry.amount)} credits added.`, "ok");
  ledgerPage = 1;
  await loadLedger();
}, { after: showDaily });

const passwordForm = document.getElementById("password-form");
// Hand histories of a range of days, as a zip the browser saves (GET /hands/export).
const exportForm = document.getElementById("export-form");
const today = new Date().toISOString().slice(0, 10);
exportForm.elements.namedItem("until").value = today;
exportForm.elements.namedItem("since").value = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
bindForm(exportForm, async (values) => {
  const until = new Date(`${values.until}T00:00:00Z`);
  until.setUTCDate(until.getUTCDate() + 1);
  const query = new URLSearchParams({ since: `${values.since}T00:00:00Z`, until: until.toISOString(),
    format: values.format, archive: "zip" });
  const response = await fetch(`/hands/export?${query}`, { credentials: "same-origin" });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  if (Number(response.headers.get("x-hands")) === 0) {
    setStatus(exportForm, "You played no hand in those days.", "ok");
    return;
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
  const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name ? name[1] : "hands.zip" });
  document.body.append(link);
  link.click();
  link.remove();
  const left = Number(response.headers.get("x-hands-left-out") || 0);
  setStatus(exportForm, left ? `Downloaded; ${left} hands of games this format cannot write yet were left out.` : "Downloaded.", "ok");
}, { busyText: "Preparing…" });

bindForm(passwordForm, async (values) => {
  if (values.new_password !== values.confirm_password) throw mismatch("confirm_password");
  await api("POST", "/users/me/password", {
    current_password: values.current_password, new_password: values.new_password });
  passwordForm.reset();
  setStatus(passwordForm, "Password changed. Your other sessions have ended.", "ok");
});

const emailForm = document.getElementById("email-form");
bindForm(emailForm, async (values) => {
  const answer = await api("POST", "/users/me/email", values);
  emailForm.reset();
  setStatus(emailForm, answer.message, "ok");
});

const deleteForm = document.getElementById("delete-form");
const deleteDialog = document.getElementById("delete-dialog");
bindForm(deleteForm, async (values) => {
  deleteDialog.returnValue = "";
  deleteDialog.showModal();
  const choice = await new Promise((resolve) => {
    deleteDialog.addEventListener("close", () => resolve(deleteDialog.returnValue), { once: true });
  });
  if (choice !== "confirm") return;
  await api("DELETE", "/users/me", { password: values.password });
  window.location.assign("/signup?deleted=1");
});

document.getElementById("resend-verify").addEventListener("click", async (event) => {
  const status = document.getElementById("resend-status");
  event.target.disabled = true;
  try {
    status.textContent = (await api("POST", "/auth/request-verify", { email: user.email })).message;
  } catch (error) {
    status.textContent = error.message;
  } finally {
    event.target.disabled = false;
  }
});

showUser();
await loadLedger();
