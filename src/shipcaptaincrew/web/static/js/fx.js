// The table's senses beyond the screen, each a progressive enhancement that is silently absent
// where the browser lacks it: sounds made in the page (Web Audio, no downloaded files) behind
// a mute switch remembered on this device, a short vibration, and the screen kept awake.
import { h, icon, remember, t } from "./common.js";

let ctx = null;
let muted = (() => { try { return localStorage.getItem("scc:sound") === "off"; } catch (e) { return false; } })();

// Browsers start audio only after a gesture: the first tap or key on the page opens it.
function unlock() {
  if (ctx || muted) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try { ctx = new Ctx(); } catch (e) { ctx = null; }
}
addEventListener("pointerdown", unlock, { passive: true });
addEventListener("keydown", unlock);

function ready() {
  if (muted || !ctx) return false;
  if (ctx.state === "suspended") ctx.resume();
  return true;
}

function tone(freq, start, length, { type = "sine", gain = 0.18, to = null } = {}) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  const at = ctx.currentTime + start;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function click(start, { freq = 2600, length = 0.045, gain = 0.5 } = {}) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const src = ctx.createBufferSource();
  const band = ctx.createBiquadFilter();
  const amp = ctx.createGain();
  band.type = "bandpass";
  band.frequency.value = freq;
  band.Q.value = 1.4;
  amp.gain.value = gain;
  src.buffer = buffer;
  src.connect(band).connect(amp).connect(ctx.destination);
  src.start(ctx.currentTime + start);
}

/** The table's sounds by meaning; each plays only when sound is on and the page was touched. */
export const sound = {
  rattle(n = 5) { if (ready()) for (let i = 0; i < 3 + n; i++) click(i * 0.035 + Math.random() * 0.02, { freq: 1800 + Math.random() * 2200, gain: 0.25 }); },
  land() { if (ready()) click(0, { freq: 1200 + Math.random() * 500, length: 0.06, gain: 0.6 }); },
  turn() { if (ready()) { tone(660, 0, 0.16); tone(880, 0.14, 0.26); } },
  good() { if (ready()) [523, 659, 784].forEach((f, i) => tone(f, i * 0.08, 0.18, { type: "triangle" })); },
  bad() { if (ready()) tone(330, 0, 0.35, { type: "triangle", to: 196, gain: 0.14 }); },
  win() { if (ready()) [523, 659, 784, 1047, 784, 1047].forEach((f, i) => tone(f, i * 0.11, 0.22, { type: "triangle" })); },
  sip() { if (ready()) tone(280, 0, 0.18, { to: 620, gain: 0.16 }); },
  pop() { if (ready()) tone(900, 0, 0.07, { gain: 0.08, to: 1300 }); },
};

/** The header's sound switch (aria-pressed: sound on); remembered on this device. */
export function soundButton() {
  const b = h("button", { type: "button", class: "icon-btn", id: "sound", "aria-pressed": String(!muted), "aria-label": t("Sound") },
    icon(muted ? "mute" : "sound"));
  b.addEventListener("click", () => {
    muted = !muted;
    remember("scc:sound", muted ? "off" : null);
    if (!muted) { unlock(); sound.pop(); }
    b.setAttribute("aria-pressed", String(!muted));
    b.replaceChildren(icon(muted ? "mute" : "sound"));
  });
  return b;
}

/** A short buzz where the device has one (``navigator.vibrate``), nothing elsewhere. */
export function buzz(pattern = 180) {
  // Before the first tap on the page the browser refuses (and complains in the console).
  const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
  try { if (navigator.vibrate && touched) navigator.vibrate(pattern); } catch (e) { /* not allowed here */ }
}

// -- the screen kept awake during a match ----------------------------------------------------
let lock = null;
let wanted = false;

async function acquire() {
  if (!wanted || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  try {
    lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => { lock = null; });
  } catch (e) { lock = null; }
}
document.addEventListener("visibilitychange", acquire);

/** Keep the screen on while ``on`` (a match in play); the browser drops it when hidden. */
export function keepAwake(on) {
  wanted = on;
  if (on) acquire();
  else if (lock) { lock.release().catch(() => {}); lock = null; }
}
