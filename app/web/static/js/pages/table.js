import { api } from "../api.js";
import { newClientSeed } from "../fairness.js";
import { bindForm, setStatus } from "../forms.js";
import { chips, el, ordinal, signed } from "../format.js";
import { gameOf } from "../games.js";
import { showHand } from "../hands.js";
import { currentUser, loginUrl, setBalance } from "../session.js";
import { connect, request, showFatal, SocketMissing } from "../socket.js";
import { ActionBar } from "../table/actions.js";
import { TurnAlerts } from "../table/alerts.js";
import { updateClocks } from "../table/clock.js";
import { ChatSafety } from "../table/chat.js";
import { applyHostEvent, describeHost, emptyHosting, HostPanel } from "../table/host.js";
import { SeatExtras } from "../table/hud.js";
import { SeatSettings } from "../table/preferences.js";
import { describe } from "../table/log.js";
import { land, takeOff } from "../table/motion.js";
import { PreActionBoxes } from "../table/preactions.js";
import { measureFelt, renderCenter, renderSeats } from "../table/render.js";
import { applyEvent, applySnapshot, applyTurn, emptyTable, inLiveHand, mySeat } from "../table/state.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(window.location.search);
const tableId = $("table-page").dataset.tableId;
const invite = params.get("invite") || undefined;
const me = await currentUser();
const table = emptyTable(tableId);
let socket;
let joined = false;
let resyncing = false;
let unreadChat = 0;
// Your notes at the seats, and the HUD when you turn it on.
const extras = new SeatExtras(me, () => render());
// Whom you ignore, and the name buttons of the chat that ignore or report a player.
const chatSafety = new ChatSafety(me, () => renderChat());

function message(text) {
  const slot = $("table-message");
  slot.textContent = text || "";
  slot.hidden = !text;
}

// Why the table closed, as a warning; a tournament table's closing needs none (the
// tournament line and your result say it is over).
function closedMessage() {
  return table.config && table.config.tournament ? "" : `This table is closed: ${table.closed}`;
}

function log(text) {
  if (!text) return;
  const list = $("panel-log");
  list.append(el("li", {}, text));
  while (list.children.length > 300) list.firstChild.remove();
  toEnd(list);
}

// The log and the chat keep their latest line in view as lines arrive and when the panel
// around them changes size (the action bar grows on your turn), unless you scrolled up to
// read: only your own scrolling (wheel, touch, keys) decides that.
const pinned = new Map();
function toEnd(list) {
  if (pinned.get(list) !== false) list.scrollTop = list.scrollHeight;
}
for (const list of [$("panel-log"), $("chat-lines")]) {
  const read = () => requestAnimationFrame(() => {
    pinned.set(list, list.scrollTop + list.clientHeight >= list.scrollHeight - 4);
  });
  for (const kind of ["wheel", "touchmove", "keydown"]) list.addEventListener(kind, read, { passive: true });
  new ResizeObserver(() => toEnd(list)).observe(list);
}

function renderChat() {
  const lines = $("chat-lines");
  lines.replaceChildren(...chatSafety.visible(table.chat).map((line) => chatSafety.line(line)));
  chatSafety.renderIgnored($("chat-ignored"));
  toEnd(lines);
}

function renderTools() {
  const seat = mySeat(table, me);
  const taken = seat !== null ? table.seats[seat] : null;
  const full = Object.keys(table.seats).length >= table.config.seats;
  const waitingPlace = table.you ? table.you.waiting_position : null;
  $("sit-out").hidden = !taken || taken.status === "sitting_out";
  $("sit-in").hidden = !taken || taken.status !== "sitting_out";
  $("top-up").hidden = !taken || taken.stack >= table.config.max_buy_in;
  $("leave").hidden = !taken || taken.leaving;
  $("wait-list").hidden = !me || Boolean(taken) || !full || Boolean(waitingPlace) || Boolean(table.closed);
  $("unwait").hidden = !waitingPlace;
  $("ledger-line").hidden = !me || Boolean(table.config.tournament);
  const role = $("table-role");
  role.textContent = taken ? `Seat ${seat + 1}${sittingNet(taken)}` : waitingPlace ? `Waiting list #${waitingPlace}` : "Watching";
  role.className = `badge ${taken ? "badge-ok" : ""}`;
}

