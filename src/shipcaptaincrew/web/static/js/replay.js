// Replay viewer: step through a finished match, event by event, with the table after each.
import { api, boot, codeFromPath, h, rulesTitle, t } from "./common.js";
import { felt, contestFelt, playerCards, roundsTable, stageText, statusText } from "./table.js";

const code = codeFromPath();
let data = null;
let step = 0;

function draw(focus = null) {
  const s = data.steps[step];
  const players = data.players.map((name, seat) => ({ name, seat }));
  const last = data.steps.length - 1;
  const label = t("Step {n} of {total}", { n: step, total: last });
  const range = h("input", { type: "range", id: "step", min: 0, max: last, value: step, "aria-label": label });
  range.addEventListener("input", () => { step = +range.value; draw("step"); });
  const prev = h("button", { type: "button", id: "prev", class: "secondary", disabled: step === 0,
    onclick: () => { step -= 1; draw(step === 0 ? "next" : "prev"); } }, t("Previous"));
  const next = h("button", { type: "button", id: "next", disabled: step === last,
    onclick: () => { step += 1; draw(step === last ? "prev" : "next"); } }, t("Next"));
  const board = s.match.turn ? felt(s.match, players).el : contestFelt(s.match, players, {});
  document.getElementById("content").replaceChildren(
    h("p", { class: "muted" }, data.title || data.rules, " · ", h("span", { class: "tag" }, data.code)),
    h("div", { class: "row replay-controls" }, prev, next, range, h("span", { id: "step-label" }, label)),
    h("section", { class: "panel" },
      h("p", { class: "muted" }, stageText(s.match, data.options)),
      h("h2", { class: "status" }, statusText(s.match, players, null)),
      h("ul", { id: "step-lines" }, s.lines.map((l) => h("li", {}, l))),
      board),
    h("section", { class: "panel" }, playerCards(s.match, players, null, { pot: s.match.chips.some((c) => c > 0) })),
    ...(s.match.over ? [h("section", { class: "panel" }, roundsTable(s.match, players))] : []));
  document.getElementById("announce").textContent = s.lines.join(" ");
  if (focus) document.getElementById(focus).focus();
}

async function load() {
  try { data = await api(`/api/matches/${encodeURIComponent(code)}/replay`); }
  catch (e) { document.getElementById("personal").textContent = e.message; return; }
  data.title = data.title || await rulesTitle(data.rules);
  step = Math.min(step, data.steps.length - 1);
  draw();
}

await boot(load);
load();
