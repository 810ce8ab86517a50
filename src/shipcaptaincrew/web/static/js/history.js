// Finished matches, newest first: when, which rules (by their human name), who played and
// who won, with the replay and the dice check.  A card per match on a phone.
import { api, boot, dateTime, h, rulesTitle, t } from "./common.js";

async function render() {
  const el = document.getElementById("content");
  let rows;
  try { rows = await api("/api/matches"); } catch (e) { document.getElementById("personal").textContent = e.message; return; }
  if (!rows.length) { el.replaceChildren(h("p", {}, t("No finished matches yet.")), h("p", { class: "muted" }, t("Only tables that chose to show their result are listed here."))); return; }
  const names = new Map(await Promise.all([...new Set(rows.map((r) => r.rules))].map(async (r) => [r, await rulesTitle(r)])));
  el.replaceChildren(h("table", { class: "fit", id: "matches" },
    h("caption", { class: "sr-only" }, t("Finished matches")),
    h("thead", {}, h("tr", {}, ["When", "Rules", "Players", "Winner", "Replay"].map((c) => h("th", { scope: "col" }, t(c))))),
    h("tbody", {}, rows.map((r) => h("tr", {},
      h("th", { scope: "row" }, h("time", { datetime: r.finished_at || "" }, dateTime(r.finished_at)), " ", h("span", { class: "tag" }, r.code)),
      h("td", { "data-label": t("Rules"), class: "break" }, r.title || names.get(r.rules)),
      h("td", { "data-label": t("Players"), class: "break" }, r.players.join(", ")),
      h("td", { "data-label": t("Winner"), class: "break" }, r.winner ?? "–"),
      h("td", {}, h("span", { class: "row" }, h("a", { href: `/replay/${r.code}` }, t("Replay")),
        h("a", { href: `/verify/${r.code}` }, t("Verify the dice")))))))));
}

await boot(render);
render();
