// The live table: which view this person sees (join first, lobby, match, podium) and what
// each picture from the server brings.  The server is authoritative: this page sends
// intentions with the version it saw and draws the pictures it gets back.
import { api, boot, codeFromPath, h, lang, learnJoinLink, saveSeatToken, seatToken, setTitle, t } from "./common.js";
import { buzz, keepAwake, sound, soundButton } from "./fx.js";
import { justThrown, markThrown, shakeButton, shakeTarget } from "./shake.js";
import { keepPicture, keptPicture, noteSeen } from "./kept.js";
import { openLine } from "./line.js";
import { loadedOptions, loadOptions, lobbyView, nameForm } from "./lobby.js";
import { looksPicker, looksValue } from "./looks.js";
import { crewKeep } from "./crewkeep.js";
import { bubble, fly, podiumView, reactionBar } from "./moments.js";
import { actionButtons, adviceList, banner, botSays, countdown, fairPanel, howToPlay, noTable, showFelt, stageLine } from "./playview.js";
import { newcomersBox, pairDialog, pairingAsked, pictureCame, sayBox, takeBack } from "./say.js";
import { staging } from "./staging.js";
import { playerCards, roundsTable } from "./table.js";

const code = codeFromPath();
const $ = (id) => document.getElementById(id);
const REASON_MS = 4500;   // how long a bot's reason stays beside its move (within its round)
/** Refusals of pairing a table screen, said in the pairing dialog while it is open. */
const PAIR_ERRORS = new Set(["bad_seat", "full", "spectator", "invalid", "rate"]);
/** Refusals of a move, said beside the choices (in the server's words, the page's language). */
const MOVE_ERRORS = new Set(["illegal", "not_an_action", "stale", "not_your_turn", "bad_dice", "rate", "unavailable", "conflict"]);
let refused = null;       // {version, message}: the last move refused, shown until the table moves on
let waiting = null;       // a move made on the kept picture: sent once the live one shows the same moment
let you = null;           // my seat, or null when watching
let room = null;          // the picture on screen (the server's; kept on this device until it answers)
let line = null;          // the WebSocket to the table (line.js)
let online = false;
let reactions = [];
let freshPodium = false;
let advised = null;       // the advice for the picture on screen (kept while it is redrawn)
let botSaid = null;        // {seat, action, turn, reason, at}: the last bot move's reason, from a moment
let seatNextToken = null; // a spectator's seat token for the next match, once given
let queue = Promise.resolve();  // room pictures are drawn in the order they arrive
let fullView = false;     // with a table screen here: the whole table anyway (the view switch)
let missed = [];          // a slow table opened again: the moments since this phone last looked
/** A die landing: its click, and a short buzz on the phone whose shake or tap threw it. */
const land = () => { sound.land(); if (justThrown()) buzz(30); };
const st = staging({ land, rattle: sound.rattle });

const ctx = {
  get room() { return room; },
  get you() { return you; },
  toast,
  personal,
  reconnect: () => line.reconnect(),
  hostCall,
};

function toast(message) {
  const el = $("toast");
  el.textContent = message;
  clearTimeout(toast.handle);
  toast.handle = setTimeout(() => { el.textContent = ""; }, 2600);
}

function announce(lines) {
  const box = $("announce");
  for (const line of lines) box.append(h("p", {}, line));
  while (box.childNodes.length > 6) box.firstChild.remove();
}

function personal(message) { $("personal").textContent = message || ""; }

/** Send a message; a message that cannot go out says so instead of vanishing.  A move made
 * on the picture kept on this phone (a version, before the table answered) waits for the live
 * picture: it goes only if that shows the very moment it was made at (see onRoom). */
function send(msg) {
  if (!st.live && room && msg.version !== undefined) { waiting = msg; render(); return true; }
  if (line.send(msg)) return true;
  personal(t("Not sent: there is no connection. It comes back by itself; try again then."));
  return false;
}

function setOnline(up) {
  online = up;
  const bar = $("offline");
  bar.hidden = up;
  bar.textContent = up ? "" : t("Offline: reconnecting...");
  if (room) render();
}

