import { api } from "../api.js";
import { bindForm, formValues } from "../forms.js";
import { chips, dateTime, el, labelColumns, ordinal, signed } from "../format.js";
import { gameOf } from "../games.js";
import { showHand } from "../hands.js";
import { inviteFor, rememberInvite } from "../mytables.js";
import { currentUser } from "../session.js";
import { connect, request, showFatal, SocketMissing } from "../socket.js";

const tables = new Map();
const body = document.querySelector("#tables tbody");
for (const id of ["my-tables", "tables", "tournaments", "recent-hands"]) labelColumns(document.getElementById(id));
const user = await currentUser();

function tableUrl(id, sit, invite) {
  const query = new URLSearchParams();
  if (sit) query.set("sit", "1");
  if (invite) query.set("invite", invite);
  const text = query.toString();
  return `/table/${encodeURIComponent(id)}${text ? `?${text}` : ""}`;
}

// "PLO 5 / 10": the game's short name (its full name on hover) and the blinds.
function blindsOf(table) {
  const game = gameOf(table);
  return [el("abbr", { className: "game-short", title: game.name }, game.short),
    ` ${chips(table.small_blind)} / ${chips(table.big_blind)}${table.ante ? ` (ante ${chips(table.ante)})` : ""}`
    + `${table.rake ? ` · rake ${table.rake}%` : ""}`];
}

function playersOf(table) {
  return `${table.seated} / ${table.seats}${table.bots ? ` · ${table.bots} bot${table.bots > 1 ? "s" : ""}` : ""}`;
}

// Your tables, as the server knows them (`lobby:mine`): those you opened and those you sit at.
let mine = [];

async function refreshMine(socket) {
  if (!user) return;
  mine = (await request(socket, "lobby:mine")).tables;
  renderMine(socket);
}

function renderMine(socket) {
  document.getElementById("mine").hidden = mine.length === 0;
  document.querySelector("#my-tables tbody").replaceChildren(...mine.map((table) => {
    const id = table.table_id;
    const seated = table.seat !== null;
    const close = table.closable ? el("button", {
      type: "button", className: "button button-small", "aria-label": `Close ${table.name}`,
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          await request(socket, "table:close", { table_id: id });
        } catch (error) {
          document.getElementById("tables-error").textContent = error.message;
        }
        await refreshMine(socket);
      } }, "Close") : null;
    return el("tr", { dataset: { tableId: id } },
      el("td", {}, el("span", { className: "table-name" }, table.name), table.private ? " 🔒" : ""),
      el("td", {}, ...blindsOf(table)),
      el("td", { className: "num" }, playersOf(table)),
      el("td", {}, seated ? `Seat ${table.seat + 1}` : "You opened it"),
      el("td", { className: "table-actions" }, el("a", {
        className: "button button-small button-primary", href: tableUrl(id, false, inviteFor(user, id)),
        "aria-label": `${seated ? "Back to" : "Open"} ${table.name}` }, seated ? "Back to your seat" : "Open"), close));
  }));
}

function row(table) {
  const full = table.seated >= table.seats;
  const actions = el("td", { className: "table-actions" },
    user && !full ? el("a", { className: "button button-small button-primary", href: tableUrl(table.table_id, true),
      "aria-label": `Join ${table.name}` }, "Join") : null,
    el("a", { className: "button button-small", href: tableUrl(table.table_id, false),
      "aria-label": `Watch ${table.name}` }, "Watch"));
  return el("tr", { dataset: { tableId: table.table_id } },
    el("td", {}, el("span", { className: "table-name" }, table.name), table.private ? " 🔒" : ""),
    el("td", {}, ...blindsOf(table)),
    el("td", { className: "num" }, playersOf(table), table.waiting ? ` (+${table.waiting} waiting)` : ""),
    el("td", { className: "num" }, chips(table.average_pot)),
    el("td", { className: "num" }, table.hands_per_hour),
    el("td", { className: "num" }, `${chips(table.min_buy_in)}–${chips(table.max_buy_in)}`),
    actions);
}

const tournaments = new Map();

