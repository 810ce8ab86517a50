// The last picture of a table, kept on this device: a link opened again (a reload, the
// installed app, the TV switched on) draws it at once from the phone's own cache, while the
// WebSocket's opening round trip is still under way, and the live picture replaces it a moment
// later.  What it draws is only a picture: in a lobby the one action, joining, goes over HTTP
// and is checked by the server (a table that started meanwhile says so in words); in a match
// a choice made on it waits for the live picture (room.js: `waiting`) and goes only if that
// shows the very same moment, so nothing the table has moved past is ever sent.
import { remember } from "./common.js";

const KEY = "scc:kept";
/** The pictures worth drawing again: a table in its lobby or playing (an ended match's
 * podium is answered live, with where the table went next). */
const KEPT = new Set(["lobby", "playing"]);

/** Keep ``room`` as seen by seat ``you``; anything else forgets it.  A table screen keeps its
 * own (``where``), apart from a phone's in the same browser. */
export function keepPicture(room, you, where = "") {
  remember(KEY + where, KEPT.has(room.status) ? JSON.stringify({ code: room.code, you, room }) : null);
}

/** The kept picture of table ``code`` ({room, you}), or null. */
export function keptPicture(code, where = "") {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY + where) || "null");
    return kept && kept.code === code && kept.room && KEPT.has(kept.room.status) ? kept : null;
  } catch (e) { return null; }
}

const SEEN = "scc:seen";
/** How many tables' last seen versions this device keeps (its slow tables, a few at most). */
const SEEN_TABLES = 20;

function seenMap() {
  try { return JSON.parse(localStorage.getItem(SEEN) || "{}") || {}; } catch (e) { return {}; }
}

/** The version of the last picture this device drew of table ``room.code``: a slow table's
 * phone opened again says it in its hello, and the moments since come before the picture
 * (play/missed.py).  Kept for the newest tables only; an ended match forgets its own. */
export function noteSeen(room) {
  const seen = seenMap();
  delete seen[room.code];
  if (KEPT.has(room.status)) seen[room.code] = room.version;
  const codes = Object.keys(seen);
  for (const old of codes.slice(0, Math.max(0, codes.length - SEEN_TABLES))) delete seen[old];
  remember(SEEN, JSON.stringify(seen));
}

/** The version last drawn of table ``code`` on this device (null: never, or it ended). */
export function seenVersion(code) {
  const v = seenMap()[code];
  return Number.isInteger(v) && v >= 0 ? v : null;
}
