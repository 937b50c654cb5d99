// The leaderboard: net winnings over the last day, week or all time, in every game or
// one (GET /leaderboard).

import { api } from "../api.js";
import { chips, el, signed } from "../format.js";

const tabs = [...document.querySelectorAll("[data-period]")];
const game = document.getElementById("leaders-game");
let period = "week";

async function show(chosen) {
  period = chosen;
  for (const tab of tabs) tab.setAttribute("aria-selected", String(tab.dataset.period === period));
  const data = await api("GET", `/leaderboard?period=${period}${game.value ? `&game=${game.value}` : ""}`);
  const body = document.querySelector("#leaders tbody");
  body.replaceChildren(...data.items.map((row) => el("tr", { dataset: { publicId: row.public_id } },
    el("td", { className: "num" }, row.rank),
    el("td", {}, el("img", { className: "avatar avatar-xs", src: row.avatar_url, alt: "" }), " ", row.display_name || "(deleted)"),
    el("td", { className: `num ${row.net >= 0 ? "plus" : "minus"}` }, signed(row.net)),
    el("td", { className: "num" }, chips(row.hands)))));
  if (!data.items.length) body.append(el("tr", {}, el("td", { className: "empty", colSpan: 4 }, "No hands played in this period.")));
}

for (const tab of tabs) tab.addEventListener("click", () => show(tab.dataset.period));
game.addEventListener("change", () => show(period));
show(period);
