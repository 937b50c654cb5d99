// The games a table deals, as the server names them (docs/PROTOCOL.md, "Games"): the
// name players know, the short one of a table's title, the hole cards, the betting.

export const GAMES = {
  nlhe: { name: "No-Limit Hold'em", short: "NL", cards: 2, limit: "no" },
  flhe: { name: "Fixed-Limit Hold'em", short: "FL", cards: 2, limit: "fixed" },
  plhe: { name: "Pot-Limit Hold'em", short: "PL", cards: 2, limit: "pot" },
  plo: { name: "Pot-Limit Omaha", short: "PLO", cards: 4, limit: "pot", omaha: true },
  plo5: { name: "5-Card Pot-Limit Omaha", short: "PLO5", cards: 5, limit: "pot", omaha: true },
};

// The game of a table's config (or a listing, or a hand), No-Limit Hold'em when unsaid.
export function gameOf(settings) {
  return GAMES[settings && settings.game] || GAMES.nlhe;
}
