// A table's ledger (GET /tables/{id}/ledger): each player's buy-ins, cash-outs, chips at
// the table and net, and the fewest payments that settle the night.

import { api } from "../api.js";
import { chips, el, labelColumns, signed } from "../format.js";
import { currentUser, loginUrl } from "../session.js";

const $ = (id) => document.getElementById(id);
const tableId = $("ledger-page").dataset.tableId;
const path = `/tables/${encodeURIComponent(tableId)}/ledger`;
labelColumns($("ledger-lines"));

function failed(text, link) {
  const error = $("ledger-error");
  error.replaceChildren(text, ...(link ? [" ", link] : []));
  error.hidden = false;
}

function show(ledger) {
  $("ledger-name").textContent = `${ledger.name}: ledger`;
  document.title = `${ledger.name} ledger · holdem-server`;
  $("ledger-status").textContent = ledger.open
    ? "The table is still open: chips at the table count as they stand now."
    : "The table is closed: every chip was cashed out.";
  $("ledger-lines").tBodies[0].replaceChildren(...ledger.lines.map((line) => el("tr", {},
    el("td", {}, line.name),
    el("td", { className: "num" }, chips(line.buy_ins)),
    el("td", { className: "num" }, chips(line.bought_in)),
    el("td", { className: "num" }, chips(line.cashed_out)),
    el("td", { className: "num" }, chips(line.at_table)),
    el("td", { className: `num ${line.net >= 0 ? "plus" : "minus"}` }, signed(line.net)))));
  $("ledger-transfers").replaceChildren(...(ledger.transfers.length
    ? ledger.transfers.map((t) => el("li", {}, `${t.payer} pays ${t.payee} ${chips(t.amount)}`))
    : [el("li", {}, "Nobody owes anybody anything.")]));
  $("ledger-csv").href = `${path}.csv`;
  $("ledger-players").hidden = false;
  $("ledger-settle").hidden = false;
}

if (!(await currentUser())) {
  failed("Log in to read this table's ledger.", el("a", { href: loginUrl() }, "Log in"));
} else {
  try {
    show(await api("GET", path));
  } catch (error) {
    failed(error.status === 404
      ? "There is no ledger you may read for this table: only its host, its players and admins may."
      : error.message);
  }
}
