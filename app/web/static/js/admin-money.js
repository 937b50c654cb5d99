// The admin page's house and ledger: the bots' bankroll and funding it, and the audit
// that reconciles every balance, escrow and hand with the ledger (as `holdem audit`).

import { api } from "./api.js";
import { bindForm } from "./forms.js";
import { chips, el, signed } from "./format.js";

const $ = (id) => document.getElementById(id);

export async function loadHouse() {
  const house = await api("GET", "/admin/house");
  $("house-balance").textContent = chips(house.balance);
  $("house-at-tables").textContent = chips(house.at_tables);
  $("house-funded").textContent = chips(house.funded);
  $("house-result").textContent = signed(house.result);
  return house;
}

export function bindHouse() {
  bindForm($("house-form"), async (values, form) => {
    const funded = await api("POST", "/admin/house/credits", {
      amount: Number(values.amount), reason: values.reason.trim() });
    form.reset();
    await loadHouse();
    form.querySelector("[data-form-status]").textContent = `The house now holds ${chips(funded.balance)} credits.`;
  });
  $("reconcile-run").addEventListener("click", reconcile);
}

function offList(title, rows) {
  if (!rows.length) return null;
  return el("div", {}, el("h3", {}, title), el("ul", { className: "audit-findings" }, ...rows.map((row) => el("li", {}, row))));
}

async function reconcile() {
  const slot = $("reconcile-result");
  const button = $("reconcile-run");
  button.disabled = true;
  slot.replaceChildren(el("p", { className: "hint" }, "Reconciling…"));
  try {
    const report = await api("GET", "/admin/audit");
    const t = report.totals;
    const verdict = report.balanced
      ? el("p", { className: "notice notice-ok", id: "reconcile-verdict" }, "Balanced: every credit is accounted for.")
      : el("p", { className: "notice notice-error", id: "reconcile-verdict" }, "Not balanced: see each discrepancy below.");
    slot.replaceChildren(verdict,
      el("p", {}, `Balances ${chips(t.balances)} + escrowed ${chips(t.escrowed)} = ${chips(t.balances + t.escrowed)}; `
        + `granted ${chips(t.granted)} − removed ${chips(t.removed)} = ${chips(t.granted - t.removed)} `
        + `(${report.people} accounts, ${report.open_tables} open tables).`),
      offList("Accounts", report.accounts.map((a) => `Account ${a.user_id}${a.email ? ` (${a.email})` : ""}: ${a.check} expected ${chips(a.expected)}, found ${chips(a.actual)}`)),
      offList("Tables", report.tables.map((x) => `Table ${x.table_id} (${x.status}): seats account for ${chips(x.expected)}, ledger holds ${chips(x.actual)}`)),
      offList("Hands", report.hands.map((h) => `Hand ${h.hand_id} at ${h.table_id}: ${h.problem}`)),
      offList("Rake", report.rake.map((r) => `Table ${r.table_id}: hands record ${chips(r.hands)}, ledger paid ${chips(r.ledger)}`)));
  } catch (error) {
    slot.replaceChildren(el("p", { className: "form-status form-status-error" }, error.message));
  } finally {
    button.disabled = false;
  }
}
