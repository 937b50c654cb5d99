// The odds calculator: equity of hands or ranges, and outs, from POST /tools/*.

import { api } from "../api.js";
import { cardRow } from "../cards.js";
import { bindForm } from "../forms.js";
import { el, labelColumns } from "../format.js";

const $ = (id) => document.getElementById(id);
const percent = (x) => `${(100 * x).toFixed(2)}%`;

function equityTable(result) {
  const sampled = !result.exact;
  const how = result.exact
    ? `Exact, over ${result.boards.toLocaleString("en-US")} deals.`
    : `Monte Carlo, ${result.boards.toLocaleString("en-US")} deals; ± is one standard error.`;
  const table = el("table", { className: "data rows-as-cards", id: "equity-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "Hand"), el("th", { className: "num" }, "Win"),
        el("th", { className: "num" }, "Tie"), el("th", { className: "num" }, "Equity"),
        el("th", { className: "num" }, "Odds against winning"))),
      el("tbody", {}, ...result.hands.map((h) => el("tr", {},
        el("td", {}, h.hand, h.combos ? el("span", { className: "hint" }, ` (${h.combos} combos)`) : ""),
        el("td", { className: "num" }, percent(h.win)),
        el("td", { className: "num" }, percent(h.tie)),
        el("td", { className: "num" }, percent(h.equity), sampled ? ` ± ${percent(h.stderr)}` : ""),
        el("td", { className: "num" }, h.odds || "cannot win")))));
  // On a phone each hand's row shows as a card, each figure beside its name.
  labelColumns(table);
  return [el("p", { className: "hint", id: "equity-how" }, how), table];
}

bindForm($("equity-form"), async (values) => {
  const hands = ["hand1", "hand2", "hand3", "hand4"].map((k) => (values[k] || "").trim()).filter(Boolean);
  const result = await api("POST", "/tools/equity", { hands, board: values.board || "", dead: values.dead || "" });
  $("equity-result").replaceChildren(...equityTable(result));
}, { busyText: "Calculating…" });

function outsView(result) {
  const chances = [`next card ${percent(result.next_card)} (${result.odds || "no outs"})`];
  if (result.by_river !== null) chances.push(`by the river ${percent(result.by_river)} (${result.odds_by_river || "no outs"})`);
  return [
    el("p", { id: "outs-summary" }, `${result.hand} on ${result.board} (${result.category}): `,
      el("strong", {}, `${result.count} outs`), ` of ${result.unseen} unseen cards`),
    result.outs.length ? cardRow(result.outs, { className: "cards-sm outs-cards" }) : el("p", { className: "hint" }, "No card helps."),
    el("p", { id: "outs-chances" }, chances.join(", ")),
  ];
}

bindForm($("outs-form"), async (values) => {
  const vs = (values.vs || "").split(",").map((h) => h.trim()).filter(Boolean);
  const result = await api("POST", "/tools/outs", { hand: values.hand.trim(), board: values.board, vs, dead: values.dead || "" });
  $("outs-result").replaceChildren(...outsView(result));
}, { busyText: "Counting…" });
