// Home: open a table or join one.  The create form is built from the server's option table
// (GET /api/options): every option, choice, bound, label and bot level comes from there, none
// is written here.  ?rules=CANONICAL-RULES-TEXT fills the form in.
import { api, boot, h, saveSeatToken, t } from "./common.js";
import { crewHome } from "./crewhome.js";
import { die } from "./dice.js";
import { looksPicker, looksValue } from "./looks.js";

const $ = (id) => document.getElementById(id);
let table = null;          // the option table from the server
let asked = new URLSearchParams(location.search).get("rules");

/** A JSON option value in the text form the rules use ("true", "none", "rounds:3"). */
function text(value) {
  if (value === null || value === undefined) return "none";
  return String(value);
}

function diceChoice() {
  const el = document.querySelector("input[name=dice]:checked");
  return el ? el.value : null;
}

function presetOf(name) { return table.presets.find((p) => p.name === name) || table.presets[0]; }
function chosenPreset() {
  const el = document.querySelector("input[name=preset]:checked");
  return presetOf(el ? el.value : table.presets[0].name);
}

// -- the controls -----------------------------------------------------------------------------
function control(o) {
  const id = `opt-${o.name}`;
  const help = o.help ? h("span", { class: "help", id: `${id}-help` }, o.help) : null;
  const described = o.help ? `${id}-help` : null;
  if (o.kind === "flag") {
    return h("label", { class: "check", for: id }, h("input", { type: "checkbox", id, "data-option": o.name, "aria-describedby": described }),
      h("span", {}, o.label, help));
  }
  const label = h("label", { class: "field-label", for: id }, o.label);
  if (o.kind === "choice") {
    return h("div", { class: "field" }, label,
      h("select", { id, "data-option": o.name, "aria-describedby": described }, o.choices.map((c) => h("option", { value: c.value }, c.label))), help);
  }
  if (o.kind === "format") {
    const n = h("input", { type: "number", id: `${id}-n`, inputmode: "numeric", "aria-label": t("Number") });
    const kind = h("select", { id, "data-option": o.name, "aria-describedby": described },
      table.formats.map((f) => h("option", { value: f.kind }, f.label)));
    kind.addEventListener("change", () => syncFormat(kind, n, true));
    return h("div", { class: "field" }, label, h("div", { class: "number-row" }, kind, n), help);
  }
  const [lo, hi] = o.bounds || [null, null];
  const input = h("input", { type: "number", id, "data-option": o.name, min: lo, max: hi, inputmode: "numeric", "aria-describedby": described });
  const none = o.unlimited ? h("input", { type: "checkbox", id: `${id}-none` }) : null;
  if (none) none.addEventListener("change", () => { input.disabled = none.checked; });
  return h("div", { class: "field" }, label, h("div", { class: "number-row" }, input,
    none ? h("label", { class: "check", for: `${id}-none` }, none, t("No limit")) : null), help);
}

function syncFormat(kind, n, fresh) {
  const spec = table.formats.find((f) => f.kind === kind.value);
  const takes = spec && spec.bounds;
  n.hidden = !takes;
  if (takes) {
    n.min = spec.bounds[0];
    n.max = spec.bounds[1];
    if (fresh || !n.value) n.value = spec.default_n ?? spec.bounds[0];
  }
}

function setValue(o, value) {
  const el = $(`opt-${o.name}`);
  if (!el) return;
  const v = text(value);
  if (o.kind === "flag") el.checked = v === "true";
  else if (o.kind === "choice") el.value = v;
  else if (o.kind === "format") {
    const [kind, n] = v.split(":");
    el.value = kind;
    const num = $(`opt-${o.name}-n`);
    syncFormat(el, num, true);
    if (n) num.value = n;
  } else {
    const none = $(`opt-${o.name}-none`);
    if (none) { none.checked = v === "none"; el.disabled = none.checked; }
    el.value = v === "none" ? "" : v;
  }
}

