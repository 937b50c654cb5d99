// The hand log: one line a person can read for each event.

import { cardName } from "../cards.js";
import { chips } from "../format.js";
import { winningHand } from "./besthand.js";
import { nameOf } from "./state.js";

const STREETS = { flop: "Flop", turn: "Turn", river: "River" };

function cards(list) {
  return list.map((c) => c.replace("T", "10")).join(" ");
}

function acted(who, e) {
  switch (e.action) {
    case "fold": return `${who} folds`;
    case "check": return `${who} checks`;
    case "call": return `${who} calls ${chips(e.amount)}${e.all_in ? " and is all-in" : ""}`;
    case "bet": return `${who} bets ${chips(e.total)}${e.all_in ? " (all-in)" : ""}`;
    case "raise": return `${who} raises to ${chips(e.total)}${e.all_in ? " (all-in)" : ""}`;
    case "all_in": return `${who} is all-in for ${chips(e.total)}`;
    default: return `${who}: ${e.action}`;
  }
}

// Whether the hand in play was run twice (its second board is out).
export function twice(table) {
  return Boolean(table.hand && table.hand.board2 && table.hand.board2.length);
}

export function handName(name) {
  return name ? name.replaceAll("_", " ") : "";
}

// What a `table:event` says, or null when it is not worth a line.
export function describe(table, message, me, mySeat) {
  const e = message.event;
  const who = e.seat !== undefined ? nameOf(table, e.seat) : "";
  switch (e.type) {
    case "hand_started":
      return `Hand #${e.number}: ${nameOf(table, e.button)} has the button`
        + `${e.bomb_pot ? `; bomb pot, everyone antes ${chips(e.bomb_pot)}` : ""}`;
    case "blind_posted":
      return e.blind === "straddle" ? `${who} straddles ${chips(e.amount)}` : `${who} posts the ${e.blind} blind ${chips(e.amount)}`;
    case "ante_posted": return `${who} posts an ante of ${chips(e.amount)}`;
    case "hole_cards_dealt":
      return e.seat === mySeat && e.cards ? `You are dealt ${e.cards.map(cardName).join(" and ")}` : null;
    case "player_acted": return acted(who, e);
    case "board_dealt":
      return `${e.run === 1 ? "Second board, " : ""}${STREETS[e.street] || e.street}: ${cards(e.cards)}`;
    case "run_it_twice_offered":
      return `Run it twice? ${e.seats.map((seat) => nameOf(table, seat)).join(" and ")} must all agree`;
    case "run_it_twice_chosen":
      return e.agree ? `${who} agrees to run it twice` : `${who} runs it once`;
    case "uncalled_bet_returned": return `${chips(e.amount)} uncalled returned to ${who}`;
    case "hand_shown": return `${who} shows ${cards(e.cards)}`;
    case "hand_mucked": return `${who} mucks`;
    case "all_in_equity":
      return `Equity${e.run === 1 ? " on the second board" : ""} ${e.street === "preflop" ? "before the flop" : `after the ${e.street}`}: `
        + e.seats.map((s) => `${nameOf(table, s.seat)} ${(100 * s.equity).toFixed(1)}%`).join(", ");
    case "pot_awarded": {
      const names = e.seats.map((seat) => nameOf(table, seat)).join(" and ");
      const pot = e.pot === 0 ? "the pot" : `side pot ${e.pot}`;
      const half = twice(table) ? ` on board ${e.run + 1}` : "";
      const shown = e.hand ? winningHand(table, e) : null;
      const named = shown ? ` with ${shown.name.toLowerCase()}: ${cards(shown.cards)}` : e.hand ? ` with ${handName(e.hand)}` : "";
      return `${names} ${e.seats.length > 1 ? "split" : "wins"} ${pot}${half} (${chips(e.amount)})${named}`;
    }
    case "hand_ended": return e.rake ? `Rake ${chips(e.rake)}` : null;
    case "hand_voided": return `Hand cancelled: ${e.reason}. Stacks are back to where they were.`;
    case "player_sat": return `${e.player.name} sits in seat ${e.seat + 1} with ${chips(e.stack)}`;
    case "player_left": return `${e.player.name} leaves with ${chips(e.stack)}`;
    case "player_leaving": return `${who} will leave after this hand`;
    case "player_connection": return e.connected ? `${who} is back` : `${who} lost the connection`;
    case "player_sat_out": return `${who} sits out`;
    case "player_sat_in": return `${who} is back in`;
    case "player_timed_out": return `${who} ran out of time`;
    case "stack_changed": return null;
    case "waiting_list": return null;
    case "table_closed": return `The table closed: ${e.reason}`;
    default: return null;
  }
}
