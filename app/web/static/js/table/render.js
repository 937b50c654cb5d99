// Drawing the table: seats around the oval, bets, the button, the board, pots, result.

import { cardElement, cardRow, slotElement } from "../cards.js";
import { chips, el, icon } from "../format.js";
import { gameOf } from "../games.js";
import { handInWords, winningHand } from "./besthand.js";
import { seatClockText } from "./clock.js";
import { handName, twice } from "./log.js";
import { mySeat, nameOf, potCollected, potTotal } from "./state.js";

const STATUS_LABELS = {
  folded: "Folded", mucked: "Mucked", all_in: "All-in", sitting_out: "Sitting out",
  waiting_for_big_blind: "Waits for the big blind",
};
const boardShown = [0, 0];

// The angle of the point of the oval that lies `share` of the way round it (from the
// bottom centre, clockwise), for an oval `aspect` times as tall as it is wide: points at
// equal steps of the way, not of the angle, which would crowd the seats where the oval is
// narrow (the top and bottom of a phone's tall table, the sides of a desktop's wide one).
const STEPS = 720;
const angleTables = new Map();

function angleAt(share, aspect) {
  const key = aspect.toFixed(2);
  let table = angleTables.get(key);
  if (!table) {
    table = [0];
    for (let i = 1; i <= STEPS; i += 1) {
      const angle = Math.PI / 2 + ((i - 0.5) * 2 * Math.PI) / STEPS;
      table.push(table[i - 1] + Math.hypot(Math.sin(angle), aspect * Math.cos(angle)));
    }
    angleTables.set(key, table);
  }
  const target = (((share % 1) + 1) % 1) * table[STEPS];
  let low = 0;
  let high = STEPS;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (table[middle] <= target) low = middle;
    else high = middle;
  }
  const part = (target - table[low]) / (table[high] - table[low] || 1);
  return Math.PI / 2 + ((low + part) * 2 * Math.PI) / STEPS;
}

// Where display position `k` of `n` sits, as percentages of the felt (`aspect`: its
// height over its width); 0 is bottom centre, and positions go clockwise as seen from
// above, like the seats at a real table.
function spot(k, n, radius, aspect = 1) {
  const angle = angleAt(k / n, aspect);
  return { x: 50 + 50 * radius * Math.cos(angle), y: 50 + 50 * radius * Math.sin(angle) };
}

// Where seat `k` of `n` (0 at the bottom, clockwise) sits round an oval `aspect` times as
// tall as it is wide, as percentages of it (the replayer's table uses it too).
export function seatSpot(k, n, aspect) {
  return spot(k, n, 1, aspect);
}

function place(node, point) {
  node.style.left = `${point.x}%`;
  node.style.top = `${point.y}%`;
  return node;
}

function avatar(player) {
  if (!player.public_id && !player.bot) return el("span", { className: "avatar seat-avatar", "aria-hidden": "true" });
  if (player.bot) {
    return el("span", { className: "avatar seat-avatar bot-avatar", role: "img", "aria-label": `Bot, ${player.bot} style` },
      icon("bot", "bot-icon"));
  }
  return el("img", { className: "avatar seat-avatar", src: `/users/${encodeURIComponent(player.public_id)}/avatar`, alt: "" });
}

// The bar that empties as the clock runs (the whole bank's length once the bank runs),
// with the seconds left written on the seat.
function timer(turn, config) {
  const total = Math.max(1, turn.time_bank ? turn.bank || 1 : config.action_seconds);
  let left = turn.deadline - Date.now() / 1000;
  if (!(left >= 0 && left <= total + 2)) left = Math.min(Math.max(left, 0), total);
  const label = turn.time_bank ? `${Math.ceil(left)} seconds left in the time bank` : `${Math.ceil(left)} seconds to act`;
  const bar = el("div", { className: "timer", role: "timer", "aria-label": label },
    el("div", { className: "timer-fill" }));
  bar.firstChild.style.setProperty("--total", `${total}s`);
  bar.firstChild.style.setProperty("--elapsed", `${-(total - left)}s`);
  if (turn.time_bank) bar.classList.add("time-bank");
  const seconds = el("span", { className: "seat-clock", "aria-hidden": "true" }, seatClockText(turn));
  seconds.classList.toggle("time-bank", Boolean(turn.time_bank));
  return [bar, seconds];
}

// Face down for others until shown; our own, face up, at our seat as at a real table.
function seatCards(inHand, game) {
  if (!inHand || !inHand.dealt || inHand.status === "folded" || inHand.status === "mucked") return null;
  return cardRow(inHand.cards, { count: game.cards, className: `cards-sm seat-cards seat-cards-${game.cards}` });
}

