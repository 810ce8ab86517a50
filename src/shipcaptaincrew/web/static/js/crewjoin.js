// A crew's table in its lobby: a phone that belongs to the crew takes its seat as the member
// it is (the crew's name and look for it), in one tap.  The lobby asks the server, with each
// of this phone's member keys, whether the table is that crew's (a phone of no crew asks
// nothing and learns nothing).  One box per table, drawn in place as the lobby redraws.
import { api, h, saveSeatToken, t } from "./common.js";
import { crewApi, memberships } from "./crewkeys.js";

const boxes = new Map();   // table code -> the box (asked once per table)

/** The "Join as NAME" button for a table of one of this phone's crews, or an empty box. */
export function crewSeat(code, ctx) {
  let box = boxes.get(code);
  if (box) return box;
  box = h("div", { id: "crew-seat" });
  boxes.set(code, box);
  (async () => {
    for (const m of memberships()) {
      let me;
      try { me = await crewApi(m.crew, `/rooms/${encodeURIComponent(code)}`); } catch (e) { continue; }
      const join = h("button", { type: "button", class: "big", "data-testid": "join-as-member", onclick: async () => {
        join.disabled = true;
        try {
          const res = await api(`/api/rooms/${code}/join`, { method: "POST", body: "{}", headers: { "X-Member-Key": m.key } });
          saveSeatToken(code, res.token);
          ctx.reconnect();
        } catch (e) { ctx.personal(e.message); join.disabled = false; }
      } }, t("Join as {name}", { name: me.name }));
      box.replaceChildren(h("section", { class: "panel", "aria-labelledby": "crew-seat-h" },
        h("h2", { id: "crew-seat-h" }, t("A table of your crew {name}", { name: m.name || t("Crew") })), h("p", {}, join)));
      return;
    }
  })();
  return box;
}
