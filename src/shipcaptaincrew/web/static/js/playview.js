// The match as one phone shows it: whose turn (a banner you cannot miss when it is yours, with
// a countdown when a timer runs), the dice on the felt, the legal choices as big buttons at the
// thumb, advice, typing in real dice, and the fair-dice panel.
import { h, num, percent, t } from "./common.js";
import { die } from "./dice.js";
import { actionLabel, askText, avatar, stageText } from "./table.js";

/** The banner: "● Your turn" (data-testid your-turn, only here) or who is playing. */
export function banner(room, you, online) {
  const match = room.match;
  const actor = match.actor;
  const mine = !match.over && actor === you && you !== null;
  const countdown = room.deadline_ms && !match.over ? h("span", { class: "countdown", id: "countdown", role: "timer", "aria-label": t("Time left") }, "") : null;
  if (mine) {
    return h("div", { class: "banner yours", "data-testid": "your-turn", id: "your-turn" },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("div", { class: "grow" }, h("div", { class: "who" }, t("Your turn")), h("div", { class: "what" }, online ? askText(match) : t("Offline: reconnecting..."))),
      countdown);
  }
  if (match.over || actor === null || actor === undefined) return h("div", { class: "banner", id: "banner-wait" }, h("div", { class: "who" }, t("Match over")));
  const p = room.players[actor];
  return h("div", { class: "banner", id: "banner-wait" }, avatar(p),
    h("div", { class: "grow" }, h("div", { class: "who" }, t("{name} to play", { name: p.name })), h("div", { class: "what" }, askText(match))),
    countdown);
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
  const what = said.action ? actionLabel(said.action, room.match, room.players, room.options) : null;
  return h("p", { class: "bot-says", "data-testid": "bot-reason", "data-seat": said.seat },
    avatar(p, { dot: false }),
    h("span", { class: "grow" }, h("b", {}, p.name), what ? ` · ${what}` : "", h("span", { class: "why" }, said.reason)));
}

/** Real dice: tap the faces you rolled, then send them (button data-action="roll"). */
export function facesEntry(match, players, you, send) {
  const due = match.dice_due;
  const typed = [];
  const shown = h("div", { class: "typed", id: "typed", "aria-live": "polite", "aria-label": t("Faces typed") });
  const go = h("button", { type: "button", class: "primary-action", "data-action": "roll", disabled: true }, t("Enter the roll"));
  const redraw = () => {
    shown.replaceChildren(...typed.map((f, i) => h("button", { type: "button", class: "ghost", "aria-label": t("Remove {face}", { face: f }),
      onclick: () => { typed.splice(i, 1); redraw(); } }, die(f, { size: "mid" }))));
    if (!typed.length) shown.append(h("span", { class: "muted" }, t("Tap the faces you rolled")));
    go.disabled = typed.length === 0;
    go.replaceChildren(t("Enter the roll"), h("small", {}, t("{n} of {due} dice", { n: typed.length, due })));
  };
  go.addEventListener("click", () => send(typed.slice()));
  const keys = h("div", { class: "keys", role: "group", "aria-label": t("Faces") }, [1, 2, 3, 4, 5, 6].map((f) =>
    h("button", { type: "button", "aria-label": t("Add a {face}", { face: f }), onclick: () => { if (typed.length < 5) { typed.push(f); redraw(); } } }, die(f))));
  redraw();
  const who = players[match.actor] ? players[match.actor].name : "";
  return h("div", { class: "faces-entry", "data-testid": "faces-entry", "data-due": due },
    h("p", { class: "note" }, match.actor === you ? t("Roll {n} real dice and tap what they show.", { n: due })
      : t("Roll for {name}: {n} real dice.", { name: who, n: due })),
    keys, shown, go);
}

/** The legal choices as buttons (data-action = the canonical text), only for the actor. */
export function actionButtons(room, you, { online, physical, act, sendFaces, askAdvice }) {
  const match = room.match;
  const mine = !match.over && match.actor === you && you !== null;
  // At a table with real dice the host's phone may type anyone's roll (a bot's, or one phone
  // passed round); every other choice stays with the player to act.
  const hostTypes = physical && you !== null && you === room.host && match.chance && match.legal.includes("roll") && !match.over;
  if (!mine && !hostTypes) return [];
  const out = [];
  if (!online) out.push(h("p", { class: "note bad", id: "offline-note" }, t("No connection: your choice cannot be sent. Waiting to reconnect...")));
  for (const a of match.legal) {
    if (a === "roll" && physical) { out.push(facesEntry(match, room.players, you, sendFaces)); continue; }
    if (!mine) continue;
    const label = actionLabel(a, match, room.players, room.options);
    const sub = a.startsWith("take:") ? t("Set aside") : null;
    out.push(h("button", { type: "button", "data-action": a, class: match.legal.length === 1 || a === "roll" ? "primary-action" : "",
      disabled: !online, onclick: () => act(a) }, label, sub ? h("small", {}, sub) : null));
  }
  const split = mine ? sharePicker(match, room.players, { online, act }) : null;
  if (split) out.push(split);
  if (mine && room.hints && !match.chance && online) {
    out.push(h("button", { type: "button", class: "secondary", id: "advice", onclick: askAdvice }, t("Advice")));
  }
  if (!online) out.forEach((b) => b.querySelectorAll && b.querySelectorAll("button").forEach((x) => { x.disabled = true; }));
  return out;
}

/** The sips the captain has not handed out yet, shared per player (kept while the table redraws). */
let shares = { key: "", counts: new Map() };

/**
 * The captain's hand-out in one step: a stepper per player the engine lets the captain give a
 * sip to, and one button whose data-action is the split's canonical text (``sip:1x2,2x1``,
 * seats in order).  Only when there are two sips or more and two players or more to share them
 * among; a single sip is one of the engine's own buttons.
 */
function sharePicker(match, players, { online, act }) {
  const seats = match.legal.filter((a) => /^sip:\d+$/.test(a)).map((a) => +a.slice(4));
  const left = match.hand_out_left;
  if (match.phase !== "hand_out" || seats.length < 2 || left < 2) return null;
  const key = `${match.round_no}:${match.rounds_played}:${left}:${seats.join(",")}`;
  if (shares.key !== key) shares = { key, open: shares.open, counts: new Map(seats.map((s) => [s, 0])) };
  const counts = shares.counts;
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
  const go = h("button", { type: "button", class: "primary-action", id: "share-go" });
  const rows = seats.map((seat) => {
    const p = players[seat];
    const out = h("output", { class: "share-n", id: `share-${seat}`, "aria-live": "polite" });
    const less = h("button", { type: "button", class: "step", "aria-label": t("One sip less for {name}", { name: p.name }) }, "−");
    const more = h("button", { type: "button", class: "step", "aria-label": t("One sip more for {name}", { name: p.name }) }, "+");
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
    go.replaceChildren(n ? t("Hand out these sips") : t("Share the sips out"), h("small", {}, t("{n} of {left} sips", { n: num(n), left: num(left) })));
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

/** On a phone the choices sit in a bar over the bottom of the screen: scroll the felt into the
 * space above it (the banner may go up out of sight; nothing scrolls back down). */
export function showFelt() {
  const el = document.getElementById("felt") || document.getElementById("felt-box");
  const bar = document.getElementById("actionbar");
  if (!el || !bar || getComputedStyle(bar).position !== "fixed") return;
  const space = innerHeight - bar.offsetHeight - 8;
  const r = el.getBoundingClientRect();
  if (r.bottom <= space) return;
  const by = Math.min(r.bottom - space, r.top - 8);
  if (by > 0) scrollBy({ top: by, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
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
