// Drawing a match from the server's picture (shared by the live table and the replay viewer).
// Everything shown comes from the engine's fields; the page decides no rule.  What it does
// work out is only how to draw: which dice of the last roll now sit in a slot, and how to
// move them there.
import { h, num, t, tn } from "./common.js";
import { SLIDE, blank, die, pop, settling, slideFrom, slot, tumble } from "./dice.js";

const ROLES = ["ship", "captain", "crew"];
const ROLE_LABEL = { ship: "Ship", captain: "Captain", crew: "Crew", cargo: "Cargo" };

export function roleLabel(role) { return t(ROLE_LABEL[role]); }

export function playerColor(p) {
  return `pc${(p && Number.isInteger(p.color) ? p.color : p ? p.seat : 0) % 8}`;
}

/** A round badge with the player's emoji or initial, and their online dot. */
export function avatar(p, { dot = true } = {}) {
  const initial = (p.name || "?").trim().charAt(0).toUpperCase() || "?";
  return h("span", { class: `avatar ${playerColor(p)}`, "aria-hidden": "true" }, p.avatar || initial,
    dot ? h("span", { class: p.online === false ? "dot" : "dot on" }) : null);
}

export function botLevel(p) {
  if (p.kind === "human" || p.kind === "person") return null;
  return p.level_label || null;
}

export function statusText(match, players, you) {
  if (match.over) {
    return match.winner === null ? t("No winner.") : t("{name} wins the match!", { name: players[match.winner].name });
  }
  const who = match.actor;
  if (who === you) return t("Your turn");
  return t("{name} to play", { name: players[who].name });
}

function roundsOf(options) {
  const m = /^rounds:(\d+)$/.exec((options && options.format) || "");
  return m ? +m[1] : null;
}

export function stageText(match, options) {
  const c = match.contest;
  if (match.phase === "roll_off" || (c && c.purpose === "starter")) return t("Who starts?");
  if (c && c.purpose !== "round") return t("Tie-break");
  if (match.phase === "hand_out" || match.phase === "hand_out_roll") return t("The captain hands out sips");
  if (match.stage === "final") return t("Final");
  const of = roundsOf(options);
  return of ? t("Round {n} of {total}", { n: match.round_no, total: of }) : t("Round {n}", { n: match.round_no });
}

/** What the player to act is asked to do, in words (the banner's second line). */
export function askText(match) {
  if (match.phase === "roll_off") return t("Roll one die: the highest starts.");
  if (match.phase === "cargo_roll_off") {
    return match.cargo_dice === 1 ? t("Roll your cargo die: the higher cargo wins the tie.") : t("Roll your cargo dice: the higher cargo wins the tie.");
  }
  if (match.phase === "hand_out_roll") return t("Roll one die for the sips to hand out.");
  if (match.phase === "hand_out") {
    return match.legal.includes("sip:stop") ? t("Sips to hand out: up to {n} more, or stop.", { n: match.hand_out_left })
      : t("Sips to hand out: {n}", { n: match.hand_out_left });
  }
  if (match.phase === "another_round") return t("Another round, or stop here?");
  const turn = match.turn;
  if (!turn) return "";
  if (turn.phase === "assign") return t("Choose which dice fill the roles.");
  if (turn.phase === "decide") return t("Stand on {n}, or reroll the cargo.", { n: turn.score });
  return t("Rolls left: {n}", { n: turn.rolls_left });
}

/** The button text for an action the engine lists (the canonical text stays in data-action). */
export function actionLabel(action, match, players, options = {}) {
  const turn = match && match.turn;
  if (action === "roll") {
    if (match && match.phase === "roll_off") return t("Roll for the start");
    if (match && match.phase === "cargo_roll_off") return t("Roll the cargo dice");
    if (match && match.phase === "hand_out_roll") return t("Roll for the sips");
    if (turn && turn.complete) return t("Roll the cargo");
    return t("Roll the dice");
  }
  if (action === "stand") return turn ? t("Stand on {n}", { n: turn.score }) : t("Stand");
  if (action === "reroll") return t("Reroll the cargo");
  let m = action.match(/^reroll:keep(\d)$/);
  if (m) return match && match.cargo_dice > 2 ? t("Keep {face}, reroll the others", { face: m[1] }) : t("Keep {face}, reroll the other", { face: m[1] });
  m = action.match(/^take:(\d+)$/);
  if (m) {
    // Faces fill the next missing roles in order (actions.Take): say which die becomes which.
    const start = turn ? turn.held.length : 0;
    const wild = options && options.wild_captain ? options.wild_face : null;
    return m[1].split("").map((f, i) => `${roleLabel(ROLES[start + i] || "crew")} ${f}${+f === wild ? ` ${t("(wild)")}` : ""}`).join(" · ");
  }
  const name = (seat) => (players[seat] ? players[seat].name : String(seat));
  m = action.match(/^sip:(\d+)$/);
  if (m) return t("Give a sip to {name}", { name: name(+m[1]) });
  if (action === "sip:stop") return t("Stop handing out");
  if (/^sip:\d+x\d+(,\d+x\d+)*$/.test(action)) {
    return action.slice(4).split(",").map((part) => { const [seat, n] = part.split("x"); return `${name(+seat)} ${n}`; }).join(" · ");
  }
  if (action === "next_round") return t("Another round");
  if (action === "stop") return t("Stop: the totals decide");
  return action;
}

