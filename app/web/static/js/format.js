// Dates, amounts and labels as people read them.

export function chips(amount) {
  return Number(amount || 0).toLocaleString("en-US");
}

export function signed(amount) {
  return `${amount > 0 ? "+" : amount < 0 ? "−" : ""}${chips(Math.abs(amount))}`;
}

export function dateTime(value) {
  const when = new Date(value);
  const options = { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  if (when.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
  return when.toLocaleString(undefined, options);
}

export function date(value) {
  return new Date(value).toLocaleDateString(undefined, { dateStyle: "medium" });
}

const LEDGER_REASONS = {
  signup_grant: "Welcome credits",
  daily_credits: "Daily credits",
  admin_adjustment: "Adjustment by an admin",
  account_closed: "Account closed",
  table_buy_in: "Bought in at a table",
  table_cash_out: "Cashed out from a table",
  tournament_buy_in: "Tournament buy-in",
  tournament_fee: "Tournament fee",
  tournament_prize: "Tournament prize",
  tournament_refund: "Tournament refund",
  house_funding: "House funding",
  rake: "Rake from a table",
};

export function ledgerReason(reason) {
  return LEDGER_REASONS[reason] || reason.replaceAll("_", " ");
}

// Build an element: el("td", {className: "num"}, "12").
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("aria-") || key === "role" || key === "for") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// An icon from the page's SVG sprite (templates/web/_symbols.html).
export function icon(symbol, className) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#${symbol}`);
  svg.append(use);
  return svg;
}

// Name each cell of `table` after its column (`data-label`), now and whenever its rows
// change, so that on a phone its rows can show as cards, each value beside its name.
export function labelColumns(table) {
  const label = () => {
    const heads = [...table.tHead.rows[0].cells].map((th) => (th.querySelector(".visually-hidden") ? "" : th.textContent.trim()));
    for (const row of table.tBodies[0].rows) {
      [...row.cells].forEach((cell, i) => {
        if (heads[i] && cell.colSpan === 1) cell.dataset.label = heads[i];
      });
    }
  };
  label();
  new MutationObserver(label).observe(table.tBodies[0], { childList: true });
}

const ORDINALS = new Intl.PluralRules("en-GB", { type: "ordinal" });
const SUFFIXES = { one: "st", two: "nd", few: "rd", other: "th" };

// A place as people say it: 1st, 2nd, 3rd, 4th, 11th, 22nd.
export function ordinal(n) {
  return `${n}${SUFFIXES[ORDINALS.select(n)]}`;
}
