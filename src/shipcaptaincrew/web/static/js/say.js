// The table's say on a phone: who may let a bot play for someone away or silent, or have them
// leave (the server decides who and when: web/service/standin.py; this page offers what it
// says, when it says), the person whose turn a bot plays taking it back, the host turning a
// newcomer down, and pairing the table screen ("Show this table on that screen?").
import { h, icon, joinLink, t } from "./common.js";
import { avatar } from "./table.js";

let arrived = 0;          // when the picture on screen came (the silent clock counts from it)
let arrivedVersion = -1;
let wake = null;          // the redraw due when an offer opens

/** Note when a picture came (the silent person's ``wait_s`` counts from then). */
export function pictureCame(room) {
  if (room.version !== arrivedVersion) { arrivedVersion = room.version; arrived = Date.now(); }
}

/** Call ``redraw`` at ``when`` (epoch ms), the earliest offer still to open. */
function redrawAt(times, redraw) {
  clearTimeout(wake);
  const next = Math.min(...times.filter((x) => x > Date.now()));
  if (Number.isFinite(next)) wake = setTimeout(redraw, next - Date.now() + 50);
}

/**
 * What this person may ask of the table now (data-testid play-for, remove-after-round,
 * silent-ask, refuse-next, each with its data-seat or name): for someone away, the host at
 * once and anyone seated once they have been away for the grace (``askable_ms``; at a slow
 * table only the host, who is the only one shown them); for the one
 * to act, here but silent, the host, or a vote of the others, once ``silent.wait_s`` is over;
 * the host turns down a newcomer who asked for a seat at the next match.
 */
export function sayBox(room, you, send, redraw) {
  const match = room.match;
  if (!match || match.over || you === null) return null;
  const host = (room.stewards || []).includes(you);
  const items = [];
  const times = [];
  // At a slow table everyone is away most of the day and has hours to act: only the host
  // may ask anything for someone away or quiet (the clock passes a turn), so the others are
  // shown neither.
  const slow = Boolean(room.turn_hours);
  const away = slow && !host ? [] : room.players.filter((p) => p.seat !== you && p.kind === "human" && !p.online && !p.leaving && !p.left);
  for (const p of away) {
    const open = host || (p.askable_ms && Date.now() >= p.askable_ms);
    if (!open && p.askable_ms) times.push(p.askable_ms);
    items.push(h("li", { "data-seat": p.seat },
      avatar(p),
      h("span", { class: "grow" }, h("b", {}, p.name), " · ", h("span", { class: "muted" }, p.played_for ? t("a bot plays") : t("is offline"))),
      open ? h("span", { class: "row" },
        p.played_for ? null : h("button", { type: "button", class: "secondary", "data-testid": "play-for", "data-seat": p.seat,
          onclick: () => send({ type: "play_for", seat: p.seat }) }, t("Let a bot play for {name}", { name: p.name })),
        h("button", { type: "button", class: "secondary", "data-testid": "remove-after-round", "data-seat": p.seat,
          onclick: () => send({ type: "remove_after_round", seat: p.seat, version: room.version }) }, t("Remove {name} after this round", { name: p.name })))
        : h("span", { class: "muted small" }, t("Only just gone: the host may ask now, anyone a little later."))));
  }
  const quiet = room.silent;
  if (quiet && quiet.seat !== you && room.played_for === null && (host || !slow)) {
    const p = room.players[quiet.seat];
    const at = arrived + quiet.wait_s * 1000;
    if (Date.now() < at) times.push(at);
    else {
      const asked = quiet.votes.includes(you);
      items.push(h("li", { "data-seat": p.seat, id: "silent" },
        avatar(p),
        h("span", { class: "grow" }, h("b", {}, p.name), " · ", h("span", { class: "muted" }, t("has done nothing for a while"))),
        host ? h("button", { type: "button", class: "secondary", "data-testid": "silent-ask", "data-seat": p.seat,
          onclick: () => send({ type: "play_for", seat: p.seat }) }, t("Let a bot play {name}'s turn", { name: p.name }))
          : h("span", { class: "row" },
            asked ? null : h("button", { type: "button", class: "secondary", "data-testid": "silent-ask", "data-seat": p.seat,
              onclick: () => send({ type: "play_for", seat: p.seat }) }, t("Ask a bot to play {name}'s turn", { name: p.name })),
            h("span", { class: "muted small", "data-testid": "silent-votes" }, t("Asked: {n} of {needed}", { n: quiet.votes.length, needed: quiet.needed })))));
    }
  }
  const newcomers = room.rematch && host ? room.rematch.next_seats || [] : [];
  for (const n of newcomers) {
    items.push(h("li", { "data-name": n.name },
      h("span", { class: "grow" }, t("{name} asks for a seat at the next match.", { name: n.name })),
      h("button", { type: "button", class: "secondary", "data-testid": "refuse-next", "data-name": n.name,
        onclick: () => send({ type: "refuse_next", name: n.name }) }, t("Turn {name} down", { name: n.name }))));
  }
  redrawAt(times, redraw);
  if (!items.length) return null;
  return h("section", { class: "panel away", "aria-labelledby": "away-h", id: "away" },
    h("h2", { id: "away-h" }, t("The table's say")), h("ul", {}, items));
}

