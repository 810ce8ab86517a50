// Home: open a table (rules, variants, tie-break, format, stakes, starter, language) or join one.
import { api, boot, currentLang, h, saveSeatToken } from "./common.js";

const $ = (id) => document.getElementById(id);
const OPTIONS = ["wild_captain", "half_cargo", "tie_break", "format", "stakes", "drinking", "starter"];
let presets = [];

function value(id) {
  const el = $(id);
  return el.type === "checkbox" ? el.checked : el.value;
}

function fillFromPreset() {
  const p = presets.find((x) => x.name === $("preset").value);
  if (!p) return;
  for (const k of OPTIONS) {
    const el = $(k);
    if (el.type === "checkbox") el.checked = !!p.options[k];
    else if ([...el.options].some((o) => o.value === String(p.options[k]))) el.value = String(p.options[k]);
  }
}

await boot();
presets = await api("/api/presets");
$("preset").replaceChildren(...presets.map((p) => h("option", { value: p.name }, p.name)));
fillFromPreset();
$("preset").addEventListener("change", fillFromPreset);

$("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const preset = presets.find((x) => x.name === $("preset").value);
  const settings = [];
  for (const k of OPTIONS) {
    const v = value(k);
    if (String(v) !== String(preset.options[k])) settings.push(`${k}=${v}`);
  }
  const timer = $("turn_timer").value ? Number($("turn_timer").value) : null;
  try {
    const res = await api("/api/rooms", { method: "POST", body: JSON.stringify({
      name: $("name").value, preset: preset.name, settings, lang: currentLang(),
      hints: $("hints").checked, turn_timer: timer, client_seed: $("client_seed").value }) });
    saveSeatToken(res.code, res.token);
    location.href = `/r/${res.code}`;
  } catch (e) {
    $("personal").textContent = e.message;
  }
});

$("join").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const code = $("code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (code) location.href = `/r/${code}`;
});
