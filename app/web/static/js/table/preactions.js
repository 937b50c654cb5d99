// Pre-actions: while others act, tick what to do when your turn comes. The boxes are
// exclusive; each tick is sent to the server (table:preact), which takes it the moment
// the turn comes and tells every device you use what you hold (table:preaction), so a
// box unticks when the server drops it (a raise cancels "Call 20", new cards end a street).

import { chips } from "../format.js";

const $ = (id) => document.getElementById(id);
const BETTING = ["preflop", "flop", "turn", "river"];

export class PreActionBoxes {
  constructor(send) {
    this.send = send;
    this.handId = null;
    this.chosen = null;
    this.toCall = 0;
    this.boxes = [...document.querySelectorAll("[data-preaction]")];
    for (const box of this.boxes) box.addEventListener("change", () => this.toggle(box));
  }

  // Show the boxes that apply to the bet you face, while you are in the hand's betting and
  // another seat is to act; hide them otherwise.
  update(table, seat) {
    const hand = table.hand;
    if (!hand || hand.id !== this.handId) {
      this.handId = hand ? hand.id : null;
      this.chosen = null;
    }
    const mine = hand && seat !== null ? hand.seats[seat] : null;
    const turn = table.turn;
    const show = Boolean(mine && mine.status === "active" && BETTING.includes(hand.phase)
      && turn && turn.hand_id === hand.id && turn.seat !== seat && !table.closed);
    $("preactions").hidden = !show;
    if (!show) return;
    const level = Math.max(hand.level || 0, ...Object.values(hand.seats).map((s) => s.bet || 0));
    this.toCall = Math.max(0, Math.min(level - (mine.bet || 0), mine.stack));
    this.label("check", this.toCall ? null : "Check");
    this.label("call", this.toCall ? `Call ${chips(this.toCall)}` : null);
    this.sync();
  }

  label(intent, text) {
    const box = this.boxes.find((b) => b.dataset.preaction === intent);
    const option = box.closest(".preaction");
    option.hidden = !text;
    if (text) option.querySelector(".preaction-label").textContent = text;
  }

  // What the server says you hold now (null: nothing).
  set(handId, preaction) {
    this.handId = handId;
    this.chosen = preaction;
    this.sync();
  }

  sync() {
    for (const box of this.boxes) {
      const chosen = this.chosen;
      box.checked = Boolean(chosen && chosen.intent === box.dataset.preaction
        && (chosen.intent !== "call" || chosen.amount === this.toCall));
    }
  }

  async toggle(box) {
    const intent = box.checked ? box.dataset.preaction : null;
    const payload = { hand_id: this.handId, intent };
    if (intent === "call") payload.amount = this.toCall;
    this.chosen = intent ? { intent, amount: payload.amount ?? null } : null;
    this.sync();
    $("preaction-status").textContent = "";
    try {
      const ack = await this.send(payload);
      if (ack.hand_id === this.handId) this.chosen = ack.preaction;
    } catch (error) {
      this.chosen = null;
      $("preaction-status").textContent = error.message;
    }
    this.sync();
  }
}
