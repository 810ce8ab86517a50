// A crew's page (/c/ID): for its members only.  A phone that holds the crew's member key
// sees the season; a phone that opened an invite (#invite=...) or a one-time link
// (#link=...) gets in first; any other sees the same closed door, whether the crew exists
// or not.  Everything drawn comes from the crew's answer (GET /api/crews/ID): no number is
// worked out here.
import { api, boot, h, lang, saveSeatToken, setTitle, t } from "./common.js";
import { headToHead, ratingCharts, scoreCharts } from "./crewcharts.js";
import { crewApi, forgetMembership, keepMembership, membership, notMember } from "./crewkeys.js";
import { evenings, quality, ratings, records } from "./crewparts.js";
import { membersPanel, phonePanel } from "./crewadmin.js";
import { looksPicker, looksValue } from "./looks.js";

const $ = (id) => document.getElementById(id);
const crew = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
let body = null;      // the crew's answer on screen
let me = null;        // this phone's member (GET /me)
let options = null;   // the looks to choose from (avatars, colours)

function personal(message) { $("personal").textContent = message || ""; }
function announce(text) { $("announce").replaceChildren(h("p", {}, text)); }

/** What the address carries after "#": an invite or a one-time link (then taken out of the
 * address and the history at once: a secret does not stay on screen or in the back button). */
function secretFromAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const found = { invite: params.get("invite"), link: params.get("link") };
  if (found.invite || found.link) history.replaceState(null, "", location.pathname + location.search);
  return found;
}

function door(...parts) {
  $("crew").hidden = true;
  $("door").replaceChildren(h("section", { class: "panel", id: "door-panel" }, ...parts));
}

function closedDoor(reason) {
  setTitle(t("Crew"));
  $("crew-h").textContent = t("Crew");
  door(h("p", {}, reason || t("This page is for the crew's members. A member's invite link lets you in.")),
    h("p", {}, h("a", { href: "/" }, t("Home"))));
}

function joinDoor(invite) {
  const input = h("input", { id: "member-name", name: "member", class: "name-input", required: true, maxlength: 32, autocomplete: "nickname" });
  const form = h("form", { id: "join-crew", "data-testid": "join-crew", novalidate: true },
    h("h2", {}, t("Join the crew")),
    h("label", { class: "field", for: "member-name" }, h("span", {}, t("Your name"))),
    input, looksPicker(options, "crew"),
    h("p", {}, h("button", { type: "submit", class: "big" }, t("Join"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!input.value.trim()) { input.setAttribute("aria-invalid", "true"); personal(t("Please type your name first.")); input.focus(); return; }
    try {
      const res = await api(`/api/crews/${encodeURIComponent(crew)}/members`, { method: "POST", body: JSON.stringify({ invite, member: input.value.trim(), ...looksValue("crew") }) });
      keepMembership({ crew, key: res.member_key, member: res.member, name: "" });
      personal("");
      await load();
    } catch (e) { personal(e.message); }
  });
  door(form);
  input.focus();
}

async function claim(link) {
  try {
    const res = await api(`/api/crews/${encodeURIComponent(crew)}/claim`, { method: "POST", body: JSON.stringify({ link }) });
    keepMembership({ crew, key: res.member_key, member: res.member, name: "" });
    announce(t("This phone is now in the crew."));
  } catch (e) { personal(e.message); }
}

function seasonName(s) {
  if (s.id === "all") return t("All matches");
  if (s.name) return s.name;
  const [y, m] = s.id.split("-").map(Number);
  return new Intl.DateTimeFormat(lang(), { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1)));
}

async function load(season) {
  if (!membership(crew)) { closedDoor(); return; }
  let answer;
  try {
    const q = season ? `?season=${encodeURIComponent(season)}` : "";
    [answer, me] = await Promise.all([crewApi(crew, q), crewApi(crew, "/me")]);
  } catch (e) {
    if (notMember(e)) {
      forgetMembership(crew);
      closedDoor(t("This phone is no longer in this crew: ask a member for a new invite."));
    } else personal(e.message);
    return;
  }
  body = answer;
  keepMembership({ ...membership(crew), name: body.crew.name, member: me.member });
  render();
}

function render() {
  setTitle(body.crew.name);
  $("crew-h").textContent = body.crew.name;
  $("door").replaceChildren();
  $("crew").hidden = false;
  const select = $("season");
  select.replaceChildren(...body.seasons.map((s) => h("option", { value: s.id, selected: s.id === body.season.id }, `${seasonName(s)} (${s.matches})`)));
  $("pending").textContent = body.pending ? t("Still working out: {n}", { n: body.pending }) : "";
  $("ratings").replaceChildren(ratings(body, options), h("p", { class: "muted" }, t("The rating is the strength less three times its uncertainty: a player is almost surely at least this good.")));
  $("rating-pictures").replaceChildren(ratingCharts(body));
  $("records").replaceChildren(records(body));
  $("h2h-grid").replaceChildren(headToHead(body));
  $("quality").replaceChildren(...quality(body));
  $("score-pictures").replaceChildren(scoreCharts(body));
  $("evenings").replaceChildren(evenings(body));
  $("members").replaceChildren(...membersPanel(body, me, { crew, reload: () => load(body.season.id), personal, announce, options }));
  $("phone").replaceChildren(...phonePanel(body, me, { crew, reload: () => load(body.season.id), personal, announce, options, closedDoor }));
}

$("season").addEventListener("change", () => load($("season").value));
$("open-table").addEventListener("click", async () => {
  personal("");
  try {
    // The crew's last rules (a crew that plays first to 50 keeps playing it), else the classic.
    const last = await crewApi(crew, "/matches?season=all&limit=1").catch(() => []);
    const preset = last.length ? last[0].rules : "classic";
    const res = await api("/api/rooms", { method: "POST", body: JSON.stringify({ crew, preset, lang: lang() }), headers: { "X-Member-Key": membership(crew).key } });
    saveSeatToken(res.code, res.token);
    location.href = `/r/${res.code}`;
  } catch (e) { personal(e.message); }
});

async function start() {
  try { options = await api("/api/options"); } catch (e) { options = null; }
  const { invite, link } = secretFromAddress();
  if (link) await claim(link);
  if (invite && !membership(crew)) { joinDoor(invite); return; }
  await load();
}

await boot(() => { if (body) render(); });
start();
