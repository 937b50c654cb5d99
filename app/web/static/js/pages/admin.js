import { ChatAdmin } from "../admin-chat.js";
import { IntegrityAdmin } from "../admin-integrity.js";
import { AuditLog, bindAnnouncements } from "../admin-log.js";
import { bindHouse, loadHouse as loadHouseReport } from "../admin-money.js";
import { AdminTabs } from "../admin-tabs.js";
import { bindTournaments, loadSchedules, loadTemplates, loadTournaments } from "../admin-tournaments.js";
import { api } from "../api.js";
import { bindForm, clearErrors, formValues } from "../forms.js";
import { chips, date, dateTime, el, labelColumns, ledgerReason, signed } from "../format.js";
import { showHand } from "../hands.js";
import { requireUser } from "../session.js";

const $ = (id) => document.getElementById(id);
const PER_PAGE = 20;
const me = await requireUser();
const users = { page: 1, query: {} };
const hands = { page: 1, tableId: "" };

for (const id of ["users", "admin-tables", "hands", "economy"]) labelColumns($(id));

for (const dialog of document.querySelectorAll("dialog")) {
  for (const button of dialog.querySelectorAll("[data-close]")) button.addEventListener("click", () => dialog.close());
}

function pager(prefix, state, count, load) {
  const pages = Math.max(1, Math.ceil(count / PER_PAGE));
  $(`${prefix}-page`).textContent = `Page ${state.page} of ${pages}`;
  $(`${prefix}-prev`).disabled = state.page <= 1;
  $(`${prefix}-next`).disabled = state.page >= pages;
  $(`${prefix}-prev`).onclick = () => { state.page -= 1; load(); };
  $(`${prefix}-next`).onclick = () => { state.page += 1; load(); };
}

function openForm(dialogId, user) {
  const dialog = $(dialogId);
  const form = dialog.querySelector("form");
  form.reset();
  clearErrors(form);
  form.dataset.userId = user.id;
  for (const slot of dialog.querySelectorAll("[data-user-name]")) slot.textContent = user.display_name || `user ${user.id}`;
  dialog.showModal();
}

const chatAdmin = new ChatAdmin({ pager, perPage: PER_PAGE });
const integrityAdmin = new IntegrityAdmin({ pager, perPage: PER_PAGE });

// --- users ------------------------------------------------------------------------------

function statusBadge(user) {
  const kind = { active: "badge-ok", banned: "badge-bad", deleted: "badge-warn" }[user.status] || "";
  return el("span", { className: `badge ${kind}`, title: user.ban_reason || "" }, user.status);
}

// The house is the bots' bankroll (GET /admin/house names its account): it is not a
// player, so it is neither banned nor given credits here.
let houseId = null;
async function loadHouse() {
  houseId = (await loadHouseReport()).user_id;
}

function userActions(user) {
  const cell = el("td", { className: "table-actions" });
  if (user.id === houseId) {
    cell.append(el("button", { type: "button", className: "button button-small", onclick: () => showLedger(user) }, "Ledger"));
    return cell;
  }
  if (user.role === "admin" && user.status === "active" && user.id !== me.id) {
    cell.append(el("button", { type: "button", className: "button button-small", onclick: () => demote(user) }, "Demote"));
  } else if (user.status === "active" && user.id !== me.id) {
    cell.append(el("button", { type: "button", className: "button button-small", onclick: () => openForm("ban-dialog", user) }, "Ban"));
  }
  if (user.status === "banned") {
    cell.append(el("button", { type: "button", className: "button button-small", onclick: () => unban(user) }, "Unban"));
  }
  if (user.status !== "deleted") {
    if (user.role !== "admin") cell.append(chatAdmin.muteButton(user, openForm, loadUsers));
    cell.append(el("button", { type: "button", className: "button button-small", onclick: () => openForm("credits-dialog", user) }, "Credits"));
  }
  cell.append(el("button", { type: "button", className: "button button-small", onclick: () => showLedger(user) }, "Ledger"));
  cell.append(integrityAdmin.linkedButton(user));
  return cell;
}

function userName(user) {
  if (user.id === houseId) return ["House ", el("span", { className: "badge" }, "bots' bankroll")];
  if (user.role === "admin") return [user.display_name || "—", " ", el("span", { className: "badge" }, "admin")];
  return [user.display_name || "—"];
}

