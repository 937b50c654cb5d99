// Forms that post to the API and put each server error next to the field it is about.

import { ApiError } from "./api.js";

export function formValues(form) {
  const values = {};
  for (const [name, value] of new FormData(form).entries()) {
    if (typeof value === "string") values[name] = value;
  }
  return values;
}

export function clearErrors(form) {
  for (const slot of form.querySelectorAll("[data-error-for]")) slot.textContent = "";
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  setStatus(form, "");
}

export function setStatus(form, text, kind = "") {
  const slot = form.querySelector("[data-form-status]");
  if (!slot) return;
  slot.textContent = text;
  slot.className = `form-status${kind ? ` form-status-${kind}` : ""}`;
}

function fieldSlot(form, name) {
  return name ? form.querySelector(`[data-error-for="${CSS.escape(name)}"]`) : null;
}

function markField(form, name, message) {
  const slot = fieldSlot(form, name);
  if (!slot) return false;
  slot.textContent = slot.textContent ? `${slot.textContent} ${message}` : message;
  const input = form.elements.namedItem(name);
  if (input && input.setAttribute) input.setAttribute("aria-invalid", "true");
  return true;
}

// Which field an error code is about, when the server does not say in `problems`.
const CODE_FIELDS = {
  email_taken: ["email", "new_email"],
  display_name_taken: ["display_name"],
  weak_password: ["password", "new_password"],
  wrong_password: ["current_password", "password"],
  invalid_credentials: ["password"],
  token_invalid: ["token"],
  token_expired: ["token"],
  token_used: ["token"],
  avatar_invalid: ["avatar"],
  avatar_too_large: ["avatar"],
};

export function showError(form, error, fieldsByCode = {}) {
  if (!(error instanceof ApiError)) {
    setStatus(form, String(error.message || error), "error");
    return;
  }
  let placed = false;
  for (const problem of error.problems) {
    const location = problem.location || [];
    const name = location.length > 1 ? location[location.length - 1] : location[0];
    placed = markField(form, String(name), problem.message) || placed;
  }
  if (!placed) {
    const candidates = fieldsByCode[error.code] || CODE_FIELDS[error.code] || [];
    placed = candidates.some((name) => markField(form, name, error.message));
  }
  if (!placed) setStatus(form, error.message, "error");
  const invalid = form.querySelector("[aria-invalid=true]");
  if (invalid) invalid.focus();
}

// Submit `form` through `submit(values)`; errors land next to their fields.
// `after` runs once the button is usable again (to re-apply its own rules).
export function bindForm(form, submit, { fieldsByCode = {}, busyText = "", after = null } = {}) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const button = form.querySelector("button[type=submit]");
    const label = button ? button.textContent : "";
    if (button) {
      button.disabled = true;
      if (busyText) button.textContent = busyText;
    }
    try {
      await submit(formValues(form), form);
    } catch (error) {
      showError(form, error, fieldsByCode);
    } finally {
      if (button) {
        button.disabled = false;
        button.textContent = label;
      }
      if (after) after();
    }
  });
}
