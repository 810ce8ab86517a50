// The home page's "Your tables": every unfinished table this phone has a seat at (the seat
// tokens it keeps, and a crew member's seats by their keys), in the server's order (the slow
// tables waiting for you first), each with whose turn it is and how long is left
// (POST /api/my-tables: the tokens go in the body, never in a URL).
import { api, h, t } from "./common.js";
import { memberships } from "./crewkeys.js";
import { hoursLeft } from "./slow.js";

const PREFIX = "scc:seat:";

function tokens() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) out.push(localStorage.getItem(key));
    }
  } catch (e) { /* no storage: no list */ }
  return out.filter(Boolean).slice(-50);
}

function line(table) {
  const whose = table.status === "lobby" ? t("Waiting to start")
    : table.yours ? t("Your turn") : table.actor_name ? t("{name} to play", { name: table.actor_name }) : "";
  const left = table.left_seconds !== null && table.left_seconds !== undefined ? t("{time} left", { time: hoursLeft(table.left_seconds) }) : null;
  return h("li", { class: table.yours ? "mine yours" : "mine", "data-testid": "my-table", "data-code": table.code },
    h("a", { href: `/r/${table.code}` },
      h("span", { class: "grow" }, h("b", {}, table.title), " · ", h("span", { class: "code" }, table.code),
        h("br"), h("span", { class: "muted" }, table.players.join(", "))),
      h("span", { class: "mine-turn" }, h("span", { class: table.yours ? "tag yours" : "tag" }, whose),
        left ? h("span", { class: "muted" }, " ", left) : null)));
}

/** Draw the list into ``box`` (hidden when this phone sits at no unfinished table). */
export async function myTables(box) {
  if (!box) return;
  const mine = tokens();
  const keys = memberships().map((m) => m.key).filter(Boolean);
  if (!mine.length && !keys.length) { box.hidden = true; return; }
  let tables;
  try {
    tables = (await api("/api/my-tables", { method: "POST", body: JSON.stringify({ tokens: mine, member_keys: keys.slice(0, 10) }) })).tables;
  } catch (e) { box.hidden = true; return; }
  box.hidden = !tables.length;
  box.replaceChildren(...(tables.length ? [h("section", { class: "panel", id: "my-tables", "aria-labelledby": "my-tables-h" },
    h("h2", { id: "my-tables-h" }, t("Your tables")),
    h("ul", { class: "plain mine-list" }, tables.map(line)))] : []));
}
