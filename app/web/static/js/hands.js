// A finished hand as stored by the server: players, board, pots, and its PHH text.

import { api } from "./api.js";
import { canVerify, includesMySeed, verifyHand } from "./fairness.js";
import { cardRow } from "./cards.js";
import { chips, dateTime, el, labelColumns, signed } from "./format.js";
import { gameOf } from "./games.js";
import { loadNotes, noteTag } from "./notes.js";
import { describe, handName } from "./table/log.js";
import { seatSpot } from "./table/render.js";

function playerName(summary, seat) {
  const row = summary.players.find((p) => p.seat === seat);
  return row ? row.player.name : `Seat ${seat + 1}`;
}

const PLAY_MS = 900;

// Step through a hand's frames (GET /hands/{id}/replay): only what the reader could see.
function publicIdOf(summary, seat) {
  const row = summary.players.find((p) => p.seat === seat);
  return row ? row.player.public_id : null;
}

// `notes`: your notes by public id, each player's tag shown beside their name.
function replayer(replay, summary, notes) {
  const table = { seats: Object.fromEntries(summary.players.map((p) => [p.seat, { player: p.player }])) };
  let step = 0;
  let timer = null;
  const stage = el("div", { className: "replay-stage" });
  const caption = el("p", { className: "replay-caption", role: "status" });
  const button = (label) => el("button", { type: "button", className: "button button-small" }, label);
  const back = button("Back");
  const play = button("Play");
  const forward = button("Forward");
  const last = replay.frames.length - 1;
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = "Play";
  };
  function show() {
    const frame = replay.frames[step];
    const hand = frame.hand;
    const said = frame.events.map((e) => describe(table, { event: e }, null, hand.viewer)).filter(Boolean);
    // Drawn as a table: the seats round an oval, the reader's at the bottom, the board
    // and the pot in the middle. (replaceChildren would write a missing part out as the
    // text "null": leave it out.)
    const mine = Math.max(0, hand.seats.findIndex((s) => s.seat === hand.viewer));
    const n = hand.seats.length;
    stage.replaceChildren(el("div", { className: "replay-felt" },
      el("div", { className: "replay-middle" }, ...[
        hand.board.length ? cardRow(hand.board, { className: "cards-sm" }) : el("span", { className: "hint" }, "no cards yet"),
        hand.boards && hand.boards.length > 1 ? cardRow(hand.boards[1], { className: "cards-sm replay-second" }) : null,
        el("span", { className: "replay-pot" }, `Pot ${chips(hand.pot_total)}`),
      ].filter(Boolean)),
      el("ul", { className: "replay-seats" }, ...hand.seats.map((s, i) => {
        const at = seatSpot((i - mine + n) % n, n, 0.5);
        const seat = el("li", { dataset: { seat: s.seat }, className: ["folded", "mucked"].includes(s.status) ? "out" : "" },
          cardRow(s.cards || [], { count: gameOf(hand).cards, className: "cards-sm" }),
          el("strong", {}, playerName(summary, s.seat)),
          noteTag(notes.get(publicIdOf(summary, s.seat))) || "",
          el("span", {}, `${chips(s.stack)}${s.bet ? ` · bet ${chips(s.bet)}` : ""}`
            + `${["folded", "mucked"].includes(s.status) ? ` · ${s.status}` : ""}`));
        seat.style.left = `${at.x}%`;
        seat.style.top = `${at.y}%`;
        return seat;
      }))));
    caption.textContent = `Step ${step + 1} of ${last + 1}: ${said.join("; ") || "the deal"}`;
    back.disabled = step === 0;
    forward.disabled = step === last;
  }
  back.addEventListener("click", () => { stop(); step = Math.max(0, step - 1); show(); });
  forward.addEventListener("click", () => { stop(); step = Math.min(last, step + 1); show(); });
  play.addEventListener("click", () => {
    if (timer) return stop();
    if (step === last) step = 0;
    play.textContent = "Pause";
    show();
    timer = setInterval(() => {
      step += 1;
      show();
      if (step >= last) stop();
    }, PLAY_MS);
  });
  show();
  return el("section", { className: "replayer", "aria-label": "Replayer" },
    el("div", { className: "replay-controls" }, back, play, forward,
      el("a", { href: replay.phh_url, download: "" }, "Download the PHH"),
      // The same hand for a tracker (PokerTracker, Hold'em Manager, Hand2Note...).
      el("a", { href: `/hands/${encodeURIComponent(replay.hand_id)}.txt`, download: "" }, "PokerStars text"),
      el("a", { href: `/hands/${encodeURIComponent(replay.hand_id)}.ohh`, download: "" }, "Open Hand History")),
    caption, stage);
}

