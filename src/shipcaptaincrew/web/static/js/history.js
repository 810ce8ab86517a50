// Finished matches, newest first, with their replay and verification.
import { api, boot, h, t } from "./common.js";

async function render() {
  const rows = await api("/api/matches");
  const el = document.getElementById("content");
  if (!rows.length) { el.replaceChildren(h("p", {}, t("No finished matches yet."))); return; }
  el.replaceChildren(h("div", { class: "scroll" }, h("table", {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Table")), h("th", { scope: "col" }, t("Players")),
      h("th", { scope: "col" }, t("Winner")), h("th", { scope: "col" }, t("Replay")), h("th", { scope: "col" }, t("Fair dice")))),
    h("tbody", {}, rows.map((r) => h("tr", {},
      h("th", { scope: "row" }, h("span", { class: "code" }, r.code), h("br"), h("span", { class: "muted" }, r.rules)),
      h("td", { class: "break" }, r.players.join(", ")),
      h("td", { class: "break" }, r.winner ?? "–"),
      h("td", {}, h("a", { href: `/replay/${r.code}` }, t("Replay"))),
      h("td", {}, h("a", { href: `/verify/${r.code}` }, t("Verify the dice")))))))));
}

await boot(render);
render();
