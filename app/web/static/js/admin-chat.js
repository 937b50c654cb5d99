// The admin page's chat safety: reports about players (with their chat and hand), the
// chat log, the word filter's list, and muting a player for a time.

import { api } from "./api.js";
import { bindForm } from "./forms.js";
import { dateTime, el, labelColumns } from "./format.js";
import { showHand } from "./hands.js";

const $ = (id) => document.getElementById(id);

function person(p) {
  return `${p.name || "—"} (${p.id})`;
}

export function isMuted(user) {
  return Boolean(user.muted_until) && new Date(user.muted_until) > new Date();
}

export class ChatAdmin {
  // `pager(prefix, state, count, load)` and `perPage` are the page's own paging.
  constructor({ pager, perPage }) {
    this.pager = pager;
    this.perPage = perPage;
    this.reports = { page: 1, status: "open" };
    this.lines = { page: 1, query: {} };
    for (const id of ["reports", "chat-log"]) labelColumns($(id));
    bindForm($("reports-form"), async (values) => {
      this.reports.status = values.status;
      this.reports.page = 1;
      await this.loadReports();
    });
    bindForm($("chat-log-form"), async (values) => {
      this.lines.query = { user_id: values.user_id.trim(), table_id: values.table_id.trim() };
      this.lines.page = 1;
      await this.loadLines();
    });
    bindForm($("words-form"), async (values, form) => {
      const added = await api("POST", "/admin/chat/words", { word: values.word });
      form.reset();
      form.querySelector("[data-form-status]").textContent = `“${added.word}” is masked from now on.`;
      await this.loadWords();
    });
  }

  async load() {
    await Promise.all([this.loadReports(), this.loadLines(), this.loadWords()]);
  }

  // The Mute or Unmute button of a user's row.
  muteButton(user, openForm, reload) {
    if (isMuted(user)) {
      return el("button", { type: "button", className: "button button-small", title: `Muted until ${dateTime(user.muted_until)}: ${user.mute_reason || ""}`,
        onclick: async () => { await api("POST", `/admin/users/${user.id}/unmute`); await reload(); } }, "Unmute");
    }
    return el("button", { type: "button", className: "button button-small", onclick: () => openForm("mute-dialog", user) }, "Mute");
  }

  bindMute(reload) {
    bindForm($("mute-form"), async (values, form) => {
      await api("POST", `/admin/users/${form.dataset.userId}/mute`, { minutes: Number(values.minutes), reason: values.reason });
      $("mute-dialog").close();
      await reload();
    });
  }

  async loadReports() {
    const query = new URLSearchParams({ page: this.reports.page, per_page: this.perPage, status: this.reports.status });
    const data = await api("GET", `/admin/chat/reports?${query}`);
    const body = $("reports").tBodies[0];
    body.replaceChildren(...data.items.map((report) => el("tr", { dataset: { reportId: report.id } },
      el("td", {}, dateTime(report.created_at)),
      el("td", {}, person(report.reported)),
      el("td", {}, person(report.reporter)),
      el("td", {}, report.reason),
      el("td", {}, el("ol", { className: "report-chat" }, ...report.chat.map((line) => el("li", {}, el("strong", {}, `${line.name}: `), line.text)))),
      el("td", { className: "table-actions" },
        report.hand_id ? el("button", { type: "button", className: "button button-small",
          onclick: () => showHand($("detail-dialog"), "/admin/hands", report.hand_id) }, "Hand") : "",
        el("button", { type: "button", className: "button button-small", onclick: () => this.showTable(report.table_id) }, "Table chat"),
        report.handled_at ? el("span", { className: "badge badge-ok" }, "handled")
          : el("button", { type: "button", className: "button button-small", onclick: () => this.handle(report.id) }, "Mark handled")))));
    if (!data.items.length) body.append(el("tr", {}, el("td", { colSpan: 6, className: "empty" }, "No reports.")));
    $("reports-count").textContent = `${data.count} reports`;
    this.pager("reports", this.reports, data.count, () => this.loadReports());
  }

  async handle(reportId) {
    await api("POST", `/admin/chat/reports/${reportId}/handle`);
    await this.loadReports();
  }

  showTable(tableId) {
    $("chat-log-table_id").value = tableId;
    $("chat-log-user_id").value = "";
    this.lines.query = { table_id: tableId };
    this.lines.page = 1;
    this.loadLines();
    $("chat-log-title").scrollIntoView({ behavior: "smooth" });
  }

  async loadLines() {
    const query = new URLSearchParams({ page: this.lines.page, per_page: this.perPage });
    for (const [key, value] of Object.entries(this.lines.query)) if (value) query.set(key, value);
    const data = await api("GET", `/admin/chat/lines?${query}`);
    const body = $("chat-log").tBodies[0];
    body.replaceChildren(...data.items.map((line) => el("tr", {},
      el("td", {}, dateTime(line.at)),
      el("td", {}, line.table_id),
      el("td", {}, person(line.user)),
      el("td", {}, line.said),
      el("td", {}, line.shown))));
    if (!data.items.length) body.append(el("tr", {}, el("td", { colSpan: 5, className: "empty" }, "No chat lines.")));
    $("chat-log-count").textContent = `${data.count} lines`;
    this.pager("chat-log", this.lines, data.count, () => this.loadLines());
  }

  async loadWords() {
    const data = await api("GET", "/admin/chat/words");
    $("words").replaceChildren(...data.items.map((entry) => el("li", {}, entry.word, " ",
      el("button", { type: "button", className: "button button-small", "aria-label": `Remove ${entry.word}`,
        onclick: async () => { await api("DELETE", `/admin/chat/words/${encodeURIComponent(entry.word)}`); await this.loadWords(); } }, "Remove"))));
    $("words-count").textContent = `${data.count} words`;
  }
}
