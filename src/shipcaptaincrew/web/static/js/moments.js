// The table's moments: the roll that ended a turn held over the felt for about two seconds,
// the round's result as a card, the match's podium with "play again", and reactions floating
// up from a player's card.  What each moment says comes from the server (its `moment`,
// `last_result`, `podium` and `rematch`); this module only stages it.
import { h, num, t } from "./common.js";
import { calm, die, tumble } from "./dice.js";
import { avatar, roleLabel } from "./table.js";

const HOLD = 2000;
const SHORT = 700;
const STALE = 2500;
const waiting = [];
let running = false;
let hurry = null;  // ends the moment on screen early (a newer one waits)

function pause(ms) {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); hurry = null; resolve(); };
    const timer = setTimeout(done, ms);
    hurry = () => { clearTimeout(timer); setTimeout(done, SHORT); hurry = null; };
  });
}

/**
 * Hold a moment over the felt for about two seconds.  The table does not wait for it: when a
 * newer moment comes, the one on screen gives way after a short look and only the newest
 * wait their turn, so the moments never lag behind the game.
 */
export function holdMoment(box, build, { sounds = {}, hold = HOLD } = {}) {
  waiting.push({ build, sounds, hold, at: Date.now() });
  while (waiting.length > 2) waiting.shift();
  if (hurry) hurry();
  if (!running) run(box);
}

async function run(box) {
  running = true;
  while (waiting.length) {
    const { build, sounds, hold, at } = waiting.shift();
    if (waiting.length && Date.now() - at > STALE) continue;  // the table has moved on
    const el = build();
    box.replaceChildren(el);
    await tumble(el.querySelectorAll(".die[data-face]"), () => sounds.land && sounds.land());
    if (sounds.after) sounds.after();
    await pause(waiting.length ? SHORT : hold);
    el.classList.add("leaving");
    await new Promise((r) => setTimeout(r, calm() ? 0 : 280));
    if (el.parentNode === box) el.remove();
  }
  running = false;
}

/** The turn-ending roll: the dice as they lie and the server's one-liner ("Cy: no crew, 0"). */
export function turnMoment(m) {
  const roles = m.roles || [];
  const held = (m.held || []).map((f, i) => h("span", { class: "slot" }, die(f, { role: roles[i], size: "mid" }),
    h("span", { class: "slot-label" }, roleLabel(roles[i]))));
  const cargo = (m.cargo || []).map((f) => h("span", { class: "slot" }, die(f, { role: "cargo", cargo: true, size: "mid" }),
    h("span", { class: "slot-label" }, roleLabel("cargo"))));
  const rest = m.complete ? [] : restOf(m.faces || [], m.held || []);
  return h("div", { class: "moment", id: "moment", role: "status" },
    h("div", { class: "row" }, held, cargo, rest.map((f) => die(f, { size: "mid" }))),
    h("p", { class: `line ${m.complete ? "good" : "bad"}` }, m.text || ""),
    m.by_timer ? h("p", { class: "tag by-timer" }, t("played by the turn timer")) : null);
}

function restOf(faces, held) {
  const left = [...faces];
  for (const f of held) {
    const i = left.indexOf(f);
    if (i >= 0 && left.length > 5 - held.length) left.splice(i, 1);
  }
  return left;
}

/** A roll-off die (or a cargo tie-break pair) that settled its contest: who rolled what. */
export function rolloffMoment(m, players) {
  const p = players[m.seat];
  return h("div", { class: "moment", role: "status" },
    h("div", { class: "row" }, avatar(p, { dot: false }), h("b", {}, p.name), m.faces.map((f) => die(f, { size: "mid" }))));
}

/** A short line over the felt (the round's winner). */
export function lineMoment(text, good = true) {
  return h("div", { class: "moment", role: "status" }, h("p", { class: `line ${good ? "good" : ""}` }, text));
}

