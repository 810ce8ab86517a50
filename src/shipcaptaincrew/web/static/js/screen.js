// The table screen (/r/CODE/screen): the shared table on a TV, a laptop in the middle of the
// table or a screen shared on a call.  It watches (its hello says "screen": it never holds a
// seat and never asks for a name), has no game controls, and draws the room's pictures with
// the phone's own pieces (table.js, moments.js, playview.js), larger: the felt with the acting
// player's dice, every player's card, whose turn it is, the moments, the podium, and while
// the seats are open the join code with its QR code.  It keeps the screen awake.
import { boot, codeFromPath, h, setTitle, t } from "./common.js";
import { calm, tumble } from "./dice.js";
import { keepAwake } from "./fx.js";
import { keepLobby, keptLobby } from "./kept.js";
import { openLine } from "./line.js";
import { FINAL_HOLD, finalFelt, podiumView, resultCard, showStrip, stripMoment } from "./moments.js";
import { stageLine } from "./playview.js";
import { askText, avatar, botLevel, contestFelt, felt, playerCards, playerColor, statusText } from "./table.js";

const code = codeFromPath();
const $ = (id) => document.getElementById(id);
let room = null;          // the last room picture
let line = null;
let seenVersion = -1;     // the newest picture whose moment was staged
let stripVersion = -1;    // the picture whose moment the strip shows
let finalRoll = null;     // {moment, contest, drawn}: the roll that decided the match, held
let lastContest = null;   // the contest of the picture before (a tie-break's contenders)
let freshResult = null;   // round number of the result card that just arrived
let rolloffs = {};        // seat -> faces of a roll-off or cargo tie-break, from the moments
let rolledOff = null;     // the seat whose roll-off dice just came: they tumble in
let queue = Promise.resolve();

function onMessage(msg) {
  if (msg.type !== "room") return;  // a screen has no seat: no welcome, advice or refusal to show
  const next = msg.room;
  keepLobby(next, null, ":screen");
  queue = queue.then(() => onRoom(next, !!msg.history)).catch((e) => console.error(e));
}

function onRoom(next, history) {
  const before = room;
  room = next;
  if (room.rematch && room.rematch.next_code) {
    // The table moved on to its next match: the screen follows it.
    location.href = `/r/${encodeURIComponent(room.rematch.next_code)}/screen`;
    return;
  }
  const staged = !history && room.version > seenVersion && before !== null;
  seenVersion = Math.max(seenVersion, room.version);
  if (staged) stage(room.moment, before);
  else if (room.moment) stripFor(room.moment);
  render(before && before.version !== room.version ? before : null);
  if (before && before.match && before.match.contest) lastContest = before.match.contest;
}

function stripFor(moment) {
  if (!room.match) return;
  const el = stripMoment(moment, room.players);
  if (!el) return;
  stripVersion = room.version;
  showStrip($("strip"), el);
}

/** What this picture's moment holds on screen: the strip, a roll-off's dice, the round's
 * card, and at the end the deciding roll on the felt before the podium (as on the phones). */
function stage(moment, before) {
  if (!moment) return;
  const part = (kind, key) => (moment.kind === kind ? moment : moment[key] || null);
  const roll = part("rolloff", "rolloff");
  const round = moment.kind === "round_end" ? moment : moment.kind === "match_end" ? moment.round : null;
  stripFor(moment);
  if (roll) {
    rolloffs[roll.seat] = roll.faces;
    rolledOff = roll.seat;
  }
  if (round) freshResult = round.round_no;
  if (moment.kind === "match_end" && (moment.turn || moment.rolloff)) {
    finalRoll = { moment, contest: before.match && before.match.contest, drawn: false };
    setTimeout(() => { finalRoll = null; render(); }, (calm() ? 200 : 900) + FINAL_HOLD);
  }
}

function setOnline(up) {
  $("offline").hidden = up;
  $("offline").textContent = up ? "" : t("Offline: reconnecting...");
}

