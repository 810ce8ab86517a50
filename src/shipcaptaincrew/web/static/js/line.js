// The line to the table: one WebSocket that says hello with this browser's seat token,
// reconnects by itself (backing off), notices a dead line on a phone that lost its network,
// and reports whether the table can be reached.  What the messages mean is the room page's.
import { forgetSeatToken, lang, screenToken, seatToken } from "./common.js";
import { seenVersion } from "./kept.js";

/** The socket the page's head opened for ``url`` while the page loaded (dial.js), once. */
function dialled(url) {
  const early = window.sccLine;
  window.sccLine = null;
  return early && early.url === url && early.readyState <= WebSocket.OPEN ? early : null;
}

/**
 * Open the line to table ``code``.  ``on.message(msg)`` gets every message, ``on.online(up)``
 * each change of reachability, ``on.gone()`` a table that does not exist.  A table ``screen``
 * says so in its hello with the screen token it was given (the server's, once a seated
 * player paired it: see screen.js) and never sends a seat token: it never holds a seat.
 */
export function openLine(code, on, { screen = false } = {}) {
  let ws = null;
  let retry = 0;
  let lastHeard = 0;
  let timer = null;
  let ours = false;  // the next close is ours (a new seat token): reconnect at once
  let up = null;  // not known yet: a first attempt that fails is told too (a kept picture waits)

  const reach = (now) => {
    if (up === now) return;
    up = now;
    on.online(now);
  };
  const later = (ms) => { clearTimeout(timer); timer = setTimeout(connect, ms); };
  const open = () => ws && ws.readyState === WebSocket.OPEN;

  function send(msg) {
    if (!open()) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function connect() {
    clearTimeout(timer);
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const url = `${proto}://${location.host}/ws/rooms/${encodeURIComponent(code)}`;
    const sock = dialled(url) || new WebSocket(url);
    ws = sock;
    const opened = () => {
      retry = 0;
      lastHeard = Date.now();
      send(screen ? { type: "hello", screen: true, screen_token: screenToken() || null, lang: lang() }
        : { type: "hello", token: seatToken(code) || null, lang: lang(), seen: seenVersion(code) });
    };
    if (sock.readyState === WebSocket.OPEN) opened();
    else sock.addEventListener("open", opened);
    sock.addEventListener("message", (ev) => {
      if (sock !== ws) return;
      lastHeard = Date.now();
      if (typeof ev.data !== "string") return;
      const msg = JSON.parse(ev.data);
      if (msg.type !== "error") reach(true);
      on.message(msg);
    });
    sock.addEventListener("close", (ev) => {
      if (sock !== ws) return;  // an older line, already replaced
      if (ev.code === 4404) { on.gone(); return; }
      if (ev.code === 4403) {
        // The seat was removed (or the token is not for this table): watch instead.
        forgetSeatToken(code);
        retry = 0;
      }
      reach(false);
      retry = Math.min(retry + 1, 5);
      later(ev.code === 4403 || ours ? 0 : 250 * 2 ** retry);
      ours = false;
    });
  }

  // A phone that lost its network may keep a dead socket open for minutes: ping, and give up
  // on a line that stays silent.
  setInterval(() => {
    if (!open()) return;
    const quiet = Date.now() - lastHeard;
    if (quiet > 40000) ws.close();
    else if (quiet > 15000) send({ type: "ping" });
  }, 5000);
  addEventListener("offline", () => reach(false));
  addEventListener("online", () => {
    if (open()) send({ type: "ping" });  // the pong says we are back
    else connect();
  });

  connect();
  return {
    send,
    /** Hang up and call again at once (after taking a seat: the hello carries the token). */
    reconnect() { ours = true; if (ws) ws.close(); },
  };
}
