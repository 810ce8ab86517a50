// The leaderboard: per-player statistics over finished matches; bots show their level.
import { api, boot, h, num, t } from "./common.js";

async function render() {
  let rows, options;
  try {
    [rows, options] = await Promise.all([api("/api/stats/leaderboard"), api("/api/options").catch(() => ({ bots: [] }))]);
  } catch (e) { document.getElementById("personal").textContent = e.message; return; }
  const levels = Object.fromEntries((options.bots || []).map((b) => [b.level, b.label]));
  const cols = ["Matches", "Wins", "Average score", "Crews", "Chips won", "Sips"];
  const cell = (c, v) => h("td", { class: "num", "data-label": t(c) }, v);
  const who = (r) => {
    if (r.kind === "human" || r.kind === "person") return [r.name];
    const level = r.level_label || levels[r.kind] || r.kind;
    return [r.name, " ", h("span", { class: "tag" }, `${t("bot")}: ${level}`)];
  };
  document.getElementById("content").replaceChildren(rows.length ? h("table", { id: "leaderboard", class: "fit" },
    h("caption", { class: "sr-only" }, t("Leaderboard")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Name")), cols.map((c) => h("th", { scope: "col", class: "num" }, t(c))))),
    h("tbody", {}, rows.map((r) => h("tr", {},
      h("th", { scope: "row", class: "break" }, ...who(r)),
      cell("Matches", num(r.matches)), cell("Wins", num(r.wins)), cell("Average score", num(r.average_score, 2)),
      cell("Crews", num(r.crews)), cell("Chips won", num(r.chips_won)), cell("Sips", num(r.sips))))))
    : h("div", { id: "leaderboard" }, h("p", {}, t("No finished matches yet.")), h("p", { class: "muted" }, t("Only tables that chose to show their result are listed here."))));
}

await boot(render);
render();