/** The join code, big, and its QR code (only while seats are open: the lobby). */
function joinPanel(big) {
  const link = `${location.origin}/r/${room.code}`;
  return h("section", { class: big ? "panel tv-invite" : "tv-code-small", "aria-label": t("Join code") },
    big ? h("img", { src: `/api/rooms/${room.code}/qr.svg`, alt: t("QR code to join this table"), class: "tv-qr", "data-testid": "screen-qr", width: 320, height: 320 }) : null,
    h("div", {},
      h("p", { class: "muted" }, big ? t("Scan the code or open the link to join") : t("Join code")),
      h("p", { class: big ? "bigcode tv-bigcode" : "tv-smallcode", "data-testid": "screen-code" }, room.code),
      big ? h("p", { class: "break tv-link" }, link.replace(/^https?:\/\//, "")) : null));
}

function seats() {
  return h("ul", { class: "tv-seats", id: "seats" }, room.players.map((p) => h("li", { class: `pcard ${playerColor(p)}`, "data-seat": p.seat },
    avatar(p), h("span", { class: "name" }, p.name, botLevel(p) ? h("span", { class: "tag" }, `${t("bot")}: ${botLevel(p)}`) : null))));
}

function render(before = null) {
  $("code-h").textContent = room.code;
  keepAwake(true);
  const playing = room.status !== "lobby";
  $("tv-lobby").hidden = playing;
  $("tv-play").hidden = !playing;
  if (playing) $("tv-lobby").replaceChildren();  // the seats are taken: no QR code any more
  if (!playing) {
    setTitle(t("Table {code}", { code: room.code }));
    $("tv-lobby").replaceChildren(joinPanel(true),
      h("section", { class: "panel", "aria-labelledby": "tv-seats-h" },
        h("h2", { id: "tv-seats-h" }, t("At the table ({n})", { n: room.players.length })), seats(),
        h("p", { class: "muted" }, t("Waiting for {name} to start.", { name: (room.players[room.host ?? 0] || {}).name || "" }))));
    drawn();
    return;
  }
  renderPlay(before);
}

function renderPlay(before) {
  const match = room.match;
  const players = room.players;
  const final = match.over && finalRoll !== null;
  setTitle(match.over ? t("Match over") : t("Table {code}", { code: room.code }));
  $("tv-join").replaceChildren(joinPanel(false));
  const actor = match.over ? null : players[match.actor];
  // Whose turn it is (at the end the podium says who won).
  $("tv-who").replaceChildren(...(actor ? [h("div", { class: "banner tv-banner", id: "tv-turn", "data-seat": actor.seat }, avatar(actor),
    h("div", { class: "grow" }, h("div", { class: "who" }, statusText(match, players, null)), h("div", { class: "what" }, askText(match))))] : []));
  $("stage").replaceChildren(...(match.over ? [] : stageLine(room).filter(Boolean)));
  const rolled = match.turn && match.turn.last_roll && match.turn.last_roll.length;
  $("strip").classList.toggle("old", !!(rolled && room.version > stripVersion));
  $("strip").hidden = match.over && !final;
  if (match.over && !final) {
    $("felt-slot").replaceChildren();
    if (!$("podium")) $("podium-box").replaceChildren(podiumView(room, null, { fresh: true, rematch: null, seatNext: null, extra: [] }));
  } else if (final) {
    $("podium-box").replaceChildren();
    if (!finalRoll.drawn) {
      finalRoll.drawn = true;
      const el = finalFelt(finalRoll.moment, players, finalRoll.contest || lastContest, rolloffs);
      $("felt-slot").replaceChildren(el);
      tumble(el.querySelectorAll(".die[data-face]"));
    }
  } else {
    $("podium-box").replaceChildren();
    const view = match.turn ? felt(match, players, { tie: room.tie }) : { el: contestFelt(match, players, rolloffs, room.tie), play: null };
    $("felt-slot").replaceChildren(view.el);
    if (before && before.match && view.play) view.play(before.match);
    if (rolledOff !== null) {
      tumble(view.el.querySelectorAll(`.contender[data-seat="${rolledOff}"] .die[data-face]`));
      rolledOff = null;
    }
  }
  const result = room.last_result;
  if (result && !final && !room.tie) {
    const fresh = freshResult === result.round_no;
    const card = resultCard(result, players, { fresh: true });
    $("result-box").replaceChildren(card);
    if (fresh) freshResult = null;
  } else {
    $("result-box").replaceChildren();
  }
  const watching = room.spectators - (room.screens || 0);  // people, not the screens themselves
  $("scores").replaceChildren(...[
    room.decides ? h("p", { class: "decides-note" }, room.decides.text) : null,
    playerCards(match, players, null, { pot: room.options.stakes === "pot", decides: room.decides }),
    watching ? h("p", { class: "muted" }, t("spectators: {n}", { n: watching })) : null].filter(Boolean));
  drawn(final);
}

/** For anyone checking what the screen shows once a picture is drawn (the browser tests). */
function drawn(final = false) {
  document.dispatchEvent(new CustomEvent("scc:drawn", { detail: { version: room.version, final } }));
}

async function onLang(chosen) {
  line.send({ type: "hello", screen: true, lang: chosen });  // the moments' words follow it
  if (room) render();
}

await boot(onLang, () => []);
line = openLine(code, { message: onMessage, online: setOnline, gone: () => {
  $("tv-lobby").hidden = false;
  $("tv-lobby").replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("There is no table with this code.")),
    h("p", {}, h("a", { href: "/" }, t("Open a new table")))));
} }, { screen: true });
// Opened again (a reload, the TV switched on): the lobby it showed, at once; the live follows.
const kept = keptLobby(code, ":screen");
if (kept && room === null) queue = queue.then(() => onRoom(kept.room, true));