function getValue(o) {
  const el = $(`opt-${o.name}`);
  if (o.kind === "flag") return el.checked ? "true" : "false";
  if (o.kind === "choice") return el.value;
  if (o.kind === "format") {
    const n = $(`opt-${o.name}-n`);
    return n.hidden ? el.value : `${el.value}:${n.value}`;
  }
  const none = $(`opt-${o.name}-none`);
  if (none && none.checked) return "none";
  return el.value === "" ? text(o.default) : el.value;
}

/** The options that differ from the preset, as key=value settings. */
function settings() {
  const preset = chosenPreset();
  return table.options.filter((o) => getValue(o) !== text(o.name in preset.options ? preset.options[o.name] : o.default))
    .map((o) => `${o.name}=${getValue(o)}`);
}

function canonical() {
  const s = settings();
  return s.length ? `${chosenPreset().name}(${s.join(",")})` : chosenPreset().name;
}

/** The chosen preset's one sentence (which sheet it follows, and how). */
function describe() {
  $("preset-about").textContent = chosenPreset().description;
}

function applyPreset(preset) {
  if ($("preset-about")) describe();
  for (const o of table.options) setValue(o, o.name in preset.options ? preset.options[o.name] : o.default);
}

// -- building the form -------------------------------------------------------------------------
function build(keep) {
  $("presets").replaceChildren(h("legend", {}, t("Rules")), ...table.presets.map((p, i) => h("label", { class: "preset" },
    h("input", { type: "radio", name: "preset", value: p.name, checked: keep ? keep.preset === p.name : i === 0 }),
    h("span", {}, h("b", {}, p.title)))),
    h("p", { class: "preset-about", id: "preset-about", "aria-live": "polite" }));
  const groups = (table.groups || []).map((g) => h("fieldset", {}, h("legend", {}, g.label),
    table.options.filter((o) => o.group === g.group).map(control)));
  $("options").replaceChildren(...groups);
  // Fair dice rolled by the server, or real dice in a cup whose faces the players tap in.
  $("dice-choice").replaceChildren(...(table.dice && table.dice.length ? [h("fieldset", { class: "presets dice-choice" },
    h("legend", {}, t("Dice")),
    table.dice.map((d, i) => h("label", { class: "preset" },
      h("input", { type: "radio", name: "dice", value: d.value, checked: keep && keep.dice ? keep.dice === d.value : i === 0 }),
      h("span", {}, h("b", {}, d.label)))))] : []));
  const looks = looksPicker(table, "create");
  $("looks-box").replaceChildren(...(looks ? [looks] : []));
  if (keep && keep.looks) for (const [k, v] of Object.entries(keep.looks)) {
    const el = document.querySelector(`input[name="create-${k}"][value="${v}"]`);
    if (el) el.checked = true;
  }
  applyPreset(chosenPreset());
  if (keep) for (const o of table.options) if (o.name in keep.values) setValue(o, keep.values[o.name]);
  for (const r of document.querySelectorAll("input[name=preset]")) r.addEventListener("change", () => { applyPreset(chosenPreset()); preview(); });
  describe();
  $("options").addEventListener("change", preview);
  $("options").addEventListener("input", preview);
}

/** ?rules=preset(k=v,...): choose the preset, then set each option it names. */
function fillFrom(rules) {
  const m = /^\s*([\w-]+)\s*(?:\((.*)\))?\s*$/.exec(rules || "");
  if (!m) return;
  const preset = table.presets.find((p) => p.name === m[1]);
  if (!preset) return;
  document.querySelector(`input[name=preset][value="${preset.name}"]`).checked = true;
  applyPreset(preset);
  let changed = false;
  for (const part of (m[2] || "").split(",").filter(Boolean)) {
    const [k, ...rest] = part.split("=");
    const o = table.options.find((x) => x.name === k.trim());
    if (o) { setValue(o, rest.join("=").trim()); changed = true; }
  }
  if (changed) $("options-box").open = true;
}