async function loadUsers() {
  const query = new URLSearchParams({ page: users.page, per_page: PER_PAGE });
  for (const [key, value] of Object.entries(users.query)) if (value) query.set(key, value);
  const data = await api("GET", `/admin/users?${query}`);
  $("users").tBodies[0].replaceChildren(...data.items.map((user) => el("tr", { dataset: { userId: user.id } },
    el("td", { className: "num" }, user.id),
    el("td", {}, ...userName(user)),
    el("td", {}, user.email || "—", user.email && !user.email_verified ? el("span", { className: "hint" }, " (unconfirmed)") : ""),
    el("td", {}, statusBadge(user)),
    el("td", { className: "num" }, chips(user.balance)),
    el("td", {}, date(user.created_at)),
    userActions(user))));
  if (!data.items.length) $("users").tBodies[0].append(el("tr", {}, el("td", { colSpan: 7, className: "empty" }, "Nobody matches.")));
  $("users-count").textContent = `${data.count} found`;
  pager("users", users, data.count, loadUsers);
}

chatAdmin.bindMute(() => loadUsers());

bindForm($("users-form"), async (values) => {
  users.query = { q: values.q.trim(), status: values.status };
  users.page = 1;
  await loadUsers();
});

bindForm($("ban-form"), async (values, form) => {
  await api("POST", `/admin/users/${form.dataset.userId}/ban`, { reason: values.reason });
  $("ban-dialog").close();
  await loadUsers();
});

bindForm($("credits-form"), async (values, form) => {
  const result = await api("POST", `/admin/users/${form.dataset.userId}/credits`, {
    amount: Number(values.amount), reason: values.reason });
  $("credits-dialog").close();
  await loadUsers();
  $("users-count").textContent = `Balance of user ${form.dataset.userId} is now ${chips(result.balance)}.`;
});

async function demote(user) {
  try {
    await api("POST", `/admin/users/${user.id}/demote`);
  } catch (error) {
    $("users-count").textContent = error.message;
    return;
  }
  await loadUsers();
}

async function unban(user) {
  try {
    await api("POST", `/admin/users/${user.id}/unban`);
  } catch (error) {
    $("users-count").textContent = error.message;
    return;
  }
  await loadUsers();
}

async function showLedger(user) {
  const data = await api("GET", `/admin/users/${user.id}/ledger?per_page=50`);
  const dialog = $("detail-dialog");
  dialog.querySelector("h2").textContent = `Ledger of ${user.display_name || `user ${user.id}`}`;
  dialog.querySelector("[data-detail]").replaceChildren(el("div", { className: "table-scroll" }, el("table", { className: "data" },
    el("thead", {}, el("tr", {}, el("th", {}, "When"), el("th", {}, "What"), el("th", { className: "num" }, "Change"), el("th", { className: "num" }, "Balance"))),
    el("tbody", {}, ...data.items.map((entry) => el("tr", {},
      el("td", {}, dateTime(entry.created_at)),
      el("td", {}, ledgerReason(entry.reason), entry.reference ? ` · ${entry.reference}` : ""),
      el("td", { className: `num ${entry.amount >= 0 ? "plus" : "minus"}` }, signed(entry.amount)),
      el("td", { className: "num" }, chips(entry.balance_after))))))),
    el("p", { className: "hint" }, `${data.count} entries${data.count > 50 ? ", newest 50 shown" : ""}.`));
  dialog.showModal();
}

// --- tables -----------------------------------------------------------------------------

async function loadTables() {
  const body = $("admin-tables").tBodies[0];
  try {
    const data = await api("GET", "/admin/tables");
    $("tables-error").textContent = "";
    body.replaceChildren(...data.items.map((item) => {
      const t = item.table;
      return el("tr", { dataset: { tableId: t.table_id } },
        el("td", {}, el("a", { href: `/table/${encodeURIComponent(t.table_id)}` }, t.name), el("span", { className: "hint" }, ` ${t.table_id}`)),
        el("td", {}, `${chips(t.small_blind)} / ${chips(t.big_blind)}`),
        el("td", {}, item.players.map((p) => `${p.player.name} (${chips(p.stack)})`).join(", ") || "—"),
        el("td", { className: "num" }, item.hand_number),
        el("td", { className: "num" }, chips(item.escrowed)),
        el("td", { className: "table-actions" },
          el("button", { type: "button", className: "button button-small", onclick: () => filterHands(t.table_id) }, "Hands"),
          el("button", { type: "button", className: "button button-small button-danger", onclick: () => openClose(t) }, "Close")));
    }));
    if (!data.items.length) body.append(el("tr", {}, el("td", { colSpan: 6, className: "empty" }, "No table is open.")));
  } catch (error) {
    $("tables-error").textContent = error.message;
  }
}