/** The round-result card: winner, every score, the pot moving, the sips, the tie-break and why. */
export function resultCard(r, players, { fresh = false } = {}) {
  const seats = (r.seats && r.seats.length ? r.seats : r.scores.map((_, i) => i)).filter((s) => r.scores[s] !== null && r.scores[s] !== undefined);
  const order = [...seats].sort((a, b) => (a === r.winner ? -1 : b === r.winner ? 1 : r.scores[b] - r.scores[a]));
  const heading = r.stage === "final" ? t("Final") : t("Round {n}", { n: r.round_no });  // before the server's words
  const sips = players.filter((p, i) => r.sips && r.sips[i] > 0);
  const card = h("details", { class: `panel result${fresh ? " fresh" : ""}`, "data-testid": "round-result", id: "round-result", open: fresh },
    h("summary", {}, h("span", {}, r.text || heading)),
    h("ol", { "aria-label": t("Scores") }, order.map((s) => h("li", { class: s === r.winner ? "won" : "" },
      avatar(players[s], { dot: false }),
      h("span", { class: "grow" }, players[s].name, s === r.winner ? ` 🏆 ${t("wins")}` : ""),
      h("span", { class: "score" }, num(r.scores[s]))))),
    r.pot_won ? h("p", {}, "💰 ", t("{name} takes the pot: {n}", { name: players[r.winner].name, n: num(r.pot_won) })) : null,
    sips.length ? h("p", {}, "🍺 ", t("Sips"), ": ", sips.map((p) => `${p.name} ${num(r.sips[p.seat])}`).join(" · ")) : null,
    r.why ? h("p", { class: "why" }, r.why) : r.tie_breaks ? h("p", { class: "why" }, t("Tie-breaks: {n}", { n: r.tie_breaks })) : null);
  return card;
}

function confetti(into) {
  if (calm()) return;
  const box = h("div", { class: "confetti", "aria-hidden": "true" });
  const colours = ["#ffd23f", "#b8322a", "#1f66a8", "#1c7047", "#a52c62", "#ffffff"];
  for (let i = 0; i < 48; i++) {
    const bit = h("i");
    bit.style.left = `${Math.random() * 100}%`;
    bit.style.background = colours[i % colours.length];
    bit.style.animationDelay = `${Math.random() * 0.9}s`;
    bit.style.transform = `rotate(${Math.random() * 180}deg)`;
    box.append(bit);
  }
  into.append(box);
  setTimeout(() => box.remove(), 4200);
}

/** The match podium: places, the reason the winner won, and "play again" for the table. */
export function podiumView(room, you, { fresh, rematch, seatNext, extra }) {
  const players = room.players;
  const podium = room.podium || { ranking: [], why: "" };
  const byPlace = (p) => podium.ranking.filter((r) => r.place === p);
  const step = (place) => {
    const rs = byPlace(place);
    return h("div", { class: `step p${place}` },
      rs.map((r) => h("span", { class: "name" }, avatar(players[r.seat], { dot: false }), " ", players[r.seat].name)),
      h("div", { class: "block", "aria-hidden": "true" }, rs.length ? String(place) : ""));
  };
  const winner = room.match.winner;
  const section = h("section", { class: "panel podium", "data-testid": "podium", id: "podium", "aria-labelledby": "podium-h" },
    h("h2", { id: "podium-h", tabindex: "-1" }, winner === null ? t("No winner.") : t("{name} wins the match!", { name: players[winner].name })),
    podium.why ? h("p", { class: "why", id: "podium-why" }, podium.why) : null,
    h("div", { class: "steps" }, step(2), step(1), step(3)),
    rematchArea(room, you, rematch, seatNext),
    h("ol", { class: "ranking", "aria-label": t("Final standings") }, podium.ranking.map((r) => h("li", {},
      h("span", { class: "place" }, `${r.place}.`),
      avatar(players[r.seat], { dot: false }),
      h("span", { class: "grow" }, players[r.seat].name, r.seat === you ? ` (${t("you")})` : "",
        players[r.seat].rematch ? h("span", { class: "tag" }, `✓ ${t("Play again")}`) : null),
      h("span", { class: "stats" },
        h("span", {}, t("Total"), " ", h("b", {}, num(r.total))),
        r.wins ? h("span", {}, t("Wins"), " ", h("b", {}, num(r.wins))) : null,
        room.options && room.options.stakes === "pot" ? h("span", {}, t("Chips"), " ", h("b", {}, num(r.chips))) : null,
        r.sips ? h("span", {}, t("Sips"), " ", h("b", {}, num(r.sips))) : null)))),
    extra);
  if (fresh) confetti(section);
  return section;
}

