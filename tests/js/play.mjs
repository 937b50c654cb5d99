// Plays one hand with socket.io-client 4 against a live holdem-server.
// Usage: node play.mjs URL TOKEN TABLE_ID SEAT BUY_IN
// Sits down, checks (else calls) on every turn of its own, and prints one JSON line
// describing what it saw when the hand ends.
import { io } from "socket.io-client";

const [url, token, tableId, seat, buyIn] = process.argv.slice(2);
const seen = { connected: false, hole: null, turns: 0, acted: [], events: [], seqs: [],
               ended: null, errors: [] };

const socket = io(url, { auth: { token }, transports: ["websocket"], reconnection: false });
// The ack of our last action may come after the hand's end reached us: wait for it.
let acting = Promise.resolve();
const give_up = setTimeout(() => finish(2), 20000);

function finish(code) {
  clearTimeout(give_up);
  console.log(JSON.stringify(seen));
  socket.disconnect();
  process.exit(code);
}

socket.on("connect_error", (err) => { seen.errors.push(err.data || err.message); finish(1); });

socket.on("table:batch", (batch) => {
  for (const { event, data } of batch.messages) {
    for (const listener of socket.listeners(event)) listener(data);
  }
});

socket.on("table:event", (message) => {
  seen.seqs.push(message.seq);
  seen.events.push(message.event.type);
  const event = message.event;
  if (event.type === "hole_cards_dealt" && event.cards) seen.hole = event.cards;
  if (event.type === "hand_ended") {
    seen.ended = Object.fromEntries(event.seats.map((s, i) => [s, event.stacks[i]]));
    acting.then(() => finish(0));
  }
});

socket.on("table:turn", (turn) => {
  seen.seqs.push(turn.seq);
  if (!turn.legal_actions) return;
  seen.turns += 1;
  const kinds = turn.legal_actions.map((a) => a.action);
  const type = kinds.includes("check") ? "check" : kinds.includes("call") ? "call" : "muck";
  acting = socket.emitWithAck("table:action", { table_id: tableId, hand_id: turn.hand_id, type })
    .then((ack) => { if (ack.ok) seen.acted.push(type); else seen.errors.push(ack.error); });
});

socket.on("connect", async () => {
  seen.connected = true;
  const refused = await socket.emitWithAck("table:sit", { table_id: tableId, seat: 1, extra: 1 });
  if (refused.ok || refused.error.code !== "invalid_payload") seen.errors.push(refused);
  const sat = await socket.emitWithAck("table:sit",
    { table_id: tableId, seat: Number(seat), buy_in: Number(buyIn) });
  if (!sat.ok) { seen.errors.push(sat.error); finish(1); }
  console.log(JSON.stringify({ seated: sat.seat }));
});