function seatNode(table, me, seatNumber, k, n, aspect, extras) {
  const taken = table.seats[seatNumber];
  const hand = table.hand;
  const inHand = hand ? hand.seats[seatNumber] : null;
  const mine = mySeat(table, me) === seatNumber;
  const node = place(el("div", { className: "seat", dataset: { seat: seatNumber } }), spot(k, n, 1, aspect));
  // A seat nobody holds is empty, even while the finished hand it played in stays shown.
  if (!taken) {
    node.classList.add("empty");
    const canSit = me && mySeat(table, me) === null && !table.closed;
    node.append(canSit
      ? el("button", { type: "button", className: "button button-small sit-button", dataset: { sit: seatNumber },
        "aria-label": `Sit in seat ${seatNumber + 1}` }, "Sit here")
      : el("span", { className: "seat-empty-label" }, `Seat ${seatNumber + 1}`));
    return node;
  }
  const player = taken.player;
  // The robot avatar already says "bot"; the name keeps the room for the name itself.
  const shortName = player.bot ? player.name.replace(/ \(bot\)$/, "") : player.name;
  const status = inHand ? inHand.status : taken.status;
  const stack = inHand ? inHand.stack : taken.stack;
  const isActor = table.turn && table.turn.seat === seatNumber && hand && hand.phase !== "complete";
  const won = inHand && inHand.won > 0 && hand.phase === "complete";
  node.classList.toggle("mine", mine);
  node.classList.toggle("actor", Boolean(isActor));
  node.classList.toggle("out", ["folded", "mucked", "sitting_out"].includes(status)
    || taken.status === "sitting_out");
  node.classList.toggle("winner", Boolean(won));
  const badges = [];
  // Once the hand is over what a seat won says it all ("All-in" is history by then).
  if (won) badges.push(`Won ${chips(inHand.won)}`);
  else if (STATUS_LABELS[status] && status !== "waiting_for_big_blind") badges.push(STATUS_LABELS[status]);
  else if (inHand && inHand.lastAction && hand.phase !== "complete") badges.push(actionLabel(inHand.lastAction));
  if (inHand && taken.status === "sitting_out" && status !== "sitting_out") badges.push(STATUS_LABELS.sitting_out);
  if (!taken.connected) badges.push("Disconnected");
  if (taken.leaving) badges.push("Leaving");
  const cards = seatCards(inHand, gameOf(table.config));
  if (cards && mine) cards.setAttribute("aria-label", "Your cards");
  node.append(
    cards || el("span", { className: "seat-cards-space" }),
    el("div", { className: "seat-box" },
      avatar(player),
      el("div", { className: "seat-info" },
        el("span", { className: "seat-name", title: player.name }, shortName,
          mine ? el("span", { className: "visually-hidden" }, " (you)") : ""),
        el("span", { className: "seat-stack", "aria-label": `stack ${chips(stack)}` }, chips(stack)),
        extras ? extras.node(player) : null,
        badges.length ? el("span", { className: "seat-badges" },
          ...badges.map((text) => el("span", { className: "seat-badge" }, text))) : null),
      // The chances are news only while the board is still coming: not beside "Won 350".
      inHand && inHand.equity !== undefined && hand.phase !== "complete"
        ? el("span", { className: "seat-equity", title: "Chance of the pot from here" },
          `${(100 * inHand.equity).toFixed(1)}%`)
        : null,
      ...(isActor ? timer(table.turn, table.config) : [])),
  );
  return node;
}

// A seat's last action of the street, as it shows on the seat until the street ends.
const ACTION_LABELS = { check: "Check", call: "Call", bet: "Bet", raise: "Raise to", all_in: "All-in" };

function actionLabel({ action, total }) {
  if (action === "check" || action === "all_in" || !total) return ACTION_LABELS[action] || action;
  return `${ACTION_LABELS[action] || action} ${chips(total)}`;
}

function chipStack(amount, className) {
  return el("div", { className }, el("span", { className: "chip", "aria-hidden": "true" }), chips(amount));
}

// `extras` (optional): what you keep about each player (table/hud.js SeatExtras).
// The felt's shape (its height over its width), read when it changes size, not at every
// render: reading a size after the page changed makes the browser lay it out at once.
let aspect = 1;

export function measureFelt(felt) {
  aspect = felt.clientWidth ? felt.clientHeight / felt.clientWidth : 1;
}