function rematchArea(room, you, rematch, seatNext) {
  const state = room.rematch || { confirmed: [], needed: [], next_code: null };
  const names = (seats) => seats.map((s) => room.players[s] ? room.players[s].name : "").filter(Boolean).join(", ");
  const waiting = state.needed.filter((s) => !state.confirmed.includes(s));
  const status = state.confirmed.length
    ? h("p", { class: "muted", id: "rematch-status", role: "status" },
      waiting.length ? t("Play again: waiting for {names}.", { names: names(waiting) }) : t("Everyone is in: the next match is being set up."))
    : null;
  const joining = (state.next_seats || []).length
    ? h("p", { class: "muted", id: "next-seats" }, t("Joining the next match: {names}", { names: state.next_seats.map((n) => n.name).join(", ") }))
    : null;
  if (you === null) {
    return h("div", {}, status, joining, seatNext);
  }
  const confirmed = state.confirmed.includes(you);
  return h("div", { class: "rematch" },
    h("button", { type: "button", class: "big", "data-testid": "rematch", id: "rematch", "aria-pressed": confirmed ? "true" : "false",
      disabled: confirmed, onclick: rematch }, confirmed ? t("You're in: waiting for the others") : t("Play again")),
    status, joining);
}

// -- reactions -------------------------------------------------------------------------------
/** The fixed set of reactions (the server's list), as big emoji buttons. */
export function reactionBar(reactions, send) {
  if (!reactions || !reactions.length) return null;
  return h("div", { class: "reactions", role: "group", "aria-label": t("Reactions") },
    reactions.map((e) => h("button", { type: "button", "aria-label": t("React with {emoji}", { emoji: e }), onclick: () => send(e) }, e)));
}

/** A reaction floats up from the player's card (or the bottom of the screen). */
export function bubble(emoji, who, seat) {
  const card = seat === null || seat === undefined ? null : document.querySelector(`.pcard[data-seat="${seat}"]`);
  const r = card ? card.getBoundingClientRect() : null;
  const visible = r && r.bottom > 0 && r.top < innerHeight;
  const el = h("div", { class: "bubble", "aria-hidden": "true" }, emoji, who ? h("small", {}, who) : null);
  el.style.left = `${visible ? r.left + Math.min(r.width - 40, 20 + Math.random() * 40) : innerWidth / 2 - 20 + (Math.random() * 80 - 40)}px`;
  el.style.top = `${visible ? r.top - 10 : innerHeight - 180}px`;
  document.body.append(el);
  setTimeout(() => el.remove(), 2300);
}

/** Something moving across the table: the pot to the round's winner, a sip to a drinker. */
export function fly(emoji, from, seat, delay = 0) {
  const card = document.querySelector(`.pcard[data-seat="${seat}"]`);
  if (!card || !from || calm()) return;
  const a = from.getBoundingClientRect();
  const b = card.getBoundingClientRect();
  const el = h("div", { class: "bubble flying", "aria-hidden": "true" }, emoji);
  el.style.left = `${a.left + a.width / 2 - 18}px`;
  el.style.top = `${a.top + a.height / 2 - 18}px`;
  document.body.append(el);
  const dx = b.left + 24 - (a.left + a.width / 2 - 18);
  const dy = b.top + 8 - (a.top + a.height / 2 - 18);
  const anim = el.animate([{ transform: "translate(0, 0) scale(.6)", opacity: 0 }, { transform: "translate(0, -20px) scale(1.2)", opacity: 1, offset: 0.2 },
    { transform: `translate(${dx}px, ${dy}px) scale(.9)`, opacity: 1 }], { duration: 1100, delay, easing: "cubic-bezier(.4,.1,.3,1)", fill: "backwards" });
  anim.finished.then(() => el.remove(), () => el.remove());
}
