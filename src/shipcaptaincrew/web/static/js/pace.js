// A slow table (played across a day): the create forms' choice of pace.  The bounds of the
// hours come from the server (its refusal names them if a page sends other ones); the pace is
// the request's turn_hours and late (web/play/slow.py).
import { h, t } from "./common.js";

const $ = (id) => document.getElementById(id);

/** The pace fields of a create form (``prefix`` keeps ids apart when a page has two forms):
 * live, or across the day with the hours to act and what happens when they run out.  Drawn
 * again (another language), they keep what was chosen. */
export function paceFields(prefix = "") {
  const keep = paceValue(prefix);
  const id = (name) => `${prefix}${name}`;
  const radio = (value, label, checked) => h("label", { class: "check" },
    h("input", { type: "radio", name: id("pace"), value, checked, "data-testid": `pace-${value}` }), h("span", {}, label));
  const hours = h("input", { type: "number", id: id("turn-hours"), min: 1, max: 48, value: keep.turn_hours || 12, inputmode: "numeric", "data-testid": "turn-hours" });
  const late = h("select", { id: id("late"), "data-testid": "late" },
    h("option", { value: "bot", selected: keep.late === "bot" }, t("A bot plays the turn")),
    h("option", { value: "skip", selected: keep.late === "skip" }, t("The turn is passed (dice rolled, first score kept)")));
  const slow = h("div", { class: "slow-fields", id: id("slow-fields"), hidden: !keep.turn_hours },
    h("label", { class: "field", for: id("turn-hours") }, h("span", {}, t("Hours to play a turn"))), hours,
    h("label", { class: "field", for: id("late") }, h("span", {}, t("When the time runs out"))), late);
  const box = h("fieldset", { class: "pace", id: id("pace-box") },
    h("legend", {}, t("Pace")),
    radio("live", t("Live: everyone plays now"), !keep.turn_hours),
    radio("day", t("Across the day: a turn whenever you have a moment"), !!keep.turn_hours),
    slow);
  box.addEventListener("change", () => { slow.hidden = !box.querySelector("input[value=day]").checked; });
  return box;
}

/** What the pace fields add to a create request: {} for a live table. */
export function paceValue(prefix = "") {
  const day = document.querySelector(`input[name=${prefix}pace][value=day]`);
  if (!day || !day.checked) return {};
  const hours = Number($(`${prefix}turn-hours`).value);
  return { turn_hours: Number.isFinite(hours) ? hours : null, late: $(`${prefix}late`).value };
}
