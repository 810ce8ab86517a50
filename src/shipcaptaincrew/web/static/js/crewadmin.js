// The crew page's people: the members and the invite to show (a QR code another phone reads),
// what an admin may do (make an admin, remove, a new invite for a lost phone, say who a
// guest was, the crew's own seasons, renew the invite), the export, and this phone's own
// (its name and look, moving to a new phone, opening on another screen, leaving).
import { h, t } from "./common.js";
import { memberColor, paint } from "./crewcharts.js";
import { crewApi, forgetMembership, membership } from "./crewkeys.js";
import { looksPicker, looksValue } from "./looks.js";

/** An SVG the server drew (a QR code), shown as an image. */
function qrImage(svgText, alt, id) {
  return h("img", { class: "qr", id, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`, alt, width: 200, height: 200 });
}

function linkBox(link, svgText, alt, id) {
  return h("div", { class: "share", id },
    qrImage(svgText, alt, `${id}-qr`),
    h("p", { class: "break" }, h("a", { href: link, class: "secret-link" }, link)),
    h("button", { type: "button", class: "secondary", onclick: async (ev) => {
      try { await navigator.clipboard.writeText(link); ev.target.textContent = t("Link copied."); } catch (e) { ev.target.textContent = t("Select the link and copy it."); }
    } }, t("Copy link")));
}

/** Run an action, then show the crew again; a refusal is said at the top of the page. */
function acting(ctx, run, done) {
  return async () => {
    ctx.personal("");
    try {
      const res = await run();
      if (done) done(res);
      else await ctx.reload();
    } catch (e) { ctx.personal(e.message); }
  };
}

export function membersPanel(body, me, ctx) {
  const { crew } = ctx;
  const admin = me && me.admin;
  const post = (path, payload, method = "POST") => crewApi(crew, path, { method, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const out = [h("ul", { class: "seats", id: "member-list" }, body.members.map((m, i) => h("li", { "data-member": m.id },
    paint(h("span", { class: "dot", "aria-hidden": "true" }, m.avatar || ""), { background: memberColor(m, i) }),
    h("span", { class: "grow" }, h("b", {}, m.name), " ",
      m.admin ? h("span", { class: "tag" }, t("admin")) : null, " ",
      m.id === me.member ? h("span", { class: "tag" }, t("you")) : null),
    admin && m.id !== me.member ? h("details", { class: "actions" }, h("summary", {}, t("More"), h("span", { class: "sr-only" }, ` (${m.name})`)),
      h("div", { class: "row" },
        h("button", { type: "button", class: "secondary", onclick: acting(ctx, () => post(`/members/${m.id}`, { admin: !m.admin }, "PATCH")) },
          m.admin ? t("No longer an admin") : t("Make an admin")),
        h("button", { type: "button", class: "secondary", onclick: acting(ctx, () => post(`/members/${m.id}/link`, {}),
          (res) => { ctx.announce(t("New invite for {name}: it works once, and ends their old phone's access.", { name: m.name })); showLink(`reinvite-${m.id}`, res); }) },
          t("New invite (lost phone)")),
        h("button", { type: "button", class: "secondary danger", "data-testid": "remove-member", onclick: acting(ctx, () => post(`/members/${m.id}`, undefined, "DELETE")) },
          t("Remove {name}", { name: m.name }))),
      h("div", { id: `reinvite-${m.id}` })) : null)))];
  out.push(h("h3", {}, t("Invite")), h("p", { class: "muted" }, t("Whoever opens this link can join the crew: show it only to friends.")),
    linkBox(me.invite, me.invite_qr, t("QR code to join the crew"), "invite"));
  if (admin) {
    out.push(h("p", {}, h("button", { type: "button", class: "secondary", id: "renew-invite", onclick: acting(ctx, () => post("/invite", {})) }, t("Renew the invite (the old link stops working)"))));
    const guests = body.others.filter((o) => o.kind === "guest");
    if (guests.length) out.push(guestForm(guests, body, ctx, post));
    out.push(seasonForm(body, ctx, post));
  }
  out.push(exportBox(ctx));
  return out;
}

function showLink(id, res) {
  const box = document.getElementById(id);
  if (box) box.replaceChildren(linkBox(res.link, res.qr, t("QR code of the one-time link"), `${id}-box`));
}

function guestForm(guests, body, ctx, post) {
  const guest = h("select", { id: "guest-name" }, guests.map((g) => h("option", { value: g.name }, g.name)));
  const member = h("select", { id: "guest-member" }, body.members.map((m) => h("option", { value: m.id }, m.name)));
  return h("form", { id: "guest-form", novalidate: true, onsubmit: (ev) => { ev.preventDefault(); acting(ctx, () => post("/guests", { guest: guest.value, member: member.value }))(); } },
    h("h3", {}, t("Who was the guest?")),
    h("label", { class: "field", for: "guest-name" }, h("span", {}, t("Guest"))), guest,
    h("label", { class: "field", for: "guest-member" }, h("span", {}, t("was"))), member,
    h("p", {}, h("button", { type: "submit", class: "secondary" }, t("Count their matches for this member"))));
}

function seasonForm(body, ctx, post) {
  const input = (id, type, label) => [h("label", { class: "field", for: id }, h("span", {}, label)), h("input", { id, type, required: true, maxlength: 32 })];
  const own = body.seasons.filter((s) => s.id.startsWith("s"));
  return h("details", { id: "own-seasons" }, h("summary", {}, t("The crew's own seasons")),
    h("p", { class: "muted" }, t("Without any, every month is a season.")),
    own.length ? h("ul", {}, own.map((s) => h("li", {}, `${s.name}: ${s.starts} – ${s.ends} `,
      h("button", { type: "button", class: "ghost", onclick: acting(ctx, () => post(`/seasons/${s.id}`, undefined, "DELETE")) }, t("Remove"))))) : null,
    h("form", { novalidate: true, onsubmit: (ev) => {
      ev.preventDefault();
      const v = (id) => document.getElementById(id).value;
      acting(ctx, () => post("/seasons", { season: v("season-name").trim(), starts: v("season-starts"), ends: v("season-ends") }))();
    } }, ...input("season-name", "text", t("Name")), ...input("season-starts", "date", t("First day")), ...input("season-ends", "date", t("Last day")),
      h("p", {}, h("button", { type: "submit", class: "secondary" }, t("Add the season")))));
}

function exportBox(ctx) {
  const download = (table, to) => async () => {
    ctx.personal("");
    const m = membership(ctx.crew);
    const season = document.getElementById("season").value;
    const res = await fetch(`/api/crews/${encodeURIComponent(ctx.crew)}/export?table=${table}&to=${to}&season=${encodeURIComponent(season)}`, { headers: { "X-Member-Key": m.key, "X-Lang": document.documentElement.lang } });
    if (!res.ok) { try { ctx.personal((await res.json()).detail); } catch (e) { ctx.personal(t("Something went wrong ({status}).", { status: res.status })); } return; }
    const name = (res.headers.get("Content-Disposition") || "").split('filename="')[1] || `${table}.${to}`;
    const a = h("a", { href: URL.createObjectURL(await res.blob()), download: name.replace(/"$/, "") });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  };
  const tables = { matches: t("Matches"), ratings: t("Ratings"), decisions: t("Choices") };
  return h("details", { id: "export" }, h("summary", {}, t("Export the season")),
    h("p", { class: "muted" }, t("Each file says inside where it comes from: the crew, the season, its rules and bots, the version (in a CSV file: the # lines above the header).")),
    Object.entries(tables).map(([table, label]) => h("p", { class: "row" }, h("span", { class: "grow" }, label),
      ["csv", "json", "parquet"].map((to) => h("button", { type: "button", class: "secondary", "data-export": `${table}.${to}`, onclick: download(table, to) }, to.toUpperCase())))));
}

/** This phone: the member's own name and look, moving to a new phone (a one-time link or QR
 * code), opening the crew on another screen, and leaving it on this phone. */
export function phonePanel(body, me, ctx) {
  const { crew } = ctx;
  const name = h("input", { id: "my-name", class: "name-input", maxlength: 32, value: me.name, autocomplete: "nickname" });
  const link = (kind) => acting(ctx, () => crewApi(crew, "/links", { method: "POST", body: JSON.stringify({ kind }) }), (res) => {
    document.getElementById("phone-link").replaceChildren(
      h("p", {}, kind === "move" ? t("Open this on the new phone (it works once, for 30 minutes); this phone then leaves the crew.") : t("Open this on the other screen (it works once, for 30 minutes).")),
      linkBox(res.link, res.qr, t("QR code of the one-time link"), "one-time"));
  });
  const looks = looksPicker(ctx.options, "me");
  if (looks) {
    for (const input of looks.querySelectorAll("input")) {
      input.checked = (input.name === "me-avatar" && input.value === me.avatar) || (input.name === "me-color" && Number(input.value) === me.color);
    }
  }
  return [
    h("form", { id: "me-form", novalidate: true, onsubmit: (ev) => {
      ev.preventDefault();
      acting(ctx, () => crewApi(crew, "/me", { method: "PATCH", body: JSON.stringify({ member: name.value.trim() || me.name, ...looksValue("me") }) }))();
    } },
    h("label", { class: "field", for: "my-name" }, h("span", {}, t("Your name"))), name, looks,
    h("p", {}, h("button", { type: "submit", class: "secondary" }, t("Save")))),
    h("div", { class: "row" },
      h("button", { type: "button", class: "secondary", id: "move-phone", onclick: link("move") }, t("Move to a new phone")),
      h("button", { type: "button", class: "secondary", id: "other-screen", onclick: link("screen") }, t("Open on another screen"))),
    h("div", { id: "phone-link" }),
    h("p", {}, h("button", { type: "button", class: "ghost", id: "leave-phone", onclick: acting(ctx, () => crewApi(crew, "/me", { method: "DELETE" }), () => {
      forgetMembership(crew);
      ctx.closedDoor(t("This phone has left the crew."));
    }) }, t("Take the crew off this phone"))),
  ];
}
