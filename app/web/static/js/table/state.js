// One table as this viewer knows it: the last snapshot with every later event
// applied in `seq` order. No DOM here; render.js draws it.

import { rememberCommitment } from "../fairness.js";
import { buildPots, mergePots } from "./pots.js";

export function emptyTable(tableId) {
  return {
    tableId, seq: null, config: null, seats: {}, button: null, hand: null, turn: null,
    chat: [], waiting: 0, you: null, closed: null, voided: null,
  };
}

function handFromView(handId, view) {
  const seats = {};
  for (const s of view.seats) {
    seats[s.seat] = { stack: s.stack, bet: s.bet, street: s.bet, status: s.status,
      cards: s.cards, shown: s.shown, dealt: true, won: s.won || 0,
      lastAction: s.last_action || null };
  }
  return {
    id: handId, number: null, phase: view.phase, board: [...view.board], seats,
    pots: view.pots.map((p) => ({ amount: p.amount, seats: [...p.seats] })),
    dead: 0, level: view.level || 0, actor: view.actor, awards: [], stakes: view.stakes || null,
    board2: view.boards && view.boards[1] ? [...view.boards[1]] : [],
    shared: view.board.length, asked: [...(view.run_it_twice || [])],
    askDeadline: view.run_it_twice_deadline || null,
  };
}

export function applySnapshot(table, snap) {
  table.seq = snap.seq;
  table.config = snap.config;
  table.seats = Object.fromEntries(snap.seats.map((s) => [s.seat, { ...s }]));
  table.button = snap.button;
  table.hand = snap.hand && snap.hand_id ? handFromView(snap.hand_id, snap.hand) : null;
  table.turn = snap.turn;
  table.chat = [...snap.chat];
  table.waiting = snap.waiting;
  table.you = snap.you;
  table.voided = null;
}

export function mySeat(table, me) {
  if (table.you && table.you.seat !== null && table.you.seat !== undefined) return table.you.seat;
  if (!me) return null;
  const found = Object.values(table.seats).find((s) => s.player.public_id === me.public_id);
  return found ? found.seat : null;
}

// Whether `me` holds live cards in a hand still being played (leaving would give them up).
export function inLiveHand(table, me) {
  const seat = mySeat(table, me);
  const hand = table.hand;
  if (seat === null || !hand || hand.phase === "complete") return false;
  const mine = hand.seats[seat];
  return Boolean(mine && !["folded", "mucked"].includes(mine.status));
}

// Who sits at `seat`, or who sat there in the hand on the felt (a player who left since
// is still named in its result).
export function nameOf(table, seat) {
  const taken = table.seats[seat];
  if (taken) return taken.player.name;
  const left = table.hand && table.hand.leftNames ? table.hand.leftNames[seat] : undefined;
  return left || `Seat ${Number(seat) + 1}`;
}

// Chips collected by the streets already played (and dead antes): the middle of the table.
export function potCollected(hand) {
  if (!hand) return 0;
  return hand.pots.reduce((sum, p) => sum + p.amount, 0) + hand.dead;
}

// Everything in play: the collected pots and the bets of this street.
export function potTotal(hand) {
  if (!hand) return 0;
  return potCollected(hand) + Object.values(hand.seats).reduce((sum, s) => sum + s.street, 0);
}

function contending(hand) {
  return (seat) => ["active", "all_in"].includes(hand.seats[seat].status);
}

// The street is over: its chips join the pots and the bets in front of seats go.
function closeStreet(hand) {
  const street = {};
  for (const [seat, s] of Object.entries(hand.seats)) street[seat] = s.street;
  hand.pots = mergePots(hand.pots, buildPots(street, contending(hand)));
  if (hand.dead && hand.pots.length) {
    hand.pots[0].amount += hand.dead;
    hand.dead = 0;
  }
  for (const s of Object.values(hand.seats)) {
    s.bet = 0;
    s.street = 0;
    s.lastAction = null;
  }
  hand.level = 0;
}

function enterShowdown(hand) {
  if (["preflop", "flop", "turn", "river"].includes(hand.phase)) {
    closeStreet(hand);
    hand.phase = "showdown";
  }
}

function put(seatState, amount) {
  seatState.stack -= amount;
  if (seatState.stack <= 0) seatState.status = "all_in";
}