// What this sitting has won or lost so far (your stack between hands less what you bought
// in since you sat down); nothing at a tournament, where the stack is not yours to keep.
function sittingNet(taken) {
  const bought = table.you ? table.you.bought_in : null;
  if (bought === null || bought === undefined || table.config.tournament) return "";
  const net = taken.stack - bought;
  return ` · ${net ? signed(net) : "even"}`;
}

function renderInvite() {
  const shown = Boolean(table.config.private && invite);
  $("invite").hidden = !shown;
  if (shown) $("invite-link").value = `${window.location.origin}/table/${encodeURIComponent(tableId)}?invite=${encodeURIComponent(invite)}`;
}

$("invite-copy").addEventListener("click", async () => {
  $("invite-link").select();
  await navigator.clipboard?.writeText($("invite-link").value).catch(() => null);
  $("invite-copy").textContent = "Copied";
});

// At a tournament table: the level, the time to the next one and your standing, from
// GET /tournaments/{id} (read every few seconds while the page is open).
let tournamentTimer = null;

async function showTournament(id) {
  const line = $("table-tournament");
  line.href = `/tournament/${encodeURIComponent(id)}`;
  try {
    const t = await api("GET", `/tournaments/${encodeURIComponent(id)}`);
    if (t.status !== "running") throw new Error(t.status);
    const level = t.level;
    const left = level && level.remaining !== null
      ? `${Math.floor(level.remaining / 60)}:${String(level.remaining % 60).padStart(2, "0")}` : "–";
    const you = me ? t.players.find((p) => p.public_id === me.public_id && !p.busted) : null;
    line.textContent = `${t.name} · level ${level ? level.number : "–"}${level && level.on_break ? " (break)" : ""}`
      + ` · next level in ${left}${you ? ` · you are ${you.rank} of ${t.players_left}` : ` · ${t.players_left} left`}`;
  } catch {
    line.textContent = "The tournament is over";
  }
  line.hidden = false;
}

function watchTournament(id) {
  if (tournamentTimer !== null || !id) return;
  showTournament(id);
  tournamentTimer = setInterval(() => showTournament(id), 3000);
}

// " · rake 5% (cap 8 from 2 players, 15 from 3)": what the house takes from each pot.
function rakeText(rake) {
  if (!rake) return "";
  const caps = rake.caps.map((c) => `${chips(c.cap)} from ${c.players}`);
  const cap = caps.length ? ` (cap ${caps.join(", ")} players)` : "";
  return ` · rake ${rake.percent}%${cap}${rake.no_flop_no_drop ? "" : ", with or without a flop"}`;
}

function render() {
  if (!table.config) return;
  const config = table.config;
  watchTournament(config.tournament);
  renderInvite();
  $("table-name").textContent = config.name;
  // The blinds the hand on the felt is dealt at (a tournament's level), else the table's.
  const stakes = (table.hand && table.hand.stakes) || config;
  $("table-stakes").textContent = `${gameOf(config).name} · Blinds ${chips(stakes.small_blind)}/${chips(stakes.big_blind)}`
    + `${stakes.ante ? `, ante ${chips(stakes.ante)}` : ""}`
    + `${stakes.straddle ? `, straddle ${chips(stakes.straddle)}` : ""} · ${config.seats} seats`
    + `${config.run_it_twice ? " · run it twice" : ""}`
    + rakeText(config.rake)
    + `${config.host ? ` · hosted by ${config.host.name}` : ""}`;
  $("felt").dataset.seats = config.seats;
  $("felt").dataset.cards = gameOf(config).cards;
  renderSeats($("seats"), table, me, extras);
  extras.refresh(table);
  renderCenter(table, me);
  renderTools();
  hostPanel.render(table, me);
  seatSettings.render(table);
  seatSettings.sync(table);
  actionBar.update(table, table.turn, mySeat(table, me));
  preActions.update(table, mySeat(table, me));
  updateClocks(table, mySeat(table, me));
  const turn = table.turn;
  alerts.update(turn, Boolean(turn && turn.legal_actions && turn.seat === mySeat(table, me)
    && table.hand && table.hand.id === turn.hand_id && !table.closed), config.name);
}