function tournamentRow(t) {
  const kind = t.kind === "sit_and_go" ? "Sit & go" : "Multi-table";
  const state = t.status === "running" ? `running · ${t.players_left} left${t.late_registration ? " · late registration" : ""}` : "registering";
  const start = t.starts_at ? dateTime(t.starts_at * 1000) : "when full";
  return el("tr", { dataset: { tournamentId: t.id } },
    el("td", {}, el("span", { className: "table-name" }, t.name), ` · ${gameOf(t).name} · ${kind}`),
    el("td", {}, state),
    el("td", { className: "num" }, `${chips(t.buy_in)} + ${chips(t.fee)}`),
    el("td", { className: "num" }, `${t.entrants}${t.capacity ? ` / ${t.capacity}` : ""}`),
    el("td", { className: "num" }, chips(t.prize_pool)),
    el("td", {}, start),
    el("td", { className: "table-actions" }, el("a", { className: "button button-small button-primary",
      href: `/tournament/${encodeURIComponent(t.id)}`, "aria-label": `Open ${t.name}` }, "Open")));
}

// The tournaments that finished last, with their winners (GET /tournaments/finished): a
// finished tournament leaves the list above, its results stay reachable here.
async function showFinished() {
  const { data } = await api("GET", "/tournaments/finished?limit=5");
  document.getElementById("finished").hidden = data.length === 0;
  document.getElementById("finished-list").replaceChildren(...data.map((t) => el("li", {},
    el("a", { href: `/tournament/${encodeURIComponent(t.id)}` }, t.name),
    ` · ${gameOf(t).name} · ${dateTime(t.finished_at * 1000)} · `,
    t.winners.map((w) => `${ordinal(w.place)} ${w.name} (${chips(w.prize)})`).join(", ") || "no prizes")));
}

function renderTournaments() {
  const sorted = [...tournaments.values()].sort((a, b) => (a.starts_at || 0) - (b.starts_at || 0) || a.name.localeCompare(b.name));
  document.querySelector("#tournaments tbody").replaceChildren(...sorted.map(tournamentRow));
  document.getElementById("tournaments-empty").hidden = tournaments.size > 0;
  document.getElementById("tournaments").hidden = tournaments.size === 0;
  document.getElementById("tournaments-count").textContent = `${tournaments.size} open`;
}

function render(freshId) {
  const sorted = [...tables.values()].sort((a, b) => a.big_blind - b.big_blind || a.name.localeCompare(b.name));
  body.replaceChildren(...sorted.map((table) => {
    const line = row(table);
    if (table.table_id === freshId) line.classList.add("fresh");
    return line;
  }));
  document.getElementById("tables-empty").hidden = tables.size > 0;
  document.getElementById("tables").hidden = tables.size === 0;
  document.getElementById("tables-count").textContent = `${tables.size} open`;
}

function numbers(values, names) {
  const out = {};
  for (const name of names) {
    if (values[name] !== undefined && values[name] !== "") out[name] = Number(values[name]);
  }
  return out;
}

// The rake an admin set in the create form (caps for 2, 3 and 5 or more players dealt in),
// or null for none.
function rakeOf(form, values) {
  if (form.querySelector("#create-rake").hidden || !Number(values.rake_percent)) return null;
  const caps = [[2, "rake_cap_2"], [3, "rake_cap_3"], [5, "rake_cap_5"]]
    .filter(([, name]) => values[name] !== undefined && values[name] !== "")
    .map(([players, name]) => ({ players, cap: Number(values[name]) }));
  return { percent: Number(values.rake_percent), caps,
    no_flop_no_drop: form.elements.namedItem("rake_no_flop_no_drop").checked };
}

// The forms' buttons come disabled, so nothing is sent before the page can send it: a
// player's are enabled once their forms are bound; a guest's ask to log in.
function setUpForms(socket) {
  bindForm(document.getElementById("quick-form"), async (values) => {
    const [small, big] = values.stakes.split("/").map(Number);
    const ack = await request(socket, "table:quick-seat", { small_blind: small, big_blind: big });
    window.location.assign(tableUrl(ack.table_id, false));
  }, { busyText: "Finding a seat…" });

  const createForm = document.getElementById("create-form");
  bindForm(createForm, async () => {
    const values = formValues(createForm);
    const payload = {
      name: values.name.trim(),
      game: values.game || "nlhe",
      ...numbers(values, ["seats", "small_blind", "big_blind", "ante", "min_buy_in", "max_buy_in", "action_seconds", "bomb_pot_every",
        "time_bank_seconds", "time_bank_add_seconds", "time_bank_every_hands", "time_bank_max_seconds"]),
      private: createForm.elements.namedItem("private").checked,
      straddle: createForm.elements.namedItem("straddle").checked,
      run_it_twice: createForm.elements.namedItem("run_it_twice").checked,
      bots: createForm.elements.namedItem("bots").checked,
    };
    if (values.timing) payload.timing = values.timing;
    if (payload.bots) {
      payload.bot_count = Number(values.bot_count || 0);
      payload.bot_style = values.bot_style || null;
    }
    const rake = rakeOf(createForm, values);
    if (rake) payload.rake = rake;
    const ack = await request(socket, "table:create", payload);
    rememberInvite(user, ack.table.table_id, ack.invite_code);
    window.location.assign(tableUrl(ack.table.table_id, true, ack.invite_code));
  }, { busyText: "Opening…" });
  // Only an admin may rake a table (a public one): the server refuses anyone else.
  createForm.querySelector("#create-rake").hidden = !(user && user.role === "admin");
  createForm.elements.namedItem("bots").addEventListener("change", (event) => {
    createForm.querySelector("#create-bot_count").disabled = !event.target.checked;
    createForm.querySelector("#create-bot_style").disabled = !event.target.checked;
  });
  for (const button of document.querySelectorAll("[data-needs-user]")) {
    if (user) button.disabled = false;
    else button.textContent = "Log in to play";
  }
  if (!user) document.getElementById("lobby-guest").hidden = false;
}

