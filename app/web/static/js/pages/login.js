import { api } from "../api.js";
import { bindForm } from "../forms.js";
import { currentUser, nextPath } from "../session.js";

const form = document.getElementById("login-form");

bindForm(form, async (values) => {
  await api("POST", "/auth/login", { email: values.email, password: values.password });
  window.location.assign(nextPath("/"));
}, { fieldsByCode: { account_banned: ["email"], rate_limited: [] }, busyText: "Logging in…" });

currentUser().then((user) => {
  if (user) window.location.replace(nextPath("/"));
});