/** The dice of the last roll that stayed free (the others went into slots by this roll). */
function freeDice(turn) {
  if (turn.complete) return [];
  const placed = Math.max(0, turn.last_roll.length - turn.free_dice);
  const left = [...turn.last_roll];
  for (const f of turn.held.slice(turn.held.length - placed)) {
    const i = left.indexOf(f);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/**
 * The felt during a turn: ship, captain and crew slots, the cargo apart, the free dice in the
 * tray (between turns, :func:`contestFelt`).
 * Returns ``{el, play}``: ``play(prev, sounds)`` animates the step from the previous picture
 * (the roll tumbling in die by die, the qualifying dice sliding into their slots).
 */
export function felt(match, players, { tie = null } = {}) {
  const turn = match.turn;
  const el = cupSized(h("div", { class: "felt", id: "felt" }), match.dice);
  if (tie) el.append(tieHead(tie));
  const held = ROLES.map((role, i) => slot(role, turn.held[i], roleLabel(role)));
  // As many cargo slots as the rule set's cargo has dice (the picture's cargo_dice).
  const cargo = Array.from({ length: match.cargo_dice }, (_, i) => turn.cargo[i]
    ? h("div", { class: "slot cargo" }, die(turn.cargo[i], { role: "cargo", cargo: true }), h("span", { class: "slot-label", "aria-hidden": "true" }, roleLabel("cargo")))
    : h("div", { class: "slot cargo", "data-slot": "cargo" }, h("span", { class: "die empty", "aria-hidden": "true" }), h("span", { class: "slot-label", "aria-hidden": "true" }, roleLabel("cargo"))));
  const pending = turn.pending && turn.pending.length ? turn.pending : null;
  const free = pending || freeDice(turn);
  // With the crew complete every die sits in a slot: the tray shows the score, big.
  const tray = turn.complete
    ? h("div", { class: "tray score-big", id: "tray" }, h("span", { class: "sr-only" }, t("Cargo: {n}", { n: turn.score })),
      h("span", { "aria-hidden": "true" }, String(turn.score)))
    : h("div", { class: "tray", id: "tray", role: "group", "aria-label": t("Last roll") },
      free.length ? free.map((f) => die(f)) : turn.rolls_used === 0 || !turn.last_roll.length
        ? Array.from({ length: match.dice_due || turn.free_dice || match.dice }, () => blank()) : null);
  const left = "●".repeat(turn.rolls_left) + "○".repeat(turn.rolls_used);
  el.append(
    h("div", { class: "slots", role: "group", "aria-label": t("Held") }, h("div", { class: "held" }, held), h("div", { class: "cargo-group" }, cargo)),
    tray,
    h("div", { class: "felt-info" },
      h("span", {}, t("Rolls left: {n}", { n: turn.rolls_left }), " ", h("span", { class: "pips-left", "aria-hidden": "true" }, left)),
      beatText(match, players)));
  const play = (prev, sounds = {}) => settling(animate(el, match, prev, sounds));
  return { el, play };
}

/** The score to beat this round: the best posted so far (what the table is chasing); with
 * nobody's crew posted yet, any crew leads. */
function beatText(match, players) {
  const c = match.contest;
  if (!c || c.method !== "turn") return null;
  let best = null;
  for (const [seat, score] of Object.entries(c.posted)) {
    if (best === null || score > best.score) best = { seat: +seat, score };
  }
  if (best === null) return null;
  if (best.score === 0) return h("span", { class: "beat" }, t("Anyone with a crew leads"));
  return h("span", { class: "beat" }, t("To beat: {n} ({name})", { n: best.score, name: players[best.seat].name }));
}

/** The tie being broken: who tied, with what, and how it is decided (the server's words). */
export function tieHead(tie) {
  return tie ? h("p", { class: "tie-head", "data-testid": "tie" }, tie.text) : null;
}

/** The captain's hand-out: how many sips are left to give, and who got how many so far. */
function handOutArea(match, players) {
  const captain = players[match.actor];
  const got = players.filter((p, i) => match.round_sips && match.round_sips[i] > 0);
  return h("div", { class: "handout" },
    h("p", { class: "sips-left", "aria-label": t("Sips to hand out: {n}", { n: match.hand_out_left }) },
      h("span", { "aria-hidden": "true" }, "🍺 ×"), " ", h("b", {}, String(match.hand_out_left ?? ""))),
    captain ? h("p", { class: "hint" }, t("{name} is the captain and hands out the sips.", { name: captain.name })) : null,
    got.length ? h("p", { class: "hint", id: "sips-given" }, got.map((p) => tn("{name}: {n} sip", match.round_sips[p.seat], { name: p.name, n: num(match.round_sips[p.seat]) })).join(" · ")) : null);
}

/** A roll-off (one die each) or a cargo tie-break (the cargo's dice each): every contender's dice. */
function contestArea(match, players, rolloffs = {}, tie = null) {
  if (match.phase === "hand_out" || match.phase === "hand_out_roll") return handOutArea(match, players);
  const c = match.contest;
  if (!c || c.method === "turn") return h("div", { class: "tray" }, Array.from({ length: match.dice }, () => blank()));
  const cargo = c.method === "cargo";
  const decides = match.cargo_dice === 1 ? t("Tie-break: the cargo die decides.") : t("Tie-break: the cargo dice decide.");
  return h("div", {},
    tie ? tieHead(tie) : h("p", { class: "hint" }, cargo ? decides : t("One die each: the highest starts.")),
    h("ul", { class: "contest", "aria-label": t("Tie-break") }, c.seats.map((s) => {
      const posted = c.posted[String(s)];
      // The dice the moments showed, while they still add up to what this contest posted.
      const seen = rolloffs[s] && rolloffs[s].reduce((a, b) => a + b, 0) === posted ? rolloffs[s] : null;
      const faces = posted === undefined ? null : seen || (cargo ? null : [posted]);
      return h("li", { class: "contender" + (match.actor === s ? " now" : ""), "data-seat": s },
        avatar(players[s], { dot: false }),
        h("span", { class: "name" }, players[s].name),
        faces ? faces.map((f) => die(f, { size: "mid" })) : posted === undefined ? blank("mid") : null,
        cargo && posted !== undefined ? h("span", { class: "sum" }, `= ${posted}`) : null);
    })));
}

/** The felt sized for the cup's dice (style.css reads --dice: six fit a phone's width too); set
 * through the element's style object, which the pages' style policy allows. */
export function cupSized(el, dice) {
  if (dice) el.style.setProperty("--dice", String(dice));
  return el;
}

/** Redraw the roll-off area with the faces the moments told us (the cargo's dice, not a sum). */
export function contestFelt(match, players, rolloffs, tie = null) {
  return cupSized(h("div", { class: "felt", id: "felt" }, contestArea(match, players, rolloffs, tie)), match.dice);
}

async function animate(el, match, prev, sounds) {
  const turn = match.turn;
  const before = prev && prev.turn;
  if (!before || prev.actor !== match.actor || prev.round_no !== match.round_no) return;
  const tray = el.querySelector("#tray");
  const rolled = turn.rolls_used === before.rolls_used + 1;
  const took = !rolled && turn.held.length > before.held.length;
  if (!rolled && !took) return;
  // Dice placed by this step, in role order, then the cargo when the crew just completed.
  const placed = [];
  el.querySelectorAll(".slot[data-role]").forEach((s, i) => { if (i >= before.held.length) placed.push(s.querySelector(".die")); });
  if (!before.complete && turn.complete) el.querySelectorAll(".slot.cargo .die[data-face]").forEach((d) => placed.push(d));
  if (rolled && before.complete) {
    // A cargo reroll: the cargo dice tumble where they lie.
    const cargo = [...el.querySelectorAll(".slot.cargo .die[data-face]")].slice(-turn.last_roll.length);
    if (sounds.rattle) sounds.rattle(cargo.length);
    await tumble(cargo, () => sounds.land && sounds.land());
    return;
  }
  const source = rolled ? turn.last_roll : before.pending || [];
  const resting = [...tray.childNodes];  // what the tray shows once the dice lie in place
  const free = [...tray.querySelectorAll(".die[data-face]")];
  const temps = [];
  const order = source.map((f) => {
    const mine = placed.findIndex((d, i) => d && !temps[i] && +d.dataset.face === f);
    if (mine >= 0) {
      const temp = die(f, { ghost: true });
      temps[mine] = temp;
      placed[mine].style.visibility = "hidden";
      return temp;
    }
    const i = free.findIndex((d) => +d.dataset.face === f);
    return i >= 0 ? free.splice(i, 1)[0] : die(f, { ghost: true });
  });
  tray.replaceChildren(...order);
  if (rolled) {
    if (sounds.rattle) sounds.rattle(order.length);
    await tumble(order, () => sounds.land && sounds.land());
  }
  const rects = temps.map((d) => d && d.getBoundingClientRect());
  temps.forEach((d) => d && d.remove());
  placed.forEach((d, i) => {
    if (!d) return;
    d.style.visibility = "";
    slideFrom(d, rects[i]);
  });
  if (turn.complete) {
    tray.replaceChildren(...resting);
    if (placed.length) setTimeout(() => placed.forEach(pop), SLIDE);
  }
}

/** Every player as a card: colour or emoji, online dot, this round's number, and what decides
 * the match first (points, or rounds won), then chips and sips. */
export function playerCards(match, players, you, { pot = false, decides = null } = {}) {
  const by = decides ? decides.by : "totals";
  return h("ul", { class: "cards", id: "cards" }, players.map((p, i) => {
    const c = match.contest;
    // Once the match is over the podium tells the scores: a round's number beside it would read as one.
    const posted = match.over ? null : c && c.posted[String(i)] !== undefined ? c.posted[String(i)] : match.round_scores ? match.round_scores[i] : null;
    const playing = !match.round_seats || !match.round_seats.length || match.round_seats.includes(i);
    const level = botLevel(p);
    const label = [p.name, i === you ? t("you") : null, level, p.online === false ? t("offline") : null, match.actor === i && !match.over ? t("to play") : null]
      .filter(Boolean).join(", ");
    const total = h("span", { class: by === "totals" ? "decides" : "" }, t("Total"), " ", h("b", {}, num(match.totals[i])));
    const wins = match.wins[i] || by === "wins" ? h("span", { class: by === "wins" ? "decides" : "" }, t("Wins"), " ", h("b", {}, num(match.wins[i]))) : null;
    return h("li", { class: `pcard ${playerColor(p)}${match.actor === i && !match.over ? " actor" : ""}${playing && !p.left ? "" : " out"}`, "aria-label": label, "data-seat": i },
      avatar(p),
      h("span", { class: "name" }, p.name, i === you ? h("span", { class: "muted" }, ` (${t("you")})`) : null,
        p.online === false ? h("span", { class: "tag off" }, t("offline")) : null,
        p.played_for ? h("span", { class: "tag off" }, t("a bot plays")) : null,
        p.leaving ? h("span", { class: "tag off" }, t("leaves after this round")) : null,
        p.left ? h("span", { class: "tag off" }, t("left the match")) : null),
      h("span", { class: "posted", title: t("Posted this round") }, posted === null || posted === undefined ? "" : String(posted)),
      h("span", { class: "sub" },
        level ? h("span", {}, level) : null,
        by === "wins" ? [wins, total] : [total, wins],
        pot ? h("span", {}, t("Chips"), " ", h("b", {}, num(match.chips[i]))) : null,
        match.sips[i] ? h("span", {}, t("Sips"), " ", h("b", {}, num(match.sips[i]))) : null));
  }));
}

/** Each finished round's scores: a table on wide screens, a card per round on a phone. */
export function roundsTable(match, players) {
  return h("table", { class: "fit" },
    h("caption", { class: "sr-only" }, t("Rounds")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Round")),
      players.map((p) => h("th", { scope: "col", class: "num" }, p.name)),
      h("th", { scope: "col" }, t("Winner")))),
    h("tbody", {}, match.results.map((r) => h("tr", {},
      h("th", { scope: "row" }, r.stage === "final" ? t("Final") : t("Round {n}", { n: r.round_no })),
      r.scores.map((s, i) => h("td", { class: "num", "data-label": players[i].name }, s === null ? "–" : String(s))),
      h("td", { "data-label": t("Winner"), class: "break" }, r.winner === null ? "–" : players[r.winner].name)))));
}