// The lobby comes in pages (fullest tables first); a few pages are plenty to choose from.
const LOBBY_PAGE_SIZE = 100;
const LOBBY_MAX_PAGES = 5;

// The open tables, and whether that is all of them.
async function listTables(socket) {
  const found = [];
  for (let page = 1; page <= LOBBY_MAX_PAGES; page += 1) {
    const ack = await request(socket, "lobby:list", { page, per_page: LOBBY_PAGE_SIZE });
    found.push(...ack.tables);
    if (page * ack.per_page >= ack.count) return { found, complete: true };
  }
  return { found, complete: false };
}

function listen(socket) {
  const errorSlot = document.getElementById("tables-error");
  socket.on("connect", async () => {
    try {
      const { found } = await listTables(socket);
      tables.clear();
      for (const table of found) tables.set(table.table_id, table);
      const offered = await request(socket, "tournament:list");
      tournaments.clear();
      for (const t of offered.tournaments) tournaments.set(t.id, t);
      renderTournaments();
      showFinished().catch(() => {});
      errorSlot.textContent = "";
      render();
      await refreshMine(socket);
      if (user) await showRecentHands();
    } catch (error) {
      errorSlot.textContent = error.message;
    }
  });
  socket.on("lobby:table", (table) => {
    const isNew = !tables.has(table.table_id);
    tables.set(table.table_id, table);
    render(isNew ? table.table_id : null);
    if (mine.some((t) => t.table_id === table.table_id)) refreshMine(socket).catch(() => {});
  });
  socket.on("lobby:tournament", (t) => {
    if (t.status === "registering" || t.status === "running") tournaments.set(t.id, t);
    else tournaments.delete(t.id);
    renderTournaments();
  });
  socket.on("lobby:tournament-removed", ({ tournament_id: id }) => {
    tournaments.delete(id);
    renderTournaments();
    showFinished().catch(() => {});
  });
  socket.on("lobby:table-removed", ({ table_id: id }) => {
    tables.delete(id);
    render();
    if (mine.some((t) => t.table_id === id)) refreshMine(socket).catch(() => {});
  });
}

async function showRecentHands() {
  const [stats, hands] = await Promise.all([api("GET", "/users/me/stats"), api("GET", "/hands?per_page=8")]);
  if (!stats.hands_played) return;
  document.getElementById("recent").hidden = false;
  document.getElementById("recent-stats").textContent =
    `${stats.hands_played} played · ${stats.hands_won} won · ${signed(stats.net)} credits`;
  const dialog = document.getElementById("hand-dialog");
  document.querySelector("#recent-hands tbody").replaceChildren(...hands.items.map((hand) => el("tr", {},
    el("td", {}, dateTime(hand.ended_at)),
    el("td", {}, hand.table_name || tables.get(hand.table_id)?.name || `#${hand.table_id.slice(0, 6)}`),
    el("td", { className: "num" }, hand.number),
    el("td", { className: "num" }, chips(hand.pot)),
    el("td", { className: `num ${hand.net >= 0 ? "plus" : "minus"}` }, signed(hand.net)),
    el("td", { className: "table-actions" }, el("button", { type: "button", className: "button button-small",
      onclick: () => showHand(dialog, "/hands", hand.id) }, "View")))));
}

document.getElementById("hand-close").addEventListener("click", () => document.getElementById("hand-dialog").close());

try {
  const socket = connect();
  setUpForms(socket);
  listen(socket);
} catch (error) {
  if (!(error instanceof SocketMissing)) throw error;
  if (!document.getElementById("vendor-missing")) showFatal(error.message);
}
