// Which five of the seven cards make a hand (in Omaha, two hole cards and three of the
// board), to highlight them after the showdown. The server names the winner and the
// hand; this only picks the cards to light up.

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