function onMessage(msg) {
  if (msg.type === "welcome") {
    you = msg.seat ?? (msg.you ? msg.you.seat : null);
    reactions = msg.reactions || reactions;
    if (pairAsked) { pair.open(pairAsked); pairAsked = null; }  // the screen's QR code brought this phone
  } else if (msg.type === "paired") {
    pair.paired();
    toast(t("The screen shows this table now."));
  } else if (msg.type === "missed") {
    missed = msg.moments || [];  // played once the first picture is drawn (see onRoom)
  } else if (msg.type === "room") {
    const next = msg.room;
    keepPicture(next, you);
    noteSeen(next);
    queue = queue.then(() => onRoom(next, msg.lines || [], { history: !!msg.history })).catch((e) => console.error(e));
  } else if (msg.type === "error" && PAIR_ERRORS.has(msg.code) && pair.refused(msg.message)) {
    // (a pairing refused: said in its dialog)
  } else if (msg.type === "error") {
    // A refused move is said beside the choices it was about; anything else at the top.
    const beside = room && room.match && !room.match.over && $("actions").childElementCount && MOVE_ERRORS.has(msg.code);
    if (beside) refused = { version: room.version, message: msg.message };
    else personal(msg.message);
    if (room && room.match) render();
  } else if (msg.type === "advice") {
    showAdvice(msg);
  } else if (msg.type === "reaction") {
    const who = msg.seat === null || msg.seat === undefined || !room ? "" : room.players[msg.seat].name;
    bubble(msg.emoji, who, msg.seat);
    sound.pop();
  } else if (msg.type === "seat_next") {
    // A seat at the next match: its token now, for the table this one moves on to.
    seatNextToken = msg.token;
    toast(t("You have a seat at the next match."));
    if (room) render();
  } else if (msg.type === "moved") {
    // Play again: the next match (with this person's seat under a new code and token, for
    // those who have one: a spectator watching then goes along to watch).
    if (msg.token) saveSeatToken(msg.code, msg.token);
    location.href = `/r/${encodeURIComponent(msg.code)}`;
  }
}

async function onRoom(next, lines, { history = false, kept = false } = {}) {
  const replay = history && !kept && missed.length ? missed : null;
  missed = replay ? [] : missed;
  const { before, staged } = st.take(next, { history, kept, strip: !replay });
  room = next;
  // The first live picture after a move made on the kept one: the same moment, the move goes
  // (the server checks its version too); the table moved on meanwhile, it is dropped, in words.
  const made = !kept && waiting;
  waiting = kept ? waiting : null;
  if (made && made.version !== next.version) {
    refused = { version: next.version, message: t("The table moved on while this phone was connecting: your choice was not sent.") };
  }
  if (!history && lines.length) personal("");
  const log = $("log");
  if (history) log.replaceChildren();
  for (const line of lines) log.append(h("li", {}, line));
  log.scrollTop = log.scrollHeight;
  if (!history) announce(lines);
  pictureCame(room);
  if (staged) stage(room.moment, before);
  render(before);
  st.drawn(before);
  if (replay) st.replay(replay);
  if (made && made.version === next.version && send(made)) {
    if (made.type === "roll") markThrown();  // its dice buzz as they land, however long it waited
    lockButtons();
  }
  else if (made && !$("actions").childElementCount) personal(refused.message);  // not this phone's turn now
}

/** What this picture's moment means on this phone (the staging, staging.js, is shared with
 * the table screen): sounds, vibration, the chips flying, a bot's reason. */
function stage(moment, before) {
  const mineNow = room.match && !room.match.over && room.match.actor === you && you !== null;
  const mineBefore = before.match && !before.match.over && before.match.actor === you;
  if (mineNow && !mineBefore) { sound.turn(); buzz([120, 60, 120]); }
  if (!moment) return;
  // A bot's choice (a moment of its own, or the turn or round it ended) says why it chose it.
  const said = [moment, moment.turn].map((m) => m && m.reason).find(Boolean);
  if (said && said.text) {
    botSaid = { seat: said.seat, action: said.action || null, turn: said.turn || null, reason: said.text, at: Date.now(), round: before.match ? before.match.round_no : null };
    setTimeout(() => { if (room && botSaid && Date.now() - botSaid.at >= REASON_MS) { botSaid = null; render(); } }, REASON_MS + 50);
  }
  const { turnEnd, round } = st.stage(moment, before, { podium: () => {
    freshPodium = true;
    setTimeout(sound.win, 200);
    if (moment.winner === you) buzz([100, 50, 100, 50, 300]);
    render();
  } });
  if (turnEnd) setTimeout(turnEnd.complete ? sound.good : sound.bad, 300);
  if (round) {
    const won = round.winner !== null && round.winner === you;
    if (won) { buzz([80, 40, 80, 40, 200]); setTimeout(sound.win, 500); }
    // The pot goes to the winner, the sips to those who drink (once the cards are drawn).
    setTimeout(() => {
      const from = $("felt") || $("podium-box");
      if (round.pot_won && round.winner !== null) fly("💰", from, round.winner);
      (round.sips || []).forEach((n, seat) => { for (let i = 0; i < Math.min(n, 3); i++) fly("🍺", from, seat, 150 * i); });
    }, 300);
    if (you !== null && round.sips && round.sips[you]) setTimeout(sound.sip, 600);
  }
}

