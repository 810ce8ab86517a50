// A player's look: an emoji avatar and a colour, both from the server's fixed sets (sent with
// the option table); optional: without a choice the server gives one by seat.
import { h, t } from "./common.js";

/** The picker: a row of emoji and a row of colour swatches, radio groups by keyboard too. */
export function looksPicker(options, prefix) {
  const avatars = (options && options.avatars) || [];
  const colors = (options && options.colors) || 0;
  if (!avatars.length && !colors) return null;
  const radio = (name, value, label, face, cls) => h("label", { class: `look ${cls}` },
    h("input", { type: "radio", name: `${prefix}-${name}`, value, "aria-label": label }),
    h("span", { "aria-hidden": "true" }, face));
  return h("fieldset", { class: "looks", id: `${prefix}-looks` },
    h("legend", {}, t("Your look (optional)")),
    avatars.length ? h("div", { class: "look-row", role: "radiogroup", "aria-label": t("Avatar") },
      avatars.map((a) => radio("avatar", a, a, a, "emoji"))) : null,
    colors ? h("div", { class: "look-row", role: "radiogroup", "aria-label": t("Colour") },
      Array.from({ length: colors }, (_, i) => radio("color", i, t("Colour {n}", { n: i + 1 }), "", `swatch pc${i}`))) : null);
}

/** What was picked, as the create and join requests take it (nothing picked: nothing sent). */
export function looksValue(prefix) {
  const out = {};
  const avatar = document.querySelector(`input[name="${prefix}-avatar"]:checked`);
  const color = document.querySelector(`input[name="${prefix}-color"]:checked`);
  if (avatar) out.avatar = avatar.value;
  if (color) out.color = Number(color.value);
  return out;
}
