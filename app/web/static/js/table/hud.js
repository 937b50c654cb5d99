// What you keep about the other players at the table, shown at their seats: your private
// note and colour tag, and, once you turn the HUD on, your stats about them (counted only
// over hands you were dealt into with them: GET /stats/players).

import { api } from "../api.js";
import { el } from "../format.js";
import { loadNotes, NOTE_COLORS, noteTag, saveNote } from "../notes.js";
import { changeSetting, settingsOf } from "../settings.js";

const NAMES = [["vpip", "VPIP"], ["pfr", "PFR"], ["three_bet", "3-bet"], ["fold_to_three_bet", "Fold to 3-bet"],
  ["cbet", "C-bet"], ["fold_to_cbet", "Fold to c-bet"], ["af", "Aggression factor"], ["wtsd", "Went to showdown"],
  ["wsd", "Won at showdown"]];

const shown = (stat, digits = 0) => (stat.value === null ? "–" : stat.value.toFixed(digits));

function hudLine(stats) {
  const said = NAMES.map(([key, name]) => `${name}: ${shown(stats[key], key === "af" ? 1 : 0)}`
    + `${key === "af" ? "" : "%"} (${stats[key].sample})`).join("\n");
  return el("span", { className: "seat-hud", title: `Over ${stats.hands} hands with you\n${said}`,
    "aria-label": `Your stats about this player over ${stats.hands} hands. ${said.replaceAll("\n", ". ")}` },
  `${shown(stats.vpip)}/${shown(stats.pfr)}/${shown(stats.three_bet)} · AF ${shown(stats.af, 1)} · ${stats.hands}h`);
}

export class SeatExtras {
  constructor(me, onChange) {
    this.me = me;
    this.onChange = onChange;
    this.enabled = Boolean(me && settingsOf(me).hud);
    this.stats = new Map();
    this.notes = new Map();
    this.asked = "";
  }

  async start() {
    if (!this.me) return;
    this.notes = await loadNotes();
    this.onChange();
  }

  setEnabled(on) {
    this.enabled = on;
    changeSetting(this.me, "hud", on).catch(() => null);
    this.asked = "";
    if (!on) this.stats.clear();
    this.onChange();
  }

  // Ask for the stats of the people seated now (again after each hand: `fresh`).
  async refresh(table, fresh = false) {
    if (!this.enabled || !this.me) return;
    const ids = Object.values(table.seats).map((s) => s.player)
      .filter((p) => p.public_id && !p.bot && p.public_id !== this.me.public_id).map((p) => p.public_id).sort();
    const key = ids.join(",");
    if (!ids.length || (key === this.asked && !fresh)) return;
    this.asked = key;
    const query = ids.map((id) => `ids=${encodeURIComponent(id)}`).join("&");
    const data = await api("GET", `/stats/players?${query}`).catch(() => null);
    if (!data) return;
    this.stats = new Map(data.items.map((item) => [item.public_id, item]));
    this.onChange();
  }

  // What goes under a seat's name: the note tag, the HUD line and the button to write a note.
  node(player) {
    if (!this.me || !player.public_id || player.bot || player.public_id === this.me.public_id) return null;
    const stats = this.enabled ? this.stats.get(player.public_id) : null;
    return el("span", { className: "seat-extras" },
      noteTag(this.notes.get(player.public_id)),
      stats ? hudLine(stats) : null,
      el("button", { type: "button", className: "link-button seat-note-button",
        dataset: { note: player.public_id, name: player.name }, "aria-label": `Note about ${player.name}` }, "Note"));
  }

  // The note dialog: open it from a seat's Note button, save or delete the note.
  bindDialog(dialog, seats) {
    const form = dialog.querySelector("form");
    const color = form.elements.color;
    color.replaceChildren(el("option", { value: "" }, "No tag"), ...NOTE_COLORS.map((c) => el("option", { value: c }, c)));
    seats.addEventListener("click", (event) => {
      const button = event.target.closest("[data-note]");
      if (!button) return;
      const note = this.notes.get(button.dataset.note);
      form.elements.subject.value = button.dataset.note;
      dialog.querySelector("[data-note-name]").textContent = button.dataset.name;
      form.elements.text.value = note ? note.text : "";
      color.value = note && note.color ? note.color : "";
      form.querySelector("[data-form-status]").textContent = "";
      dialog.showModal();
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const subject = form.elements.subject.value;
      try {
        const saved = await saveNote(subject, form.elements.text.value, color.value);
        if (saved) this.notes.set(subject, saved);
        else this.notes.delete(subject);
        dialog.close();
        this.onChange();
      } catch (error) {
        form.querySelector("[data-form-status]").textContent = error.message;
      }
    });
    dialog.querySelector("[data-note-cancel]").addEventListener("click", () => dialog.close());
  }
}
