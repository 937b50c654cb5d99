// Chips that move as at a real table: when a street ends the bets in front of the seats
// slide into the pot, an uncalled bet slides back to its seat, and a pot slides to whoever
// wins it. A chip is drawn over the table for a moment after the table is already drawn as
// it now is, so nothing waits for it; none moves for people who ask for less motion or
// while the tab is hidden.

const FLIGHT_MS = 450;
// The events that can take bets off the felt (they end a street, return a bet or award a
// pot: see table/state.js); the felt is measured before those alone.
const MOVING = new Set(["board_dealt", "run_it_twice_offered", "uncalled_bet_returned",
  "hand_shown", "hand_mucked", "pot_awarded"]);
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

function fly(from, to) {
  const chip = document.createElement("div");
  chip.className = "chip chip-flight";
  chip.setAttribute("aria-hidden", "true");
  chip.style.left = `${from.x}px`;
  chip.style.top = `${from.y}px`;
  document.body.append(chip);
  chip.animate(
    [{ transform: "translate(-50%, -50%)" },
      { transform: `translate(calc(-50% + ${to.x - from.x}px), calc(-50% + ${to.y - from.y}px))` }],
    { duration: FLIGHT_MS, easing: "ease-in-out" },
  ).onfinish = () => chip.remove();
}

function seatBox(seat) {
  return document.querySelector(`.seat[data-seat="${seat}"] .seat-box`);
}

function potNode() {
  return document.querySelector("#pots .pot-total") || document.getElementById("pots");
}

// Before `event` is drawn: where its chips start from (null: none move).
export function takeOff(event) {
  if (reduced.matches || document.hidden || !MOVING.has(event.type)) return null;
  const bets = new Map([...document.querySelectorAll("#seats .bet")].map((bet) => [bet.dataset.seat, centre(bet)]));
  const pot = event.type === "pot_awarded" && potNode() ? centre(potNode()) : null;
  return bets.size || pot ? { event, bets, pot } : null;
}

// After it is drawn: the chips go where the event sent them.
export function land(flight) {
  if (!flight) return;
  const { event, bets, pot } = flight;
  const still = new Set([...document.querySelectorAll("#seats .bet")].map((bet) => bet.dataset.seat));
  for (const [seat, from] of bets) {
    if (still.has(seat)) continue;
    const back = event.type === "uncalled_bet_returned" && String(event.seat) === seat;
    const target = back ? seatBox(seat) : potNode();
    if (target) fly(from, centre(target));
  }
  if (pot) {
    for (const seat of event.seats) {
      const box = seatBox(seat);
      if (box) fly(pot, centre(box));
    }
  }
}
