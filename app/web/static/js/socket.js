// The Socket.IO connection: the session cookie authenticates it, every request
// is acked, and the connection state is shown in a banner while it is down.

import { showAnnouncement } from "./announcements.js";
import { ApiError } from "./api.js";

const ACK_TIMEOUT_MS = 10_000;
const MOVED_ATTEMPTS = 5;

export class SocketMissing extends Error {}

function banner() {
  let node = document.getElementById("connection-banner");
  if (!node) {
    node = document.createElement("div");
    node.id = "connection-banner";
    node.className = "banner banner-warn";
    node.setAttribute("role", "status");
    node.hidden = true;
    document.querySelector(".site-header").after(node);
  }
  return node;
}

function showBanner(text) {
  const node = banner();
  node.textContent = text;
  node.hidden = !text;
}

// `table`: the id of the table this page plays at. The connection names it in its query,
// so a proxy in front of several server processes sends it to the process that runs (or
// will run) that table, and every player of a table reaches the same one.
export function connect({ table } = {}) {
  if (typeof window.io !== "function") {
    throw new SocketMissing("The Socket.IO browser client did not load, so live tables cannot be shown. "
      + "Run `make run` (it installs the file), then reload.");
  }
  const socket = window.io({
    transports: ["websocket", "polling"], withCredentials: true, query: table ? { table } : {},
  });
  let everConnected = false;
  let sessionEnded = false;
  socket.on("connect", () => {
    everConnected = true;
    showBanner("");
  });
  socket.on("user:notice", (notice) => {
    if (notice.kind === "session_ended") sessionEnded = true;
  });
  socket.on("announcement", showAnnouncement);
  // A server going down for a deploy says so first (`seconds`: about how long, or null).
  socket.on("server:restarting", ({ seconds } = {}) => {
    const when = Number.isInteger(seconds) && seconds > 0 ? ` in about ${seconds} s` : "";
    showBanner(`The server is restarting${when}: hands in play finish first, then this page reconnects by itself.`);
  });
  socket.on("disconnect", (reason) => {
    // The server ends a connection itself (no reconnecting) when the session was revoked:
    // a logout, a password change, a deletion or a ban.
    if (reason === "io server disconnect") {
      showBanner(sessionEnded
        ? "Your session ended (logged out, password changed or account closed). Log in again, then reload."
        : "The server closed the connection. Reload the page.");
    } else if (reason !== "io client disconnect") {
      showBanner("Connection lost: reconnecting…");
    }
  });
  // Several table messages sent together arrive as one `table:batch`: hand each to
  // the listeners of its own event, in order, as if it had arrived alone.
  socket.on("table:batch", (batch) => {
    for (const { event, data } of batch.messages) {
      for (const listener of socket.listeners(event)) listener(data);
    }
  });
  socket.on("connect_error", (error) => {
    const reason = (error.data && error.data.message) || error.message;
    if (!socket.active) showBanner(`The server refused the connection: ${reason}. Log in again, then reload.`);
    else if (everConnected) showBanner("Connection lost: reconnecting…");
    else showBanner(`Cannot connect to the server (${reason}): retrying…`);
  });
  return socket;
}

// Emit `event` and resolve with the ack, or reject with the server's error. A table
// moving to another server process (`table_moved`) is asked again after `retry_after`.
export async function request(socket, event, payload = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await requestOnce(socket, event, payload);
    } catch (error) {
      if (error.code !== "table_moved" || attempt >= MOVED_ATTEMPTS) throw error;
      await new Promise((done) => setTimeout(done, 1000 * (error.details.retry_after || 1)));
    }
  }
}

function requestOnce(socket, event, payload) {
  return new Promise((resolve, reject) => {
    socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, (timeout, ack) => {
      if (timeout) {
        reject(new ApiError(0, { error: { code: "timeout", message: "The server did not answer in time. Try again." } }));
      } else if (!ack || ack.ok !== true) {
        reject(new ApiError(0, ack && ack.error ? ack : { error: { code: "error", message: "The server refused." } }));
      } else {
        resolve(ack);
      }
    });
  });
}

export function showFatal(message) {
  const node = document.createElement("div");
  node.className = "banner banner-error";
  node.setAttribute("role", "alert");
  node.textContent = message;
  document.querySelector(".site-header").after(node);
}