// The seats stand round the felt as its shape is now: a turned phone, or an action bar
// that comes and goes, redraws them.
new ResizeObserver(() => {
  measureFelt($("felt"));
  render();
}).observe($("felt"));

// The moment a tournament ends for you: your place, and your prize once it is paid.
async function showResult(notice) {
  const id = notice.tournament_id;
  const t = await api("GET", `/tournaments/${encodeURIComponent(id)}`).catch(() => null);
  const of = t ? ` of ${t.entrants}` : "";
  const won = notice.kind === "tournament_finished" && notice.place === 1;
  $("result-title").textContent = won ? `You won ${t ? t.name : "the tournament"}!`
    : `You finished ${notice.place ? ordinal(notice.place) : ""}${of}`;
  let text = "";
  if (notice.kind === "tournament_finished") {
    text = notice.prize ? `${ordinal(notice.place)}${of}: ${chips(notice.prize)} credits are on your balance.`
      : `${ordinal(notice.place)}${of}: no prize this time.`;
    await currentUser({ refresh: true }).catch(() => null);  // the header's balance
  } else {
    const prize = t && notice.place ? t.payouts[notice.place - 1] : 0;
    text = prize ? `Your prize of ${chips(prize)} credits is paid when the tournament ends.`
      : "Thanks for playing: the tournament goes on without you.";
  }
  $("result-text").textContent = text;
  $("result-link").href = `/tournament/${encodeURIComponent(id)}`;
  if (!$("result-dialog").open) $("result-dialog").showModal();
}

$("result-close").addEventListener("click", () => $("result-dialog").close());

// Ask for what we missed; messages arriving meanwhile are dropped, the replay brings them.
function resync() {
  if (resyncing) return;
  resyncing = true;
  join(table.seq).finally(() => { resyncing = false; });
}

// Apply a seq-numbered message once, in order; a gap means we missed some: ask again.
// Messages are shown one after another (see `show`).
function inOrder(body, apply) {
  if (body.table_id !== tableId || !joined || table.seq === null) return;
  if (body.seq <= table.seq) return;
  if (body.seq > table.seq + 1) {
    resync();
    return;
  }
  table.seq = body.seq;
  show(body, () => {
    const flight = body.event ? takeOff(body.event) : null;
    apply(body);
    render();
    land(flight);
  });
}

// An all-in's board arrives at once, with each street's chances; shown street by street,
// a pause before each card dealt, so everyone sees the chances change as they would at a
// real table. What follows waits its turn; a snapshot drops what still waits (it holds it).
const RUNOUT_PAUSE_MS = 1000;
let shown = Promise.resolve();
let generation = 0;

function show(body, step) {
  const mine = generation;
  shown = shown.then(async () => {
    if (mine !== generation) return;
    if (runningOut(body)) await new Promise((done) => setTimeout(done, RUNOUT_PAUSE_MS));
    if (mine === generation) step();
  });
}

function runningOut(body) {
  const hand = table.hand;
  return Boolean(body.event && body.event.type === "board_dealt" && hand
    && Object.values(hand.seats).some((s) => s.equity !== undefined));
}

async function join(sinceSeq) {
  try {
    const payload = { table_id: tableId, invite_code: invite };
    if (sinceSeq !== null && sinceSeq !== undefined) payload.since_seq = sinceSeq;
    joined = true;
    await request(socket, "table:join", payload);
    if (table.closed) message(closedMessage());
    else if (me) message("");
    else guestLinks("You are watching as a guest.");
  } catch (error) {
    joined = false;
    if (me) message(error.message);
    else guestLinks(error.message);
  }
}

// Our own seed for the shuffle of the next hands (docs/FAIRNESS.md): sent when we sit and
// after each hand, once the next hand's commitment is known.
async function sendClientSeed() {
  if (mySeat(table, me) === null || table.closed) return;
  await request(socket, "table:seed", { table_id: tableId, seed: newClientSeed() }).catch(() => null);
}

// The answer to the run-it-twice question of the hand in play.
async function answerRunTwice(agree) {
  const hand = table.hand;
  if (!hand) return;
  for (const button of document.querySelectorAll("#run-twice button")) button.disabled = true;
  try {
    await request(socket, "table:run-it-twice", { table_id: tableId, hand_id: hand.id, agree });
    $("run-twice").hidden = true;
  } catch (error) {
    message(error.message);
    for (const button of document.querySelectorAll("#run-twice button")) button.disabled = false;
  }
}
$("run-twice-yes").addEventListener("click", () => answerRunTwice(true));
$("run-twice-no").addEventListener("click", () => answerRunTwice(false));

