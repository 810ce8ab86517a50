// The crew page's tables and lists, from the crew's answer: the ratings with each member's
// form, the records, luck and skill with the costliest choices, and the evenings.
import { h, num, percent, t } from "./common.js";
import { day, memberColor, paint } from "./crewcharts.js";
import { actionLabel } from "./table.js";

/** What each record is called (the server's kinds: web/crews/records.py). */
const RECORD_LABELS = () => ({
  twelves: t("Most 12s in an evening"),
  crews: t("Most crews completed in an evening"),
  streak: t("Longest winning run"),
  comeback: t("Best comeback (won from the lowest chance)"),
  comeback_points: t("Best comeback (won from the most points behind)"),
  sips_drunk: t("Most sips drunk in an evening"),
  sips_out: t("Most sips handed out in an evening"),
  pot: t("Biggest pot"),
});
const points = (x) => num(100 * x, 1);

function who(m, i) {
  return h("span", { class: "who" }, paint(h("span", { class: "dot", "aria-hidden": "true" }, m ? m.avatar || "" : ""), { background: memberColor(m, i) }), " ", m ? m.name : "?");
}

/** The ratings, best first (by the rating one can be sure of: mu - 3 sigma), each member's
 * form beside: the last matches, a filled mark for a win. */
export function ratings(body, options) {
  const members = new Map(body.members.map((m, i) => [m.id, [m, i]]));
  const form = new Map(body.form.map((f) => [f.member, f.matches]));
  const formView = (id) => {
    const rows = form.get(id) || [];
    if (!rows.length) return "–";
    return h("span", { class: "form", "aria-label": t("Last matches: {list}", { list: rows.map((r) => `${r.place}/${r.of}`).join(", ") }) },
      rows.map((r) => h("span", { class: r.won ? "won" : "lost", title: `${day(r.date)} ${r.place}/${r.of}` }, String(r.place))));
  };
  const levels = Object.fromEntries(((options && options.bots) || []).map((b) => [b.level, b.label]));
  const others = body.others.map((o) => ({ ...o, name: o.kind === "bot" ? levels[o.level] || o.level : o.name,
    label: o.kind === "bot" ? t("bot") : o.kind === "guest" ? t("guest") : t("former member") }));
  return h("table", { class: "fit", id: "ratings-table" },
    h("caption", { class: "sr-only" }, t("Ratings")),
    h("thead", {}, h("tr", {}, ["Name", "Rating", "Strength ± uncertainty", "Matches", "Wins", "Form"].map((c) => h("th", { scope: "col", class: c === "Name" || c === "Form" ? "" : "num" }, t(c))))),
    h("tbody", {},
      body.ratings.map((r) => {
        const [m, i] = members.get(r.member) || [null, 0];
        return h("tr", { "data-member": r.member },
          h("th", { scope: "row" }, who(m, i)),
          h("td", { class: "num", "data-label": t("Rating") }, h("b", {}, num(r.ordinal, 1))),
          h("td", { class: "num", "data-label": t("Strength ± uncertainty") }, `${num(r.mu, 1)} ± ${num(r.sigma, 1)}`),
          h("td", { class: "num", "data-label": t("Matches") }, num(r.matches)),
          h("td", { class: "num", "data-label": t("Wins") }, num(r.wins)),
          h("td", { "data-label": t("Form") }, formView(r.member)));
      }),
      others.map((o) => h("tr", { class: "other", "data-key": o.key },
        h("th", { scope: "row" }, o.name, " ", h("span", { class: "tag" }, o.label)),
        h("td", { class: "num", "data-label": t("Rating") }, num(o.ordinal, 1)),
        h("td", { class: "num", "data-label": t("Strength ± uncertainty") }, `${num(o.mu, 1)} ± ${num(o.sigma, 1)}`),
        h("td", { class: "num", "data-label": t("Matches") }, num(o.matches)),
        h("td", { class: "num", "data-label": t("Wins") }, num(o.wins)),
        h("td", { "data-label": t("Form") }, "–")))));
}

