// The match as one phone shows it: whose turn (a banner you cannot miss when it is yours, with
// a countdown when a timer runs), the dice on the felt, the legal choices as big buttons at the
// thumb, advice, typing in real dice, and the fair-dice panel.
import { api, h, num, percent, t, tn } from "./common.js";
import { die } from "./dice.js";
import { playedForTag } from "./moments.js";
import { hoursLeft } from "./slow.js";
import { actionLabel, askText, avatar, stageText } from "./table.js";

/** The banner: "● Your turn" (data-testid your-turn, only here) or who is playing; a turn a
 * bot plays for someone away says so (data-testid played-for, on every page). */
export function banner(room, you, online, send = null) {
  const match = room.match;
  const actor = match.actor;
  const mine = !match.over && actor === you && you !== null;
  const countdown = room.deadline_ms && !match.over ? h("span", { class: "countdown", id: "countdown", role: "timer", "aria-label": t("Time left") }, "") : null;
  const standIn = room.played_for && room.played_for.seat === actor ? room.played_for : null;
  if (mine && !standIn) {
    return h("div", { class: "banner yours", "data-testid": "your-turn", id: "your-turn" },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("div", { class: "grow" }, h("div", { class: "who" }, t("Your turn")), h("div", { class: "what" }, online ? askText(match) : t("Offline: reconnecting..."))),
      countdown);
  }
  if (match.over || actor === null || actor === undefined) return h("div", { class: "banner", id: "banner-wait" }, h("div", { class: "who" }, t("Match over")));
  const p = room.players[actor];
  const away = !standIn && p.online === false && room.deadline_ms && !room.turn_hours;  // (a slow table waits)
  // Whoever may (the host, or anyone seated while the host is away) need not wait for it.
  const now = away && send && you !== null && (room.stewards || []).includes(you)
    ? h("button", { type: "button", class: "secondary", "data-testid": "play-for", "data-seat": actor,
      onclick: () => send({ type: "play_for", seat: actor }) }, t("Let a bot play for {name}", { name: p.name }))
    : null;
  return h("div", { class: "banner", id: "banner-wait" }, avatar(p),
    h("div", { class: "grow" }, h("div", { class: "who" }, t("{name} to play", { name: p.name })),
      h("div", { class: "what" }, standIn ? playedForTag(standIn.by, p.name) : away ? t("{name} is offline: a bot plays when the time is up.", { name: p.name }) : askText(match)),
      now),
    countdown);
}

/** A table code that leads nowhere (the line's close 4404), said in ``box`` with the way on. */
export function noTable(box) {
  box.hidden = false;
  box.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("There is no table with this code.")),
    h("p", {}, h("a", { href: "/" }, t("Open a new table")))));
}

export function stageLine(room) {
  const match = room.match;
  const pot = room.options && room.options.stakes === "pot";
  return [
    h("span", {}, stageText(match, room.options)),
    pot ? h("span", { class: "pot" }, "💰 ", t("Pot: {n}", { n: num(match.pot) })) : null,
  ];
}

/** A bot's move and, in its own words (the server's, translated), why it chose it. */
export function botSays(said, room) {
  const p = room.players[said.seat];
  if (!p) return null;
  // The choice in the words of the turn it was made on (its score, its held dice), not of
  // the turn the table has moved on to.
  const match = said.turn && room.match ? { ...room.match, turn: { ...(room.match.turn || {}), ...said.turn } } : room.match;
  const what = said.action ? actionLabel(said.action, match, room.players, room.options) : null;
  return h("p", { class: "bot-says", "data-testid": "bot-reason", "data-seat": said.seat },
    avatar(p, { dot: false }),
    h("span", { class: "grow" }, h("b", {}, p.name), what ? ` · ${what}` : "", h("span", { class: "why" }, said.reason)));
}

/** The faces typed so far, kept while the table redraws (someone comes online, a reaction). */
let typing = { version: -1, faces: [] };

