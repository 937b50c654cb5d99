// Your settings, kept on your account (`settings` in GET /users/me, changed with PATCH
// /users/me/settings), so every device and table reads the same; a guest's live in this
// browser until they sign in.

import { api } from "./api.js";

const GUEST_KEY = "holdem:settings";
export const DEFAULTS = {
  four_color_deck: true, sounds: true, turn_alerts: false, hud: false, auto_muck: true,
  auto_top_up: false,
};

// The settings in force: the account's, else this browser's.
export function settingsOf(user) {
  if (user) return user.settings;
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(GUEST_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

// Change one setting (on the account when signed in) and return them all.
export async function changeSetting(user, name, value) {
  if (!user) {
    const kept = { ...settingsOf(null), [name]: value };
    localStorage.setItem(GUEST_KEY, JSON.stringify(kept));
    applyDeck(kept);
    return kept;
  }
  user.settings = await api("PATCH", "/users/me/settings", { [name]: value });
  applyDeck(user.settings);
  return user.settings;
}

// The deck's colours on this page: four colours, or hearts and diamonds red and spades
// and clubs black.
export function applyDeck(settings) {
  document.documentElement.classList.toggle("two-color-deck", !settings.four_color_deck);
}
