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
  if (mine && room.hints && !match.chance && online) {
    out.push(h("button", { type: "button", class: "secondary", id: "advice", onclick: askAdvice }, t("Advice")));
  }
  if (!online) out.forEach((b) => b.querySelectorAll && b.querySelectorAll("button").forEach((x) => { x.disabled = true; }));
  return out;
}

/** Advice: each choice's chance of winning, in the page's number format; or the server's note
 * when the choice changes nobody's chance (a sip handed out). */
export function adviceList(msg, room) {
  const { match, players } = room;
  const items = msg.choices.map((c) => {
    const what = actionLabel(c.action, match, players, room.options);
    const chance = c.win_probability === null || c.win_probability === undefined ? "" : `: ${t("Win chance")} ${percent(c.win_probability)}`;
    const score = c.expected_score === null || c.expected_score === undefined ? "" : ` · ${t("Score")} ≈ ${num(c.expected_score, 1)}`;
    return h("li", {}, what + chance + score);
  });
  return h("div", { class: "advice panel", id: "advice-box-inner" }, h("h3", {}, t("Advice")),
    msg.note ? h("p", {}, msg.note) : null,
    items.length ? h("ul", { id: "advice-list" }, items) : null);
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