/** "Tell me when it is my turn" (notify.js), loaded only where a browser can be told: it is
 * no part of what a phone loads first. */
function notify(room) {
  if (!window.isSecureContext || !("PushManager" in window)) return;
  import("./notify.js").then((m) => m.notifyBox($("notify-box"), room, you, seatToken(room.code)));
}

function render(before = null) {
  $("code").textContent = room.code;
  notify(room);
  const rulesBtn = $("rules-btn");
  rulesBtn.hidden = false;
  rulesBtn.textContent = room.title || room.rules;
  rulesBtn.setAttribute("aria-haspopup", "dialog");
  rulesBtn.setAttribute("aria-label", `${t("How to play")}: ${room.title || room.rules}`);
  const playing = room.status !== "lobby";
  $("lobby").hidden = playing;
  $("play").hidden = !playing;
  keepAwake(room.status === "playing");
  document.body.classList.toggle("playing", playing);
  if (!playing) {
    redraw($("lobby"), lobbyView(ctx));
    setTitle(t("Table {code}", { code: room.code }));
    return;
  }
  renderPlay(before);
  // With a table screen in the room this phone is the controller: only what is its own.
  const screen = room.screens > 0;
  document.body.classList.toggle("compact", screen && !fullView);
  $("view-switch").hidden = !screen;
  $("view-toggle").textContent = fullView ? t("Compact view") : t("Full view");
}

