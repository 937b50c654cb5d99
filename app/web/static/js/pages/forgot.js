import { api } from "../api.js";
import { bindForm, setStatus } from "../forms.js";

const form = document.getElementById("forgot-form");

bindForm(form, async (values) => {
  const answer = await api("POST", "/auth/forgot-password", values);
  setStatus(form, answer.message, "ok");
}, { busyText: "Sending…" });

