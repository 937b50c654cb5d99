// The Socket.IO connection: the session cookie authenticates it, every request
// is acked, and the connection state is shown in a banner while it is down.

import { ApiError } from "./api.js";

const ACK_TIMEOUT_MS = 10_000;

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

export function connect() {
  if (typeof window.io !== "function") {
    throw new SocketMissing("The Socket.IO browser client did not load, so live tables cannot be shown. "
      + "Run `make run` (it installs the file), then reload.");
  }
  const socket = window.io({ transports: ["websocket", "polling"], withCredentials: true });
  let everConnected = false;
  socket.on("connect", () => {
    everConnected = true;
    showBanner("");
  });
  socket.on("disconnect", (reason) => {
    if (reason !== "io client disconnect") showBanner("Connection lost: reconnecting…");
  });
  socket.on("connect_error", (error) => {
    const reason = (error.data && error.data.message) || error.message;
    if (!socket.active) showBanner(`The server refused the connection: ${reason}. Log in again, then reload.`);
    else if (everConnected) showBanner("Connection lost: reconnecting…");
    else showBanner(`Cannot connect to the server (${reason}): retrying…`);
  });
  return socket;
}

// Emit `event` and resolve with the ack, or reject with the server's error.
export function request(socket, event, payload = {}) {
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