/** The season's records, each with who holds it and when. */
export function records(body) {
  const labels = RECORD_LABELS();
  return h("ul", { class: "records", id: "records-list" }, body.records.map((r) => {
    const value = r.value === null ? "–" : r.record === "comeback" ? percent(r.value) : num(r.value);
    return h("li", { "data-record": r.record },
      h("span", { class: "what" }, labels[r.record] || r.record),
      h("b", { class: "value" }, value),
      h("span", { class: "by muted" }, r.value === null ? t("not set yet") : `${r.name} · ${day(r.date)}${r.code ? ` · ${r.code}` : ""}`));
  }));
}

/** Luck and skill per member for the season, the costliest choices, and what was not
 * judged (where the solver does not reach a table, no number is made up). */
export function quality(body) {
  const members = new Map(body.members.map((m, i) => [m.id, [m, i]]));
  const rows = body.quality.members;
  const unjudged = rows.reduce((a, q) => a + q.unjudged, 0);
  const most = Math.max(0.0001, ...rows.map((q) => Math.max(Math.abs(q.luck), Math.abs(q.skill))));
  const bar = (v, cls) => h("span", { class: `qbar ${cls}`, "aria-hidden": "true" },
    paint(h("span"), { width: `${(50 * Math.abs(v)) / most}%`, [v < 0 ? "right" : "left"]: "50%" }));
  const parts = [
    h("p", { class: "muted" }, t("Skill: the chance to win given away by your choices (0 is the solver's best). Luck: what your dice gave or took. In percentage points.")),
    rows.length ? h("table", { class: "fit", id: "quality-table" },
      h("caption", { class: "sr-only" }, t("Luck and skill")),
      h("thead", {}, h("tr", {}, ["Name", "Skill", "Luck", "Choices judged"].map((c) => h("th", { scope: "col", class: c === "Name" ? "" : "num" }, t(c))))),
      h("tbody", {}, rows.map((q) => {
        const [m, i] = members.get(q.member) || [null, 0];
        return h("tr", { "data-member": q.member },
          h("th", { scope: "row" }, who(m, i)),
          h("td", { class: "num", "data-label": t("Skill") }, bar(q.skill, "skill"), h("span", { "data-testid": "skill" }, points(q.skill))),
          h("td", { class: "num", "data-label": t("Luck") }, bar(q.luck, "luck"), h("span", { "data-testid": "luck" }, points(q.luck))),
          h("td", { class: "num", "data-label": t("Choices judged") }, num(q.judged)));
      }))) : h("p", { class: "muted" }, t("No matches this season yet.")),
  ];
  if (unjudged) parts.push(h("p", { class: "note", id: "unjudged" }, t("Choices not judged: {n}. The solver has no exact chance for those tables (too many players for a match of several rounds), so they count for neither skill nor luck.", { n: num(unjudged) })));
  if (body.quality.worst.length) {
    parts.push(h("h3", {}, t("The costliest choices")), h("ol", { class: "worst", id: "worst" }, body.quality.worst.map((w) => h("li", { "data-code": w.code, "data-event": w.event },
      h("b", {}, w.name), ` · ${day(w.date)} · `, h("a", { href: `/replay/${w.code}` }, w.code), h("br"),
      t("{taken} ({chance}) where {best} gave {best_chance}", { taken: actionLabel(w.action, null, []), chance: percent(w.chance), best: actionLabel(w.best, null, []), best_chance: percent(w.best_chance) })))));
  }
  return parts;
}

/** The season's evenings, newest first: each match's winner and its replay, and each
 * member's luck and skill that evening. */
export function evenings(body) {
  if (!body.evenings.length) return h("p", { class: "muted" }, t("No matches this season yet."));
  const names = new Map(body.members.map((m) => [m.id, m.name]));
  return h("ol", { class: "evenings", id: "evenings-list", reversed: true }, [...body.evenings].reverse().map((e) => h("li", { "data-evening": e.index },
    h("h3", {}, day(e.date), " ", h("span", { class: "muted" }, t("Matches: {n}", { n: e.matches.length }))),
    h("ul", { class: "plain" }, e.matches.map((code, i) => h("li", {}, e.winners[i] ? t("{name} won", { name: e.winners[i] }) : t("No winner."), " · ", h("a", { href: `/replay/${code}`, "aria-label": t("Replay {code}", { code }) }, code)))),
    e.quality.length ? h("p", { class: "muted" }, e.quality.map((q) => t("{name}: skill {skill}, luck {luck}", { name: names.get(q.member) || "?", skill: points(q.skill), luck: points(q.luck) })).join(" · ")) : null)));
}