/** Real dice: tap exactly the faces rolled, then send them (button data-action="roll"). */
export function facesEntry(match, players, you, send, version = -1) {
  const due = match.dice_due;
  if (typing.version !== version) typing = { version, faces: [] };
  const typed = typing.faces;
  const shown = h("div", { class: "typed", id: "typed", "aria-live": "polite", "aria-label": t("Faces typed") });
  const go = h("button", { type: "button", class: "primary-action", "data-action": "roll", disabled: true }, t("Enter the roll"));
  const keys = [1, 2, 3, 4, 5, 6].map((f) =>
    h("button", { type: "button", "aria-label": t("Add a {face}", { face: f }), onclick: () => { if (typed.length < due) { typed.push(f); redraw(); } } }, die(f)));
  const redraw = () => {
    shown.replaceChildren(...typed.map((f, i) => h("button", { type: "button", class: "ghost", "aria-label": t("Remove {face}", { face: f }),
      onclick: () => { typed.splice(i, 1); redraw(); } }, die(f, { size: "mid" }))));
    if (!typed.length) shown.append(h("span", { class: "muted" }, t("Tap the faces you rolled")));
    go.disabled = typed.length !== due;  // exactly the dice this roll takes
    for (const k of keys) k.disabled = typed.length >= due;
    go.replaceChildren(t("Enter the roll"), h("small", {}, tn("{n} of {due} die", due, { n: typed.length, due })));
  };
  go.addEventListener("click", () => { if (typed.length === due) send(typed.slice()); });
  redraw();
  const who = players[match.actor] ? players[match.actor].name : "";
  return h("div", { class: "faces-entry", "data-testid": "faces-entry", "data-due": due },
    h("p", { class: "note" }, match.actor === you ? tn("Roll {n} real die and tap what it shows.", due, { n: due })
      : tn("Roll for {name}: {n} real die.", due, { name: who, n: due })),
    h("div", { class: "keys", role: "group", "aria-label": t("Faces") }, keys), shown, go);
}

/** The legal choices as buttons (data-action = the canonical text), only for the actor. */
export function actionButtons(room, you, { online, connecting = false, waiting = false, physical, act, sendFaces, askAdvice }) {
  const match = room.match;
  // Another round, or stop: every person at the table is asked, not only the round's first
  // player (the server takes the answer from any of them).
  const asked = !match.over && match.phase === "another_round" && you !== null && room.players[you] && room.players[you].kind === "human";
  const mine = (!match.over && match.actor === you && you !== null) || asked;
  // At a table with real dice the host's phone types a bot's roll, or that of someone a bot
  // plays for; every other roll and choice stays on the acting player's own phone.
  const actor = room.players[match.actor];
  const forHost = actor && (actor.kind !== "human" || actor.played_for);
  const hostTypes = physical && you !== null && you === room.host && !mine && forHost && match.chance && match.legal.includes("roll") && !match.over;
  if (!mine && !hostTypes) return [];
  const out = [];
  // A picture kept on this phone is drawn before the table answers: a choice made on it
  // waits for the table's answer (``waiting``), and goes if the table is still there.
  if (connecting) out.push(h("p", { class: "note", id: "offline-note", role: "status" }, waiting ? t("Your choice goes as soon as the table answers.") : t("Connecting to the table...")));
  else if (!online) out.push(h("p", { class: "note bad", id: "offline-note" }, t("No connection: your choice cannot be sent. Waiting to reconnect...")));
  for (const a of match.legal) {
    if (a === "roll" && physical) { out.push(facesEntry(match, room.players, you, sendFaces, room.version)); continue; }
    if (!mine) continue;
    const label = actionLabel(a, match, room.players, room.options);
    const sub = a.startsWith("take:") ? t("Set aside") : null;
    out.push(h("button", { type: "button", "data-action": a, class: match.legal.length === 1 || a === "roll" ? "primary-action" : "",
      disabled: !online || waiting, onclick: () => act(a) }, label, sub ? h("small", {}, sub) : null));
  }
  const split = mine ? sharePicker(match, room.players, { online, act }) : null;
  if (split) out.push(split);
  if (mine && match.actor === you && room.hints && !match.chance && online && !connecting) {
    out.push(h("button", { type: "button", class: "secondary", id: "advice", onclick: askAdvice }, t("Advice")));
  }
  if (!online || waiting) out.forEach((b) => b.querySelectorAll && b.querySelectorAll("button").forEach((x) => { x.disabled = true; }));
  return out;
}

/** The sips the captain has not handed out yet, shared per player (kept while the table redraws). */
let shares = { key: "", counts: new Map() };

/**
 * The captain's hand-out in one move: a stepper per player the server says may get sips, and
 * one button whose data-action is the split's canonical text (``sip:1x2,2x1``, seats in
 * order), up to the most the server says may go at once (``match.split``: the engine's own
 * bounds).  Where there is no split to make (one sip) the engine's own buttons say it all.
 */
