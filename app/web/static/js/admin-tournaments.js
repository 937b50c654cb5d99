// The admin page's tournaments: creating one from a template or fully custom, the list
// (registering, running, finished) with cancelling, and the recurring tournaments with
// their next start in UTC and in this browser's time zone.

import { api } from "./api.js";
import { bindForm } from "./forms.js";
import { chips, el, labelColumns } from "./format.js";

const $ = (id) => document.getElementById(id);
const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
let templates = [];

function pad(n) {
  return String(n).padStart(2, "0");
}

// A Unix time as the server (UTC) and this browser name it.
function bothZones(seconds) {
  const when = new Date(seconds * 1000);
  const utc = `${when.toISOString().slice(0, 10)} ${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())} UTC`;
  const local = when.toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
  return [utc, el("br"), el("span", { className: "hint" }, local)];
}

function link(tournament) {
  return el("a", { href: `/tournament/${encodeURIComponent(tournament.id)}` }, tournament.name);
}

function created(form, tournament) {
  form.querySelector("[data-form-status]").replaceChildren("Created: ", link(tournament), ".");
}

function describe(t) {
  const kind = t.kind === "sit_and_go" ? "sit & go, starts when full" : "multi-table, scheduled";
  return `${t.label}: ${kind}; ${chips(t.starting_stack)} chips, ${t.level_minutes}-minute levels, ${t.table_size} seats a table; buy-in ${chips(t.buy_in)} + ${chips(t.fee)}.`;
}

function fillTemplate() {
  const form = $("template-form");
  const t = templates.find((x) => x.key === form.elements.namedItem("template").value);
  if (!t) return;
  $("template-detail").textContent = describe(t);
  form.elements.namedItem("buy_in").value = t.buy_in;
  form.elements.namedItem("fee").value = t.fee;
  form.elements.namedItem("starts_at").disabled = t.kind !== "multi_table";
}

export async function loadTemplates() {
  templates = (await api("GET", "/admin/tournaments/templates")).data;
  for (const id of ["template-template", "schedule-template"]) {
    $(id).replaceChildren(...templates.map((t) => el("option", { value: t.key }, t.label)));
  }
  fillTemplate();
}

export async function loadTournaments() {
  const body = $("admin-tournaments").tBodies[0];
  try {
    const [open, finished] = await Promise.all([api("GET", "/tournaments"), api("GET", "/tournaments/finished?limit=20")]);
    const rows = [...open.data, ...finished.data].map((t) => el("tr", { dataset: { tournamentId: t.id } },
      el("td", {}, link(t)),
      el("td", {}, el("span", { className: `badge ${t.status === "running" ? "badge-ok" : t.status === "registering" ? "badge-warn" : ""}` }, t.status)),
      el("td", {}, t.starts_at ? bothZones(t.starts_at) : t.kind === "sit_and_go" ? "when full" : "—"),
      el("td", { className: "num" }, t.entrants),
      el("td", { className: "num" }, `${chips(t.buy_in)} + ${chips(t.fee)}`),
      el("td", { className: "num" }, chips(t.prize_pool)),
      el("td", { className: "table-actions" }, t.status === "registering"
        ? el("button", { type: "button", className: "button button-small button-danger", onclick: () => cancel(t) }, "Cancel")
        : "")));
    body.replaceChildren(...rows);
    if (!rows.length) body.append(el("tr", {}, el("td", { colSpan: 7, className: "empty" }, "No tournament yet.")));
    $("tournaments-error").textContent = "";
  } catch (error) {
    $("tournaments-error").textContent = error.message;
  }
}

async function cancel(tournament) {
  if (!window.confirm(`Cancel ${tournament.name}? Every entry is refunded.`)) return;
  try {
    await api("POST", `/admin/tournaments/${encodeURIComponent(tournament.id)}/cancel`);
  } catch (error) {
    $("tournaments-error").textContent = error.message;
    return;
  }
  await loadTournaments();
}

function when(schedule) {
  const day = schedule.weekday === null ? "Every day" : `Every ${WEEKDAYS[schedule.weekday]}`;
  return `${day} at ${pad(schedule.hour)}:${pad(schedule.minute)}`;
}

