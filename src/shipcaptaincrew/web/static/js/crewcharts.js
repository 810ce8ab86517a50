// The crew page's pictures, drawn here as SVG from the crew's answer (no chart library): each
// member's rating over the season with its uncertainty band, each member's scores, and the
// head-to-head grid.  Small multiples (one small picture per member, on one scale) read on a
// 360 px phone and on a table screen alike; every picture names what it shows in words for a
// screen reader, and the numbers are in the tables beside them.
import { h, num, svg, t } from "./common.js";

const W = 300;          // every picture's drawing width (it scales to its box)

/** Set an element's colours through its style object (the page's policy refuses style
 * attributes, not styles set by a script). */
export function paint(el, props) {
  for (const [k, v] of Object.entries(props)) el.style[k] = v;
  return el;
}

/** A member's colour: the palette's, by the look they chose (else by their place). */
export function memberColor(member, i) {
  const c = member && member.color !== null && member.color !== undefined ? member.color : i;
  return `var(--p${c % 8})`;
}

/** The evening's day, short ("7 Nov"). */
export function day(iso) {
  return new Intl.DateTimeFormat(document.documentElement.lang || "en", { day: "numeric", month: "short" }).format(new Date(iso));
}

/** Each member's rating after every evening: mu as a line, mu ± sigma as a band, on one
 * scale for everyone (so two pictures compare at a glance); the season starts at OpenSkill's
 * first rating, drawn at the left. */
export function ratingCharts(body) {
  const members = body.members;
  const evenings = body.evenings;
  const first = { mu: 25, sigma: 25 / 3 };
  const rows = body.ratings.filter((r) => r.history.length);
  if (!rows.length) return h("p", { class: "muted" }, t("No matches this season yet."));
  let lo = first.mu - first.sigma;
  let hi = first.mu + first.sigma;
  for (const r of rows) for (const [, mu, s] of r.history) { lo = Math.min(lo, mu - s); hi = Math.max(hi, mu + s); }
  const H = 90;
  const n = Math.max(1, evenings.length);
  const x = (e) => 8 + ((e + 1) / n) * (W - 16);
  const y = (v) => 6 + (1 - (v - lo) / (hi - lo || 1)) * (H - 12);
  return h("div", { class: "multiples", id: "rating-charts" }, rows.map((r) => {
    const i = members.findIndex((m) => m.id === r.member);
    const pts = [[-1, first.mu, first.sigma], ...r.history];
    const upper = pts.map(([e, mu, s]) => `${x(e).toFixed(1)},${y(mu + s).toFixed(1)}`);
    const lower = pts.map(([e, mu, s]) => `${x(e).toFixed(1)},${y(mu - s).toFixed(1)}`).reverse();
    const line = pts.map(([e, mu]) => `${x(e).toFixed(1)},${y(mu).toFixed(1)}`).join(" ");
    const color = memberColor(members[i], i);
    const label = t("Rating of {name} over the season: from {start} to {end}, give or take {sigma}.",
      { name: r.name, start: num(first.mu, 1), end: num(r.mu, 1), sigma: num(r.sigma, 1) });
    return h("figure", { class: "chart", "data-member": r.member },
      h("figcaption", {}, h("b", {}, r.name), " ", h("span", { class: "muted" }, `${num(r.mu, 1)} ± ${num(r.sigma, 1)}`)),
      svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, preserveAspectRatio: "none" },
        svg("line", { x1: 0, x2: W, y1: y(first.mu), y2: y(first.mu), class: "axis" }),
        paint(svg("polygon", { points: [...upper, ...lower].join(" "), class: "band" }), { fill: color }),
        paint(svg("polyline", { points: line, class: "trend" }), { stroke: color }),
        paint(svg("circle", { cx: x(pts[pts.length - 1][0]), cy: y(r.mu), r: 3.5 }), { fill: color })),
      h("p", { class: "axis-note muted", "aria-hidden": "true" },
        h("span", {}, t("start")), h("span", {}, evenings.length ? day(evenings[evenings.length - 1].date) : "")));
  }));
}

/** Each member's turn scores over the season: how many turns ended on each score (0: the
 * crew was not completed), bars on one scale of shares. */
