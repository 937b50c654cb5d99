// Chat safety at the table: the players you ignore (kept on the server, so the list
// follows you to every table and device) and reporting a player to the admins. Click a
// name in the chat to ignore, unignore or report that player.

import { api } from "../api.js";
import { el } from "../format.js";

export class ChatSafety {
  constructor(me, onChange) {
    this.me = me;
    this.onChange = onChange;
    this.ignored = new Map(); // public id -> name
  }

  async load() {
    if (!this.me) return;
    const list = await api("GET", "/users/me/ignored");
    this.ignored = new Map(list.items.map((p) => [p.public_id, p.name]));
    this.onChange();
  }

  // The lines to show: the server sends none from a player you ignore, and lines that
  // arrived before you ignored them are hidden too.
  visible(lines) {
    return lines.filter((line) => !this.ignored.has(line.player.public_id));
  }

  // A chat line: the speaker's name is a button for anyone else's line.
  line(line) {
    const name = `${line.player.name}: `;
    const other = this.me && line.player.public_id !== this.me.public_id && !line.player.bot;
    const who = other
      ? el("button", { type: "button", className: "chat-name", dataset: { player: line.player.public_id, name: line.player.name } }, name)
      : el("strong", {}, name);
    return el("li", {}, who, line.text);
  }

  // "You ignore: …", each name a button that unignores them.
  renderIgnored(slot) {
    slot.hidden = this.ignored.size === 0;
    slot.replaceChildren("You ignore: ", ...[...this.ignored].flatMap(([publicId, name], i) => [
      i ? ", " : "",
      el("button", { type: "button", className: "chat-name", "aria-label": `Unignore ${name}`,
        title: "Unignore", onclick: () => this.setIgnored(publicId, name, false).catch(() => {}) }, `${name} ✕`)]));
  }

  async setIgnored(publicId, name, ignore) {
    if (ignore) {
      await api("POST", "/users/me/ignored", { public_id: publicId });
      this.ignored.set(publicId, name);
    } else {
      await api("DELETE", `/users/me/ignored/${publicId}`);
      this.ignored.delete(publicId);
    }
    this.onChange();
  }

  // The dialog a name in the chat opens; `report(publicId, reason)` sends `table:report`.
  bindDialog(dialog, lines, report) {
    const form = dialog.querySelector("form");
    const status = form.querySelector("[data-form-status]");
    const ignore = dialog.querySelector("[data-ignore]");
    const label = () => { ignore.textContent = this.ignored.has(dialog.dataset.player) ? "Unignore" : "Ignore"; };
    lines.addEventListener("click", (event) => {
      const button = event.target.closest("[data-player]");
      if (!button) return;
      dialog.dataset.player = button.dataset.player;
      dialog.dataset.name = button.dataset.name;
      dialog.querySelector("[data-player-name]").textContent = button.dataset.name;
      form.reset();
      status.textContent = "";
      label();
      dialog.showModal();
    });
    ignore.addEventListener("click", async () => {
      const { player, name } = dialog.dataset;
      try {
        await this.setIgnored(player, name, !this.ignored.has(player));
        label();
        status.textContent = this.ignored.has(player)
          ? `You no longer see ${name}'s chat, at any table.` : `You see ${name}'s chat again.`;
      } catch (error) {
        status.textContent = error.message;
      }
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const reason = form.elements.reason.value.trim();
      if (!reason) {
        status.textContent = "Say why you report this player.";
        return;
      }
      try {
        await report(dialog.dataset.player, reason);
        form.reset();
        status.textContent = "Reported: the admins will read it with this table's chat and hand.";
      } catch (error) {
        status.textContent = error.message;
      }
    });
    dialog.querySelector("[data-player-close]").addEventListener("click", () => dialog.close());
  }
}
