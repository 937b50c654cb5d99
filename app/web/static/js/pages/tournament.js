// One tournament: its structure, players and their chips, payouts, tables and your table.
// Everything shown comes from GET /tournaments/{id}; registering goes over Socket.IO.

import { api } from "../api.js";
import { chips, el } from "../format.js";
import { gameOf } from "../games.js";
import { currentUser, setBalance } from "../session.js";
import { connect, request, showFatal, SocketMissing } from "../socket.js";
import { showTournamentLedger } from "../tournament-ledger.js";

const $ = (id) => document.getElementById(id);
const tournamentId = $("tournament-page").dataset.tournamentId;
const user = await currentUser();
let latest = null;
let finished = null;
let over = false;

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "last level";
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function mine(t) {
  if (!user) return null;
  const entries = t.players.filter((p) => p.public_id === user.public_id);
  return entries.find((p) => !p.busted) || entries[entries.length - 1] || null;
}

function renderFacts(t) {
  const kind = t.kind === "sit_and_go" ? "Sit & go" : "Multi-table";
  const start = t.starts_at ? ` · starts ${new Date(t.starts_at * 1000).toLocaleString()}` : "";
  $("t-name").textContent = t.name;
  document.title = `${t.name} · holdem-server`;
  $("t-facts").textContent = `${gameOf(t).name} · ${kind} · ${t.status} · buy-in ${chips(t.buy_in)} + ${chips(t.fee)} · `
    + `${t.entrants}${t.capacity ? ` / ${t.capacity}` : ""} entries · prize pool ${chips(t.prize_pool)}${start}`;
  const level = t.level;
  $("t-level").textContent = level
    ? `Level ${level.number}${level.on_break ? " (break)" : ""}: ${chips(level.small_blind)}/${chips(level.big_blind)}`
      + `${level.ante ? ` ante ${chips(level.ante)}` : ""} · next in ${clock(level.remaining)}`
      + `${t.hand_for_hand ? " · hand-for-hand" : ""}`
    : "";
}

// The chip leader has more chips than anyone else still in; with equal stacks nobody leads.
function chipLeader(t) {
  if (t.status !== "running") return null;
  const [first, second] = t.players.filter((p) => p.place === null && !p.busted).sort((a, b) => b.chips - a.chips);
  return first && (!second || first.chips > second.chips) ? first : null;
}

function renderPlayers(t) {
  const leader = chipLeader(t);
  $("t-players").querySelector("tbody").replaceChildren(...t.players.map((p) => el("tr", {
    className: user && p.public_id === user.public_id ? "mine" : "" },
  el("td", { className: "num" }, p.rank ?? "–"),
  el("td", {}, p.name, p.absent ? " (away)" : ""),
  el("td", { className: "num" }, chips(p.chips)),
  el("td", {}, p.table ? `Table ${p.table}` : "–"),
  el("td", {}, p.place ? `${ordinal(p.place)}${p.prize ? ` · ${chips(p.prize)}` : ""}`
    : p.busted ? "out" : (p === leader ? "chip leader" : "")))));
}

function renderStructure(t) {
  const s = t.structure;
  // A sit & go starts when full: it has no late registration, whatever its structure says.
  const late = t.kind === "multi_table" && s.late_levels
    ? ` · late registration for ${s.late_levels} level${s.late_levels > 1 ? "s" : ""}` : "";
  $("t-structure-facts").textContent = `Starting stack ${chips(s.starting_stack)} · ${s.name}${late}`;
  let number = 0;
  $("t-structure").querySelector("tbody").replaceChildren(...s.periods.map((p) => {
    if (p.kind === "break") return el("tr", {}, el("td", {}), el("td", {}, "Break"), el("td", {}), el("td", { className: "num" }, p.minutes));
    number += 1;
    const ante = p.ante ? `${chips(p.ante)}${p.big_blind_ante ? " (big blind ante)" : ""}` : "–";
    return el("tr", { className: t.level && t.level.number === number ? "mine" : "" },
      el("td", { className: "num" }, number), el("td", {}, `${chips(p.small_blind)} / ${chips(p.big_blind)}`),
      el("td", {}, ante), el("td", { className: "num" }, p.minutes));
  }));
}

// An ICM deal shares out the prizes still to be paid: it is offered once everyone left is
// sure of a prize, or heads-up (at most ten players, as the server computes it).
function dealTime(t) {
  return t.status === "running" && t.players_left >= 2 && t.players_left <= 10
    && t.players_left <= Math.max(2, t.payouts.length);
}

