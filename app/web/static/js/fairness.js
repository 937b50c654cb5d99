// The provably fair shuffle (docs/FAIRNESS.md), recomputed in the browser with Web Crypto,
// so a player can check a hand without trusting the server's own arithmetic.

const SCHEME = "holdem-fair-v1";
const RANKS = "23456789TJQKA";
const SUITS = "cdhs";
const encoder = new TextEncoder();

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const SEEDS_KEY = "holdem-client-seeds";
const SEEDS_KEPT = 200;

function mySeeds() {
  try {
    return JSON.parse(localStorage.getItem(SEEDS_KEY) || "[]");
  } catch {
    return [];
  }
}

// A fresh random client seed (16 random bytes as 22 URL-safe base64 characters), remembered
// in this browser so that a later check can tell that our seed went into a deck.
export function newClientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const seed = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  try {
    localStorage.setItem(SEEDS_KEY, JSON.stringify([...mySeeds(), seed].slice(-SEEDS_KEPT)));
  } catch {
    // Storage full or disabled: the seed still counts, it just cannot be recognised later.
  }
  return seed;
}

// Whether one of these client seeds was sent from this browser.
export function includesMySeed(clientSeeds) {
  const mine = new Set(mySeeds());
  return clientSeeds.some((c) => mine.has(c.seed));
}

const COMMITMENTS_KEY = "holdem-announced-commitments";
const COMMITMENTS_KEPT = 500;

function announcements() {
  try {
    return JSON.parse(localStorage.getItem(COMMITMENTS_KEY) || "[]");
  } catch {
    return [];
  }
}

// Remember the commitment a table announced in `hand_started`, before the deal, so that a
// later check compares the revealed seed with it rather than with the hand's own record.
export function rememberCommitment(handId, commitment) {
  if (!handId || !commitment) return;
  try {
    const kept = announcements().filter(([id]) => id !== handId);
    localStorage.setItem(COMMITMENTS_KEY, JSON.stringify([...kept, [handId, commitment]].slice(-COMMITMENTS_KEPT)));
  } catch {
    // Storage full or disabled (or no browser at all): the check will say it was not seen.
  }
}

// The commitment this browser saw announced before the hand's deal, or null.
export function announcedCommitment(handId) {
  const found = announcements().find(([id]) => id === handId);
  return found ? found[1] : null;
}

export function canVerify() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

export async function commitmentOf(serverSeed) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(serverSeed)));
}

function message(clientSeeds) {
  const sorted = [...clientSeeds].sort((a, b) => a.seat - b.seat);
  return SCHEME + sorted.map((c) => `\n${c.seat}:${c.seed}`).join("");
}

// The deck (top card first) that a server seed and the client seeds determine.
export async function fairDeck(serverSeed, clientSeeds) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(serverSeed),
    { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const base = message(clientSeeds);
  let counter = 0;
  let block = new Uint8Array(0);
  let at = 0;
  const next = async () => {
    if (at >= block.length) {
      block = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${base}:${counter}`)));
      counter += 1;
      at = 0;
    }
    return block[at++];
  };
  const deck = Array.from({ length: 52 }, (_, id) => RANKS[id >> 2] + SUITS[id & 3]);
  for (let i = 51; i > 0; i -= 1) {
    const n = i + 1;
    const limit = 256 - (256 % n);
    let byte = await next();
    while (byte >= limit) byte = await next();
    const j = byte % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

// The cards a PHH text shows: hole cards by player (p1 first; null when hidden) and the board.
function dealtIn(phh) {
  const stacks = /starting_stacks = \[([^\]]*)\]/.exec(phh);
  const players = stacks ? stacks[1].split(",").length : 0;
  const holes = Array.from({ length: players }, () => null);
  for (const m of phh.matchAll(/"d dh p(\d+) ([^"?]+)"/g)) holes[Number(m[1]) - 1] = [m[2].slice(0, 2), m[2].slice(2, 4)];
  const board = [...phh.matchAll(/"d db ([^"]+)"/g)].flatMap((m) => m[1].match(/../g));
  return { holes, board };
}

// Check a stored hand: the revealed seed against the commitment this browser saw announced
// before the deal (and against the one the record shows), then every card the history shows
// against its place in the recomputed deck. Returns { ok, checked, problem, announced }:
// `announced` is false when this browser did not see the hand start, so the seed could only
// be checked against the commitment published with it, after the fact.
export async function verifyHand(fairness, phh, handId) {
  const seedHash = await commitmentOf(fairness.server_seed);
  const announced = announcedCommitment(handId);
  if (announced !== null && seedHash !== announced) {
    return { ok: false, checked: 0, announced: true,
      problem: `the server seed does not match the commitment announced before the deal (${announced.slice(0, 16)}…)` };
  }
  if (seedHash !== fairness.commitment) {
    return { ok: false, checked: 0, announced: announced !== null, problem: "the server seed does not match its commitment" };
  }
  const deck = await fairDeck(fairness.server_seed, fairness.client_seeds);
  const { holes, board } = dealtIn(phh);
  const n = holes.length;
  const expected = [];
  holes.forEach((cards, p) => {
    if (cards) expected.push([`p${p + 1}'s first card`, p, cards[0]], [`p${p + 1}'s second card`, n + p, cards[1]]);
  });
  const places = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7];
  board.forEach((card, k) => expected.push([`board card ${k + 1}`, places[k], card]));
  for (const [where, place, card] of expected) {
    if (deck[place] !== card) return { ok: false, checked: 0, announced: announced !== null, problem: `${where} is ${card}, but the seeds put ${deck[place]} there` };
  }
  return { ok: true, checked: expected.length, problem: null, announced: announced !== null };
}
