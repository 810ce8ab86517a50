// The leaderboard: per-player statistics over finished matches.
import { api, boot, h, t } from "./common.js";

async function render() {
  const rows = await api("/api/stats/leaderboard");
  const num = (v) => h("td", { class: "num" }, String(v));
  document.getElementById("content").replaceChildren(h("div", { class: "scroll" }, h("table", { id: "leaderboard" },
    h("thead", {}, h("tr", {}, ["Name", "Matches", "Wins", "Average score", "Crews", "Chips won", "Sips"].map((c, i) =>
      h("th", { scope: "col", class: i ? "num" : "" }, t(c))))),
    h("tbody", {}, rows.map((r) => h("tr", {},
      h("th", { scope: "row", class: "break" }, r.name, r.kind !== "human" ? ` (${t("bot")})` : ""),
      num(r.matches), num(r.wins), num(r.average_score.toFixed(2)), num(r.crews), num(r.chips_won), num(r.sips)))))));
}

await boot(render);
render();