const seatSettings = new SeatSettings(me, {
  send: (payload) => request(socket, "table:preferences", { table_id: tableId, ...payload }),
  onMessage: message,
});
const alerts = new TurnAlerts({ soundButton: $("sound-toggle"), notifyButton: $("notify-toggle"), user: me });
$("hud-toggle").hidden = !me;
$("hud-on").checked = extras.enabled;
$("hud-on").addEventListener("change", () => extras.setEnabled($("hud-on").checked));
extras.bindDialog($("note-dialog"), $("seats"));
chatSafety.bindDialog($("player-dialog"), $("chat-lines"), (publicId, reason) =>
  request(socket, "table:report", { table_id: tableId, public_id: publicId, reason }));
chatSafety.load().catch(() => {});
extras.start();

const actionBar = new ActionBar((payload) => request(socket, "table:action", { table_id: tableId, ...payload }));
const preActions = new PreActionBoxes((payload) => request(socket, "table:preact", { table_id: tableId, ...payload }));
const hostPanel = new HostPanel((payload) => request(socket, "table:host", { table_id: tableId, ...payload }));

function joinedText(first) {
  if (!first) return "Back in sync with the table.";
  const seat = mySeat(table, me);
  if (seat !== null) return `You are in seat ${seat + 1}${table.hand ? ", in the hand being played" : ""}.`;
  if (table.hand) return "A hand is in play: sit down to be dealt into the next one.";
  return "You joined the table.";
}

function listen() {
  // Back online, the buttons wait for what was missed, so a stale turn is never acted on.
  socket.on("connect", async () => {
    await join(table.seq);
    actionBar.setOnline(true);
  });
  socket.on("disconnect", () => actionBar.setOnline(false));
  socket.on("table:snapshot", (snap) => {
    if (snap.table_id !== tableId) return;
    generation += 1;
    const first = table.seq === null;
    applySnapshot(table, snap);
    preActions.set(snap.hand_id, snap.you ? snap.you.preaction || null : null);
    table.hosting = snap.hosting || emptyHosting();
    joined = true;
    log(joinedText(first));
    renderChat();
    render();
    sendClientSeed();
    if (params.has("sit") && mySeat(table, me) === null) {
      params.delete("sit");
      const free = [...Array(table.config.seats).keys()].find((s) => !table.seats[s]);
      if (free !== undefined) openSit(free);
    }
  });
  socket.on("table:event", (body) => inOrder(body, () => {
    const seat = mySeat(table, me);
    const hostLine = describeHost(table, body.event);
    if (hostLine !== undefined) log(hostLine);
    else if (!(body.event.type === "player_connection" && body.event.seat === seat)) log(describe(table, body, me, seat));
    if (!applyHostEvent(table, body.event)) applyEvent(table, body, me);
    if (body.event.type === "chat") {
      renderChat();
      if ($("panel-chat").hidden) {
        unreadChat += 1;
        $("chat-unread").textContent = unreadChat;
        $("chat-unread").hidden = false;
      }
    }
    if (body.event.type === "table_closed") message(closedMessage());
    // The notice "you leave when this hand ends" is done with once we have left.
    if (body.event.type === "player_left" && me && body.event.player.public_id === me.public_id) message("");
    if (body.event.type === "hand_ended") {
      sendClientSeed();
      extras.refresh(table, true);
    }
  }));
  socket.on("table:turn", (body) => inOrder(body, () => applyTurn(table, body)));
  // Your pre-action as the server holds it (chosen here or on another device, taken, or
  // cancelled by a raise or a new street): the boxes follow it.
  socket.on("table:preaction", (notice) => {
    if (notice.table_id !== tableId) return;
    preActions.set(notice.hand_id, notice.preaction);
    render();
  });
  socket.on("user:notice", (notice) => {
    if (["tournament_busted", "tournament_finished"].includes(notice.kind)) {
      if (table.config && notice.tournament_id === table.config.tournament) showResult(notice);
      return;
    }
    if (notice.table_id !== tableId) return;
    if (notice.kind === "cashed_out") {
      log(`You cashed out ${chips(notice.amount)}`);
      currentUser({ refresh: true });
    } else if (notice.kind === "seat_offer") {
      message(`A seat is free for you: seat ${notice.seat + 1}. Take it before the offer runs out.`);
      openSit(notice.seat);
    } else if (notice.kind === "seat_offer_expired") {
      message("The seat offer ran out.");
    } else if (notice.kind === "seat_refused") {
      message(`The host turned your seat request down: ${notice.reason}`);
    } else if (notice.kind === "auto_top_up_stopped") {
      seatSettings.autoTopUpStopped();
      message(`Auto top-up stopped: your credits could not pay ${chips(notice.amount)}.`);
      render();
    } else if (notice.kind === "sat_out") {
      message("You were sat out. Press “Sit in” to be dealt in again.");
    }
  });
}