export function renderSeats(container, table, me, extras = null) {
  const n = table.config.seats;
  const anchor = mySeat(table, me) ?? 0;
  const nodes = [];
  for (let seat = 0; seat < n; seat += 1) {
    const k = (seat - anchor + n) % n;
    const node = seatNode(table, me, seat, k, n, aspect, extras);
    nodes.push(node);
    const inwards = towardCentre(spot(k, n, 1, aspect), aspect);
    const inHand = table.hand ? table.hand.seats[seat] : null;
    if (inHand && inHand.bet > 0) {
      const bet = chipStack(inHand.bet, "bet");
      bet.dataset.seat = seat;
      bet.setAttribute("aria-label", `${nameOf(table, seat)} bets ${chips(inHand.bet)}`);
      node.append(besideSeat(bet, inwards));
    }
    if (table.button === seat && (table.hand || Object.keys(table.seats).length)) {
      const button = el("div", { className: "dealer-button", title: "Dealer button", "aria-label": `${nameOf(table, seat)} has the dealer button` }, "D");
      node.append(besideSeat(button, turned(inwards, 1.1)));
    }
  }
  container.replaceChildren(...nodes);
}

// The direction from a seat at `point` (percentages of the felt) to the felt's centre,
// in the felt's own proportions, scaled so its longer part is 1: a point of the seat's
// outline is then (50% + 50% x, 50% + 50% y) of the seat.
function towardCentre(point, aspect) {
  const x = 50 - point.x;
  const y = (50 - point.y) * aspect;
  const longest = Math.max(Math.abs(x), Math.abs(y)) || 1;
  return { x: x / longest, y: y / longest };
}

function turned({ x, y }, angle) {
  const a = Math.cos(angle) * x - Math.sin(angle) * y;
  const b = Math.sin(angle) * x + Math.cos(angle) * y;
  const longest = Math.max(Math.abs(a), Math.abs(b)) || 1;
  return { x: a / longest, y: b / longest };
}

// A bet or the dealer button just outside its seat (cards included), on the side
// `toward` points to: never under the seat, whatever the seat's size.
function besideSeat(node, toward) {
  node.classList.add("beside-seat");
  node.style.left = `${50 + 50 * toward.x}%`;
  node.style.top = `${50 + 50 * toward.y}%`;
  node.style.setProperty("--out-x", toward.x.toFixed(3));
  node.style.setProperty("--out-y", toward.y.toFixed(3));
  return node;
}

// One board: its cards (dealt ones animated), empty slots, the winning cards lit.
function drawBoard(board, cards, winners, run, label) {
  const row = [];
  for (let i = 0; i < 5; i += 1) {
    if (i < cards.length) {
      const card = cardElement(cards[i], { deal: i >= boardShown[run] });
      if (winners) card.classList.add(winners.has(cards[i]) ? "highlight" : "dim");
      row.push(card);
    } else {
      row.push(slotElement());
    }
  }
  boardShown[run] = cards.length;
  board.replaceChildren(...row);
  board.classList.toggle("cards-lg", true);
  board.setAttribute("aria-label", cards.length ? `${label}: ${cards.join(" ")}` : `${label}: no cards yet`);
}

export function renderCenter(table, me) {
  const hand = table.hand;
  const two = twice(table);
  const winners = winningCards(table, 0);
  document.getElementById("board").classList.toggle("twice", two);
  drawBoard(document.getElementById("board"), hand ? hand.board : [], winners, 0,
    two ? "First board" : "Board");
  const second = document.getElementById("board-second");
  second.hidden = !two;
  if (two) drawBoard(second, hand.board2, winningCards(table, 1), 1, "Second board");
  else boardShown[1] = 0;
  renderQuestion(table, me);

  // "Pot" is what earlier streets collected, as at the big sites; the bets in front of the
  // seats join it when the street ends. The total counts both.
  const pots = document.getElementById("pots");
  const collected = potCollected(hand);
  const total = potTotal(hand);
  const live = hand ? hand.pots.filter((p) => p.amount > 0) : [];
  const pot = collected ? chipStack(collected, "pot-total") : null;
  if (pot) pot.prepend("Pot ");
  pots.replaceChildren(
    pot || "",
    total > collected ? el("div", { className: "pot-grand" }, `Total pot ${chips(total)}`) : "",
    live.length > 1 ? el("div", { className: "side-pots" },
      live.map((p, i) => `${i === 0 ? "Main" : `Side ${i}`} ${chips(p.amount)}`).join(" · ")) : "",
  );

  document.getElementById("result").replaceChildren(...resultLines(table));
  document.getElementById("hand-number").textContent = hand && hand.number ? `Hand #${hand.number}` : "";
  renderMyCards(table, me, winners);
}

