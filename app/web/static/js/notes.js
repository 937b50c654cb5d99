// Your private notes and colour tags about other players (GET/PUT/DELETE /notes): only
// you ever see them, at their seat and in the replayer.

import { api } from "./api.js";
import { el } from "./format.js";

export const NOTE_COLORS = ["red", "orange", "yellow", "green", "blue", "purple", "gray"];

// Every note you wrote, by the player's public id (none when logged out).
export async function loadNotes() {
  try {
    const notes = await api("GET", "/notes");
    return new Map(notes.items.map((note) => [note.public_id, note]));
  } catch {
    return new Map();
  }
}

// A small tag showing a note's colour, its text on hover and to screen readers.
export function noteTag(note) {
  if (!note) return null;
  const said = note.text ? `Your note: ${note.text}` : `Tagged ${note.color}`;
  return el("span", { className: `note-tag note-${note.color || "none"}`, title: said, "aria-label": said, role: "img" },
    note.text ? "✎" : "");
}

export async function saveNote(publicId, text, color) {
  const path = `/notes/${encodeURIComponent(publicId)}`;
  if (!text.trim() && !color) {
    await api("DELETE", path).catch((error) => { if (error.status !== 404) throw error; });
    return null;
  }
  return api("PUT", path, { text, color: color || null });
}