function scheduleActions(schedule) {
  const act = (label, method, path, className = "button button-small") => el("button", {
    type: "button", className, onclick: () => change(method, `/admin/tournaments/schedules/${schedule.id}${path}`) }, label);
  return el("td", { className: "table-actions" },
    schedule.paused ? act("Resume", "POST", "/resume") : act("Pause", "POST", "/pause"),
    act("Delete", "DELETE", "", "button button-small button-danger"));
}

async function change(method, path) {
  try {
    await api(method, path);
  } catch (error) {
    $("schedules-error").textContent = error.message;
    return;
  }
  await loadSchedules();
}

export async function loadSchedules() {
  const data = await api("GET", "/admin/tournaments/schedules");
  const label = (key) => (templates.find((t) => t.key === key) || { label: key }).label;
  const body = $("schedules").tBodies[0];
  body.replaceChildren(...data.data.map((s) => el("tr", { dataset: { scheduleId: s.id } },
    el("td", {}, s.name, s.last_tournament_id ? el("span", { className: "hint" }, " · ", el("a", { href: `/tournament/${encodeURIComponent(s.last_tournament_id)}` }, "latest")) : ""),
    el("td", {}, label(s.template)),
    el("td", {}, when(s), el("br"), el("span", { className: "hint" }, `registration ${s.lead_minutes} min before`)),
    el("td", {}, ...bothZones(s.next_start)),
    el("td", { className: "num" }, `${chips(s.buy_in)} + ${chips(s.fee)}`),
    el("td", {}, el("span", { className: `badge ${s.paused ? "badge-warn" : "badge-ok"}` }, s.paused ? "paused" : "active")),
    scheduleActions(s))));
  if (!data.data.length) body.append(el("tr", {}, el("td", { colSpan: 7, className: "empty" }, "No recurring tournament.")));
  $("schedules-error").textContent = "";
}

function optionalNumber(value) {
  return value === "" || value === undefined ? null : Number(value);
}

export function bindTournaments() {
  for (const id of ["admin-tournaments", "schedules"]) labelColumns($(id));
  $("template-template").addEventListener("change", fillTemplate);
  $("tournaments-refresh").addEventListener("click", loadTournaments);
  bindForm($("template-form"), async (values, form) => {
    const payload = { template: values.template, buy_in: Number(values.buy_in), fee: Number(values.fee), bots: Number(values.bots || 0) };
    if (values.name.trim()) payload.name = values.name.trim();
    if (values.starts_at) payload.starts_at = new Date(values.starts_at).getTime() / 1000;
    created(form, await api("POST", "/admin/tournaments/from-template", payload));
    await loadTournaments();
  });
  bindForm($("tournament-form"), async (values, form) => {
    const payload = {
      name: values.name.trim(), kind: values.kind, game: values.game, preset: values.preset,
      table_size: Number(values.table_size), buy_in: Number(values.buy_in), fee: Number(values.fee),
      bots: Number(values.bots), entries_per_player: Number(values.entries_per_player),
    };
    if (values.kind === "multi_table") payload.starts_at = Date.now() / 1000 + 60 * Number(values.starts_in || 0);
    created(form, await api("POST", "/admin/tournaments", payload));
    await loadTournaments();
  });
  bindForm($("schedule-form"), async (values, form) => {
    const [hour, minute] = (values.time || "").split(":").map(Number);
    const payload = {
      name: values.name.trim(), template: values.template, hour: Number.isInteger(hour) ? hour : -1,
      minute: Number.isInteger(minute) ? minute : 0, weekday: optionalNumber(values.weekday),
      lead_minutes: Number(values.lead_minutes), buy_in: optionalNumber(values.buy_in), fee: optionalNumber(values.fee),
    };
    const schedule = await api("POST", "/admin/tournaments/schedules", payload);
    form.querySelector("[data-form-status]").textContent = `Added: ${schedule.name}, ${when(schedule).toLowerCase()} UTC.`;
    await loadSchedules();
  });
}
