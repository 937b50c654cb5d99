// A tournament's ledger on its page (GET /tournaments/{id}/ledger): each player's buy-ins
// and fees, prizes and net, and once it is over the fewest payments that settle it.

import { api } from "./api.js";
import { chips, el, labelColumns, signed } from "./format.js";

const $ = (id) => document.getElementById(id);
let labelled = false;

export async function showTournamentLedger(tournamentId) {
  const section = $("t-ledger-section");
  let ledger;
  try {
    ledger = await api("GET", `/tournaments/${encodeURIComponent(tournamentId)}/ledger`);
  } catch {
    section.hidden = true;  // not one of its players, its organizer or an admin
    return;
  }
  if (!labelled) labelColumns($("t-ledger"));
  labelled = true;
  $("t-ledger").tBodies[0].replaceChildren(...ledger.lines.map((line) => el("tr", {},
    el("td", {}, line.name),
    el("td", { className: "num" }, chips(line.entries)),
    el("td", { className: "num" }, chips(line.bought_in)),
    el("td", { className: "num" }, chips(line.fees)),
    el("td", { className: "num" }, chips(line.prizes + line.refunded)),
    el("td", { className: "num" }, signed(line.net)))));
  $("t-ledger-status").textContent = ledger.over
    ? `Settled below; the entry fees (${chips(ledger.fees)}) go to the organizer.`
    : "The prize pool is still held: the payments are worked out once the tournament is over.";
  $("t-ledger-payments").replaceChildren(...ledger.transfers.map((t) => el("li", {},
    `${t.payer} pays ${t.payee} ${chips(t.amount)}`)));
  $("t-ledger-csv").href = `/tournaments/${encodeURIComponent(tournamentId)}/ledger.csv`;
  section.hidden = false;
}
