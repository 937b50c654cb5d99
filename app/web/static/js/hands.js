// A finished hand as stored by the server: players, board, pots, and its PHH text.

import { api } from "./api.js";
import { cardRow } from "./cards.js";
import { chips, dateTime, el, signed } from "./format.js";
import { handName } from "./table/log.js";

function playerName(summary, seat) {
  const row = summary.players.find((p) => p.seat === seat);
  return row ? row.player.name : `Seat ${seat + 1}`;
}

export function handDetail(detail, phh) {
  const summary = detail.summary;
  const players = el("table", { className: "data" },
    el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Player"), el("th", {}, "Cards"),
      el("th", { className: "num" }, "Start"), el("th", { className: "num" }, "End"), el("th", { className: "num" }, "Net"))),
    el("tbody", {}, ...summary.players.map((p) => el("tr", {},
      el("td", {}, p.seat + 1, p.seat === summary.button ? " (button)" : ""),
      el("td", {}, p.player.name),
      el("td", {}, p.cards ? cardRow(p.cards, { className: "cards-sm" }) : el("span", { className: "hint" }, "not shown")),
      el("td", { className: "num" }, chips(p.starting_stack)),
      el("td", { className: "num" }, chips(p.final_stack)),
      el("td", { className: `num ${p.net >= 0 ? "plus" : "minus"}` }, signed(p.net))))));
  const pots = el("ul", { className: "pot-list" }, ...summary.pots.map((pot) => el("li", {},
    `${pot.pot === 0 ? "Main pot" : `Side pot ${pot.pot}`} ${chips(pot.amount)}: `,
    pot.seats.map((seat, i) => `${playerName(summary, seat)} ${chips(pot.amounts[i])}`).join(", "),
    pot.hand ? ` with ${handName(pot.hand)}` : "")));
  return el("div", { className: "hand-detail" },
    el("p", { className: "hint" }, `Blinds ${chips(summary.stakes.small_blind)}/${chips(summary.stakes.big_blind)} · ended ${dateTime(detail.ended_at)} · pot ${chips(summary.pot)}`),
    el("div", { className: "detail-board" }, el("strong", {}, "Board "), summary.board.length ? cardRow(summary.board, { className: "cards-sm" }) : "no cards dealt"),
    el("div", { className: "table-scroll" }, players),
    pots,
    phh ? el("details", { className: "phh" }, el("summary", {}, "Hand history (PHH)"), el("pre", {}, phh)) : null);
}

// Fetch and show one hand in `dialog`; `prefix` is "/hands" or "/admin/hands".
export async function showHand(dialog, prefix, id) {
  const [detail, phh] = await Promise.all([
    api("GET", `${prefix}/${id}`),
    fetch(`${prefix}/${id}.phh`, { credentials: "same-origin" }).then((r) => (r.ok ? r.text() : null)),
  ]);
  dialog.querySelector("h2").textContent = `Hand #${detail.number}`;
  dialog.querySelector("[data-detail]").replaceChildren(handDetail(detail, phh));
  dialog.showModal();
}
