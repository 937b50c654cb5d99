// The host's side of a table: what the host has set (from the snapshot's `hosting` and
// the host's events), the paused banner everyone sees, and the host panel (`table:host`).

import { chips, el } from "../format.js";
import { nameOf } from "./state.js";

const $ = (id) => document.getElementById(id);

// The reason said for a control when the host gives none.
const DEFAULT_REASONS = {
  pause: "The host paused the table", resume: "The host resumed the game",
  approval: "The host changed who may sit", approve: "Welcome", refuse: "Not tonight",
  remove: "Stood up by the host", away: "Away for a while", stakes: "New blinds",
  clock: "New action clock", hand_over: "A new host",
};

export function emptyHosting() {
  return { paused: false, approval: false, requests: [], away: [], log: [] };
}

export function isHost(table, me) {
  return Boolean(me && table.config && table.config.host && table.config.host.public_id === me.public_id);
}

// Apply a host event to the table; false for any other event.
export function applyHostEvent(table, e) {
  const hosting = table.hosting || (table.hosting = emptyHosting());
  // A player back or gone is no longer away (the table applies these events itself too).
  if (e.type === "player_sat_in" || e.type === "player_left") hosting.away = hosting.away.filter((a) => a.seat !== e.seat);
  switch (e.type) {
    case "host_control":
      hosting.log = [...hosting.log, e].slice(-50);
      if (e.action === "pause") hosting.paused = true;
      if (e.action === "resume") hosting.paused = false;
      if (e.action === "approval") hosting.approval = e.required;
      if (e.action === "approve") hosting.requests = hosting.requests.filter((r) => r.player.public_id !== e.player.public_id);
      if (e.action === "away") hosting.away = [...hosting.away.filter((a) => a.seat !== e.seat), { seat: e.seat, until: e.until }];
      if (e.action === "remove") hosting.away = hosting.away.filter((a) => a.seat !== e.seat);
      if (e.action === "stakes") Object.assign(table.config, e.stakes);
      if (e.action === "clock") table.config.action_seconds = e.action_seconds;
      if (e.action === "hand_over") table.config.host = e.host;
      return true;
    case "seat_requested":
      hosting.requests = [...hosting.requests.filter((r) => r.player.public_id !== e.player.public_id),
        { player: e.player, seat: e.seat, buy_in: e.buy_in, at: e.at }];
      return true;
    case "seat_request_closed":
      hosting.requests = hosting.requests.filter((r) => r.player.public_id !== e.player.public_id);
      return true;
    case "away_ended":
      hosting.away = hosting.away.filter((a) => a.seat !== e.seat);
      return true;
    default:
      return false;
  }
}

function controlText(table, e) {
  switch (e.action) {
    case "pause": return e.at_hand_end ? "pauses the table after this hand" : "pauses the table";
    case "resume": return "resumes the game";
    case "approval": return e.required ? "approves every new seat from now on" : "lets anyone with the invite sit";
    case "approve": return `seats ${e.player.name} in seat ${e.seat + 1}`;
    case "refuse": return `turns down ${e.player.name}`;
    case "remove": return `stands ${e.player.name} up${e.at_hand_end ? " when this hand ends" : ""}`;
    case "away": return `keeps ${e.player.name}'s seat until ${new Date(e.until * 1000).toLocaleTimeString()}`;
    case "stakes": return `sets the blinds to ${chips(e.stakes.small_blind)}/${chips(e.stakes.big_blind)}`
      + `${e.stakes.ante ? `, ante ${chips(e.stakes.ante)}` : ""} from the next hand`;
    case "clock": return `sets the clock to ${e.action_seconds} seconds a decision`;
    case "hand_over": return `hands the table to ${e.host.name}`;
    default: return e.action;
  }
}

// The log line of a host event, or undefined for any other event.
export function describeHost(table, e) {
  switch (e.type) {
    case "host_control": return `Host ${e.by.name} ${controlText(table, e)}: ${e.reason}`;
    case "seat_requested": return `${e.player.name} asks the host for seat ${e.seat + 1}`;
    case "seat_request_closed": return `${e.player.name}'s seat request was turned down`;
    case "away_ended": return `${nameOf(table, e.seat)} did not come back in time`;
    default: return undefined;
  }
}

// The host panel: sends `table:host` controls and shows the seat requests.
export class HostPanel {
  constructor(send) {
    this.send = send;
    for (const button of document.querySelectorAll("#host-panel [data-control]")) {
      button.addEventListener("click", () => this.run(button.dataset.control));
    }
    $("host-approval").addEventListener("change", () => this.run("approval"));
    $("host-requests").addEventListener("click", (event) => {
      const button = event.target.closest("[data-answer]");
      if (button) this.run(button.dataset.answer, { player: button.dataset.player });
    });
  }

  args(action) {
    const seat = Number($("host-seat").value);
    switch (action) {
      case "approval": return { required: $("host-approval").checked };
      case "remove": return { seat };
      case "away": return { seat, seconds: Number($("host-away-minutes").value) * 60 };
      case "hand_over": return { player: $("host-seat").selectedOptions[0]?.dataset.player };
      case "stakes": return { small_blind: Number($("host-small-blind").value),
        big_blind: Number($("host-big-blind").value), ante: Number($("host-ante").value || 0) };
      case "clock": return { action_seconds: Number($("host-clock").value) };
      default: return {};
    }
  }

  async run(action, extra = {}) {
    const status = $("host-status");
    const reason = $("host-reason").value.trim() || DEFAULT_REASONS[action];
    try {
      await this.send({ reason, control: { action, ...this.args(action), ...extra } });
      status.textContent = "";
      $("host-reason").value = "";
    } catch (error) {
      status.textContent = error.message;
    }
  }

  render(table, me) {
    const hosting = table.hosting || emptyHosting();
    $("paused-banner").hidden = !hosting.paused;
    const panel = $("host-panel");
    panel.hidden = !isHost(table, me) || Boolean(table.config.tournament);
    if (panel.hidden) return;
    $("host-pause").hidden = hosting.paused;
    $("host-resume").hidden = !hosting.paused;
    $("host-approval-row").hidden = !table.config.private;
    $("host-approval").checked = hosting.approval;
    this.renderSeats(table);
    this.renderStakes(table);
    $("host-requests").replaceChildren(...hosting.requests.map((r) => el("li", {},
      `${r.player.name}: seat ${r.seat + 1}, ${chips(r.buy_in)} `,
      el("button", { type: "button", className: "button button-small", dataset: { answer: "approve", player: r.player.public_id } }, "Approve"),
      " ",
      el("button", { type: "button", className: "button button-small", dataset: { answer: "refuse", player: r.player.public_id } }, "Refuse"))));
    $("host-requests-none").hidden = hosting.requests.length > 0;
  }

  renderSeats(table) {
    const select = $("host-seat");
    const chosen = select.value;
    const people = Object.entries(table.seats).filter(([, s]) => s.player && !s.player.bot);
    select.replaceChildren(...people.map(([seat, s]) => el("option",
      { value: seat, dataset: { player: s.player.public_id } }, `Seat ${Number(seat) + 1}: ${s.player.name}`)));
    if (people.some(([seat]) => seat === chosen)) select.value = chosen;
  }

  renderStakes(table) {
    // Fill the fields once with the table's settings; the host's typing is kept after.
    if ($("host-small-blind").value) return;
    $("host-small-blind").value = table.config.small_blind;
    $("host-big-blind").value = table.config.big_blind;
    $("host-ante").value = table.config.ante;
    $("host-clock").value = table.config.action_seconds;
  }
}
