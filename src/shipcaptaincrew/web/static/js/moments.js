// The table's moments, each a piece any view of the table can draw (the phone here, a shared
// table screen too): the roll that ended a turn and the round's result in a strip beside the
// felt (never over it), the tie being broken, the roll that decided the match held on the
// felt before the podium, the podium with "play again", and reactions floating up from a
// player's card.  What each says comes from the server (its `moment`, `last_result`, `tie`,
// `podium` and `rematch`); this module only draws it.
import { h, num, t, tn } from "./common.js";
import { calm, die, slot, tumble } from "./dice.js";
import { avatar, cupSized, roleLabel } from "./table.js";

/** How long the roll that decided the match stays on the felt once it has landed (ms). */
export const FINAL_HOLD = 1800;

/** A turn-ending roll's dice as they lie: the held dice by role, the cargo, the rest. */
function turnDice(m, size) {
  const roles = m.roles || [];
  const held = (m.held || []).map((f, i) => die(f, { role: roles[i], size }));
  const cargo = (m.cargo || []).map((f) => die(f, { role: "cargo", cargo: true, size }));
  const rest = m.complete ? [] : restOf(m.faces || [], m.held || [], m.dice);
  return [...held, ...cargo, ...rest.map((f) => die(f, { size }))];
}

/** The last roll's dice that were not set aside: as many as the cup (the server's `dice`)
 * leaves free once the held dice are out. */
function restOf(faces, held, dice) {
  const left = [...faces];
  for (const f of held) {
    const i = left.indexOf(f);
    if (i >= 0 && left.length > dice - held.length) left.splice(i, 1);
  }
  return left;
}

/** Why a bot played a person's turn, as a tag every page shows (data-testid played-for). */
export function playedForTag(by, name) {
  const why = { timer: t("time ran out"), away: t("away"), asked: t("the table asked"), silent: t("silent, the table asked") }[by] || "";
  return h("span", { class: "tag played-for", "data-testid": "played-for" }, t("A bot plays for {name}", { name }), why ? ` (${why})` : "");
}

/**
 * The strip beside the felt: the last moment in one compact line (whose it was, its dice, the
 * server's one-liner), kept until a newer one replaces it and dimmed once the next roll is on
 * the felt.  Returns null for a moment that has nothing to show here.
 */
export function stripMoment(moment, players) {
  const kinds = { turn_end: moment, rolloff: moment, round_end: moment.turn || moment.rolloff || null, match_end: moment.turn || moment.rolloff || null };
  const part = moment.kind === "leave" || moment.kind === "stay" ? moment : kinds[moment.kind];
  const round = moment.kind === "round_end" ? moment : moment.kind === "match_end" ? moment.round : null;
  if (!part && !round) return null;
  const p = part ? players[part.seat] : round && round.winner !== null ? players[round.winner] : null;
  const dice = part && part.kind === "turn_end" ? turnDice(part, "small") : part && part.kind === "rolloff" ? part.faces.map((f) => die(f, { size: "small" })) : [];
  const lines = [];
  if (part && part.text) lines.push(h("span", { class: `line ${part.kind === "turn_end" ? (part.leads ? "good" : part.complete ? "" : "bad") : ""}` }, part.text));
  else if (part && part.kind === "rolloff") lines.push(h("span", { class: "line" }, p ? p.name : ""));
  if (round && round.text) lines.push(h("span", { class: "line round" }, round.text));
  if (part && part.by && p) lines.push(playedForTag(part.by, p.name));
  return h("div", { class: "strip-item", role: "status", "data-kind": moment.kind },
    p ? avatar(p, { dot: false }) : null,
    dice.length ? h("span", { class: "strip-dice", "aria-hidden": "true" }, dice) : null,
    h("span", { class: "strip-text" }, lines));
}

/** Put a moment into the strip; its dice tumble in (the felt's own dice are never covered). */
export function showStrip(box, el, { land } = {}) {
  box.replaceChildren(el);
  box.classList.remove("old");
  tumble(el.querySelectorAll(".die[data-face]"), () => land && land());
}

