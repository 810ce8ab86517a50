// The table screen (/r/CODE/screen): the shared table on a TV, a laptop in the middle of the
// table or a screen shared on a call.  It watches (its hello says "screen": it never holds a
// seat and never asks for a name), has no game controls, and draws the room's pictures with
// the phone's own pieces (table.js, moments.js, playview.js), larger: the felt with the acting
// player's dice, every player's card, whose turn it is, the moments, the podium, and while
// the seats are open the join code with its QR code.  It keeps the screen awake.
import { boot, codeFromPath, h, joinLink, learnJoinLink, screenToken, setTitle, t } from "./common.js";
import { keepAwake } from "./fx.js";
import { keepPicture, keptPicture } from "./kept.js";
import { loopbackWarning } from "./lobby.js";
import { openLine } from "./line.js";
import { podiumView } from "./moments.js";
import { noTable, stageLine } from "./playview.js";
import { staging } from "./staging.js";
import { askText, avatar, botLevel, playerCards, playerColor, statusText } from "./table.js";

const code = codeFromPath();
const $ = (id) => document.getElementById(id);
let room = null;          // the picture on screen
let line = null;
const st = staging();     // the moments, staged as on the phones (staging.js)
let queue = Promise.resolve();
let pairing = null;       // the code to show until a seated player pairs this screen (null: paired)

function onMessage(msg) {
  if (msg.type === "welcome" && msg.screen) {
    screenToken(msg.screen.token);  // kept: paired once, this screen stays the table's
    showPairing(msg.screen.paired ? null : msg.screen.code);
  } else if (msg.type === "paired") {
    showPairing(null);
  } else if (msg.type === "unpaired") {
    showPairing(msg.code);
  } else if (msg.type === "moved") {
    // The table moved on to its next match: its paired screen follows it.
    location.href = `/r/${encodeURIComponent(msg.code)}/screen`;
  }
  if (msg.type !== "room") return;  // a screen has no seat: no advice or refusal to show
  const next = msg.room;
  keepPicture(next, null, ":screen");
  queue = queue.then(() => onRoom(next, { history: !!msg.history })).catch((e) => console.error(e));
}

/** Until a seated player pairs it, the screen shows its pairing code (and a QR code that
 * opens the table on a phone asking "Show this table on that screen?"): it watches like any
 * spectator meanwhile, and the phones stay as they are.  In the lobby the code is large, above
 * the seats; once the match runs it shrinks into the row of the join code, since a TV cannot
 * scroll and the table needs its height (a screen nobody pairs still shows the whole match). */
function showPairing(codeShown) {
  pairing = codeShown;
  if (room && room.status !== "lobby") { joinRow(); drawn(st.final); return; }  // (the felt as it is)
  const box = $("tv-pair");
  box.hidden = !codeShown;
  box.replaceChildren(...(codeShown ? [pairingPanel(true)] : []));
  if (room) drawn();
}

/** During play: the pairing code (until paired) and the join code, in one row. */
function joinRow() {
  $("tv-join").replaceChildren(...(pairing ? [pairingPanel(false)] : []), joinPanel(false));
}

/** The pairing code: ``big`` above the lobby, or small beside the join code during play. */
function pairingPanel(big) {
  const qr = h("img", { src: `/api/rooms/${encodeURIComponent(code)}/qr.svg?pair=${pairing}`, alt: t("QR code to show this table on this screen"), class: big ? "tv-pair-qr" : "tv-pair-qr small", width: 160, height: 160 });
  if (!big) {
    return h("section", { class: "tv-pair-small", "data-testid": "screen-pairing", "aria-labelledby": "tv-pair-h" }, qr,
      h("div", {}, h("p", { class: "muted", id: "tv-pair-h" }, t("Show this table on this screen")),
        h("p", { class: "tv-smallcode", "data-testid": "pair-code" }, pairing)));
  }
  return h("section", { class: "panel tv-pairing", "data-testid": "screen-pairing", "aria-labelledby": "tv-pair-h" }, qr,
    h("div", {},
      h("h2", { id: "tv-pair-h" }, t("Show this table on this screen")),
      h("p", {}, t("A player at the table scans this code, or taps the screen button on their phone and types:")),
      h("p", { class: "tv-pair-code", "data-testid": "pair-code" }, pairing)));
}

function onRoom(next, { history = false, kept = false } = {}) {
  const { before, staged } = st.take(next, { history, kept });
  room = next;
  if (staged) st.stage(room.moment, before, { podium: render });
  render(before);
  st.drawn(before);
}