const HAND_EVENTS = {
  hand_started(table, e, handId) {
    const seats = {};
    for (const s of e.seats) {
      seats[s.seat] = { stack: s.stack, bet: 0, street: 0, status: "active", cards: null,
        shown: false, dealt: true, won: 0, start: s.stack };
      if (table.seats[s.seat] && table.seats[s.seat].status !== "sitting_out") table.seats[s.seat].status = "playing";
    }
    table.button = e.button;
    table.voided = null;
    table.hand = { id: handId, number: e.number, phase: "preflop", board: [], seats, pots: [],
      dead: 0, level: 0, actor: null, awards: [], commitment: e.commitment || null,
      stakes: e.stakes || null,
      board2: [], shared: 0, asked: [], askDeadline: null };
    // Announced before the deal: what "Verify the shuffle" checks the revealed seed against.
    rememberCommitment(handId, e.commitment);
  },
  ante_posted(hand, e) {
    const s = hand.seats[e.seat];
    put(s, e.amount);
    if (e.dead) hand.dead += e.amount;
    else s.street += e.amount;
  },
  blind_posted(hand, e) {
    const s = hand.seats[e.seat];
    put(s, e.amount);
    s.bet += e.amount;
    s.street += e.amount;
    hand.level = Math.max(hand.level, s.bet);
  },
  hole_cards_dealt(hand, e) {
    hand.seats[e.seat].cards = e.cards;
  },
  player_acted(hand, e) {
    const s = hand.seats[e.seat];
    s.lastAction = { action: e.action, total: e.total };
    if (e.action === "fold") {
      s.status = "folded";
      for (const pot of hand.pots) pot.seats = pot.seats.filter((seat) => seat !== e.seat);
      return;
    }
    if (e.amount) {
      put(s, e.amount);
      s.street += e.amount;
    }
    s.bet = e.total;
    if (e.all_in) s.status = "all_in";
    hand.level = Math.max(hand.level, s.bet);
  },
  board_dealt(hand, e) {
    closeStreet(hand);
    if (e.run === 1) {
      // The second board of a hand run twice: the cards on the table when the question
      // was asked belong to both boards.
      if (!hand.board2.length) hand.board2 = hand.board.slice(0, hand.shared);
      hand.board2.push(...e.cards);
      return;
    }
    hand.board.push(...e.cards);
    hand.phase = e.street;
  },
  run_it_twice_offered(hand, e) {
    closeStreet(hand);
    hand.phase = "run_it_twice";
    hand.shared = hand.board.length;
    hand.asked = [...e.seats];
    hand.askDeadline = e.deadline || null;
  },
  run_it_twice_chosen(hand, e) {
    hand.asked = e.agree ? hand.asked.filter((seat) => seat !== e.seat) : [];
  },
  uncalled_bet_returned(hand, e) {
    const s = hand.seats[e.seat];
    s.bet -= e.amount;
    s.street -= e.amount;
    s.stack += e.amount;
    if (s.status === "all_in" && s.stack > 0) s.status = "active";
  },
  hand_shown(hand, e) {
    enterShowdown(hand);
    hand.seats[e.seat].cards = e.cards;
    hand.seats[e.seat].shown = true;
  },
  all_in_equity(hand, e) {
    for (const s of e.seats) if (hand.seats[s.seat]) hand.seats[s.seat].equity = s.equity;
  },
  hand_mucked(hand, e) {
    enterShowdown(hand);
    hand.seats[e.seat].status = "mucked";
  },
  pot_awarded(hand, e) {
    enterShowdown(hand);
    const pot = hand.pots[e.pot];
    if (pot) pot.amount = 0;
    e.seats.forEach((seat, i) => {
      hand.seats[seat].stack += e.amounts[i];
      hand.seats[seat].won += e.amounts[i];
    });
    hand.awards.push(e);
  },
  hand_ended(hand, e, table) {
    e.seats.forEach((seat, i) => {
      hand.seats[seat].stack = e.stacks[i];
      if (table.seats[seat]) table.seats[seat].stack = e.stacks[i];
    });
    hand.phase = "complete";
    hand.pots = [];
    table.turn = null;
  },
  hand_voided(hand, e, table) {
    for (const [seat, s] of Object.entries(hand.seats)) {
      if (s.start !== undefined && table.seats[seat]) table.seats[seat].stack = s.start;
    }
    table.voided = e.reason;
    table.hand = null;
    table.turn = null;
  },
};

const TABLE_EVENTS = {
  player_sat(table, e, me) {
    table.seats[e.seat] = { seat: e.seat, player: e.player, stack: e.stack, status: e.status,
      connected: true, leaving: false };
    if (me && e.player.public_id === me.public_id) table.you = { ...(table.you || {}), seat: e.seat, bought_in: e.stack };
  },
  player_left(table, e, me) {
    if (table.hand && table.hand.seats[e.seat]) {
      table.hand.leftNames = { ...table.hand.leftNames, [e.seat]: e.player.name };
    }
    delete table.seats[e.seat];
    if (me && e.player.public_id === me.public_id && table.you) table.you.seat = null;
  },
  player_leaving(table, e) {
    if (table.seats[e.seat]) table.seats[e.seat].leaving = true;
  },
  player_connection(table, e) {
    if (table.seats[e.seat]) table.seats[e.seat].connected = e.connected;
  },
  player_sat_out(table, e) {
    if (table.seats[e.seat]) table.seats[e.seat].status = "sitting_out";
  },
  player_sat_in(table, e) {
    if (table.seats[e.seat]) table.seats[e.seat].status = "waiting_for_big_blind";
  },
  stack_changed(table, e) {
    if (table.seats[e.seat]) table.seats[e.seat].stack = e.stack;
    if (e.added && table.you && table.you.seat === e.seat) table.you.bought_in += e.added;
  },
  chat(table, e) {
    table.chat.push({ player: e.player, text: e.text, at: e.at });
    if (table.chat.length > 200) table.chat.shift();
  },
  waiting_list(table, e) {
    table.waiting = e.count;
  },
  table_closed(table, e) {
    table.closed = e.reason;
    table.turn = null;
  },
};

// Apply one `table:event` body; returns false for an event type this client does not know.
export function applyEvent(table, message, me) {
  const e = message.event;
  if (HAND_EVENTS[e.type]) {
    if (e.type === "hand_started") {
      HAND_EVENTS.hand_started(table, e, message.hand_id);
    } else if (table.hand && table.hand.id === message.hand_id) {
      HAND_EVENTS[e.type](table.hand, e, table);
      if (e.type === "player_acted" && table.turn && table.turn.seat === e.seat) table.turn = null;
    }
    return true;
  }
  if (TABLE_EVENTS[e.type]) {
    TABLE_EVENTS[e.type](table, e, me);
    return true;
  }
  return e.type === "player_timed_out";
}

export function applyTurn(table, turn) {
  table.turn = turn;
  if (table.hand && table.hand.id === turn.hand_id) {
    table.hand.actor = turn.seat;
    if (turn.legal_actions && turn.legal_actions.some((a) => a.action === "show")) enterShowdown(table.hand);
  }
}
