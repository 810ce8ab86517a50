// The last picture of a table's lobby, kept on this device: a link opened again draws the
// lobby (the join form, who sits there) from it at once, while the WebSocket's opening round
// trip is still under way, and the live picture replaces it a moment later.  Only a lobby is
// drawn this way: its one action, joining, goes over HTTP and is checked by the server (a table
// that started meanwhile says so in words), and a match is never drawn from an old picture.
import { remember } from "./common.js";

const KEY = "scc:kept";

/** Keep ``room`` (a lobby picture) as seen by seat ``you``; anything else forgets it.  A table
 * screen keeps its own (``where``), apart from a phone's in the same browser. */
export function keepLobby(room, you, where = "") {
  remember(KEY + where, room.status === "lobby" ? JSON.stringify({ code: room.code, you, room }) : null);
}

/** The kept lobby of table ``code`` ({room, you}), or null. */
export function keptLobby(code, where = "") {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY + where) || "null");
    return kept && kept.code === code && kept.room && kept.room.status === "lobby" ? kept : null;
  } catch (e) { return null; }
}
