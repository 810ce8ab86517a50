// Replay viewer: step through a finished match, event by event, with the table after each.
import { api, boot, codeFromPath, currentLang, h, t } from "./common.js";
import { diceArea, roundsTable, scoreboard, stageText, statusText } from "./table.js";

const code = codeFromPath();
let data = null;
let step = 0;

function draw() {
  const s = data.steps[step];
  const players = data.players.map((name, seat) => ({ name, seat }));
  const last = data.steps.length - 1;
  const range = h("input", { type: "range", id: "step", min: 0, max: last, value: step,
    "aria-label": t("Step {n} of {total}", { n: step, total: last }) });
  range.addEventListener("input", () => { step = +range.value; draw(); document.getElementById("step").focus(); });
  const prev = h("button", { type: "button", id: "prev", class: "secondary", disabled: step === 0,
    onclick: () => { step -= 1; draw(); document.getElementById(step === 0 ? "next" : "prev").focus(); } }, t("Previous"));
  const next = h("button", { type: "button", id: "next", disabled: step === last,
    onclick: () => { step += 1; draw(); document.getElementById(step === last ? "prev" : "next").focus(); } }, t("Next"));
  document.getElementById("content").replaceChildren(
    h("p", { class: "muted" }, `${data.code} · ${data.rules}`),
    h("div", { class: "row" }, prev, next, range, h("span", { id: "step-label" }, t("Step {n} of {total}", { n: step, total: last }))),
    h("section", { class: "panel" },
      h("p", { class: "muted" }, stageText(s.match)),
      h("h2", { class: "status" }, statusText(s.match, players, null)),
      h("ul", { id: "step-lines" }, s.lines.map((l) => h("li", {}, l))),
      diceArea(s.match, players)),
    h("section", { class: "panel" }, scoreboard(s.match, players, null, s.match.chips.some((c) => c > 0))),
    ...(s.match.over ? [h("section", { class: "panel" }, roundsTable(s.match, players))] : []));
  document.getElementById("announce").textContent = s.lines.join(" ");
}

async function load() {
  try { data = await api(`/api/matches/${encodeURIComponent(code)}/replay?lang=${currentLang()}`); }
  catch (e) { document.getElementById("personal").textContent = e.message; return; }
  step = Math.min(step, data.steps.length - 1);
  draw();
}

await boot(load);
load();