function renderPlay(before) {
  const match = room.match;
  const players = room.players;
  const mine = !match.over && match.actor === you && you !== null;
  const final = st.final;  // the deciding roll on the felt, before the podium
  // Until the table answers, the kept picture's choices stay usable (a choice made waits).
  const usable = online || !st.live;
  setTitle(mine ? `● ${t("Your turn")}` : match.over ? t("Match over") : t("Table {code}", { code: room.code }));
  $("banner").replaceChildren(...(match.over ? [] : [
    you === null ? h("p", { class: "watching-note" }, t("You are watching."), " ", h("a", { href: "#seat-next-form" }, t("Take a seat for the next match"))) : null,
    banner(room, you, usable, st.live ? send : null)].filter(Boolean)));
  $("stage").replaceChildren(...(match.over ? [] : stageLine(room).filter(Boolean)));
  if (botSaid && botSaid.round !== null && botSaid.round !== match.round_no) botSaid = null;  // a new round: old news
  const saying = botSaid && !match.over ? `${botSaid.at}:${lang()}` : "";
  if ($("bot-says").dataset.key !== saying) {  // redrawn only when it changes: read out once
    $("bot-says").dataset.key = saying;
    $("bot-says").replaceChildren(...(saying ? [botSays(botSaid, room)] : []));
  }
  countdown(room);
  st.drawStrip();
  // The felt; at the end the roll that decided the match, then the podium.
  st.drawFelt(before, () => {
    // Built again only when what it shows changes (not for someone coming online): a tap on
    // its links, an open "Every round" or a name being typed would be lost to a rebuild.
    const key = JSON.stringify([lang(), you, seatNextToken, room.status, room.podium, room.rematch, players.map((p) => [p.name, p.rematch, p.left])]);
    if ($("podium") && $("podium-box").dataset.key === key && !freshPodium) return;
    $("podium-box").dataset.key = key;
    const everyRound = !!($("every-round") && $("every-round").open);
    const focusPodium = freshPodium || !$("podium");
    $("podium-box").replaceChildren(podiumView(room, you, {
      fresh: freshPodium, rematch: () => send({ type: "rematch", version: room.version }),
      seatNext: you === null ? seatNextForm() : null,
      extra: [
        crewKeep(room, you),
        you === null && room.status === "over" ? h("p", {}, t("This match is over.")) : null,
        newcomersBox(room, you, send),
        h("p", { class: "row" }, room.dice_source === "physical" ? null : h("a", { href: `/verify/${room.code}` }, t("Verify the dice")),
          h("a", { href: `/replay/${room.code}` }, t("Watch the replay"))),
        match.results && match.results.length ? h("details", { id: "every-round", open: everyRound }, h("summary", {}, t("Every round")), roundsTable(match, players)) : null],
    }));
    if (focusPodium && !$("play-main").contains(document.activeElement)) $("podium-h").focus();
    freshPodium = false;
  });
  // Who is away or silent, and what the table may do about it: only from the live picture.
  redraw($("away-box"), st.live ? [sayBox(room, you, send, () => { if (room) render(); })].filter(Boolean) : []);
  // The round-result card: fresh when its round just ended, folded later; put away while a
  // tie-break is played (the tie is on the felt).
  st.drawResult({ fold: true });
  // Buttons only for the choices the engine allows, and only for the player to act.
  const hadFocus = $("actions").contains(document.activeElement);
  // A bot plays this person's turn now: no choice to race it, one button to take it back.
  const back = st.live ? takeBack(room, you, send) : null;
  const buttons = back ? [back] : actionButtons(room, you, {
    online: usable, connecting: !st.live, waiting: !!waiting, physical: room.dice_source === "physical", act,
    sendFaces: (faces) => { if (send({ type: "roll", version: room.version, faces })) lockButtons(); },
    askAdvice: () => send({ type: "advice", version: room.version }),
  });
  if (refused && refused.version !== room.version) refused = null;  // the table moved on
  const note = refused && buttons.length ? h("p", { class: "note bad", id: "action-note", role: "alert" }, refused.message) : null;
  $("actions").replaceChildren(...(note ? [note] : []), ...buttons);
  $("advice-box").replaceChildren();
  if (advised && advised.version === room.version) showAdvice(advised);  // a redraw keeps it
  const bar = reactionBar(reactions, (emoji) => send({ type: "react", emoji }));
  $("reactions").replaceChildren(...(bar && !match.over ? [bar] : []));
  const first = $("actions").querySelector("button:not([disabled])");
  const turnStarts = mine && (!before || !before.match || before.match.actor !== you);
  if (first && mine && (hadFocus || turnStarts)) first.focus({ preventScroll: true });
  else if (hadFocus && !first) $("actions").focus({ preventScroll: true });
  document.body.classList.toggle("has-actions", buttons.length > 0);
  document.body.classList.toggle("final-roll", final);
  // The acting player's dice and choices stay in sight, whatever else changed on the page.
  if (buttons.length) showFelt({ smooth: turnStarts });
  $("scores").replaceChildren(h("div", {},
    room.decides ? h("p", { class: "decides-note", id: "decides" }, room.decides.text, room.decides.note ? h("span", { class: "muted" }, ` ${room.decides.note}`) : null) : null,
    playerCards(match, players, you, { pot: room.options.stakes === "pot", decides: room.decides }),
    room.spectators ? h("p", { class: "muted" }, t("spectators: {n}", { n: room.spectators })) : null,
    you === null ? h("p", { class: "muted", id: "watching" }, t("You are watching.")) : null));
  redraw($("seat-next"), you === null && !match.over ? [seatNextForm()] : []);
  $("fair").replaceChildren(fairPanel(room));
  $("fair-box").querySelector("summary").textContent = room.dice_source === "physical" ? t("Dice") : t("Fair dice");
  // For anyone checking what the page shows once a picture is drawn (the browser tests).
  document.dispatchEvent(new CustomEvent("scc:drawn", { detail: { version: room.version, final, live: st.live } }));
}

/** Replace a box's content, keeping what the person was typing or had picked, and the focus
 * (a picture arrives whenever anyone joins or comes online). */
