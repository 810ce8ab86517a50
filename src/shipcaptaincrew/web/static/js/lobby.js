// Before the match: a newcomer sees "your name -> join" first; the host sees the huge code,
// the QR code and a Share button; everyone sees who sits at the table.
import { api, h, icon, joinLink, onlyHere, saveSeatToken, t } from "./common.js";
import { crewSeat } from "./crewjoin.js";
import { looksPicker, looksValue } from "./looks.js";
import { avatar, botLevel } from "./table.js";

let options = null;  // the server's option table in the page's language: bot levels, avatars

/** The option table (bot levels for the host, avatars and colours for a newcomer). */
export async function loadOptions(force = false) {
  if (options && !force) return options;
  try {
    options = await api("/api/options");
  } catch (e) {
    options = { bots: [] };
  }
  return options;
}

/** The option table as loaded (null until it came). */
export function loadedOptions() { return options; }

/** A form asking for a name (and, optionally, a look); ``submit(name)`` does the rest. */
export function nameForm({ id, testid, title, lead, button, submit, fail, autofocus = true, looks = null }) {
  const input = h("input", { id: `${id}-name`, name: "name", class: "name-input", required: true, maxlength: 32,
    autocomplete: "nickname", autocapitalize: "words", enterkeyhint: "go", autofocus, "aria-describedby": lead ? `${id}-lead` : null });
  const form = h("form", { class: "panel joinfirst", id, "data-testid": testid, novalidate: true },
    h("h2", { id: `${id}-h` }, title),
    lead ? h("p", { id: `${id}-lead`, class: "muted" }, lead) : null,
    h("label", { class: "field", for: `${id}-name` }, h("span", {}, t("Your name"))),
    h("div", { class: "row" }, input, h("button", { type: "submit" }, button)),
    looks);
  form.setAttribute("aria-labelledby", `${id}-h`);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      input.setAttribute("aria-invalid", "true");
      fail(t("Please type your name first."));
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try { await submit(name); } catch (e) { fail(e.message); } finally { button.disabled = false; }
  });
  return form;
}

function shareButtons(link, code, toast) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t("Link copied."));
    } catch (e) {
      // No clipboard (an http page on a phone): select the link so it can be copied by hand.
      const a = document.getElementById("join-link");
      const range = document.createRange();
      range.selectNodeContents(a);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      toast(t("Select the link and copy it."));
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: t("Ship, Captain and Crew"), text: t("Join my table: code {code}", { code }), url: link });
    } catch (e) {
      if (e && e.name === "AbortError") return;
      await copy();
    }
  };
  // Both need a secure context (https): over plain http the browser has neither.
  if (!window.isSecureContext) return null;
  return h("div", { class: "row" },
    navigator.share ? h("button", { type: "button", id: "share", onclick: share }, icon("share"), " ", t("Share")) : null,
    h("button", { type: "button", class: "secondary", id: "copy-link", onclick: copy }, icon("copy"), " ", t("Copy link")));
}

/** A warning where the server can only give an address of this computer's own. */
export function loopbackWarning(link) {
  return onlyHere(link) ? h("p", { class: "warn", id: "loopback-warning", role: "note" },
    t("Phones cannot open this address: it is this computer's own. Start the server with scc serve --host 0.0.0.0 and open the address it prints.")) : null;
}

/** The invitation: the code big enough to read across a table, the QR code, the link. */
export function sharePanel(room, toast, { open = true } = {}) {
  const link = joinLink(room.code);
  const body = h("div", { class: "share" },
    h("img", { src: `/api/rooms/${room.code}/qr.svg`, alt: t("QR code to join this table"), width: 224, height: 224 }),
    h("div", {},
      h("p", { class: "muted" }, t("Join code")),
      h("p", { class: "bigcode", id: "bigcode" }, room.code),
      h("p", { class: "break" }, h("a", { href: link, id: "join-link" }, link)),
      loopbackWarning(link),
      shareButtons(link, room.code, toast),
      h("p", {}, h("a", { href: `/r/${room.code}/screen`, id: "screen-link-lobby", target: "_blank" }, t("Show on a big screen")))));
  if (open) {
    return h("section", { class: "panel", "aria-labelledby": "share-h" }, h("h2", { id: "share-h" }, t("Invite your friends")), body);
  }
  return h("details", { class: "panel" }, h("summary", {}, t("Invite your friends")), body);
}