// --- seats and tools -----------------------------------------------------------

const sitDialog = $("sit-dialog");
const sitForm = $("sit-form");

function openSit(seat) {
  if (!me) {
    window.location.assign(loginUrl());
    return;
  }
  const config = table.config;
  const most = Math.min(config.max_buy_in, me.balance);
  sitForm.elements.namedItem("seat").value = seat;
  $("sit-seat").textContent = seat + 1;
  const input = $("sit-buy_in");
  input.min = config.min_buy_in;
  input.max = config.max_buy_in;
  input.value = Math.max(config.min_buy_in, most);
  $("sit-buy_in-hint").textContent = `From ${chips(config.min_buy_in)} to ${chips(config.max_buy_in)}; you have ${chips(me.balance)} credits.`;
  setStatus(sitForm, "");
  $("sit-buy_in-error").textContent = "";
  sitDialog.showModal();
  input.select();
}

bindForm(sitForm, async (values) => {
  const ack = await request(socket, "table:sit", { table_id: tableId, seat: Number(values.seat),
    buy_in: Number(values.buy_in), invite_code: invite });
  if (ack.requested) {
    sitDialog.close();
    message("Your request is with the host: you sit down once they approve it.");
    return;
  }
  if (!ack.pending) table.you = { ...(table.you || {}), seat: ack.seat, waiting_position: null };
  setBalance(ack.balance);
  me.balance = ack.balance;
  sitDialog.close();
  if (ack.pending) message("You take the seat when the current hand ends.");
  render();
  sendClientSeed();
}, { fieldsByCode: { invalid_buy_in: ["buy_in"], insufficient_credits: ["buy_in"] } });
$("sit-cancel").addEventListener("click", () => sitDialog.close());

$("seats").addEventListener("click", (event) => {
  const button = event.target.closest("[data-sit]");
  if (button) openSit(Number(button.dataset.sit));
});

const topupDialog = $("topup-dialog");
const topupForm = $("topup-form");
$("top-up").addEventListener("click", () => {
  const taken = table.seats[mySeat(table, me)];
  const room = table.config.max_buy_in - taken.stack;
  const input = $("topup-amount");
  input.min = 1;
  input.max = room;
  input.value = Math.min(room, me.balance);
  $("topup-amount-hint").textContent = `Up to ${chips(room)} (the table's maximum is ${chips(table.config.max_buy_in)}); between hands only.`;
  setStatus(topupForm, "");
  topupDialog.showModal();
});
bindForm(topupForm, async (values) => {
  const ack = await request(socket, "table:top-up", { table_id: tableId, amount: Number(values.amount) });
  if (ack.balance !== undefined) setBalance(ack.balance);
  topupDialog.close();
}, { fieldsByCode: { invalid_buy_in: ["amount"], insufficient_credits: ["amount"], hand_in_progress: [] } });
$("topup-cancel").addEventListener("click", () => topupDialog.close());

// A toolbar button sending `event`; with `confirm`, a dialog asks first when it says to.
function tool(id, event, after, confirm = null) {
  const run = async () => {
    $(id).disabled = true;
    try {
      const ack = await request(socket, event, { table_id: tableId });
      message("");
      if (after) after(ack);
    } catch (error) {
      message(error.message);
    } finally {
      $(id).disabled = false;
      render();
    }
  };
  $(id).addEventListener("click", () => (confirm && confirm.when() ? confirm.ask(run) : run()));
}