/** The roll that decided the match, on the felt where it landed, with its one-liner. */
export function finalFelt(moment, players, contest, rolloffs) {
  const part = moment.turn || moment.rolloff;
  const el = cupSized(h("div", { class: "felt final", id: "felt" }), part && part.dice);
  if (part && part.kind === "turn_end") {
    const held = ["ship", "captain", "crew"].map((role, i) => slot(role, (part.held || [])[i], roleLabel(role)));
    const cargo = (part.cargo || []).map((f) => h("div", { class: "slot cargo" }, die(f, { role: "cargo", cargo: true }),
      h("span", { class: "slot-label", "aria-hidden": "true" }, roleLabel("cargo"))));
    const rest = part.complete ? [] : restOf(part.faces || [], part.held || [], part.dice);
    el.append(h("div", { class: "slots", role: "group", "aria-label": t("Held") }, h("div", { class: "held" }, held), h("div", { class: "cargo-group" }, cargo)),
      h("div", { class: part.complete ? "tray score-big" : "tray", id: "tray" },
        part.complete ? h("span", {}, String(part.score)) : rest.map((f) => die(f))));
  } else if (part && part.kind === "rolloff") {
    const seats = contest ? contest.seats : [part.seat];
    el.append(h("ul", { class: "contest" }, seats.map((s) => {
      const faces = s === part.seat ? part.faces : rolloffs[s] || [];
      return h("li", { class: s === moment.winner ? "contender won" : "contender", "data-seat": s }, avatar(players[s], { dot: false }),
        h("span", { class: "name" }, players[s].name), faces.map((f) => die(f, { size: "mid" })),
        faces.length ? h("span", { class: "sum" }, `= ${faces.reduce((a, b) => a + b, 0)}`) : null);
    })));
  }
  // (A roll-off says nothing of its own: the match's reason names who won it.)
  const said = moment.round && moment.round.text ? moment.round.text : part && part.text ? part.text : moment.why || "";
  if (said) el.append(h("p", { class: "final-line", role: "status" }, said));
  return el;
}

/** The round-result card: winner, every score, the pot moving, the sips, the tie-break and why. */
export function resultCard(r, players, { fresh = false } = {}) {
  const seats = (r.seats && r.seats.length ? r.seats : r.scores.map((_, i) => i)).filter((s) => r.scores[s] !== null && r.scores[s] !== undefined);
  const order = [...seats].sort((a, b) => (a === r.winner ? -1 : b === r.winner ? 1 : r.scores[b] - r.scores[a]));
  const heading = r.stage === "final" ? t("Final") : t("Round {n}", { n: r.round_no });  // before the server's words
  const sips = players.filter((p, i) => r.sips && r.sips[i] > 0);
  return h("details", { class: `panel result${fresh ? " fresh" : ""}`, "data-testid": "round-result", id: "round-result", open: fresh },
    h("summary", {}, h("span", {}, r.text || heading)),
    h("ol", { "aria-label": t("Scores") }, order.map((s) => h("li", { class: s === r.winner ? "won" : "" },
      avatar(players[s], { dot: false }),
      h("span", { class: "grow" }, players[s].name, s === r.winner ? ` 🏆 ${t("wins")}` : ""),
      h("span", { class: "score" }, num(r.scores[s]))))),
    r.pot_won ? h("p", {}, "💰 ", t("{name} takes the pot: {n}", { name: players[r.winner].name, n: num(r.pot_won) })) : null,
    sips.length ? h("p", {}, "🍺 ", sips.map((p) => tn("{name}: {n} sip", r.sips[p.seat], { name: p.name, n: num(r.sips[p.seat]) })).join(" · ")) : null,
    r.why ? h("p", { class: "why" }, r.why) : r.tie_breaks ? h("p", { class: "why" }, t("Tie-breaks: {n}", { n: r.tie_breaks })) : null);
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

/** The match podium: places, every player's final total (chips and sips where the stakes have
 * them), the tie-break that decided, the reason the winner won, and "play again". */
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
  const pot = room.options && room.options.stakes === "pot";
  const section = h("section", { class: "panel podium", "data-testid": "podium", id: "podium", "aria-labelledby": "podium-h" },
    h("h2", { id: "podium-h", tabindex: "-1" }, winner === null ? t("No winner.") : t("{name} wins the match!", { name: players[winner].name })),
    podium.why ? h("p", { class: "why", id: "podium-why" }, podium.why) : null,
    podium.tie_break ? h("p", { class: "why", id: "podium-tie" }, podium.tie_break) : null,
    h("div", { class: "steps" }, step(2), step(1), step(3)),
    h("ol", { class: "ranking", "aria-label": t("Final standings") }, podium.ranking.map((r) => h("li", { "data-seat": r.seat },
      h("span", { class: "place" }, `${r.place}.`),
      avatar(players[r.seat], { dot: false }),
      h("span", { class: "grow" }, players[r.seat].name, r.seat === you ? ` (${t("you")})` : "",
        r.left ? h("span", { class: "tag" }, t("left the match")) : null,
        players[r.seat].rematch ? h("span", { class: "tag" }, `✓ ${t("Play again")}`) : null),
      h("span", { class: "stats" },
        h("span", { class: "total" }, t("Total"), " ", h("b", { "data-testid": "final-score", "data-seat": r.seat }, String(r.total))),
        r.wins ? h("span", { class: "wins" }, t("Wins"), " ", h("b", {}, num(r.wins))) : null,
        pot ? h("span", { class: "chips" }, t("Chips"), " ", h("b", {}, num(r.chips))) : null,
        r.sips || room.options.drinking !== "none" ? h("span", { class: "sips" }, t("Sips"), " ", h("b", {}, num(r.sips))) : null)))),
    rematchArea(room, you, rematch, seatNext),
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