// What the hand's end says; a table that closed keeps its last result in view, the
// closing said after it (a sit & go's last showdown is the moment it was won).
function resultLines(table) {
  const lines = handResultLines(table);
  if (table.closed) lines.push(el("p", { className: "result-line" }, `Table closed: ${table.closed}`));
  return lines;
}

function handResultLines(table) {
  if (table.voided) return [el("p", { className: "result-line" }, `Hand cancelled: ${table.voided}`)];
  const hand = table.hand;
  if (!hand || !hand.awards.length) {
    if (!hand && !table.closed && Object.keys(table.seats).length < 2) return [el("p", { className: "result-line muted" }, "Waiting for players…")];
    return [];
  }
  const two = twice(table);
  return hand.awards.map((award) => {
    const names = award.seats.map((seat) => nameOf(table, seat)).join(" and ");
    const verb = award.seats.length > 1 ? "split" : "wins";
    const from = award.pot === 0 ? "" : ` from side pot ${award.pot}`;
    const board = two ? `Board ${award.run + 1}: ` : "";
    const line = el("p", { className: "result-line", dataset: { run: award.run || 0 } },
      `${board}${names} ${verb} ${chips(award.amount)}${from}`);
    const shown = winningHand(table, award);
    if (award.hand) line.append(" with ", el("strong", { className: "hand-name" }, shown ? shown.name : handName(award.hand)));
    // Two boards leave no room for the cards again: they are lit on the boards.
    if (shown && !two) line.append(" ", cardRow(shown.cards, { className: "cards-sm result-cards" }));
    return line;
  });
}


// The cards that won the first pot settled on board `run` (0 or 1).
function winningCards(table, run) {
  const hand = table.hand;
  if (!hand || hand.phase !== "complete") return null;
  const award = hand.awards.find((a) => (a.run || 0) === run);
  const shown = award ? winningHand(table, award) : null;
  return shown ? new Set(shown.cards) : null;
}

const WHO = new Intl.ListFormat("en-GB", { style: "long", type: "conjunction" });

// The run-it-twice question: buttons for a player still to answer, who is awaited for all.
function renderQuestion(table, me) {
  const hand = table.hand;
  const asking = Boolean(hand && hand.phase === "run_it_twice" && hand.asked.length);
  const seat = mySeat(table, me);
  const mine = asking && hand.asked.includes(seat);
  const box = document.getElementById("run-twice");
  if (box.hidden === mine || box.dataset.hand !== (hand ? hand.id : "")) {
    box.hidden = !mine;
    box.dataset.hand = hand ? hand.id : "";
    for (const button of box.querySelectorAll("button")) button.disabled = false;
  }
  const wait = document.getElementById("run-twice-wait");
  wait.hidden = !asking;
  if (asking) {
    // "you and Jon", "you, Ann and Bob": everyone still to answer, you first.
    const asked = [...hand.asked].sort((a, b) => (b === seat) - (a === seat));
    const names = WHO.format(asked.map((s) => (s === seat ? "you" : nameOf(table, s))));
    wait.textContent = `Run it twice? Waiting for ${names}`;
  }
}

function watchingHint(table, me) {
  if (!me) return "Watching. Log in to play.";
  if (table.closed) return "This table is closed.";
  if (Object.keys(table.seats).length >= table.config.seats) return "Watching: the table is full. Join the waiting list to get the next free seat.";
  return "Watching: pick an empty seat to play.";
}

function renderMyCards(table, me, winners) {
  const slot = document.getElementById("my-cards");
  const seat = mySeat(table, me);
  const inHand = table.hand && seat !== null ? table.hand.seats[seat] : null;
  if (!inHand || !inHand.cards) {
    slot.replaceChildren(seat === null ? el("span", { className: "hint" }, watchingHint(table, me)) : "");
    return;
  }
  const row = cardRow(inHand.cards, { className: `cards-lg my-cards-${inHand.cards.length}` });
  if (["folded", "mucked"].includes(inHand.status)) row.classList.add("folded-cards");
  if (winners) for (const card of row.children) card.classList.add(winners.has(card.dataset.card) ? "highlight" : "dim");
  const live = !["folded", "mucked"].includes(inHand.status);
  const hand = live ? handInWords(inHand.cards, table.hand.board, { omaha: gameOf(table.config).omaha }) : "";
  slot.replaceChildren(row, ...(hand ? [el("span", { className: "my-hand", id: "my-hand" }, hand)] : []));
}