function openClose(table) {
  const dialog = $("close-dialog");
  const form = $("close-form");
  clearErrors(form);
  form.dataset.tableId = table.table_id;
  dialog.querySelector("[data-table-name]").textContent = table.name;
  dialog.showModal();
}

bindForm($("close-form"), async (values, form) => {
  await api("POST", `/admin/tables/${encodeURIComponent(form.dataset.tableId)}/close`,
    { reason: values.reason.trim() || "closed by an admin" });
  $("close-dialog").close();
  await loadTables();
});
$("tables-refresh").addEventListener("click", loadTables);

// --- economy: rake and fees (sinks), credits granted (faucets), the bots' result ----------

const ECONOMY = ["rake", "raked_hands", "tournament_fees", "daily_credits", "signup_grants",
  "admin_grants", "admin_removals", "house_funding"];

function economyRow(cells, day) {
  return el("tr", {}, el("td", {}, cells),
    ...ECONOMY.map((key) => el("td", { className: "num" }, chips(day[key]))),
    el("td", { className: `num ${day.bots_result >= 0 ? "plus" : "minus"}` }, signed(day.bots_result)));
}

async function loadEconomy() {
  try {
    const data = await api("GET", `/admin/economy?days=${encodeURIComponent($("economy-days").value)}`);
    const table = $("economy");
    // Days are UTC dates: shown as the server names them, not moved to this browser's zone.
    table.tBodies[0].replaceChildren(...data.days.map((day) => economyRow(day.day, day)));
    table.tFoot.replaceChildren(economyRow(el("strong", {}, "Total"), data.totals));
    $("economy-error").textContent = "";
  } catch (error) {
    $("economy-error").textContent = error.message;
  }
}
$("economy-days").addEventListener("change", loadEconomy);

// --- hand histories ---------------------------------------------------------------------

async function loadHands() {
  const query = new URLSearchParams({ page: hands.page, per_page: PER_PAGE });
  if (hands.tableId) query.set("table_id", hands.tableId);
  const data = await api("GET", `/admin/hands?${query}`);
  $("hands").tBodies[0].replaceChildren(...data.items.map((hand) => el("tr", {},
    el("td", {}, dateTime(hand.ended_at)),
    el("td", {}, hand.table_id),
    el("td", { className: "num" }, hand.number),
    el("td", { className: "num" }, chips(hand.pot)),
    el("td", { className: "table-actions" }, el("button", { type: "button", className: "button button-small",
      onclick: () => showHand($("detail-dialog"), "/admin/hands", hand.id) }, "View")))));
  if (!data.items.length) $("hands").tBodies[0].append(el("tr", {}, el("td", { colSpan: 5, className: "empty" }, "No hands yet.")));
  $("hands-count").textContent = `${data.count} hands`;
  pager("hands", hands, data.count, loadHands);
}

function filterHands(tableId) {
  $("hands-table_id").value = tableId;
  hands.tableId = tableId;
  hands.page = 1;
  tabs.show("hands", true);
}

bindForm($("hands-form"), async () => {
  hands.tableId = formValues($("hands-form")).table_id.trim();
  hands.page = 1;
  await loadHands();
});

const auditLog = new AuditLog({ pager, perPage: PER_PAGE });
bindTournaments();
bindHouse();
bindAnnouncements();

// Each section loads when shown (again each time: what it lists changes meanwhile).
const LOADERS = {
  users: loadUsers,
  tournaments: () => Promise.all([loadTournaments(), loadSchedules()]),
  tables: loadTables,
  money: () => Promise.all([loadHouseReport(), loadEconomy()]),
  hands: loadHands,
  integrity: () => integrityAdmin.load(),
  chat: () => chatAdmin.load(),
  announcements: async () => {},
  audit: () => auditLog.load(),
};
const tabs = new AdminTabs({
  onShow: (name) => LOADERS[name]().catch((error) => console.error(`The ${name} section did not load`, error)),
});

if (me.role !== "admin") {
  $("admin-denied").hidden = false;
} else {
  $("admin-body").hidden = false;
  await Promise.all([loadHouse(), loadTemplates()]);
  tabs.start();
}
