// Dice drawn as dice: SVG pips, a tumble that lands die by die, dice sliding into their slots.
// Motion is decoration on top of a picture that is already right: every die is drawn with its
// real face first (data-face, the spoken label), and the animation only moves it there.  With
// prefers-reduced-motion the dice fade in where they lie.
import { h, svg, t } from "./common.js";

// Pip centres on a 60 x 60 face, per face value.
const L = 16, M = 30, R = 44;
const PIPS = {
  1: [[M, M]],
  2: [[L, L], [R, R]],
  3: [[L, L], [M, M], [R, R]],
  4: [[L, L], [R, L], [L, R], [R, R]],
  5: [[L, L], [R, L], [M, M], [L, R], [R, R]],
  6: [[L, L], [R, L], [L, M], [R, M], [L, R], [R, R]],
};

export function calm() {
  return !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function face(n) {
  return svg("svg", { viewBox: "0 0 60 60", "aria-hidden": "true", focusable: "false" },
    svg("rect", { class: "body", x: 2.5, y: 2.5, width: 55, height: 55, rx: 11 }),
    PIPS[n].map(([cx, cy]) => svg("circle", { class: n === 1 ? "pip one" : "pip", cx, cy, r: 5.6 })));
}

/**
 * One die showing ``n``; ``role`` (ship, captain, crew, cargo) goes into its spoken label.
 * A ``ghost`` is a stand-in that only moves across the screen (the real die waits, hidden, in
 * its slot): it is not a drawn die for anyone reading the page.
 */
export function die(n, { role = null, cargo = false, size = "", ghost = false } = {}) {
  const label = role ? `${t(role)}: ${n}` : String(n);
  if (ghost) return h("span", { class: `die ${size}`.trim(), "data-ghost": n, "aria-hidden": "true" }, face(n));
  return h("span", { class: `die ${size}`.trim(), "data-testid": "die", "data-face": n,
    "data-role": cargo ? "cargo" : null, role: "img", "aria-label": label }, face(n));
}

/** A place for a die that has not been rolled (never a data-testid: it shows no face). */
export function blank(size = "") {
  return h("span", { class: `die blank ${size}`.trim(), "aria-hidden": "true" });
}

/** A role slot: a labelled place where a held die sits (data-role only once it holds one). */
export function slot(role, n, label) {
  return h("div", { class: "slot", "data-slot": role, "data-role": n ? role : null },
    n ? die(n, { role }) : h("span", { class: "die empty", "aria-hidden": "true" }),
    h("span", { class: "slot-label", "aria-hidden": "true" }, label));
}

const rand = (a, b) => a + Math.random() * (b - a);

/** The dice's motion, timed so that a roll has landed (and slid into its slots) well within a
 * second of its picture: the last of five dice lands after 4 * STAGGER + FLIGHT ms, and a slide
 * takes SLIDE ms more. */
export const STAGGER = 60;
export const FLIGHT = 480;
export const SLIDE = 240;

let moving = 0;
/** Mark the page as moving dice until ``promise`` settles (html[data-moving]): whoever looks
 * at the page (a test, a screen reader's user) can tell a roll still in the air. */
export function settling(promise) {
  moving += 1;
  document.documentElement.dataset.moving = "true";
  const done = () => { moving -= 1; if (!moving) delete document.documentElement.dataset.moving; };
  promise.then(done, done);
  return promise;
}

/**
 * Tumble freshly drawn dice onto the table, one after the other; ``onLand(i)`` fires as die i
 * lands (the click of the die), and the promise resolves when the last one lies still.
 */
export function tumble(dice, onLand = () => {}) {
  const list = [...dice];
  if (!list.length || !list[0].animate) return Promise.resolve();
  if (calm()) {
    list.forEach((d, i) => d.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 180, easing: "ease-out" }));
    onLand(list.length - 1);
    return settling(new Promise((r) => setTimeout(r, 200)));
  }
  return settling(Promise.all(list.map((d, i) => new Promise((resolve) => {
    const spin = rand(300, 620) * (Math.random() < 0.5 ? -1 : 1);
    const from = `translate(${rand(-40, 40)}px, ${rand(-110, -70)}px) rotate(${spin}deg) scale(.7)`;
    const mid = `translate(${rand(-6, 6)}px, ${rand(4, 10)}px) rotate(${spin / 12}deg) scale(1.06)`;
    const delay = i * STAGGER;
    // Mid-flight the die shows other faces (the spoken label and data-face never change).
    const real = d.querySelector("svg");
    let shown = real;
    const flicker = real ? setInterval(() => {
      const next = face(1 + Math.floor(Math.random() * 6));
      shown.replaceWith(next);
      shown = next;
    }, 90) : null;
    const stop = () => {
      if (flicker === null) return;
      clearInterval(flicker);
      if (shown !== real) shown.replaceWith(real);
      shown = real;
    };
    const anim = d.animate(
      [{ transform: from, opacity: 0 }, { transform: mid, opacity: 1, offset: 0.72 }, { transform: "none", opacity: 1 }],
      { duration: FLIGHT, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
    setTimeout(() => { stop(); onLand(i); }, delay + FLIGHT * 0.72);
    anim.finished.then(resolve, resolve);
    setTimeout(() => { stop(); resolve(); }, delay + FLIGHT + 300);  // a hidden tab may never finish
  }))));
}

/** Slide a die from where ``from`` (a DOMRect) was into its place: the FLIP technique. */
export function slideFrom(el, from) {
  if (!el.animate || !from || calm()) return;
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left, dy = from.top - to.top;
  if (!dx && !dy) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: SLIDE, easing: "cubic-bezier(.3,.8,.3,1)" });
}

/** A little hop for a die that changed meaning in place (a kept cargo die, a posted roll). */
export function pop(el) {
  if (!el || !el.animate || calm()) return;
  el.animate([{ transform: "scale(1)" }, { transform: "scale(1.15)" }, { transform: "scale(1)" }], { duration: 260 });
}