function renderSide(t) {
  $("t-payouts").querySelector("tbody").replaceChildren(...t.payouts.map((prize, i) => el("tr", {},
    el("td", { className: "num" }, ordinal(i + 1)), el("td", { className: "num" }, chips(prize)))));
  $("t-tables").replaceChildren(...t.tables.map((table) => el("li", {},
    el("a", { href: `/table/${encodeURIComponent(table.table_id)}` }, `Table ${table.number}`),
    ` · ${table.players} players`)));
  const entry = mine(t);
  const open = t.status === "registering" || t.late_registration;
  $("t-register").hidden = !user || !open || Boolean(entry && entry.place === null);
  $("t-unregister").hidden = !user || t.status !== "registering" || !entry;
  $("t-deal").hidden = !entry || entry.busted || entry.place !== null || t.late_registration
    || !dealTime(t);
  const seated = entry && entry.table ? t.tables.find((x) => x.number === entry.table) : null;
  $("t-your-table").hidden = !seated;
  if (seated) $("t-your-table-link").href = `/table/${encodeURIComponent(seated.table_id)}`;
  if (!user) return;
  if (!entry) $("t-you").textContent = "You are not registered.";
  else if (entry.place) $("t-you").textContent = `You finished ${ordinal(entry.place)}`
    + `${entry.prize ? ` and won ${chips(entry.prize)} credits` : ""}.`;
  else if (entry.busted) $("t-you").textContent = "You are out: your place is known once late registration closes.";
  else if (t.status === "registering") $("t-you").textContent = "You are registered: the tournament seats you when it starts.";
  else $("t-you").textContent = `You are in, ${ordinal(entry.rank)} of ${t.players_left} with ${chips(entry.chips)} chips.`;
}

function showFinished() {
  $("t-register").hidden = true;
  $("t-unregister").hidden = true;
  $("t-your-table").hidden = true;
  const text = finished
    ? `The tournament is over: you finished ${ordinal(finished.place)}${finished.prize ? ` and won ${chips(finished.prize)} credits` : ""}.`
    : "This tournament is over (or was cancelled).";
  $("t-you").textContent = text;
  $("t-message").textContent = text;
  $("t-message").hidden = false;
}

async function refresh() {
  try {
    latest = await api("GET", `/tournaments/${encodeURIComponent(tournamentId)}`);
  } catch (error) {
    if (error.code === "tournament_not_found") showFinished();
    return;
  }
  renderFacts(latest);
  renderPlayers(latest);
  renderStructure(latest);
  renderSide(latest);
  if (latest.status === "finished" || latest.status === "cancelled") over = true;
  if (user) await showTournamentLedger(tournamentId);
}

function showOffer(deal) {
  const shares = Object.entries(deal.offer).map(([name, amount]) => `${name} ${chips(amount)}`).join(", ");
  const until = new Date(deal.expires_at * 1000).toLocaleTimeString();
  $("t-deal-offer").textContent = deal.done ? `Deal done: ${shares}.`
    : `ICM deal offered: ${shares}. ${deal.agreed} of ${deal.needed} players agree; play waits for the others until ${until}.`;
  $("t-deal-offer").hidden = false;
}

function status(text) {
  const slot = document.querySelector(".form-status");
  if (slot) slot.textContent = text;
}

try {
  const socket = connect();
  socket.on("connect", () => request(socket, "tournament:list").catch(() => null));
  socket.on("lobby:tournament", (t) => { if (t.id === tournamentId) refresh(); });
  socket.on("lobby:tournament-removed", (t) => { if (t.tournament_id === tournamentId) refresh(); });
  socket.on("user:notice", async (notice) => {
    if (notice.tournament_id !== tournamentId) return;
    if (notice.kind === "tournament_finished") {
      finished = notice;
      showFinished();
      const me = await currentUser({ refresh: true });
      if (me) setBalance(me.balance);
    } else if (notice.kind === "tournament_deal") {
      showOffer(notice);
    } else {
      refresh();
    }
  });
  $("t-deal").addEventListener("click", async () => {
    status("");
    try {
      showOffer(await request(socket, "tournament:deal", { tournament_id: tournamentId }));
    } catch (error) {
      status(error.message);
    }
  });
  for (const [id, event] of [["t-register", "tournament:register"], ["t-unregister", "tournament:unregister"]]) {
    $(id).addEventListener("click", async () => {
      status("");
      try {
        await request(socket, event, { tournament_id: tournamentId });
        const me = await currentUser({ refresh: true });
        if (me) setBalance(me.balance);
        status(event === "tournament:register" ? "Registered." : "Unregistered: your buy-in is back.");
      } catch (error) {
        status(error.message);
      }
      refresh();
    });
  }
} catch (error) {
  if (!(error instanceof SocketMissing)) throw error;
  showFatal(error.message);
}
await refresh();
setInterval(() => { if (!finished && !over) refresh(); }, 2000);