function seatList(room, you, host, remove) {
  const hostSeat = room.host ?? 0;
  return h("ul", { class: "seats", id: "seats" }, room.players.map((p) => h("li", {},
    avatar(p),
    h("span", { class: "grow" }, h("b", {}, p.name), " ",
      p.seat === hostSeat ? h("span", { class: "tag" }, t("host")) : null, " ",
      botLevel(p) ? h("span", { class: "tag" }, `${t("bot")}: ${botLevel(p)}`) : p.kind !== "human" && p.kind !== "person" ? h("span", { class: "tag" }, t("bot")) : null, " ",
      p.seat === you ? h("span", { class: "tag" }, t("you")) : null, " ",
      p.online === false ? h("span", { class: "tag" }, t("offline")) : null),
    host && p.seat !== hostSeat ? h("button", { type: "button", class: "secondary",
      "aria-label": t("Remove {name}", { name: p.name }), onclick: () => remove(p.seat) }, t("Remove")) : null)));
}

/** The lobby, drawn for this person: newcomer, guest or host. */
export function lobbyView(ctx) {
  const { room, you } = ctx;
  const host = you !== null && you === (room.host ?? 0);
  const parts = [];
  if (you === null) {
    parts.push(crewSeat(room.code, ctx));
    parts.push(nameForm({
      id: "join-form", testid: "join-table", title: t("Join table {code}", { code: room.code }),
      lead: room.title || null, button: t("Join"),
      looks: looksPicker(options, "join"),
      submit: async (name) => {
        const res = await api(`/api/rooms/${room.code}/join`, { method: "POST", body: JSON.stringify({ name, ...looksValue("join") }) });
        saveSeatToken(room.code, res.token);
        ctx.reconnect();
      },
      fail: ctx.personal,
    }));
  }
  if (host) parts.push(sharePanel(room, ctx.toast));
  const seats = h("section", { class: "panel", "aria-labelledby": "players-h" },
    h("h2", { id: "players-h" }, t("At the table ({n})", { n: room.players.length })),
    seatList(room, you, host, (seat) => ctx.hostCall(`/seats/${seat}`, "DELETE")),
    room.spectators ? h("p", { class: "muted" }, t("spectators: {n}", { n: room.spectators })) : null);
  parts.push(seats);
  if (host) parts.push(hostPanel(ctx), startBar(ctx));
  else if (you !== null) {
    const hostName = room.players[room.host ?? 0] ? room.players[room.host ?? 0].name : "";
    parts.splice(0, 0, h("p", { class: "panel", id: "waiting", role: "status" },
      h("b", {}, t("You're in!")), " ", t("Waiting for {name} to start.", { name: hostName })));
    parts.push(sharePanel(room, ctx.toast, { open: false }));
  }
  return parts;
}

function hostPanel(ctx) {
  const levels = (options && options.bots) || [];
  const level = h("select", { id: "bot-level", "aria-label": t("Bot level") },
    levels.map((b, i) => h("option", { value: b.level, selected: i === Math.min(1, levels.length - 1) }, b.label)));
  return h("section", { class: "panel", "aria-labelledby": "host-h" },
    h("h2", { id: "host-h" }, t("You are the host")),
    h("p", { class: "muted" }, t("Add bots to fill the table, then start when everyone is in.")),
    h("div", { class: "row" },
      h("label", { for: "bot-level" }, t("Bot level")), level,
      h("button", { type: "button", class: "secondary", id: "add-bot", "data-testid": "add-bot",
        // Before the levels have come (a slow first load) the server's own default is asked for.
        onclick: () => ctx.hostCall("/bots", "POST", level.value ? { level: level.value } : {}) }, t("Add a bot"))));
}

/** The host's Start, held at the bottom of the screen: in reach without scrolling past the
 * code and the QR code. */
function startBar(ctx) {
  const { room } = ctx;
  return h("div", { class: "start-bar", id: "start-bar" },
    h("button", { type: "button", class: "big", id: "start", "data-testid": "start", disabled: room.players.length < 2,
      onclick: () => ctx.hostCall("/start", "POST") }, t("Start the match")),
    room.players.length < 2 ? h("p", { class: "muted" }, t("At least two players are needed to start.")) : null);
}
