// The admin page's audit log (filtered by action, admin and account, a page at a time)
// and the announcements sent to every connected player.

import { api } from "./api.js";
import { bindForm } from "./forms.js";
import { dateTime, el, labelColumns } from "./format.js";

const $ = (id) => document.getElementById(id);

function details(entry) {
  return Object.entries(entry.details).map(([key, value]) => `${key.replaceAll("_", " ")}: ${typeof value === "object" ? JSON.stringify(value) : value}`).join(" · ");
}

export class AuditLog {
  // `pager(prefix, state, count, load)` and `perPage` are the page's own paging.
  constructor({ pager, perPage }) {
    this.pager = pager;
    this.perPage = perPage;
    this.state = { page: 1, query: {} };
    labelColumns($("audit-log"));
    bindForm($("audit-form"), async (values) => {
      this.state.query = { action: values.action, admin_id: values.admin_id.trim(), user_id: values.user_id.trim() };
      this.state.page = 1;
      await this.load();
    });
  }

  async load() {
    const query = new URLSearchParams({ page: this.state.page, per_page: this.perPage });
    for (const [key, value] of Object.entries(this.state.query)) if (value) query.set(key, value);
    const data = await api("GET", `/admin/audit-log?${query}`);
    $("audit-log").tBodies[0].replaceChildren(...data.items.map((entry) => el("tr", {},
      el("td", {}, dateTime(entry.created_at)),
      el("td", {}, entry.admin_id),
      el("td", {}, el("code", {}, entry.action)),
      el("td", {}, entry.target_user_id ?? "—"),
      el("td", { className: "audit-details" }, details(entry)))));
    if (!data.items.length) $("audit-log").tBodies[0].append(el("tr", {}, el("td", { colSpan: 5, className: "empty" }, "No action matches.")));
    this.actions(data.actions);
    $("audit-count").textContent = `${data.count} actions`;
    this.pager("audit", this.state, data.count, () => this.load());
  }

  // The action filter offers every action the log holds, keeping the one chosen.
  actions(names) {
    const select = $("audit-action");
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "" }, "Any"), ...names.map((name) => el("option", { value: name }, name.replaceAll("_", " "))));
    select.value = names.includes(chosen) ? chosen : "";
  }
}

export function bindAnnouncements() {
  bindForm($("announce-form"), async (values, form) => {
    const sent = await api("POST", "/admin/announcements", { text: values.text.trim(), level: values.level });
    form.reset();
    form.querySelector("[data-form-status]").textContent = `Sent at ${dateTime(sent.at * 1000)} to every connected player.`;
  });
}
