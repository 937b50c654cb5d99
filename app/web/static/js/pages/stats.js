// Your own stats (GET /stats/me) and your results hand by hand as a graph of the running
// total, as played and all-in adjusted (GET /stats/me/results).

import { api } from "../api.js";
import { chips, el, signed } from "../format.js";
import { currentUser } from "../session.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const STATS = [
  ["vpip", "VPIP", "Put chips in before the flop of your own will"],
  ["pfr", "PFR", "Raised before the flop"],
  ["three_bet", "3-bet", "Re-raised an open raise"],
  ["fold_to_three_bet", "Fold to 3-bet", "Folded your open raise to a re-raise"],
  ["cbet", "C-bet", "Bet the flop after raising before it"],
  ["fold_to_cbet", "Fold to c-bet", "Folded to the raiser's flop bet"],
  ["af", "AF", "Bets and raises per call after the flop"],
  ["wtsd", "WTSD", "Went to showdown after seeing the flop"],
  ["wsd", "W$SD", "Won money at the showdown"],
];

function statBox([key, name, about], stat) {
  const value = stat.value === null ? "–" : key === "af" ? stat.value.toFixed(2) : `${stat.value.toFixed(1)}%`;
  return el("div", { className: "stat", title: about, dataset: { stat: key } },
    el("div", { className: "hint" }, name),
    el("div", { className: "stat-value" }, value),
    el("div", { className: "hint" }, `of ${chips(stat.sample)}`));
}

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

// The running totals after each hand, as played and all-in adjusted, scaled to the box,
// with the zero line.
function drawResults(svg, points) {
  const width = 1000;
  const height = 300;
  const played = [0, ...points.map((p) => p.total)];
  const adjusted = [0, ...points.map((p) => p.all_in_total)];
  const low = Math.min(0, ...played, ...adjusted);
  const high = Math.max(0, ...played, ...adjusted);
  const span = high - low || 1;
  const x = (i) => (i / Math.max(1, played.length - 1)) * width;
  const y = (v) => height - ((v - low) / span) * height;
  const line = (totals, className) => svgNode("polyline", { class: className, fill: "none", "stroke-width": 3,
    "vector-effect": "non-scaling-stroke", points: totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ") });
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.replaceChildren(
    svgNode("line", { class: "axis", x1: 0, x2: width, y1: y(0), y2: y(0), "stroke-width": 2 }),
    line(adjusted, "line-all-in"),
    line(played, "line-net"),
  );
}

async function show() {
  const me = await currentUser();
  if (!me) {
    $("stats-guest").hidden = false;
    return;
  }
  const [stats, results] = await Promise.all([api("GET", "/stats/me"), api("GET", "/stats/me/results")]);
  $("stats-hands").textContent = `· ${chips(stats.hands)} hands`;
  $("stats-grid").replaceChildren(...STATS.map((entry) => statBox(entry, stats[entry[0]])));
  const last = results.items.length ? results.items[results.items.length - 1] : { total: 0, all_in_total: 0 };
  $("results-summary").textContent = results.count
    ? `${signed(last.total)} credits over your last ${chips(results.count)} hands `
      + `(${signed(last.all_in_total)} all-in adjusted: each all-in counted at what its equity was worth).`
    : "No hands played yet.";
  drawResults($("results-graph"), results.items);
}

show();
