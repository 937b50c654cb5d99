import { api, ApiError } from "../api.js";
import { bindForm } from "../forms.js";

const form = document.getElementById("reset-form");

if (form) {
  bindForm(form, async (values) => {
    if (values.new_password !== values.confirm_password) {
      throw new ApiError(422, { error: { code: "invalid_payload", message: "The two passwords differ.",
        problems: [{ location: ["body", "confirm_password"], message: "The two passwords differ." }] } });
    }
    await api("POST", "/auth/reset-password", { token: values.token, new_password: values.new_password });
    form.hidden = true;
    document.getElementById("reset-done").hidden = false;
  }, { busyText: "Saving…" });
}