/** The host's list of newcomers at the next match on the podium, each with a way to turn
 * them down (data-testid refuse-next). */
export function newcomersBox(room, you, send) {
  const seats = room.rematch ? room.rematch.next_seats || [] : [];
  if (you === null || you !== room.host || room.rematch.moved_on || !seats.length) return null;
  return h("ul", { class: "newcomers", id: "newcomers" }, seats.map((n) => h("li", { "data-name": n.name },
    h("span", { class: "grow" }, t("{name} asks for a seat at the next match.", { name: n.name })),
    h("button", { type: "button", class: "secondary", "data-testid": "refuse-next", "data-name": n.name,
      onclick: () => send({ type: "refuse_next", name: n.name }) }, t("Turn {name} down", { name: n.name })))));
}

/** The person whose turn a bot plays now (time ran out, or silent and the table asked): no
 * Roll or Stand that would race the bot, but one button to play the rest of it again
 * (data-testid take-turn). */
export function takeBack(room, you, send) {
  const match = room.match;
  const by = room.played_for;
  if (!match || match.over || you === null || !by || by.seat !== you || match.actor !== you) return null;
  if (by.by !== "timer" && by.by !== "silent") return null;
  return h("div", { class: "take-back", id: "take-back" },
    h("p", { class: "note" }, by.by === "timer" ? t("Your time ran out: a bot is playing this turn for you.")
      : t("You were silent a long while: a bot is playing this turn for you, as the table asked.")),
    h("button", { type: "button", class: "primary-action", "data-testid": "take-turn",
      onclick: (ev) => { ev.currentTarget.disabled = true; send({ type: "take_turn", version: room.version }); } }, t("Play my turn myself")));
}

// -- the table screen, paired from a seated phone ------------------------------------------------

/** The pairing code in this page's address (``?pair=1234``: the screen's QR code), once. */
export function pairingAsked() {
  const code = new URLSearchParams(location.search).get("pair");
  return code && /^[0-9]{4}$/.test(code) ? code : null;
}

/**
 * The dialog that puts this table on a big screen: open the screen's address there, then
 * confirm the code it shows ("Show this table on that screen?", one tap when the code came
 * with the link; typed otherwise).  Only a seated player may pair (the server checks it).
 */
export function pairDialog(code, { you, send }) {
  let box = document.getElementById("pair-dialog");
  if (!box) {
    box = h("dialog", { id: "pair-dialog", "aria-labelledby": "pair-h" });
    document.body.append(box);
  }
  const open = (asked = null) => {
    const seated = you() !== null;
    const input = h("input", { id: "pair-code", inputmode: "numeric", pattern: "[0-9]{4}", maxlength: 4, autocomplete: "off", value: asked || "",
      "aria-describedby": "pair-note" });
    const note = h("p", { id: "pair-note", role: "status" }, "");
    const go = h("button", { type: "submit", class: "primary-action", id: "pair-go", "data-testid": "pair-go", disabled: !seated },
      t("Show this table on that screen?"));
    const form = h("form", { id: "pair-form" },
      asked ? h("p", { class: "bigcode pair-asked" }, asked) : h("p", {}, h("label", { for: "pair-code" }, t("The code the screen shows")), input),
      go, note);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const value = (asked || input.value).trim();
      if (!/^[0-9]{4}$/.test(value)) { note.textContent = t("Type the four digits the screen shows."); return; }
      if (send({ type: "pair", code: value })) { go.disabled = true; note.textContent = t("Sending..."); }
    });
    const link = `${joinLink(encodeURIComponent(code))}/screen`;  // (the server's address, as the join link)
    box.replaceChildren(
      h("div", { class: "dialog-head" }, h("h2", { id: "pair-h" }, t("Show on a big screen")),
        h("button", { type: "button", class: "secondary", onclick: () => box.close() }, t("Close"))),
      asked ? null : h("p", {}, t("Open this address on the big screen:"), " ", h("a", { href: link, target: "_blank", class: "break" }, link.replace(/^https?:\/\//, ""))),
      seated ? form : h("p", { class: "note" }, t("Only a player at this table can show it on a screen.")));
    if (!box.open) box.showModal();
    (asked ? go : input).focus();
  };
  return {
    open,
    button: () => h("button", { type: "button", class: "icon-btn", id: "screen-link", "aria-label": t("Show on a big screen"), title: t("Show on a big screen"),
      "aria-haspopup": "dialog", onclick: () => open() }, icon("tv")),
    /** The server paired the screen: said, and the dialog closes. */
    paired() { if (box.open) box.close(); },
    /** A refusal of the pairing, said in the dialog (the server's words). */
    refused(message) {
      const note = document.getElementById("pair-note");
      const go = document.getElementById("pair-go");
      if (!box.open || !note) return false;
      note.textContent = message;
      if (go) go.disabled = false;
      return true;
    },
  };
}
