// The podium's crew: "Keep this crew" makes the table's people a crew (its match the crew's
// first); everyone else who sat at the table then finds it on their own podium and joins in
// one tap.  Only a person seated at the table sees any of it (their seat token asks).  The
// box is one element per table, drawn in place: a podium built again takes the same box, with
// whatever was typed in it.
import { api, h, seatToken, t } from "./common.js";
import { keepMembership, membership } from "./crewkeys.js";

const boxes = new Map();   // table code -> {box, room, you, kept, timer, asks}
const EVERY_MS = 5000;     // how often a podium asks whether someone kept the table
const ASKS = 120;          // for ten minutes at most

/** The podium's crew box for the person in seat ``you`` (nothing for a spectator). */
export function crewKeep(room, you) {
  if (you === null || room.status !== "over" || !seatToken(room.code)) return null;
  let entry = boxes.get(room.code);
  if (!entry) {
    entry = { box: h("div", { class: "crew-keep", id: "crew-keep" }), room, you, kept: null, timer: null, asks: 0 };
    boxes.set(room.code, entry);
    ask(entry);
    entry.timer = setInterval(() => ask(entry), EVERY_MS);
  }
  entry.room = room;
  entry.you = you;
  draw(entry);
  return entry.box;
}

function ask(entry) {
  entry.asks += 1;
  if (entry.kept || entry.asks > ASKS) { clearInterval(entry.timer); return; }
  const code = entry.room.code;
  api(`/api/rooms/${code}/crew`, { headers: { "X-Seat-Token": seatToken(code) } }).then((kept) => {
    entry.kept = kept;
    clearInterval(entry.timer);
    draw(entry);
  }, () => { /* not kept (yet) */ });
}

function draw(entry) {
  const { box, kept, room } = entry;
  const code = room.code;
  if (kept && membership(kept.crew)) {
    box.replaceChildren(h("p", {}, h("a", { href: `/c/${encodeURIComponent(kept.crew)}`, id: "crew-page", class: "crew-link" }, t("Open the crew {name}", { name: kept.name }))));
    return;
  }
  if (kept) {
    box.replaceChildren(h("p", {}, t("This table is the crew {name} now.", { name: kept.name })),
      h("button", { type: "button", class: "big", id: "join-kept", "data-testid": "join-kept", onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          const res = await api(`/api/crews/${encodeURIComponent(kept.crew)}/members`, { method: "POST", body: JSON.stringify({ table: code }), headers: { "X-Seat-Token": seatToken(code) } });
          keepMembership({ crew: kept.crew, key: res.member_key, member: res.member, name: kept.name });
          draw(entry);
        } catch (e) { box.append(h("p", { class: "alert", role: "alert" }, e.message)); ev.target.disabled = false; }
      } }, t("Join the crew {name}", { name: kept.name })));
    return;
  }
  if (box.querySelector("#keep-form")) return;  // the form as it is (a name being typed)
  const name = h("input", { id: "keep-name", class: "name-input", maxlength: 32, required: true, autocomplete: "off" });
  const form = h("form", { id: "keep-form", hidden: true, novalidate: true },
    h("label", { class: "field", for: "keep-name" }, h("span", {}, t("The crew's name"))), name,
    h("p", {}, h("button", { type: "submit", class: "big", "data-testid": "keep-submit" }, t("Keep this crew"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!name.value.trim()) { name.setAttribute("aria-invalid", "true"); name.focus(); return; }
    try {
      const me = entry.room.players[entry.you];
      const res = await api("/api/crews", { method: "POST", body: JSON.stringify({ name: name.value.trim(), member: me.name, table: code }), headers: { "X-Seat-Token": seatToken(code) } });
      keepMembership({ crew: res.crew, key: res.member_key, member: res.member, name: name.value.trim() });
      entry.kept = { crew: res.crew, name: name.value.trim() };
      clearInterval(entry.timer);
      draw(entry);
    } catch (e) { form.append(h("p", { class: "alert", role: "alert" }, e.message)); }
  });
  const open = h("button", { type: "button", class: "secondary", id: "keep-crew", "data-testid": "keep-crew", "aria-expanded": "false", "aria-controls": "keep-form", onclick: () => {
    form.hidden = false;
    open.setAttribute("aria-expanded", "true");
    open.hidden = true;
    name.focus();
  } }, t("Keep this crew"));
  box.replaceChildren(open,
    h("p", { class: "muted" }, t("The same friends next week? Keep this table as a crew: a season of your own, and everyone here can join from their podium.")),
    form);
}