export function scoreCharts(body) {
  const byMember = new Map(body.scores.map((s) => [s.member, s.counts]));
  const keys = [...new Set(body.scores.flatMap((s) => Object.keys(s.counts)))].map(Number).sort((a, b) => a - b);
  const members = body.members.filter((m) => byMember.has(m.id));
  if (!members.length) return h("p", { class: "muted" }, t("No matches this season yet."));
  const H = 100;
  const top = 16;
  const bottom = 18;
  const share = (counts, k) => (counts[k] || 0) / Object.values(counts).reduce((a, b) => a + b, 0);
  const most = Math.max(...members.map((m) => Math.max(...keys.map((k) => share(byMember.get(m.id), k)))));
  const step = (W - 8) / keys.length;
  return h("div", { class: "multiples", id: "score-charts" }, members.map((m) => {
    const i = body.members.indexOf(m);
    const counts = byMember.get(m.id);
    const turns = Object.values(counts).reduce((a, b) => a + b, 0);
    const parts = keys.filter((k) => counts[k]).map((k) => t("{score}: {n}", { score: k, n: counts[k] }));
    const label = t("Scores of {name}, turns per score: {list}", { name: m.name, list: parts.join(", ") });
    return h("figure", { class: "chart", "data-member": m.id },
      h("figcaption", {}, h("b", {}, m.name), " ", h("span", { class: "muted" }, t("Turns: {n}", { n: num(turns) }))),
      svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label },
        keys.map((k, j) => {
          const v = share(counts, k) / (most || 1);
          const bh = v * (H - top - bottom);
          return svg("g", {},
            paint(svg("rect", { x: 4 + j * step + 2, y: H - bottom - bh, width: step - 4, height: Math.max(bh, counts[k] ? 1 : 0) }), { fill: memberColor(m, i) }),
            counts[k] ? svg("text", { x: 4 + j * step + step / 2, y: H - bottom - bh - 3, class: "count" }, String(counts[k])) : null,
            svg("text", { x: 4 + j * step + step / 2, y: H - 4, class: "tick" }, String(k)));
        })));
  }));
}

/** The head-to-head grid: for each two members who met, how often the row's member placed
 * ahead of the column's, and behind ("3–1"); the cell leans green when ahead more often. */
export function headToHead(body) {
  const members = body.members;
  const pairs = new Map();
  for (const p of body.head_to_head) {
    pairs.set(`${p.a}|${p.b}`, [p.a_ahead, p.b_ahead, p.matches]);
    pairs.set(`${p.b}|${p.a}`, [p.b_ahead, p.a_ahead, p.matches]);
  }
  if (!body.head_to_head.length) return h("p", { class: "muted" }, t("Nobody has met yet this season."));
  const short = (m) => `${m.avatar || ""}${m.name.slice(0, 3)}`;
  return h("div", { class: "grid-wrap" }, h("table", { class: "h2h", id: "h2h" },
    h("caption", { class: "sr-only" }, t("Head-to-head: how often the row's player finished ahead of the column's, and behind")),
    h("thead", {}, h("tr", {}, h("td", {}), members.map((m) => h("th", { scope: "col", title: m.name }, h("span", { "aria-hidden": "true" }, short(m)), h("span", { class: "sr-only" }, m.name))))),
    h("tbody", {}, members.map((a) => h("tr", {},
      h("th", { scope: "row" }, a.name),
      members.map((b) => {
        if (a.id === b.id) return h("td", { class: "self", "aria-label": t("the same player") }, "·");
        const p = pairs.get(`${a.id}|${b.id}`);
        if (!p) return h("td", { class: "none", "aria-label": t("never met") }, "");
        const lean = p[0] > p[1] ? "ahead" : p[0] < p[1] ? "behind" : "even";
        return h("td", { class: lean, "data-a": a.id, "data-b": b.id, "aria-label": t("{a} ahead {x} times, {b} ahead {y} times, of {n}", { a: a.name, b: b.name, x: p[0], y: p[1], n: p[2] }) },
          `${p[0]}–${p[1]}`);
      }))))));
}
