// The action bar: only the actions the server listed as legal, bet sizes kept
// inside its min and max, and keyboard shortcuts for each button. A limit game's bet or
// raise has one size (min = max): one button says it, with no slider.

import { chips } from "../format.js";
import { gameOf } from "../games.js";
import { potTotal } from "./state.js";

const $ = (id) => document.getElementById(id);
const OFFLINE = "Connection lost: you can act again once it is back (a turn's clock keeps running).";

export class ActionBar {
  constructor(send) {
    this.send = send;
    this.legal = null;
    this.busy = false;
    this.offline = false;
    this.foldConfirmed = false;
    this.slider = $("bet-slider");
    this.amount = $("bet-amount");
    $("act-fold").addEventListener("click", () => this.act("fold"));
    $("act-check").addEventListener("click", () => this.act("check"));
    $("act-call").addEventListener("click", () => this.act("call"));
    $("act-raise").addEventListener("click", () => this.raise());
    $("act-allin").addEventListener("click", () => this.act("all_in"));
    $("act-show").addEventListener("click", () => this.act("show"));
    $("act-muck").addEventListener("click", () => this.act("muck"));
    $("fold-check").addEventListener("click", () => this.act("check"));
    $("fold-anyway").addEventListener("click", () => {
      this.foldConfirmed = true;
      this.act("fold");
    });
    this.slider.addEventListener("input", () => this.setAmount(Number(this.slider.value)));
    this.amount.addEventListener("change", () => this.setAmount(Number(this.amount.value)));
    this.amount.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.setAmount(Number(this.amount.value));
        this.raise();
      }
    });
    for (const button of document.querySelectorAll("[data-preset]")) {
      button.addEventListener("click", () => this.preset(button.dataset.preset));
    }
    // The mouse wheel over the size moves it a big blind a notch (up is bigger).
    $("sizing").addEventListener("wheel", (event) => {
      if (!this.sized || event.deltaY === 0) return;
      event.preventDefault();
      this.setAmount(Number(this.amount.value) + (event.deltaY < 0 ? 1 : -1) * this.bigBlind);
    }, { passive: false });
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  find(kind) {
    return this.legal ? this.legal.find((a) => a.action === kind) : undefined;
  }

  // Show the choices of `turn` (ours) for `table`, or hide the bar. Every button shown is
  // one legal action, and no two buttons do the same thing.
  update(table, turn, seat) {
    const mine = turn && turn.legal_actions && turn.seat === seat && table.hand && table.hand.id === turn.hand_id;
    const turnKey = mine ? `${turn.hand_id}:${turn.seq}` : null;
    if (turnKey === this.turnKey) return;
    this.turnKey = turnKey;
    this.legal = mine ? turn.legal_actions : null;
    this.handId = mine ? turn.hand_id : null;
    this.busy = false;
    this.confirmFold(false);
    this.enable(true);
    $("actions").hidden = !mine;
    this.status(this.offline ? OFFLINE : "");
    if (!mine) return;
    const me = table.hand.seats[seat];
    this.myBet = me ? me.bet : 0;
    this.toCall = turn.to_call || 0;
    this.pot = potTotal(table.hand);
    this.bigBlind = table.config.big_blind;
    const call = this.find("call");
    const allIn = this.find("all_in");
    const callsAll = Boolean(call && me && call.amount >= me.stack);
    this.show("act-fold", this.find("fold") ? "Fold" : null);
    this.show("act-check", this.find("check") ? "Check" : null);
    this.show("act-call", call ? `Call ${chips(call.amount)}${callsAll ? " (all-in)" : ""}` : null);
    this.show("act-show", this.find("show") ? "Show" : null);
    this.show("act-muck", this.find("muck") ? "Muck" : null);
    // A bet or raise whose only size is the whole stack is the all-in itself.
    const sized = this.find("raise") || this.find("bet");
    this.sized = sized && sized.min < sized.max ? sized : null;
    this.allIn = allIn && !callsAll ? allIn : null;
    this.fixed = sized && sized.min === sized.max && !(allIn && allIn.amount === sized.max) ? sized : null;
    $("sizing").hidden = !this.sized;
    // In a pot-limit game the most one may bet is the pot: the "Pot" preset says it.
    document.querySelector('[data-preset="max"]').hidden = gameOf(table.config).limit === "pot";
    // Before the flop a raise is sized as a multiple of the bet; after it, as a share of the pot.
    const street = table.hand.board.length ? "postflop" : "preflop";
    for (const button of document.querySelectorAll("[data-street]")) button.hidden = button.dataset.street !== street;
    if (this.sized) {
      this.slider.min = this.amount.min = sized.min;
      this.slider.max = this.amount.max = sized.max;
      this.setAmount(sized.min);
    } else {
      const fixed = this.fixed;
      this.show("act-raise", fixed ? `${fixed.action === "bet" ? "Bet" : "Raise to"} ${chips(fixed.min)}` : null);
      this.show("act-allin", this.allIn ? `All-in ${chips(this.allIn.amount)}` : null);
    }
    // Focus the safe choice, so a stray Enter never folds.
    const first = document.querySelector("#act-check:not([hidden]), #act-call:not([hidden]), #act-show:not([hidden])");
    if (first && !document.activeElement?.matches("input[type=text]")) first.focus({ preventScroll: true });
  }

  show(id, label) {
    const button = $(id);
    button.hidden = !label;
    if (label) button.firstChild.textContent = `${label} `;
  }

  // The size of the bet or raise; at the whole stack the raise button is the all-in
  // button, and the separate one goes.
  setAmount(value) {
    const sized = this.sized;
    if (!sized) return;
    const amount = Math.round(Math.min(sized.max, Math.max(sized.min, Number.isFinite(value) ? value : sized.min)));
    this.slider.value = amount;
    this.amount.value = amount;
    const verb = sized.action === "bet" ? "Bet" : "Raise to";
    const all = this.allIn && amount === this.allIn.amount;
    this.show("act-raise", all ? `All-in ${chips(amount)}` : `${verb} ${chips(amount)}`);
    this.show("act-allin", this.allIn && !all ? `All-in ${chips(this.allIn.amount)}` : null);
  }

  // A preset size as a "to" amount: after the flop the call first, then a share of the pot
  // after it; before it a multiple of the bet to match (at least the big blind).
  preset(name) {
    const sized = this.sized;
    if (!sized) return;
    const afterCall = this.pot + this.toCall;
    const to = this.myBet + this.toCall;
    const share = (part) => to + Math.floor(afterCall * part);
    const facing = Math.max(to, this.bigBlind);
    const sizes = {
      min: sized.min, third: share(1 / 3), half: share(1 / 2), "two-thirds": share(2 / 3),
      "three-quarters": share(3 / 4), pot: share(1), max: sized.max,
      "x2.5": Math.floor(facing * 2.5), x3: facing * 3,
    };
    this.setAmount(sizes[name]);
  }

  raise() {
    if (this.fixed) {
      this.act(this.fixed.action, this.fixed.min);
      return;
    }
    if (!this.sized) return;
    const amount = Number(this.amount.value);
    const allIn = this.find("all_in");
    if (allIn && amount === allIn.amount) this.act("all_in");
    else this.act(this.sized.action, amount);
  }

  async act(kind, amount) {
    if (this.busy || this.offline || !this.find(kind)) return;
    // Most clients ask before throwing away a hand that could see the next card for free.
    if (kind === "fold" && this.find("check") && !this.foldConfirmed) {
      this.confirmFold(true);
      return;
    }
    this.confirmFold(false);
    const turn = this.turnKey;
    this.busy = true;
    this.enable(false);
    try {
      await this.send({ hand_id: this.handId, type: kind, ...(amount !== undefined ? { amount } : {}) });
      // The next turn may already be ours (its message can overtake this ack).
      if (this.turnKey === turn) $("actions").hidden = true;
    } catch (error) {
      if (this.turnKey === turn) {
        this.status(error.message);
        this.busy = false;
      }
    } finally {
      if (this.turnKey === turn) this.enable(true);
    }
  }

  // The question "fold when checking is free?" in place of the buttons, or the buttons back.
  confirmFold(open) {
    this.foldConfirmed = false;
    this.confirming = open;
    $("fold-confirm").hidden = !open;
    $("actions").classList.toggle("confirming", open);
    if (open) $("fold-check").focus({ preventScroll: true });
  }

  // While the connection is down nothing can be sent: the buttons wait, and say why.
  setOnline(online) {
    this.offline = !online;
    this.enable(true);
    this.status(online ? "" : OFFLINE);
  }

  status(text) {
    $("action-status").textContent = text;
  }

  enable(on) {
    for (const button of document.querySelectorAll("#actions button")) button.disabled = !on || this.offline;
    this.slider.disabled = this.amount.disabled = !on || this.offline;
  }

  onKey(event) {
    if (!this.legal || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.matches("input[type=text], textarea, select") || document.querySelector("dialog[open]")) return;
    if (event.target === this.amount && !["ArrowUp", "ArrowDown"].includes(event.key)) return;
    const key = event.key.toLowerCase();
    const step = this.bigBlind || 1;
    const actions = {
      f: () => {
        this.foldConfirmed = this.confirming;
        this.act("fold");
      },
      escape: () => (this.confirming ? this.confirmFold(false) : null),
      c: () => (this.find("check") ? this.act("check") : this.act("call")),
      k: () => this.act("check"),
      r: () => this.raise(),
      b: () => this.raise(),
      a: () => (this.find("all_in") ? this.act("all_in") : null),
      s: () => this.act("show"),
      m: () => this.act("muck"),
      arrowup: () => this.setAmount(Number(this.amount.value) + step),
      arrowdown: () => this.setAmount(Number(this.amount.value) - step),
    };
    if (actions[key]) {
      event.preventDefault();
      actions[key]();
    }
  }
}
