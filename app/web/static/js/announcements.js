// Announcements from the admins (`announcement`): a banner under the header of every page
// with a socket, one per announcement, until the player dismisses it.

import { el } from "./format.js";

const shown = new Set();

function area() {
  let node = document.getElementById("announcements");
  if (!node) {
    node = el("div", { id: "announcements", className: "announcements", "aria-live": "polite" });
    document.querySelector(".site-header").after(node);
  }
  return node;
}

export function showAnnouncement({ id, text, level } = {}) {
  if (!id || typeof text !== "string" || shown.has(id)) return;
  shown.add(id);
  const kind = level === "warning" ? "warning" : "info";
  const banner = el("div", { className: `announcement announcement-${kind}`, role: kind === "warning" ? "alert" : "status", dataset: { announcementId: id } },
    el("p", {}, text));
  banner.append(el("button", { type: "button", className: "button button-small", "aria-label": "Dismiss this announcement", onclick: () => banner.remove() }, "Dismiss"));
  area().append(banner);
}
