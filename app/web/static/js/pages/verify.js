import { api } from "../api.js";
import { bindForm } from "../forms.js";
import { currentUser, nextPage } from "../session.js";

const form = document.getElementById("verify-form");

if (form) {
  bindForm(form, async (values) => {
    const user = await api("POST", "/auth/verify-email", { token: values.token });
    form.hidden = true;
    document.getElementById("verified-email").textContent = user.email;
    document.getElementById("verify-done").hidden = false;
    const signedIn = await currentUser({ refresh: true });
    const next = document.getElementById("verify-next");
    // A sign-up that began at a table's invite comes back to that table.
    const back = nextPage();
    const where = back && back.startsWith("/table/") ? "the table" : null;
    if (signedIn) {
      next.href = back || "/";
      next.textContent = where ? `Go back to ${where}` : "Go to the lobby";
    } else if (back) {
      next.href = `/login?next=${encodeURIComponent(back)}`;
      next.textContent = where ? `Log in and go back to ${where}` : "Log in";
    }
  }, { busyText: "Confirming…" });
}