// Leaving while your cards are live gives them up: ask first.
const leaveDialog = $("leave-dialog");
let leaveNow = null;
const askBeforeLeaving = {
  when: () => inLiveHand(table, me),
  ask: (run) => {
    leaveNow = run;
    leaveDialog.showModal();
    $("leave-stay").focus();
  },
};
$("leave-confirm").addEventListener("click", () => {
  leaveDialog.close();
  leaveNow();
});
$("leave-stay").addEventListener("click", () => leaveDialog.close());

tool("sit-out", "table:sit-out");
tool("sit-in", "table:sit-in");
tool("leave", "table:leave", (ack) => {
  if (ack.at_hand_end) message("You leave when this hand ends; your chips go back to your balance then.");
  else table.you = { ...(table.you || {}), seat: null };
  currentUser({ refresh: true });
}, askBeforeLeaving);
tool("wait-list", "table:wait", (ack) => { table.you = { ...(table.you || {}), waiting_position: ack.position }; });
tool("unwait", "table:unwait", () => { table.you = { ...(table.you || {}), waiting_position: null }; });

// --- the last hand you played here ---------------------------------------------------

$("last-hand").hidden = !me;
$("last-hand").addEventListener("click", async () => {
  try {
    const hands = await api("GET", `/hands?table_id=${encodeURIComponent(tableId)}&per_page=1`);
    if (!hands.items.length) {
      message("You have not played a hand at this table yet.");
      return;
    }
    const id = hands.items[0].id;
    $("hand-link").href = `/history?hand=${encodeURIComponent(id)}`;
    await showHand($("hand-dialog"), "/hands", id);
  } catch (error) {
    message(error.message);
  }
});
$("hand-close").addEventListener("click", () => $("hand-dialog").close());

// --- chat and side tabs ---------------------------------------------------------------

const chatForm = $("chat-form");
bindForm(chatForm, async (values) => {
  if (!me) throw new Error("Log in to chat.");
  await request(socket, "table:chat", { table_id: tableId, text: values.text });
  chatForm.reset();
});

function selectTab(name) {
  for (const tab of ["log", "chat"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === name));
    $(`panel-${tab}`).hidden = tab !== name;
  }
  if (name === "chat") {
    unreadChat = 0;
    $("chat-unread").hidden = true;
  }
}
$("tab-log").addEventListener("click", () => selectTab("log"));
$("tab-chat").addEventListener("click", () => selectTab("chat"));

// On narrow screens the log and chat open over the table (CSS shows the buttons there).
function openSide(open) {
  $("table-page").classList.toggle("side-open", open);
  $("side-toggle").setAttribute("aria-expanded", String(open));
  // A hidden list does not scroll as lines arrive: shown, it opens at its latest line.
  if (open) {
    for (const list of [$("panel-log"), $("chat-lines")]) {
      pinned.set(list, true);
      toEnd(list);
    }
  }
}
$("side-toggle").addEventListener("click", () => openSide(!$("table-page").classList.contains("side-open")));
$("side-close").addEventListener("click", () => openSide(false));
document.addEventListener("keydown", (event) => {
  if (event.key.toLowerCase() === "t" && !event.target.matches("input, textarea, select") && !document.querySelector("dialog[open]")) {
    event.preventDefault();
    openSide(true);
    selectTab("chat");
    $("chat-text").focus();
  } else if (event.key === "Escape" && event.target.id === "chat-text") {
    event.target.blur();
  }
});

// Keep the seconds on the clocks honest between renders.
setInterval(() => updateClocks(table, mySeat(table, me)), 1000);

// A guest watches (a private table: with its invite link) and is asked to sign up to play;
// both links come back to this table, the sign-up once the address is confirmed.
function guestLinks(text) {
  message(text);
  $("table-message").append(" ", el("a", { href: loginUrl("/signup") }, "Sign up to play"),
    " or ", el("a", { href: loginUrl() }, "log in"), ".");
}

try {
  socket = connect({ table: tableId });
  listen();
  if (!me) guestLinks("You are watching as a guest.");
} catch (error) {
  if (!(error instanceof SocketMissing)) throw error;
  if (!$("vendor-missing")) showFatal(error.message);
}