function setOnline(up) {
  $("offline").hidden = up;
  $("offline").textContent = up ? "" : t("Offline: reconnecting...");
}

/** The join code, big, and its QR code (only while seats are open: the lobby). */
function joinPanel(big) {
  const link = joinLink(room.code);
  return h("section", { class: big ? "panel tv-invite" : "tv-code-small", "aria-label": t("Join code") },
    big ? h("img", { src: `/api/rooms/${room.code}/qr.svg`, alt: t("QR code to join this table"), class: "tv-qr", "data-testid": "screen-qr", width: 320, height: 320 }) : null,
    h("div", {},
      h("p", { class: "muted" }, big ? t("Scan the code or open the link to join") : t("Join code")),
      h("p", { class: big ? "bigcode tv-bigcode" : "tv-smallcode", "data-testid": "screen-code" }, room.code),
      big ? h("p", { class: "break tv-link", "data-testid": "screen-link" }, link.replace(/^https?:\/\//, "")) : null,
      big ? loopbackWarning(link) : null));
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
  const final = st.final;
  setTitle(match.over ? t("Match over") : t("Table {code}", { code: room.code }));
  $("tv-pair").hidden = true;
  $("tv-pair").replaceChildren();  // (during play the pairing code sits in the join code's row)
  joinRow();
  const actor = match.over ? null : players[match.actor];
  // Whose turn it is (at the end the podium says who won).
  $("tv-who").replaceChildren(...(actor ? [h("div", { class: "banner tv-banner", id: "tv-turn", "data-seat": actor.seat }, avatar(actor),
    h("div", { class: "grow" }, h("div", { class: "who" }, statusText(match, players, null)), h("div", { class: "what" }, askText(match))))] : []));
  $("stage").replaceChildren(...(match.over ? [] : stageLine(room).filter(Boolean)));
  st.drawStrip();
  st.drawFelt(before, () => {
    if (!$("podium")) $("podium-box").replaceChildren(podiumView(room, null, { fresh: true, rematch: null, seatNext: null, extra: [] }));
  });
  st.drawResult();
  const watching = room.spectators - (room.screens || 0);  // people, not the screens themselves
  $("scores").replaceChildren(...[
    room.decides ? h("p", { class: "decides-note" }, room.decides.text) : null,
    playerCards(match, players, null, { pot: room.options.stakes === "pot", decides: room.decides }),
    watching ? h("p", { class: "muted" }, t("spectators: {n}", { n: watching })) : null].filter(Boolean));
  drawn(final);
}

/** A TV cannot scroll: when the table runs off its bottom (many players, a round's card
 * beside them, a small screen) it is packed step by step until it fits: first the round's
 * card folds to its headline (each card shows the round's number anyway), then the cards
 * get denser, then they go two abreast in a wider column, then everything is a size smaller.
 * Each picture and each resize starts again from the roomiest. */
const PACKED = ["dense", "two", "small"];
function fit() {
  const card = $("round-result");
  document.documentElement.classList.remove(...PACKED);
  if (card && card.dataset.folded) { card.open = true; delete card.dataset.folded; }  // folded here, not by the picture
  const fits = () => document.documentElement.scrollHeight <= innerHeight;
  if (fits() || !room || room.status === "lobby") return;
  if (card && card.open) { card.open = false; card.dataset.folded = "1"; }
  for (const step of PACKED) {
    if (fits()) return;
    document.documentElement.classList.add(step);
  }
}

/** For anyone checking what the screen shows once a picture is drawn (the browser tests). */
function drawn(final = false) {
  fit();
  document.dispatchEvent(new CustomEvent("scc:drawn", { detail: { version: room.version, final, live: st.live } }));
}

async function onLang(chosen) {
  line.send({ type: "hello", screen: true, screen_token: screenToken() || null, lang: chosen });  // the moments' words follow it
  showPairing(pairing);
  if (room) render();
}

await boot(onLang, () => []);
addEventListener("resize", fit);
line = openLine(code, { message: onMessage, online: setOnline, gone: () => noTable($("tv-lobby")) }, { screen: true });
// Opened again (a reload, the TV switched on): the picture it showed, at once; the live follows.
const kept = keptPicture(code, ":screen");
if (kept && room === null) queue = queue.then(() => onRoom(kept.room, { history: true, kept: true }));
// The address its link and QR code show: the server's (public, or the network's), not this page's.
learnJoinLink(code, () => { if (room) render(); });
