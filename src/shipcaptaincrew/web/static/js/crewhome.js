// The home page's crews: the crews this phone belongs to, and starting a new one (its name,
// your name and look).  A crew is private: its page is for its members, who join by the
// invite a member shows.
import { api, h, t } from "./common.js";
import { keepMembership, memberships } from "./crewkeys.js";
import { looksPicker, looksValue } from "./looks.js";

/** The "Your crews" list and the "Start a crew" form, drawn into ``box`` (again on a language
 * change: ``options`` gives the looks to choose from). */
export function crewHome(box, options, fail) {
  const mine = memberships();
  const crewName = h("input", { id: "crew-name", name: "crew", class: "name-input", required: true, maxlength: 32, autocomplete: "off" });
  const member = h("input", { id: "crew-member", name: "member", class: "name-input", required: true, maxlength: 32, autocomplete: "nickname" });
  const form = h("form", { class: "panel", id: "start-crew", "data-testid": "start-crew", "aria-labelledby": "start-crew-h", novalidate: true },
    h("h2", { id: "start-crew-h" }, t("Start a crew")),
    h("p", { class: "muted" }, t("The same friends every week: a season of your own, with ratings, records and who beats whom. Only members see it.")),
    h("label", { class: "field", for: "crew-name" }, h("span", {}, t("The crew's name"))), crewName,
    h("label", { class: "field", for: "crew-member" }, h("span", {}, t("Your name"))), member,
    looksPicker(options, "crew"),
    h("p", {}, h("button", { type: "submit", class: "big" }, t("Start a crew"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    for (const input of [crewName, member]) {
      if (!input.value.trim()) { input.setAttribute("aria-invalid", "true"); input.focus(); fail(t("Please fill in both names.")); return; }
      input.removeAttribute("aria-invalid");
    }
    try {
      const res = await api("/api/crews", { method: "POST", body: JSON.stringify({ name: crewName.value.trim(), member: member.value.trim(), ...looksValue("crew") }) });
      keepMembership({ crew: res.crew, key: res.member_key, member: res.member, name: crewName.value.trim() });
      location.href = `/c/${encodeURIComponent(res.crew)}`;
    } catch (e) { fail(e.message); }
  });
  box.replaceChildren(...(mine.length ? [h("section", { class: "panel", id: "my-crews", "aria-labelledby": "my-crews-h" },
    h("h2", { id: "my-crews-h" }, t("Your crews")),
    h("ul", { class: "plain" }, mine.map((m) => h("li", {}, h("a", { href: `/c/${encodeURIComponent(m.crew)}` }, m.name || t("Crew"))))))] : []), form);
}