export function handDetail(detail, phh, replay, notes = new Map()) {
  const summary = detail.summary;
  const players = el("table", { className: "data rows-as-cards" },
    el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Player"), el("th", {}, "Cards"),
      el("th", { className: "num" }, "Start"), el("th", { className: "num" }, "End"), el("th", { className: "num" }, "Net"))),
    el("tbody", {}, ...summary.players.map((p) => el("tr", {},
      el("td", {}, p.seat + 1, p.seat === summary.button ? " (button)" : ""),
      el("td", {}, p.player.name),
      el("td", {}, p.cards ? cardRow(p.cards, { className: "cards-sm" }) : el("span", { className: "hint" }, "not shown")),
      el("td", { className: "num" }, chips(p.starting_stack)),
      el("td", { className: "num" }, chips(p.final_stack)),
      el("td", { className: `num ${p.net >= 0 ? "plus" : "minus"}` }, signed(p.net))))));
  labelColumns(players);  // on a phone each player is a card: no column cut off
  // A hand run twice: its second board, and each pot settled in halves, one per board.
  const twice = Boolean(summary.boards && summary.boards.length > 1);
  const pots = el("ul", { className: "pot-list" }, ...summary.pots.map((pot) => el("li", {},
    `${pot.pot === 0 ? "Main pot" : `Side pot ${pot.pot}`} ${chips(pot.amount)}: `,
    twice ? `(board ${pot.run + 1}) ` : "",
    pot.seats.map((seat, i) => `${playerName(summary, seat)} ${chips(pot.amounts[i])}`).join(", "),
    pot.hand ? ` with ${handName(pot.hand)}` : "")));
  return el("div", { className: "hand-detail" },
    el("p", { className: "hint" }, `${gameOf(summary).name} · Blinds ${chips(summary.stakes.small_blind)}/${chips(summary.stakes.big_blind)} · ended ${dateTime(detail.ended_at)} · pot ${chips(summary.pot)}`,
      summary.rake ? el("span", { className: "hand-rake" }, ` · Rake ${chips(summary.rake)}`) : null),
    el("div", { className: "detail-board" }, el("strong", {}, "Board "), summary.board.length ? cardRow(summary.board, { className: "cards-sm" }) : "no cards dealt"),
    twice ? el("div", { className: "detail-board" }, el("strong", {}, "Second board "), cardRow(summary.boards[1], { className: "cards-sm" })) : null,
    el("div", { className: "table-scroll" }, players),
    pots,
    replay ? replayer(replay, summary, notes) : null,
    fairnessPanel(summary.fairness, phh, detail.id),
    phh ? el("details", { className: "phh" }, el("summary", {}, "Hand history (PHH)"), el("pre", {}, phh)) : null);
}

// The revealed seeds of a hand and a button that recomputes its deck in this browser.
function fairnessPanel(fairness, phh, handId) {
  if (!fairness) return el("p", { className: "hint" }, "This hand carries no shuffle seeds.");
  const result = el("p", { className: "verify-result", role: "status" });
  const seeds = fairness.client_seeds.map((c) => `seat ${c.seat + 1}: ${c.seed}`).join(", ") || "none";
  const button = el("button", { type: "button", className: "button button-small" }, "Verify the shuffle");
  button.addEventListener("click", async () => {
    if (!canVerify() || !phh) {
      result.textContent = "This browser cannot check here (it needs HTTPS): run holdem verify-hand.";
      return;
    }
    const outcome = await verifyHand(fairness, phh, handId);
    result.className = `verify-result ${outcome.ok ? "plus" : "minus"}`;
    const mine = includesMySeed(fairness.client_seeds)
      ? " Your own seed from this browser went into the shuffle."
      : " No seed from this browser is among them (sent after the deal, or from elsewhere).";
    const seen = outcome.announced
      ? " The seed matches the commitment this browser saw announced before the deal."
      : " This browser did not see the hand start, so the seed was checked only against the commitment published with it.";
    result.textContent = outcome.ok
      ? `Verified: the ${outcome.checked} cards you saw are where the revealed seeds put them.${seen}${mine}`
      : `Verification failed: ${outcome.problem}.`;
  });
  return el("div", { className: "fairness" },
    el("p", { className: "hint" }, "Commitment ", el("code", {}, fairness.commitment)),
    el("p", { className: "hint" }, "Server seed ", el("code", {}, fairness.server_seed)),
    el("p", { className: "hint" }, `Client seeds: ${seeds}`),
    button, result);
}

// Fetch and show one hand in `dialog`; `prefix` is "/hands" or "/admin/hands".
export async function showHand(dialog, prefix, id) {
  const [detail, phh, replay, notes] = await Promise.all([
    api("GET", `${prefix}/${id}`),
    fetch(`${prefix}/${id}.phh`, { credentials: "same-origin" }).then((r) => (r.ok ? r.text() : null)),
    api("GET", `/hands/${id}/replay`).catch(() => null),
    loadNotes(),
  ]);
  dialog.querySelector("h2").textContent = `Hand #${detail.number}`;
  dialog.querySelector("[data-detail]").replaceChildren(handDetail(detail, phh, replay, notes));
  dialog.showModal();
}