function sharePicker(match, players, { online, act }) {
  const split = match.split;
  if (!split || match.phase !== "hand_out") return null;
  const seats = split.seats;
  const left = split.most;
  const key = `${match.round_no}:${match.rounds_played}:${left}:${seats.join(",")}`;
  if (shares.key !== key) shares = { key, open: shares.open, counts: new Map(seats.map((s) => [s, 0])) };
  const counts = shares.counts;
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
  const go = h("button", { type: "button", class: "primary-action", id: "share-go" });
  const rows = seats.map((seat) => {
    const p = players[seat];
    const out = h("output", { class: "share-n", id: `share-${seat}`, "aria-live": "polite" });
    const less = h("button", { type: "button", class: "step less", "data-seat": seat, "aria-label": t("One sip less for {name}", { name: p.name }) }, "−");
    const more = h("button", { type: "button", class: "step more", "data-seat": seat, "aria-label": t("One sip more for {name}", { name: p.name }) }, "+");
    less.addEventListener("click", () => { counts.set(seat, Math.max(0, counts.get(seat) - 1)); sync(); });
    more.addEventListener("click", () => { if (total() < left) counts.set(seat, counts.get(seat) + 1); sync(); });
    return { seat, less, more, out, el: h("li", {}, avatar(p, { dot: false }), h("span", { class: "grow name" }, p.name), less, out, more) };
  });
  const action = () => `sip:${seats.filter((s) => counts.get(s) > 0).map((s) => `${s}x${counts.get(s)}`).join(",")}`;
  function sync() {
    const n = total();
    for (const r of rows) {
      r.out.textContent = num(counts.get(r.seat));
      r.less.disabled = !online || counts.get(r.seat) === 0;
      r.more.disabled = !online || n >= left;
    }
    go.disabled = !online || n === 0;
    if (n) go.dataset.action = action();
    else delete go.dataset.action;
    go.replaceChildren(n ? t("Hand out these sips") : t("Share the sips out"), h("small", {}, tn("{n} of {left} sip", left, { n: num(n), left: num(left) })));
  }
  go.addEventListener("click", () => { if (total()) act(action()); });
  sync();
  // Folded until asked for, so the captain's own buttons stay in reach on a small phone.
  const box = h("details", { class: "sips-share", open: shares.open },
    h("summary", { class: "share-h", id: "sips-share-h" }, t("Or share them out at once")),
    h("ul", { "aria-labelledby": "sips-share-h" }, rows.map((r) => r.el)), go);
  box.addEventListener("toggle", () => { shares.open = box.open; });
  return box;
}

/** A probability the server may send (null or absent when the solver gave none). */
const given = (p) => p !== null && p !== undefined;

/**
 * Advice: per choice the chance of winning the match and of winning this round, each
 * labelled, whichever the server sent (only one when only one came), in the page's number
 * format; or the server's message where a choice changes nobody's chance (a sip handed out).
 * On a phone the numbers go onto the choice's own button (the best one starred), so the dice
 * stay in sight; a choice without a button of its own is listed in the advice box.
 */
export function adviceList(msg, room, buttons) {
  const { match, players } = room;
  const rest = [];
  msg.choices.forEach((c, i) => {
    const chances = [
      given(c.match_win_probability) ? [t("Match chance"), percent(c.match_win_probability)] : null,
      given(c.round_win_probability) ? [t("Round chance"), percent(c.round_win_probability)] : null,
    ].filter(Boolean);
    // The solver's own figure is the chance of winning the contest being played (the round);
    // a playout estimate's is the match's.
    if (!chances.length && given(c.win_probability)) {
      const ofMatch = String(c.method || "").startsWith("estimate");
      chances.push([ofMatch ? t("Match chance") : t("Round chance"), percent(c.win_probability)]);
    }
    if (given(c.expected_score)) chances.push([t("Score"), `≈ ${num(c.expected_score, 1)}`]);
    if (!chances.length && !c.message) return;
    const line = h("span", { class: "advice-line", "data-testid": "advice" },
      c.message ? h("span", {}, c.message) : null,
      chances.map(([label, value]) => h("span", { class: "chance" }, `${label} `, h("b", {}, value))));
    const button = buttons && buttons.querySelector(`button[data-action="${CSS.escape(c.action)}"]`);
    if (button) {
      if (i === 0 && msg.choices.length > 1 && chances.length) button.classList.add("best");
      button.append(line);
    } else {
      rest.push(h("li", {}, h("b", { class: "what" }, actionLabel(c.action, match, players, room.options)), line));
    }
  });
  const note = msg.message || msg.note;
  return h("div", { class: "advice", id: "advice-box-inner", role: "status" },
    note ? h("p", { id: "advice-note" }, note) : null,
    rest.length ? h("ul", { id: "advice-list" }, rest) : null,
    // Read out what the buttons now show: the best choice first.
    !note && !rest.length && msg.choices.length
      ? h("p", { class: "sr-only" }, `${t("Advice")}: ${actionLabel(msg.choices[0].action, match, players, room.options)}`) : null);
}

