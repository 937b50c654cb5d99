// One tournament: its structure, players and their chips, payouts, tables and your table.
// Everything shown comes from GET /tournaments/{id}; registering goes over Socket.IO.

import { api } from "../api.js";
import { chips, el } from "../format.js";
import { currentUser, setBalance } from "../session.js";
import { connect, request, showFatal, SocketMissing } from "../socket.js";

const $ = (id) => document.getElementById(id);
const tournamentId = $("tournament-page").dataset.tournamentId;
const user = await currentUser();
let latest = null;
let finished = null;

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
  return entries.find((p) => p.place === null) || entries[entries.length - 1] || null;
}

function renderFacts(t) {
  const kind = t.kind === "sit_and_go" ? "Sit & go" : "Multi-table";
  const start = t.starts_at ? ` · starts ${new Date(t.starts_at * 1000).toLocaleString()}` : "";
  $("t-name").textContent = t.name;
  document.title = `${t.name} · holdem-server`;
  $("t-facts").textContent = `${kind} · ${t.status} · buy-in ${chips(t.buy_in)} + ${chips(t.fee)} · `
    + `${t.entrants}${t.capacity ? ` / ${t.capacity}` : ""} entries · prize pool ${chips(t.prize_pool)}${start}`;
  const level = t.level;
  $("t-level").textContent = level
    ? `Level ${level.number}${level.on_break ? " (break)" : ""}: ${chips(level.small_blind)}/${chips(level.big_blind)}`
      + `${level.ante ? ` ante ${chips(level.ante)}` : ""} · next in ${clock(level.remaining)}`
      + `${t.hand_for_hand ? " · hand-for-hand" : ""}`
    : "";
}

function renderPlayers(t) {
  $("t-players").querySelector("tbody").replaceChildren(...t.players.map((p, i) => el("tr", {
    className: user && p.public_id === user.public_id ? "mine" : "" },
  el("td", { className: "num" }, p.rank ?? "–"),
  el("td", {}, p.name, p.absent ? " (away)" : ""),
  el("td", { className: "num" }, chips(p.chips)),
  el("td", {}, p.table ? `Table ${p.table}` : "–"),
  el("td", {}, p.place ? ordinal(p.place) : (i === 0 && t.status === "running" ? "chip leader" : "")))));
}

function renderStructure(t) {
  const s = t.structure;
  $("t-structure-facts").textContent = `Starting stack ${chips(s.starting_stack)} · ${s.name}`
    + `${s.late_levels ? ` · late registration for ${s.late_levels} levels` : ""}`;
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
  $("t-deal").hidden = !entry || entry.place !== null || t.status !== "running"
    || t.players_left < 2 || t.players_left > 10;
  const seated = entry && entry.table ? t.tables.find((x) => x.number === entry.table) : null;
  $("t-your-table").hidden = !seated;
  if (seated) $("t-your-table-link").href = `/table/${encodeURIComponent(seated.table_id)}`;
  if (!user) return;
  if (!entry) $("t-you").textContent = "You are not registered.";
  else if (entry.place) $("t-you").textContent = `You finished ${ordinal(entry.place)}.`;
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
    } else {
      refresh();
    }
  });
  $("t-deal").addEventListener("click", async () => {
    status("");
    try {
      const ack = await request(socket, "tournament:deal", { tournament_id: tournamentId });
      const shares = Object.entries(ack.offer).map(([name, amount]) => `${name} ${chips(amount)}`).join(", ");
      $("t-deal-offer").textContent = ack.done ? `Deal done: ${shares}.`
        : `Offer: ${shares}. ${ack.agreed} of ${ack.needed} players agree; a new hand makes a new offer.`;
      $("t-deal-offer").hidden = false;
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
setInterval(() => { if (!finished) refresh(); }, 2000);
