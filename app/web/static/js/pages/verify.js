import { api } from "../api.js";
import { bindForm } from "../forms.js";
import { currentUser } from "../session.js";

const form = document.getElementById("verify-form");

if (form) {
  bindForm(form, async (values) => {
    const user = await api("POST", "/auth/verify-email", { token: values.token });
    form.hidden = true;
    document.getElementById("verified-email").textContent = user.email;
    document.getElementById("verify-done").hidden = false;
    const signedIn = await currentUser({ refresh: true });
    const next = document.getElementById("verify-next");
    if (signedIn) {
      next.href = "/";
      next.textContent = "Go to the lobby";
    }
  }, { busyText: "Confirming…" });
}
