// Your hands, newest first, a page at a time (GET /hands); each opens in the replayer, and
// `?hand=<id>` opens one at once (the link "Copy link" gives).

import { api } from "../api.js";
import { chips, dateTime, el, labelColumns, signed } from "../format.js";
import { showHand } from "../hands.js";
import { requireUser } from "../session.js";

const PER_PAGE = 25;
const $ = (id) => document.getElementById(id);
const dialog = $("hand-dialog");
let page = 1;
let shown = null;

await requireUser();
labelColumns($("history"));

function link(id) {
  return `${window.location.origin}/history?hand=${encodeURIComponent(id)}`;
}

async function open(id) {
  shown = id;
  $("hand-share").textContent = "Copy link";
  await showHand(dialog, "/hands", id);
  history.replaceState(null, "", `/history?hand=${encodeURIComponent(id)}`);
}

async function showPage() {
  const hands = await api("GET", `/hands?page=${page}&per_page=${PER_PAGE}`);
  const pages = Math.max(1, Math.ceil(hands.count / PER_PAGE));
  $("history-count").textContent = hands.count ? `${chips(hands.count)} in all` : "";
  $("history-empty").hidden = hands.count > 0;
  $("history-page").textContent = `Page ${page} of ${pages}`;
  $("history-newer").disabled = page <= 1;
  $("history-older").disabled = page >= pages;
  $("history").querySelector("tbody").replaceChildren(...hands.items.map((hand) => el("tr", {},
    el("td", {}, dateTime(hand.ended_at)),
    el("td", {}, hand.table_name || `#${hand.table_id.slice(0, 6)}`),
    el("td", { className: "num" }, hand.number),
    el("td", { className: "num" }, chips(hand.pot)),
    el("td", { className: `num ${hand.net >= 0 ? "plus" : "minus"}` }, signed(hand.net)),
    el("td", { className: "table-actions" }, el("button", { type: "button", className: "button button-small",
      "aria-label": `View hand ${hand.number} at ${hand.table_name || "the table"}`, onclick: () => open(hand.id) }, "View")))));
}

$("history-newer").addEventListener("click", () => { page -= 1; showPage(); });
$("history-older").addEventListener("click", () => { page += 1; showPage(); });
$("hand-close").addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => history.replaceState(null, "", "/history"));
$("hand-share").addEventListener("click", async () => {
  if (!shown) return;
  await navigator.clipboard?.writeText(link(shown)).catch(() => null);
  $("hand-share").textContent = "Link copied";
});

await showPage();
const asked = new URLSearchParams(window.location.search).get("hand");
if (asked && /^[0-9a-f]{32}$/.test(asked)) await open(asked).catch(() => null);
