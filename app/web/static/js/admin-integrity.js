// The admin page's integrity: the flags queue (dismiss, or act: ban and claw back), the
// chip-flow report, and the accounts linked to a user.

import { api } from "./api.js";
import { bindForm } from "./forms.js";
import { chips, dateTime, el, labelColumns } from "./format.js";
import { showHand } from "./hands.js";

const $ = (id) => document.getElementById(id);

function person(p) {
  return p ? `${p.name || "—"} (${p.id})` : "—";
}

function handButtons(links) {
  return links.map((link, index) => el("button", { type: "button", className: "button button-small",
    onclick: () => showHand($("detail-dialog"), "/admin/hands", link.id) }, `Hand ${index + 1}`));
}

const FIGURES = {
  chip_dumping: (e) => `${chips(e.net)} (${e.net_bb} BB) from ${e.from_user} to ${e.to_user}, ${Math.round(e.one_way * 100)}% one way, ${e.hands} hands${e.linked_by.length ? `, linked by ${e.linked_by.join(" and ")}` : ""}`,
  soft_play: (e) => `${e.hands} pots together after the flop, no bet into each other`,
  bot_like: (e) => `${e.reasons.join(", ").replaceAll("_", " ")}: ${e.decisions} decisions, spread ${e.spread} s; longest session ${e.session_hours} h`,
  linked_at_table: (e) => `refused a seat at table ${e.table_id}`,
};

export class IntegrityAdmin {
  constructor({ pager, perPage }) {
    this.pager = pager;
    this.perPage = perPage;
    this.flags = { page: 1, kind: "", status: "open" };
    for (const id of ["flags", "chip-flow"]) labelColumns($(id));
    bindForm($("flags-form"), async (values) => {
      Object.assign(this.flags, { kind: values.kind, status: values.status, page: 1 });
      await this.loadFlags();
    });
    bindForm($("chip-flow-form"), async () => { await this.loadFlow(); });
    $("scan-now").addEventListener("click", () => this.scan());
    bindForm($("flag-action-form"), async (values, form) => {
      const body = { ban: values.ban === "on", claw_back: values.claw_back === "on", claw_back_to: values.claw_back_to };
      if (body.ban) body.ban_reason = values.ban_reason;
      const result = await api("POST", `/admin/integrity/flags/${form.dataset.flagId}/action`, body);
      $("flag-action-dialog").close();
      $("flags-status").textContent = result.claw_back
        ? `Clawed back ${chips(result.claw_back.amount)} to account ${result.claw_back.to_user}.` : "Done.";
      await this.loadFlags();
    });
  }

  async load() {
    await Promise.all([this.loadFlags(), this.loadFlow()]);
  }

  async scan() {
    const result = await api("POST", "/admin/integrity/scan");
    $("flags-status").textContent = `The scan raised ${result.raised} flags.`;
    await this.loadFlags();
  }

  async loadFlags() {
    const query = new URLSearchParams({ page: this.flags.page, per_page: this.perPage });
    if (this.flags.kind) query.set("kind", this.flags.kind);
    if (this.flags.status) query.set("status", this.flags.status);
    const data = await api("GET", `/admin/integrity/flags?${query}`);
    const body = $("flags").tBodies[0];
    body.replaceChildren(...data.items.map((flag) => el("tr", { dataset: { flagId: flag.id } },
      el("td", {}, dateTime(flag.created_at)),
      el("td", {}, flag.kind.replaceAll("_", " ")),
      el("td", {}, person(flag.user), flag.other_user ? ` · ${person(flag.other_user)}` : ""),
      el("td", {}, (FIGURES[flag.kind] || (() => ""))(flag.evidence)),
      el("td", { className: "table-actions" }, ...handButtons(flag.hand_links.slice(0, 3)),
        ...(flag.status === "open" ? [
          el("button", { type: "button", className: "button button-small", onclick: () => this.dismiss(flag.id) }, "Dismiss"),
          el("button", { type: "button", className: "button button-small button-danger", onclick: () => this.openAction(flag) }, "Act"),
        ] : [el("span", { className: "badge" }, flag.status)])))));
    if (!data.items.length) body.append(el("tr", {}, el("td", { colSpan: 5, className: "empty" }, "No flags.")));
    $("flags-count").textContent = `${data.count} flags`;
    this.pager("flags", this.flags, data.count, () => this.loadFlags());
  }

  async dismiss(flagId) {
    await api("POST", `/admin/integrity/flags/${flagId}/dismiss`);
    await this.loadFlags();
  }

  openAction(flag) {
    const dialog = $("flag-action-dialog");
    const form = dialog.querySelector("form");
    form.reset();
    form.dataset.flagId = flag.id;
    dialog.querySelector("[data-flag-user]").textContent = person(flag.user);
    form.elements.claw_back.disabled = flag.kind !== "chip_dumping";
    dialog.showModal();
  }

  async loadFlow() {
    const days = $("chip-flow-days").value;
    const data = await api("GET", `/admin/integrity/chip-flow?days=${days}`);
    const body = $("chip-flow").tBodies[0];
    body.replaceChildren(...data.items.map((pair) => el("tr", {},
      el("td", {}, person(pair.from_user)),
      el("td", {}, person(pair.to_user), pair.linked ? [" ", el("span", { className: "badge badge-bad" }, "linked")] : ""),
      el("td", { className: "num" }, chips(pair.net)),
      el("td", { className: "num" }, String(pair.net_bb)),
      el("td", { className: "num" }, `${Math.round(pair.one_way * 100)}%`),
      el("td", { className: "num" }, String(pair.hands)),
      el("td", { className: "table-actions" }, ...handButtons(pair.hand_links.slice(-3))))));
    if (!data.items.length) body.append(el("tr", {}, el("td", { colSpan: 7, className: "empty" }, "No chips changed hands between players.")));
  }

  // The Linked button of a user's row: the accounts sharing an address or device.
  linkedButton(user) {
    return el("button", { type: "button", className: "button button-small", onclick: () => this.showLinked(user) }, "Linked");
  }

  async showLinked(user) {
    const data = await api("GET", `/admin/users/${user.id}/linked`);
    const dialog = $("detail-dialog");
    dialog.querySelector("h2").textContent = `Accounts linked to ${user.display_name || `user ${user.id}`}`;
    dialog.querySelector("[data-detail]").replaceChildren(
      data.items.length ? el("div", { className: "table-scroll" }, el("table", { className: "data", id: "linked" },
        el("thead", {}, el("tr", {}, el("th", {}, "Account"), el("th", {}, "Linked by"), el("th", { className: "num" }, "Times"), el("th", {}, "Last seen"))),
        el("tbody", {}, ...data.items.map((link) => el("tr", {},
          el("td", {}, person(link.user), " ", el("span", { className: "badge" }, link.user.status)),
          el("td", {}, link.by), el("td", { className: "num" }, String(link.times)),
          el("td", {}, dateTime(link.last_seen)))))))
        : el("p", {}, "No account shares an address or a device with this one."),
      el("p", { className: "hint" }, `From sign-ins of the last ${data.days} days.`));
    dialog.showModal();
  }
}
