// A phone's crew memberships: for each crew its id, name, this member's id and the member
// key.  The key is a secret: it is kept on this device and sent only in the X-Member-Key
// header, never in an address.  The crew page, the home page, the podium and the lobby read
// it from here.
import { api, remember } from "./common.js";

const PREFIX = "scc:crew:";

/** Every crew this phone belongs to, by name. */
export function memberships() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith(PREFIX)) continue;
      const m = JSON.parse(localStorage.getItem(k));
      if (m && m.key && m.crew) out.push(m);
    }
  } catch (e) { /* private mode, or a damaged entry: none */ }
  return out.sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

/** This phone's membership of one crew (null: none). */
export function membership(crew) {
  try { return JSON.parse(localStorage.getItem(PREFIX + crew)); } catch (e) { return null; }
}

export function keepMembership(m) { remember(PREFIX + m.crew, JSON.stringify(m)); }
export function forgetMembership(crew) { remember(PREFIX + crew, null); }

/** A request about a crew, made with this phone's key (an error without a membership). */
export function crewApi(crew, path = "", options = {}) {
  const m = membership(crew);
  const headers = { ...(options.headers || {}), ...(m ? { "X-Member-Key": m.key } : {}) };
  return api(`/api/crews/${encodeURIComponent(crew)}${path}`, { ...options, headers });
}

/** An answer that says this phone is no member (any more): removed, moved, or never was. */
export function notMember(e) { return e && e.status === 404 && e.code === "no_crew"; }