/** On a phone the choices sit in a bar over the bottom of the screen: keep the felt (the
 * acting player's dice) whole in the space above it, scrolling up or down as little as needed. */
export function showFelt({ smooth = false } = {}) {
  const el = document.getElementById("felt") || document.getElementById("felt-box");
  const bar = document.getElementById("actionbar");
  if (!el || !bar || getComputedStyle(bar).position !== "fixed") return;
  const space = innerHeight - bar.offsetHeight - 8;
  const r = el.getBoundingClientRect();
  let by = 0;
  if (r.top < 8) by = r.top - 8;
  else if (r.bottom > space) by = Math.min(r.bottom - space, r.top - 8);
  if (by) scrollBy({ top: by, behavior: smooth && !matchMedia("(prefers-reduced-motion: reduce)").matches ? "smooth" : "auto" });
}

/** Fair dice: the seed's hash from the start, the seed at the end; or that the dice were real. */
export function fairPanel(room) {
  if (room.dice_source === "physical") {
    return h("p", { id: "physical-note" }, t("These dice were physical: the players typed the faces they rolled, so there is no seed to check."));
  }
  return h("div", {},
    h("p", {}, t("Seed hash (published before the first roll)"), ": ", h("code", { class: "hash", id: "commitment" }, room.commitment)),
    room.client_seeds.length ? h("p", { class: "break" }, t("Client seeds"), ": ", room.client_seeds.join(", ")) : null,
    room.server_seed ? h("p", {}, t("Seed (revealed at the end)"), ": ", h("code", { class: "hash", id: "server-seed" }, room.server_seed)) : null,
    room.server_seed ? h("p", {}, h("a", { href: `/verify/${room.code}` }, t("Verify the dice"))) : null);
}

let ticking = null;
/** The banner's countdown to the end of a turn's clock (the turn timer, or the grace of
 * someone away), ticking in place. */
export function countdown(room) {
  clearInterval(ticking);
  const el = document.getElementById("countdown");
  if (!el || !room.deadline_ms) return;
  const tick = () => {
    const left = Math.max(0, Math.ceil((room.deadline_ms - Date.now()) / 1000));
    if (room.turn_hours) {  // a slow table: hours and minutes
      el.classList.add("hours");
      // Each number glued to its unit: on a narrow phone the pill breaks between the hours
      // and the minutes ("7 Std." over "59 Min."), never inside one, and leaves room beside it.
      el.textContent = hoursLeft(left).replace(/(\d) /g, "$1\u00a0");
      el.setAttribute("aria-label", t("Time left: {time}", { time: hoursLeft(left) }));
      return;
    }
    el.textContent = String(left);
    el.classList.toggle("low", left <= 10);
    el.setAttribute("aria-label", t("Time left: {n} s", { n: left }));
  };
  tick();
  ticking = setInterval(tick, 250);
}

/** How to play: the rules text of the table's rule set, in the page's language, in a dialog. */
export async function howToPlay(room) {
  const $ = (id) => document.getElementById(id);
  $("rules-dialog-h").textContent = room.title || room.rules;
  $("rules-text").replaceChildren(h("p", {}, "…"));
  $("rules-dialog").showModal();
  const { markdown } = await import("./md.js");  // only when asked: not part of the first load
  try {
    const text = await api(`/api/rules-text?rules=${encodeURIComponent(room.rules)}`);
    $("rules-dialog-h").textContent = text.title || room.title || room.rules;
    $("rules-text").replaceChildren(...markdown(text.markdown || "", { skipTitle: true }));
  } catch (e) {
    $("rules-text").replaceChildren(h("p", {}, h("code", { class: "break" }, room.rules)), h("p", { class: "muted" }, e.message));
  }
}
