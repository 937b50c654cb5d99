// The readable clock: the seconds left on the seat whose turn it is and in your action
// bar, labelled "Time bank" once the bank runs, and "Away" while a disconnected player's
// short grace runs.

import { el } from "../format.js";

const $ = (id) => document.getElementById(id);

export function secondsLeft(turn) {
  return Math.max(0, Math.ceil(turn.deadline - Date.now() / 1000));
}

// What the seat's clock says: "12", "Time bank 23", "Away 8".
export function seatClockText(turn) {
  const left = secondsLeft(turn);
  if (turn.grace) return `Away ${left}`;
  return turn.time_bank ? `Time bank ${left}` : String(left);
}

// What your action bar says on your turn: the seconds left, then what waits in the bank
// (a phone, short of room, leaves that out).
function myClock(turn) {
  const left = secondsLeft(turn);
  if (turn.time_bank) return [`Time bank: ${left} s left`];
  const bank = Math.floor(turn.bank || 0);
  return [`${left} s to act`, bank ? el("span", { className: "my-clock-bank" }, ` · time bank ${bank} s`) : ""];
}

// Bring every clock on the page up to date (each render, and every second between them).
export function updateClocks(table, seat) {
  const turn = table.turn;
  for (const node of document.querySelectorAll(".seat-clock")) {
    if (turn) node.textContent = seatClockText(turn);
  }
  for (const bar of document.querySelectorAll(".timer")) {
    if (turn) bar.setAttribute("aria-label", turn.time_bank ? `${secondsLeft(turn)} seconds left in the time bank` : `${secondsLeft(turn)} seconds to act`);
  }
  const mine = Boolean(turn && seat !== null && turn.seat === seat && table.hand && table.hand.id === turn.hand_id);
  const clock = $("my-clock");
  clock.hidden = !mine;
  clock.classList.toggle("time-bank", Boolean(mine && turn.time_bank));
  if (mine) clock.replaceChildren(...myClock(turn));
}
