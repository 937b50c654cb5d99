// Main and side pots, the way the server forms them (app/poker/pots.py):
// street contributions by level, folded chips feeding the levels they reached.

export function buildPots(contributions, contending) {
  const seats = Object.keys(contributions).map(Number);
  const levels = [...new Set(seats.filter((s) => contending(s) && contributions[s] > 0)
    .map((s) => contributions[s]))].sort((a, b) => a - b);
  const pots = [];
  let previous = 0;
  for (const level of levels) {
    let amount = 0;
    for (const s of seats) amount += Math.min(contributions[s], level) - Math.min(contributions[s], previous);
    const eligible = seats.filter((s) => contending(s) && contributions[s] >= level);
    const last = pots[pots.length - 1];
    if (last && sameSeats(last.seats, eligible)) last.amount += amount;
    else pots.push({ amount, seats: eligible });
    previous = level;
  }
  const leftover = seats.reduce((sum, s) => sum + Math.max(0, contributions[s] - previous), 0);
  if (!pots.length) {
    return leftover ? [{ amount: leftover, seats: seats.filter((s) => contending(s)) }] : [];
  }
  pots[pots.length - 1].amount += leftover;
  return pots;
}

export function sameSeats(a, b) {
  return a.length === b.length && a.every((seat, i) => seat === b[i]);
}

// Add one street's pots to the pots already formed (a pot with the same
// contenders as the last one is the same pot).
export function mergePots(formed, street) {
  const out = formed.map((pot) => ({ amount: pot.amount, seats: [...pot.seats] }));
  for (const pot of street) {
    const last = out[out.length - 1];
    if (last && sameSeats(last.seats, pot.seats)) last.amount += pot.amount;
    else out.push({ amount: pot.amount, seats: [...pot.seats] });
  }
  return out;
}
