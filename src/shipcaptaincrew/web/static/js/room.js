// The live table: lobby (join, share, bots, start), play (dice, legal choices, advice),
// summary.  The server is authoritative: this page sends intentions with the version it saw.
import { adoptLang, api, boot, codeFromPath, currentLang, h, saveSeatToken, seatToken, t } from "./common.js";
import { actionLabel, diceArea, roundsTable, scoreboard, stageText, statusText } from "./table.js";

const code = codeFromPath();
let you = null;           // my seat, or null when watching
let room = null;          // the last room picture from the server
let ws = null;
let retry = 0;
let lastRollKey = "";
let timerHandle = null;
let lang = currentLang();
let adopted = false;
let queue = Promise.resolve();  // room pictures are drawn in the order they arrive
const $ = (id) => document.getElementById(id);

function announce(lines) {
  const box = $("announce");
  for (const line of lines) box.append(h("p", {}, line));
  while (box.childNodes.length > 6) box.firstChild.remove();
}

function personal(message) {
  $("personal").textContent = message || "";
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${encodeURIComponent(code)}`);
  ws.addEventListener("open", () => {
    retry = 0;
    $("conn").textContent = t("Connected.");
    send({ type: "hello", token: seatToken(code) || null, lang });
  });
  ws.addEventListener("message", (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") { you = msg.seat; }
    else if (msg.type === "room") { queue = queue.then(() => onRoom(msg.room, msg.lines || [], !!msg.history)); }
    else if (msg.type === "error") { personal(msg.message); if (room && room.match) renderPlay(room); }
    else if (msg.type === "advice") { showAdvice(msg); }
  });
  ws.addEventListener("close", (ev) => {
    if (ev.code === 4404) { $("conn").textContent = ""; return; }
    if (ev.code === 4403) {
      // The seat was removed (or the token is not for this table): watch instead.
      localStorage.removeItem(`scc:seat:${code}`);
      retry = 0;
    }
    $("conn").textContent = t("Connection lost, reconnecting...");
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 300 * 2 ** retry);
  });
}

async function onRoom(next, lines, history) {
  const before = room;
  room = next;
  if (!adopted) {
    adopted = true;
    if (await adoptLang(room.lang, onLang)) { lang = room.lang; send({ type: "hello", lang }); }
  }
  if (!history && lines.length) personal("");
  const log = $("log");
  if (history) log.replaceChildren();
  for (const line of lines) log.append(h("li", {}, line));
  log.scrollTop = log.scrollHeight;
  if (!history) announce(lines);
  render(before);
}

function render(before) {
  $("code").textContent = room.code;
  if (room.status === "lobby") {
    $("lobby").hidden = false; $("play").hidden = true;
    renderLobby();
  } else {
    $("lobby").hidden = true; $("play").hidden = false;
    renderPlay(before);
  }
}

// -- lobby -----------------------------------------------------------------------------------
function renderLobby() {
  const link = `${location.origin}/r/${room.code}`;
  const host = you === 0;
  const players = h("ul", { class: "players" }, room.players.map((p) => h("li", {},
    h("span", { class: "break" }, p.name, " ",
      p.seat === 0 ? h("span", { class: "tag" }, t("host")) : null, " ",
      p.kind !== "human" ? h("span", { class: "tag" }, `${t("bot")}: ${p.kind}`) : null, " ",
      p.seat === you ? h("span", { class: "tag" }, t("you")) : null, " ",
      p.kind === "human" && !p.online ? h("span", { class: "tag" }, t("offline")) : null),
    host && p.seat !== 0 ? h("button", { class: "secondary", type: "button",
      "aria-label": `${t("Remove")} ${p.name}`, onclick: () => hostCall(`/seats/${p.seat}`, "DELETE") }, t("Remove")) : null)));
  const parts = [
    h("section", { class: "panel", "aria-labelledby": "share-h" },
      h("h2", { id: "share-h" }, t("Share this table")),
      h("div", { class: "share" },
        h("img", { src: `/api/rooms/${room.code}/qr.svg`, alt: t("QR code to join this table") }),
        h("div", {},
          h("p", {}, t("Join code"), ": ", h("span", { class: "code" }, room.code)),
          h("p", { class: "break" }, t("Link"), ": ", h("a", { href: link, id: "join-link" }, link)),
          h("button", { type: "button", class: "secondary", onclick: async () => {
            try { await navigator.clipboard.writeText(link); personal(""); announce([t("Link copied.")]); } catch (e) { /* no clipboard */ }
          } }, t("Copy link"))))),
    h("section", { class: "panel", "aria-labelledby": "players-h" },
      h("h2", { id: "players-h" }, t("Players")),
      h("p", { class: "muted" }, t("Rules"), ": ", room.rules), players,
      room.spectators ? h("p", { class: "muted" }, t("spectators: {n}", { n: room.spectators })) : null),
  ];
  if (you === null) {
    const name = h("input", { id: "join-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname" });
    const seed = h("input", { id: "join-seed", name: "client_seed", maxlength: 64, autocomplete: "off" });
    parts.push(h("form", { class: "panel", id: "join-form", onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const res = await api(`/api/rooms/${room.code}/join`, { method: "POST", body: JSON.stringify({ name: name.value, client_seed: seed.value }) });
        saveSeatToken(room.code, res.token);
        ws.close();
      } catch (e) { personal(e.message); }
    } }, h("h2", {}, t("Take a seat")),
      h("label", { class: "field", for: "join-name" }, h("span", {}, t("Your name"))), name,
      h("label", { class: "field", for: "join-seed" }, h("span", {}, t("Your own dice seed (optional, mixed into the dice)"))), seed,
      h("p", {}, h("button", { type: "submit" }, t("Join")))));
  }
  if (host) {
    const level = h("select", { id: "bot-level" }, ["easy", "medium", "hard", "perfect"].map((l) =>
      h("option", { value: l, selected: l === "medium" }, t(l[0].toUpperCase() + l.slice(1)))));
    parts.push(h("section", { class: "panel", "aria-labelledby": "host-h" },
      h("h2", { id: "host-h" }, t("The host")),
      h("div", { class: "row" },
        h("label", { for: "bot-level" }, t("Add a bot")), level,
        h("button", { type: "button", class: "secondary", id: "add-bot",
          onclick: () => hostCall("/bots", "POST", { level: level.value }) }, t("Add a bot"))),
      h("p", {}, h("button", { type: "button", id: "start", disabled: room.players.length < 2,
        onclick: () => hostCall("/start", "POST") }, t("Start the match")))));
  } else if (you !== null) {
    parts.push(h("p", { class: "muted" }, t("Waiting for the host to start.")));
  }
  const focused = document.activeElement && document.activeElement.id;
  $("lobby").replaceChildren(...parts);
  if (focused && $(focused)) $(focused).focus();
}

async function hostCall(path, method, body) {
  try {
    await api(`/api/rooms/${room.code}${path}`, { method, body: body ? JSON.stringify(body) : undefined,
      headers: { "X-Seat-Token": seatToken(room.code) || "" } });
  } catch (e) { personal(e.message); }
}

// -- play ------------------------------------------------------------------------------------
function renderPlay(before) {
  const match = room.match;
  const players = room.players;
  $("stage").textContent = `${stageText(match)} · ${room.rules}`;
  $("status").textContent = statusText(match, players, you);
  const dice = diceArea(match, players);
  const rollKey = match.turn ? `${room.version}:${match.turn.last_roll.join("")}` : "";
  const newRoll = match.turn && match.turn.last_roll.length && rollKey !== lastRollKey && before && before.version !== room.version;
  lastRollKey = rollKey;
  $("dice").replaceChildren(dice);
  if (newRoll) {
    const lr = document.getElementById("last-roll");
    if (lr) { lr.classList.add("rolling"); setTimeout(() => lr.classList.remove("rolling"), 500); }
  }
  // Buttons only for the choices the engine allows, and only for the player to act.
  const hadFocus = $("actions").contains(document.activeElement);
  const mine = !match.over && match.actor === you && you !== null;
  const buttons = mine ? match.legal.map((a) => h("button", { type: "button", "data-action": a,
    onclick: () => act(a) }, actionLabel(a, players))) : [];
  if (mine && room.hints && !match.chance) {
    buttons.push(h("button", { type: "button", class: "secondary", id: "advice",
      onclick: () => send({ type: "advice", version: room.version }) }, t("Advice")));
  }
  $("actions").replaceChildren(...buttons);
  $("advice-box").replaceChildren();
  if (mine && (hadFocus || !before || before.match === null || before.match.actor !== you) && buttons.length) {
    buttons[0].focus();
  }
  $("scores").replaceChildren(h("div", {}, scoreboard(match, players, you, room.options.stakes === "pot"),
    room.spectators ? h("p", { class: "muted" }, t("spectators: {n}", { n: room.spectators })) : null,
    you === null ? h("p", { class: "muted", id: "watching" }, t("You are watching.")) : null));
  renderTimer();
  renderFair();
  const summary = $("summary");
  summary.hidden = !match.over;
  if (match.over) {
    $("summary-body").replaceChildren(
      h("p", { class: "status" }, statusText(match, players, you)),
      roundsTable(match, players),
      h("p", { class: "row" },
        h("a", { href: `/verify/${room.code}` }, t("Verify the dice")), " ",
        h("a", { href: `/replay/${room.code}` }, t("Watch the replay"))));
  }
}

function renderTimer() {
  clearInterval(timerHandle);
  const el = $("timer");
  if (!room.deadline_ms || room.match.over) { el.textContent = ""; return; }
  const tick = () => {
    const left = Math.max(0, Math.round((room.deadline_ms - Date.now()) / 1000));
    el.textContent = t("Time left: {n} s", { n: left });
  };
  tick();
  timerHandle = setInterval(tick, 1000);
}

function renderFair() {
  $("fair").replaceChildren(h("div", {},
    h("p", {}, t("Seed hash (published before the first roll)"), ": ", h("code", { class: "hash", id: "commitment" }, room.commitment)),
    room.client_seeds.length ? h("p", { class: "break" }, t("Client seeds"), ": ", room.client_seeds.join(", ")) : null,
    room.server_seed ? h("p", {}, t("Seed (revealed at the end)"), ": ", h("code", { class: "hash", id: "server-seed" }, room.server_seed)) : null,
    room.server_seed ? h("p", {}, h("a", { href: `/verify/${room.code}` }, t("Verify the dice"))) : null));
}

function act(action) {
  // One choice per state: the buttons wait for the server's next picture.
  for (const b of $("actions").querySelectorAll("button[data-action]")) b.disabled = true;
  $("actions").focus();
  if (action === "roll") send({ type: "roll", version: room.version });
  else send({ type: "act", action, version: room.version });
}

function showAdvice(msg) {
  if (!room || msg.version !== room.version) return;
  const items = msg.choices.map((c) => h("li", {},
    `${actionLabel(c.action, room.players)}: ${t("Win chance")} ${(100 * c.win_probability).toFixed(1)} %`
    + (c.expected_score === null ? "" : ` · ${t("Score")} ≈ ${c.expected_score.toFixed(1)}`)));
  $("advice-box").replaceChildren(h("h3", {}, t("Advice")), h("ul", { id: "advice-list" }, items));
  announce(msg.choices.map((c) => `${actionLabel(c.action, room.players)}: ${(100 * c.win_probability).toFixed(0)} %`));
}

function onLang(chosen) {
  lang = chosen;
  send({ type: "hello", lang });
  if (room) render(room);
}

await boot(onLang);
connect();
