import { api } from "../api.js";
import { bindForm, setStatus } from "../forms.js";
import { keepNext, nextPage } from "../session.js";

const form = document.getElementById("signup-form");
const done = document.getElementById("signup-done");
const resend = document.getElementById("resend-form");

// Invited to a table: the confirmation link leads back to it.
const next = nextPage();
keepNext(...document.querySelectorAll('a[href="/login"]'));

bindForm(form, async (values) => {
  const user = await api("POST", "/auth/signup", next ? { ...values, next } : values);
  form.hidden = true;
  document.getElementById("signup-sent-to").textContent = user.email;
  resend.elements.namedItem("email").value = user.email;
  done.hidden = false;
}, { busyText: "Creating your account…" });

bindForm(resend, async (values) => {
  const answer = await api("POST", "/auth/request-verify", values);
  setStatus(resend, answer.message, "ok");
});

if (new URLSearchParams(window.location.search).has("deleted")) {
  document.getElementById("deleted-notice").hidden = false;
}
