// Your settings at the table: the deck's colours, and the seat's preferences the server
// applies (muck a beaten hand at the showdown, top up to the maximum before each hand,
// sit out instead of posting the next big blind). Auto-muck and auto top-up are your
// account's settings, sent to every table you sit at; sitting out at the next big blind
// is this seat's alone.

import { changeSetting, settingsOf } from "../settings.js";

const $ = (id) => document.getElementById(id);
const FOLLOWED = ["auto_muck", "auto_top_up"];

export class SeatSettings {
  // `send(payload)`: a table:preferences request (resolves with its ack).
  constructor(me, { send, onMessage }) {
    this.me = me;
    this.send = send;
    this.onMessage = onMessage;
    this.sending = false;
    // Auto top-up this table stopped (your credits could not pay): not sent again here
    // until you tick it again.
    this.stopped = false;
    $("set-four-color").addEventListener("change", () => this.change("four_color_deck", $("set-four-color").checked));
    $("set-auto-muck").addEventListener("change", () => this.change("auto_muck", $("set-auto-muck").checked));
    $("set-auto-top-up").addEventListener("change", () => {
      this.stopped = false;
      this.change("auto_top_up", $("set-auto-top-up").checked);
    });
    $("set-sit-out-bb").addEventListener("change", () => this.seatOnly({ sit_out_next_big_blind: $("set-sit-out-bb").checked }));
  }

  async change(name, value) {
    try {
      await changeSetting(this.me, name, value);
    } catch (error) {
      this.onMessage(error.message);
    }
    this.table && this.sync(this.table);
  }

  async seatOnly(payload) {
    try {
      this.took(await this.send(payload));
    } catch (error) {
      this.onMessage(error.message);
    }
  }

  took(ack) {
    if (!this.table || !this.table.you) return;
    const { table_id: _, ...preferences } = ack;
    this.table.you.preferences = preferences;
    this.render(this.table);
  }

  // The table stopped your auto top-up (a `auto_top_up_stopped` notice).
  autoTopUpStopped() {
    this.stopped = true;
    if (this.table && this.table.you && this.table.you.preferences) this.table.you.preferences.auto_top_up = false;
  }

  // Bring the seat's preferences in line with your settings, once seated.
  async sync(table) {
    this.table = table;
    const you = table.you;
    if (!this.me || !you || you.seat === null || you.seat === undefined || this.sending) return;
    const settings = settingsOf(this.me);
    const held = you.preferences || {};
    const wanted = {};
    for (const name of FOLLOWED) {
      if (name === "auto_top_up" && (this.stopped || table.config.tournament)) continue;
      if (held[name] !== settings[name]) wanted[name] = settings[name];
    }
    if (!Object.keys(wanted).length) return;
    this.sending = true;
    try {
      this.took(await this.send(wanted));
    } catch {
      // Not seated after all (the seat went meanwhile): the next snapshot says so.
    } finally {
      this.sending = false;
    }
  }

  render(table) {
    this.table = table;
    const box = $("seat-settings");
    box.hidden = !this.me;
    if (!this.me) return;
    const settings = settingsOf(this.me);
    const you = table.you || {};
    const seated = you.seat !== null && you.seat !== undefined;
    $("set-four-color").checked = settings.four_color_deck;
    $("set-auto-muck").checked = settings.auto_muck;
    $("set-auto-top-up").checked = settings.auto_top_up && !this.stopped;
    $("set-auto-top-up").closest("label").hidden = Boolean(table.config.tournament);
    const sitOut = $("set-sit-out-bb");
    sitOut.closest("label").hidden = !seated || Boolean(table.config.tournament);
    sitOut.checked = Boolean(seated && you.preferences && you.preferences.sit_out_next_big_blind);
  }
}
