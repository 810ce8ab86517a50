// "Tell me when it is my turn": the offer to be told on the lock screen (Web Push), on a table's
// page (for that seat: X-Seat-Token) and on a crew's page (for every table of the crew the
// member sits at: X-Member-Key).  The browser is asked for permission only when the person taps
// the button, never before; the service worker (sw.js) subscribes with the server's public key,
// and the server keeps the subscription in the page's language and the phone's time zone, with
// the hours the person does not want to be woken.  The subscription's id is kept on the phone
// (per table, or per crew), so the page shows "you will be told" and how to stop.
import { api, h, lang, remember, t } from "./common.js";

const KEY = (code) => `scc:push:${code}`;
const CREW_KEY = (crew) => `scc:push:crew:${crew}`;

/** Whether this browser can be told at all (push needs https and a service worker). */
function able() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function kept(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

/** base64url text to bytes (the server's key, as applicationServerKey takes it). */
function bytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function sameKey(sub, key) {
  const mine = sub.options && sub.options.applicationServerKey;
  if (!mine) return false;
  const a = new Uint8Array(mine);
  const b = bytes(key);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

async function subscribe(who) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t("Notifications are blocked in this browser: allow them in its settings to be told."));
  const reg = await navigator.serviceWorker.ready;
  const { key } = await api("/api/push/key");
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub, key)) { await sub.unsubscribe(); sub = null; }
  sub = sub || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const body = { ...sub.toJSON(), lang: lang(), time_zone: zone, ...(who.room ? { room: who.room } : {}) };
  const res = await api("/api/push/subscriptions", { method: "POST", body: JSON.stringify(body), headers: who.headers });
  remember(who.key, res.id);
  return res;
}

function quietForm(who, shown, say) {
  const from = h("input", { type: "time", id: "quiet-from", value: shown.quiet_start || "" });
  const until = h("input", { type: "time", id: "quiet-until", value: shown.quiet_end || "" });
  const form = h("form", { class: "quiet", id: "quiet-form" },
    h("p", { class: "muted" }, t("No notifications at night: leave both empty to be told at any hour.")),
    h("div", { class: "row" },
      h("label", { class: "field", for: "quiet-from" }, h("span", {}, t("Quiet from")), from),
      h("label", { class: "field", for: "quiet-until" }, h("span", {}, t("Quiet until")), until)),
    h("button", { type: "submit", class: "secondary" }, t("Save quiet hours")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await api(`/api/push/subscriptions/${encodeURIComponent(kept(who.key))}`, { method: "PATCH",
        body: JSON.stringify({ quiet_start: from.value || null, quiet_end: until.value || null }), headers: who.headers });
      say(t("Saved."));
    } catch (e) { say(e.message); }
  });
  return form;
}

/** The offer (or "you will be told" and how to stop), drawn into ``box`` for the person in
 * seat ``you`` at ``room``; nothing for a watcher, a finished table or a browser that cannot. */
export function notifyBox(box, room, you, token) {
  if (!box) return;
  const show = able() && you !== null && room.status !== "over" && !!token;
  offer(box, show, { key: KEY(room.code), room: room.code, headers: { "X-Seat-Token": token || "" } });
}

/** The same on a crew's page: one subscription for the member's turns at every table of the
 * crew (``key``: the member's key). */
export function crewNotifyBox(box, crew, key) {
  if (!box) return;
  offer(box, able() && !!key, { key: CREW_KEY(crew), room: null, headers: { "X-Member-Key": key || "" } });
}

function offer(box, show, who) {
  const id = kept(who.key);
  const drawn = JSON.stringify([who.key, lang(), show, !!id]);
  if (box.dataset.drawn === drawn) return;
  box.dataset.drawn = drawn;
  if (!show) { box.replaceChildren(); return; }
  const note = h("p", { class: "muted", role: "status", id: "notify-note" });
  const say = (text) => { note.textContent = text; };
  const redraw = () => { box.dataset.drawn = ""; offer(box, show, who); };
  if (!id) {
    const button = h("button", { type: "button", class: "secondary", id: "notify-btn", "data-testid": "notify" }, t("Tell me when it is my turn"));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await subscribe(who); redraw(); } catch (e) { say(e.message); button.disabled = false; }
    });
    box.replaceChildren(h("section", { class: "panel notify", "aria-labelledby": "notify-btn" }, button,
      Notification.permission === "denied" ? h("p", { class: "muted" }, t("Notifications are blocked in this browser: allow them in its settings to be told.")) : null, note));
    return;
  }
  const stop = h("button", { type: "button", class: "ghost", id: "notify-stop" }, t("Stop telling me"));
  stop.addEventListener("click", async () => {
    try {
      await api(`/api/push/subscriptions/${encodeURIComponent(id)}`, { method: "DELETE", headers: who.headers });
    } catch (e) { if (e.status !== 404) { say(e.message); return; } }
    remember(who.key, null);
    redraw();
  });
  const section = h("section", { class: "panel notify", "aria-labelledby": "notify-h" },
    h("p", { id: "notify-h", "data-testid": "notify-on" }, t("Your phone will tell you when it is your turn.")), note, stop);
  box.replaceChildren(section);
  api(`/api/push/subscriptions/${encodeURIComponent(id)}`, { headers: who.headers })
    .then((shown) => { section.insertBefore(quietForm(who, shown, say), note); })
    .catch((e) => { if (e.status === 404) { remember(who.key, null); redraw(); } });
}
