// Every table you sit at, tiled on one page (`lobby:mine`, then one connection per table,
// as the table page makes): each tile shows the seats, the board, the pot and your cards,
// and offers your legal actions when it is your turn. The table's own page has the rest.

import { cardRow } from "../cards.js";
import { chips, el } from "../format.js";
import { gameOf } from "../games.js";
import { currentUser } from "../session.js";
import { connect, request, showFatal, SocketMissing } from "../socket.js";
import { applyEvent, applySnapshot, applyTurn, emptyTable, mySeat, potTotal } from "../table/state.js";

const $ = (id) => document.getElementById(id);
const LABELS = { fold: "Fold", check: "Check", call: "Call", bet: "Bet", raise: "Raise", all_in: "All-in", show: "Show", muck: "Muck" };

function actionLabel(action) {
  const amount = action.amount ?? action.min;
  return amount ? `${LABELS[action.action]} ${chips(amount)}` : LABELS[action.action];
}

class Tile {
  constructor(me, summary) {
    this.me = me;
    this.table = emptyTable(summary.table_id);
    this.joined = false;
    this.node = el("section", { className: "card-panel multi-tile", dataset: { tableId: summary.table_id },
      "aria-label": summary.name });
    this.socket = connect({ table: summary.table_id });
    this.listen();
  }

  join(since) {
    const payload = { table_id: this.table.tableId };
    if (since !== null && since !== undefined) payload.since_seq = since;
    this.joined = true;
    request(this.socket, "table:join", payload).catch(() => { this.joined = false; });
  }

  // A seq-numbered message applies once, in order; a gap asks for what was missed.
  inOrder(body, apply) {
    if (body.table_id !== this.table.tableId || !this.joined || this.table.seq === null) return;
    if (body.seq <= this.table.seq) return;
    if (body.seq > this.table.seq + 1) {
      this.join(this.table.seq);
      return;
    }
    this.table.seq = body.seq;
    apply(body);
    this.render();
  }

  listen() {
    this.socket.on("connect", () => this.join(this.table.seq));
    this.socket.on("table:snapshot", (snap) => {
      if (snap.table_id !== this.table.tableId) return;
      applySnapshot(this.table, snap);
      this.joined = true;
      this.render();
    });
    this.socket.on("table:event", (body) => this.inOrder(body, () => applyEvent(this.table, body, this.me)));
    this.socket.on("table:turn", (body) => this.inOrder(body, () => applyTurn(this.table, body)));
  }

  async act(action) {
    const turn = this.table.turn;
    const payload = { table_id: this.table.tableId, hand_id: turn.hand_id, type: action.action };
    const amount = action.action === "bet" || action.action === "raise" ? action.min : null;
    if (amount !== null) payload.amount = amount;
    for (const button of this.node.querySelectorAll("[data-action]")) button.disabled = true;
    try {
      await request(this.socket, "table:action", payload);
    } catch (error) {
      this.node.querySelector(".multi-status").textContent = error.message;
    }
  }

  actions(seat) {
    const turn = this.table.turn;
    const hand = this.table.hand;
    if (!turn || seat === null || turn.seat !== seat || !turn.legal_actions || !hand || hand.phase === "complete") return null;
    return el("div", { className: "button-row multi-actions", role: "group", "aria-label": "Your actions" },
      ...turn.legal_actions.map((action) => {
        const button = el("button", { type: "button", className: "button button-small", dataset: { action: action.action } },
          actionLabel(action));
        button.addEventListener("click", () => this.act(action));
        return button;
      }));
  }

  render() {
    const { table } = this;
    if (!table.config) return;
    const seat = mySeat(table, this.me);
    const hand = table.hand;
    const game = gameOf(table.config);
    const mine = hand && seat !== null && hand.seats[seat] ? hand.seats[seat].cards : null;
    const yourTurn = Boolean(table.turn && table.turn.seat === seat && hand && hand.phase !== "complete");
    this.node.classList.toggle("your-turn", yourTurn);
    const seats = Object.values(table.seats).sort((a, b) => a.seat - b.seat).map((taken) => {
      const inHand = hand ? hand.seats[taken.seat] : null;
      const status = inHand ? inHand.status : taken.status;
      return el("li", { dataset: { seat: taken.seat }, className: taken.seat === seat ? "mine" : "" },
        el("strong", {}, taken.player.name), ` ${chips(inHand ? inHand.stack : taken.stack)}`,
        inHand && inHand.bet ? ` · bet ${chips(inHand.bet)}` : "",
        ["folded", "mucked", "sitting_out"].includes(status) ? ` · ${status.replace("_", " ")}` : "",
        table.turn && table.turn.seat === taken.seat && hand && hand.phase !== "complete" ? " · to act" : "");
    });
    this.node.replaceChildren(
      el("h2", {}, el("a", { href: `/table/${encodeURIComponent(table.tableId)}` }, table.config.name),
        el("span", { className: "hint" }, ` ${game.name} · ${chips(table.config.small_blind)}/${chips(table.config.big_blind)}`)),
      el("div", { className: "multi-board", "aria-label": "Board" },
        hand && hand.board.length ? cardRow(hand.board, { className: "cards-sm" }) : el("span", { className: "hint" }, hand ? "No board yet" : "Waiting for the next hand"),
        hand ? el("span", { className: "hint" }, ` · pot ${chips(potTotal(hand))}`) : null),
      mine ? el("div", { className: "multi-mine", "aria-label": "Your cards" }, cardRow(mine, { count: game.cards, className: "cards-sm" })) : null,
      el("ul", { className: "multi-seats" }, ...seats),
      yourTurn ? this.actions(seat) : null,
      el("p", { className: "multi-status hint", role: "status" }, yourTurn ? "Your turn" : ""),
    );
  }
}

async function start() {
  const me = await currentUser();
  if (!me) {
    $("multi-empty").textContent = "Log in to see the tables you sit at.";
    $("multi-empty").hidden = false;
    return;
  }
  let lobby;
  try {
    lobby = connect();
  } catch (error) {
    if (error instanceof SocketMissing) showFatal(error.message);
    throw error;
  }
  lobby.on("connect", async () => {
    const mine = await request(lobby, "lobby:mine", {});
    const seated = mine.tables.filter((t) => t.seat !== null && t.seat !== undefined);
    lobby.disconnect();
    $("multi-empty").hidden = seated.length > 0;
    $("multi-grid").replaceChildren(...seated.map((summary) => new Tile(me, summary).node));
  });
}

start();
