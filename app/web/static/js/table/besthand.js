// Which five of the seven cards make a hand (in Omaha, two hole cards and three of the
// board), to highlight them after the showdown. The server names the winner and the
// hand; this only picks the cards to light up.

import { gameOf } from "../games.js";

const ORDER = "23456789TJQKA";

function value(card) {
  return ORDER.indexOf(card[0] === "1" ? "T" : card[0].toUpperCase());
}

// A comparable score of five cards: category first, then the ranks that break ties.
function score(cards) {
  const values = cards.map(value).sort((a, b) => b - a);
  const flush = cards.every((c) => c[c.length - 1] === cards[0][cards[0].length - 1]);
  const unique = [...new Set(values)];
  let straightHigh = -1;
  if (unique.length === 5) {
    if (values[0] - values[4] === 4) straightHigh = values[0];
    else if (values[0] === 12 && values[1] === 3) straightHigh = 3;
  }
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join("");
  const kickers = groups.map((g) => g[0]);
  let category;
  if (straightHigh >= 0 && flush) category = 8;
  else if (shape === "41") category = 7;
  else if (shape === "32") category = 6;
  else if (flush) category = 5;
  else if (straightHigh >= 0) category = 4;
  else if (shape === "311") category = 3;
  else if (shape === "221") category = 2;
  else if (shape === "2111") category = 1;
  else category = 0;
  const ties = straightHigh >= 0 ? [straightHigh] : kickers;
  return [category, ...ties];
}

function better(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) > (b[i] ?? -1);
  }
  return false;
}

// Every way to choose `k` of `cards`.
function choose(cards, k, start = 0, chosen = [], out = []) {
  if (chosen.length === k) out.push(chosen);
  else for (let i = start; i <= cards.length - (k - chosen.length); i += 1) choose(cards, k, i + 1, [...chosen, cards[i]], out);
  return out;
}

function unknown(cards) {
  return cards.some((c) => !c || c[0].toUpperCase() === "X");
}

function strongest(hands) {
  let best = [];
  let bestScore = null;
  for (const hand of hands) {
    const s = score(hand);
    if (!bestScore || better(s, bestScore)) {
      best = hand;
      bestScore = s;
    }
  }
  return best;
}

// The best five of `hole` and `board` together, or in Omaha two of `hole` and three of
// `board`; [] while a card is unknown or the board is short.
export function bestFive(hole, board, { omaha = false } = {}) {
  const all = [...hole, ...board];
  if (all.length < 5 || unknown(all) || (omaha && board.length < 3)) return [];
  if (!omaha) return strongest(choose(all, 5));
  const hands = [];
  for (const two of choose(hole, 2)) for (const three of choose(board, 3)) hands.push([...two, ...three]);
  return strongest(hands);
}

const NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const plural = (v) => (v === 4 ? "sixes" : `${NAMES[v]}s`);

// A five-card score in words: "Pair of sevens", "Two pair, nines and sevens".
function words([category, a, b]) {
  switch (category) {
    case 8: return a === 12 ? "Royal flush" : `Straight flush, ${NAMES[a]} high`;
    case 7: return `Four of a kind, ${plural(a)}`;
    case 6: return `Full house, ${plural(a)} full of ${plural(b)}`;
    case 5: return `Flush, ${NAMES[a]} high`;
    case 4: return `Straight, ${NAMES[a]} high`;
    case 3: return `Three of a kind, ${plural(a)}`;
    case 2: return `Two pair, ${plural(a)} and ${plural(b)}`;
    case 1: return `Pair of ${plural(a)}`;
    default: return `${NAMES[a][0].toUpperCase()}${NAMES[a].slice(1)} high`;
  }
}

// Five cards in the order a hand is read: the biggest group first, then by rank, a
// straight from its top card down (a wheel's ace last).
function inOrder(cards) {
  const [category, high] = score(cards);
  const counts = new Map();
  for (const c of cards) counts.set(value(c), (counts.get(value(c)) || 0) + 1);
  const straight = category === 4 || category === 8;
  const rank = (c) => (straight && high === 3 && value(c) === 12 ? -1 : value(c));
  return [...cards].sort((a, b) => (straight ? 0 : counts.get(value(b)) - counts.get(value(a)))
    || rank(b) - rank(a));
}

// The hand that won at the showdown: its name with its ranks ("Two pair, nines and
// sevens") and its five cards in order; null while a card is unknown.
export function showdownHand(hole, board, { omaha = false } = {}) {
  const best = bestFive(hole, board, { omaha });
  if (!best.length) return null;
  return { name: words(score(best)), cards: inOrder(best) };
}

// The winning hand of a pot awarded at a showdown (`award`, a pot_awarded event), named
// with its ranks, with its cards in order; null when no cards were shown for it.
export function winningHand(table, award) {
  const hand = table.hand;
  if (!award.hand || !hand || !hand.seats[award.seats[0]]) return null;
  const hole = hand.seats[award.seats[0]].cards;
  const board = award.run === 1 ? hand.board2 : hand.board;
  return hole ? showdownHand(hole, board, { omaha: gameOf(table.config).omaha }) : null;
}

// Four cards of one suit among `cards`, short of a flush, with cards still to come.
function flushDraw(cards) {
  const suits = new Map();
  for (const c of cards) suits.set(c[c.length - 1], (suits.get(c[c.length - 1]) || 0) + 1);
  return [...suits.values()].some((n) => n === 4);
}

// Your hand in words while you play: before the flop a pair or the high card of your
// hole cards, after it the best five of `hole` and `board` (see bestFive), with
// "flush draw" while one card would make a flush. "" while a card is unknown.
export function handInWords(hole, board, { omaha = false } = {}) {
  if (!hole.length || unknown([...hole, ...board])) return "";
  if (board.length < 3) {
    const values = hole.map(value).sort((x, y) => y - x);
    const pair = values.find((v, i) => values.indexOf(v) !== i);
    return words(pair === undefined ? [0, values[0]] : [1, pair]);
  }
  const best = bestFive(hole, board, { omaha });
  const made = words(score(best));
  const category = score(best)[0];
  const draw = board.length < 5 && category < 4 && !omaha && flushDraw([...hole, ...board]);
  return draw ? `${made}, flush draw` : made;
}