let previewHandle = null;
let titleFor = "";
function preview() {
  clearTimeout(previewHandle);
  previewHandle = setTimeout(async () => {
    const rules = canonical();
    if (rules === titleFor) return;
    titleFor = rules;
    // The server says whether the options go together, in the page's language: its refusal
    // (for example an option that needs another one) stays beside the options until fixed.
    try {
      const r = await api(`/api/rules-text?rules=${encodeURIComponent(rules)}`);
      if (titleFor !== rules) return;
      $("rules-title").textContent = r.title;
      $("rules-problem").textContent = "";
      $("create-btn").removeAttribute("aria-describedby");
    } catch (e) {
      if (titleFor !== rules) return;
      $("options-box").open = true;  // the refusal is about the options: show them
      $("rules-problem").textContent = e.message;
      $("create-btn").setAttribute("aria-describedby", "rules-problem");
    }
  }, 150);
}

async function load() {
  const keep = table ? {
    preset: chosenPreset().name, dice: diceChoice(), looks: looksValue("create"),
    values: Object.fromEntries(table.options.map((o) => [o.name, getValue(o)])),
  } : null;
  try {
    table = await api("/api/options");
  } catch (e) {
    $("personal").textContent = e.message;
    return;
  }
  build(keep);
  crewHome($("crews-box"), table, (message) => { $("personal").textContent = message; });
  if (asked) { fillFrom(asked); asked = null; }
  titleFor = "";
  preview();
}

async function howToPlay() {
  const dialog = $("rules-dialog");
  $("rules-dialog-h").textContent = $("rules-title").textContent;
  $("rules-text").replaceChildren(h("p", {}, "…"));
  dialog.showModal();
  const { markdown } = await import("./md.js");  // only when asked: not part of the first load
  try {
    const r = await api(`/api/rules-text?rules=${encodeURIComponent(canonical())}`);
    $("rules-dialog-h").textContent = r.title;
    $("rules-text").replaceChildren(...markdown(r.markdown, { skipTitle: true }));
  } catch (e) { $("rules-text").replaceChildren(h("p", {}, e.message)); }
}

function need(input) {
  const ok = input.value.trim() !== "";
  if (ok) input.removeAttribute("aria-invalid");
  else { input.setAttribute("aria-invalid", "true"); input.focus(); }
  return ok;
}

$("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("personal").textContent = "";
  if (!need($("name"))) { $("personal").textContent = t("Please type your name first."); return; }
  const timer = $("turn_timer").value ? Number($("turn_timer").value) : null;
  const body = { name: $("name").value.trim(), preset: chosenPreset().name, settings: settings(), lang: document.documentElement.lang,
    hints: $("hints").checked, publish: $("publish").checked, turn_timer: timer, client_seed: $("client_seed").value, ...looksValue("create") };
  if (diceChoice()) body.dice = diceChoice();
  $("create-btn").disabled = true;
  try {
    const res = await api("/api/rooms", { method: "POST", body: JSON.stringify(body) });
    saveSeatToken(res.code, res.token);
    location.href = `/r/${res.code}`;
  } catch (e) {
    $("personal").textContent = e.message;
    if (e.code === "bad_rules") { $("options-box").open = true; $("rules-problem").textContent = e.message; }
    $("create-btn").disabled = false;
  }
});

$("join").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("personal").textContent = "";
  const code = $("code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (!need($("code"))) { $("personal").textContent = t("Type the table's join code."); return; }
  const name = $("join-name").value.trim();
  if (name) {
    try {
      const res = await api(`/api/rooms/${code}/join`, { method: "POST", body: JSON.stringify({ name }) });
      saveSeatToken(code, res.token);
    } catch (e) {
      // A table under way or over still opens: to watch, or to see how it ended.
      if (e.status === 404 || e.status === 0 || e.status === 422) { $("personal").textContent = e.message; return; }
    }
  }
  location.href = `/r/${code}`;
});

// Ship, captain and crew on the doorstep: the three dice the game is about (decoration).
$("hero-dice").replaceChildren(...[6, 5, 4].map((f) => die(f, { ghost: true })));
$("how-to-play").addEventListener("click", howToPlay);
// On a phone the create form is long: the link at the top goes to the join form, ready to type.
$("jump-join").querySelector("a").addEventListener("click", (ev) => {
  ev.preventDefault();
  $("join").scrollIntoView({ behavior: "smooth", block: "start" });
  $("code").focus({ preventScroll: true });
});
$("rules-close").addEventListener("click", () => $("rules-dialog").close());
await boot(load);
load();
