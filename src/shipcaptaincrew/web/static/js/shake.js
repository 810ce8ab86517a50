// Shake to roll: on the acting player's phone, shaking it throws the dice, exactly as the Roll
// button would (the shake presses that very button, so the message is the same).  A switch
// beside the sound switch turns it on, remembered on this device; iOS asks for the motion
// sensors once, from the tap on that switch (DeviceMotionEvent.requestPermission).
//
// A shake is told from a phone lying on a table or carried in a pocket by its strength and by
// its back-and-forth: an acceleration (gravity left out) above THRESHOLD one way, then above it
// the other way within SWING ms.  One shake throws once: after a throw the phone must lie
// still for QUIET ms and the table must have moved on (a new picture) before it throws again.
import { h, icon, remember, t } from "./common.js";

/** m/s^2 without gravity: walking with a phone in a pocket stays well under it (about 1 g). */
export const THRESHOLD = 22;
const SWING = 600;   // ms between the two opposite jolts of one shake
const QUIET = 700;   // ms of stillness that end a shake
const KEY = "scc:shake";

let on = (() => { try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; } })();
let rollButton = () => null;   // the page's enabled Roll button, or null when a roll is not the action
let version = () => -1;        // the version of the picture on screen
let thrownAt = null;           // the version a shake threw at (no second throw at it)
let lastJolt = null;           // {axis, sign, at}: the last jolt above the threshold
let lastStrong = 0;            // when the motion was last strong (a shake lasts while it is)
let thrownTime = 0;
let stillNeeded = false;       // a shake threw: the phone must lie still before the next

/** The page tells which Roll button a shake presses (null when none) and which picture is on. */
export function shakeTarget(button, current) {
  rollButton = button;
  version = current;
}

/** A roll thrown from this page (a shake, or a tap on Roll): its dice buzz as they land. */
export function markThrown() { thrownTime = Date.now(); }

/** Whether a roll was thrown from this page a moment ago (its dice landing buzz). */
export function justThrown() { return Date.now() - thrownTime < 3000; }

function net(ev) {
  const a = ev.acceleration;
  if (a && a.x !== null && a.x !== undefined) return [a.x || 0, a.y || 0, a.z || 0];
  const g = ev.accelerationIncludingGravity;
  if (!g) return null;
  // Without a separate reading, gravity is taken off the longest axis (a phone at rest).
  const v = [g.x || 0, g.y || 0, g.z || 0];
  const i = v.map(Math.abs).indexOf(Math.max(...v.map(Math.abs)));
  v[i] -= Math.sign(v[i]) * 9.81;
  return v;
}

function onMotion(ev) {
  if (!on) return;
  const v = net(ev);
  if (!v) return;
  const now = Date.now();
  const size = Math.hypot(...v);
  if (size < THRESHOLD) {
    if (now - lastStrong > QUIET) { lastJolt = null; stillNeeded = false; }
    return;
  }
  lastStrong = now;
  const axis = v.map(Math.abs).indexOf(Math.max(...v.map(Math.abs)));
  const sign = Math.sign(v[axis]);
  const swung = lastJolt && lastJolt.axis === axis && lastJolt.sign !== sign && now - lastJolt.at <= SWING;
  lastJolt = { axis, sign, at: now };
  if (!swung || stillNeeded) return;
  const button = rollButton();
  if (!button || button.disabled || thrownAt === version()) return;
  // This shake has thrown: the next one needs the phone still again and a new picture.
  thrownAt = version();
  lastJolt = null;
  stillNeeded = true;
  button.click();
}
addEventListener("devicemotion", onMotion);

async function allowed() {
  const ask = window.DeviceMotionEvent && DeviceMotionEvent.requestPermission;
  if (typeof ask !== "function") return true;
  try { return (await DeviceMotionEvent.requestPermission()) === "granted"; } catch (e) { return false; }
}

// Remembered on, on iOS: the permission is asked again from the first tap on the page.
if (on && window.DeviceMotionEvent && typeof DeviceMotionEvent.requestPermission === "function") {
  addEventListener("pointerdown", () => { allowed().then((ok) => { on = ok; }); }, { once: true });
}

/** The header's shake-to-roll switch (data-testid shake-to-roll, aria-pressed: on). */
export function shakeButton(toast) {
  // The motion sensors are a secure context's only (https): over plain http the switch would
  // do nothing, so it is not shown (the header says why).
  if (!window.isSecureContext) return null;
  const b = h("button", { type: "button", class: "icon-btn", id: "shake", "data-testid": "shake-to-roll",
    "aria-pressed": String(on), "aria-label": t("Shake to roll"), title: t("Shake to roll") },
  icon("shake"));
  b.addEventListener("click", async () => {
    const want = !on;
    if (want && !(await allowed())) {
      toast(t("Shake to roll needs the motion sensors: allow them in the browser's settings."));
      return;
    }
    on = want;
    remember(KEY, on ? "on" : null);
    b.setAttribute("aria-pressed", String(on));
    if (on) toast(t("Shake to roll is on: shake the phone when it is your roll."));
  });
  return b;
}
