// Playing cards drawn with CSS and the suit symbols in the page's SVG sprite.
// A card is its text form, "Ah", "Td", "2c"; null is a card face down.

import { icon } from "./format.js";

const RANKS = { A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "Ten", 9: "Nine", 8: "Eight",
  7: "Seven", 6: "Six", 5: "Five", 4: "Four", 3: "Three", 2: "Two", X: "Joker" };
const SUITS = { s: "spades", h: "hearts", d: "diamonds", c: "clubs", x: "" };

export function parseCard(text) {
  const code = String(text).trim();
  const rank = code.length === 3 && code.startsWith("10") ? "T" : code[0].toUpperCase();
  return { rank, suit: code[code.length - 1].toLowerCase() };
}

export function cardName(text) {
  if (text === null || text === undefined) return "face-down card";
  const { rank, suit } = parseCard(text);
  if (rank === "X") return "Joker";
  return `${RANKS[rank] || rank} of ${SUITS[suit] || suit}`;
}

export function cardElement(text, { deal = false } = {}) {
  const node = document.createElement("span");
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", cardName(text));
  if (text === null || text === undefined) {
    node.className = "pcard back";
    return node;
  }
  const { rank, suit } = parseCard(text);
  node.className = `pcard suit-${suit}${deal ? " deal" : ""}`;
  node.dataset.card = `${rank}${suit}`;
  const label = document.createElement("span");
  label.className = "rank";
  label.textContent = rank === "T" ? "10" : rank === "X" ? "★" : rank;
  node.append(label);
  if (SUITS[suit]) node.append(icon(`suit-${suit}`, "pip-small"), icon(`suit-${suit}`, "pip"));
  return node;
}

export function slotElement() {
  const node = document.createElement("span");
  node.className = "pcard slot";
  node.setAttribute("aria-hidden", "true");
  return node;
}

// The cards `texts` as a row; `count` face-down ones when the texts are unknown.
export function cardRow(texts, { count = 0, className = "", deal = false } = {}) {
  const row = document.createElement("span");
  row.className = `cards ${className}`.trim();
  if (texts && texts.length) {
    for (const text of texts) row.append(cardElement(text, { deal }));
  } else {
    for (let i = 0; i < count; i += 1) row.append(cardElement(null));
  }
  return row;
}