function redraw(box, parts) {
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
  const kept = [...box.querySelectorAll("input")].map((el) => [el.id, el.name, el.value, el.type, el.checked]);
  box.replaceChildren(...parts);
  for (const [id, name, value, type, checked] of kept) {
    const el = id ? document.getElementById(id) : null;
    if (el && box.contains(el) && type !== "radio" && type !== "checkbox") el.value = value;
    if ((type === "radio" || type === "checkbox") && checked) {
      const same = box.querySelector(`input[name="${CSS.escape(name)}"][value="${CSS.escape(value)}"]`);
      if (same) same.checked = true;
    }
  }
  if (focused && $(focused)) $(focused).focus({ preventScroll: true });
}

function lockButtons() {
  // One choice per state: the buttons wait for the server's next picture.
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  $("actions").focus({ preventScroll: true });
}

function act(action) {
  if (action === "roll") markThrown();
  const sent = action === "roll" ? send({ type: "roll", version: room.version }) : send({ type: "act", action, version: room.version });
  if (sent) lockButtons();
}

function seatNextForm() {
  if (seatNextToken) return h("p", { class: "panel", role: "status" }, t("You have a seat at the next match."));
  return nameForm({
    id: "seat-next-form", testid: "join-table", title: t("Take a seat for the next match"), autofocus: false,
    lead: t("This match is under way: watch it, and play in the next one."), button: t("Take a seat"),
    looks: looksPicker(loadedOptions(), "seat"),
    submit: async (name) => {
      send({ type: "seat_next", name, ...looksValue("seat") });  // the answer: a seat_next message
    },
    fail: personal,
  });
}

function showAdvice(msg) {
  if (!room || msg.version !== room.version) return;
  advised = msg;
  $("advice-box").replaceChildren(adviceList(msg, room, $("actions")));
  if ($("advice")) $("advice").hidden = true;  // answered: the numbers are on the buttons
}

async function hostCall(path, method, body) {
  try {
    await api(`/api/rooms/${room.code}${path}`, { method, body: body ? JSON.stringify(body) : undefined,
      headers: { "X-Seat-Token": seatToken(room.code) || "" } });
  } catch (e) { personal(e.message); }
}

async function onLang(chosen) {
  // The server's words follow this page's language (a line not open yet says it in its hello).
  line.send({ type: "hello", lang: chosen });
  await loadOptions(true);
  if (room) render();
}

$("rules-btn").addEventListener("click", () => howToPlay(room));
$("rules-close").addEventListener("click", () => $("rules-dialog").close());
$("view-toggle").addEventListener("click", () => { fullView = !fullView; render(); });
// A shake presses the Roll button the acting player has (never real dice typed in).
shakeTarget(() => (room && room.dice_source !== "physical" ? $("actions").querySelector('button[data-action="roll"]:not([disabled])') : null), () => (room ? room.version : -1));
// The table screen is paired from a seated phone (say.js): the header's screen button, or the
// screen's own QR code (?pair=CODE) asking "Show this table on that screen?".
const pair = pairDialog(code, { you: () => you, send });
let pairAsked = pairingAsked();
await boot(onLang, () => [soundButton(), shakeButton(toast), pair.button()]);
line = openLine(code, { message: onMessage, online: setOnline, gone: () => noTable($("lobby")) });
// A link opened again: the picture this phone kept, at once (a choice made on it waits for the
// table, see send); the live picture follows with the WebSocket's answer.
const kept = keptPicture(code);
if (kept && room === null) { you = kept.you; queue = queue.then(() => onRoom(kept.room, [], { history: true, kept: true })); }
loadOptions().then(() => { if (room && room.status === "lobby") render(); });
learnJoinLink(code, () => { if (room && room.status === "lobby") render(); });
// The action bar sits fixed at the thumb on a phone: keep the page's end clear of it, and the
// acting player's dice above it when it grows (the captain's steppers unfolded, say).
new ResizeObserver(() => {
  const bar = $("actionbar");
  const fixed = getComputedStyle(bar).position === "fixed";
  $("main").style.paddingBottom = fixed ? `${bar.offsetHeight + 16}px` : "";
  document.documentElement.style.setProperty("--bar-h", fixed ? `${bar.offsetHeight}px` : "0px");
  if (room && room.match && !room.match.over && room.match.actor === you && you !== null) showFelt();
}).observe($("actionbar"));
