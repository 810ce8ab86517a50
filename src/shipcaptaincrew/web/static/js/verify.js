// Verify a finished match: the server recomputes every die, and so does this browser on its
// own (Web Crypto HMAC-SHA256, the same derivation as shipcaptaincrew.fair.fair_die).
import { api, boot, codeFromPath, h, t, tn } from "./common.js";

const code = codeFromPath();
const enc = new TextEncoder();

function hex(bytes) { return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join(""); }
function unhex(s) { return new Uint8Array(s.match(/../g).map((x) => parseInt(x, 16))); }

async function recompute(v) {
  const seed = unhex(v.server_seed);
  if (hex(await crypto.subtle.digest("SHA-256", seed)) !== v.commitment) return "commitment";
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  // The client seeds as each die's input carries them (shipcaptaincrew.fair.client_input).
  const client = v.client_seed_format === "joined" ? v.client_seeds.join("|")
    : v.client_seeds.map((s) => `${enc.encode(s).length}:${s}`).join("");
  let index = 0;
  for (const [r, faces] of v.rolls.entries()) {
    for (const face of faces) {
      let got = null;
      for (let block = 0; got === null; block++) {
        const d = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${client}:${index}:${block}`)));
        for (const b of d) { if (b < 252) { got = (b % 6) + 1; break; } }
      }
      if (got !== face) return `roll ${r + 1}: ${faces.join(" ")}`;
      index += 1;
    }
  }
  return null;
}

async function render() {
  let v;
  try { v = await api(`/api/matches/${encodeURIComponent(code)}/verify`); } catch (e) {
    document.getElementById("personal").textContent = e.message; return;
  }
  if (v.verifiable === false) {
    // Real dice: nothing to recompute; the server says so, and the faces typed are listed.
    document.getElementById("content").replaceChildren(
      h("p", { id: "server-check", class: "ok" }, v.detail),
      h("p", {}, h("a", { href: `/api/matches/${v.code}/log` }, t("Download the event log")), " · ",
        h("a", { href: `/replay/${v.code}` }, t("Watch the replay"))));
    return;
  }
  const out = [
    h("p", {}, t("Seed hash (published before the first roll)"), ": ", h("code", { class: "hash" }, v.commitment)),
    h("p", {}, t("Seed (revealed at the end)"), ": ", h("code", { class: "hash" }, v.server_seed)),
    h("p", {}, t("Client seeds"), ": ", v.client_seeds.length ? v.client_seeds.join(", ") : "–"),
    v.ok ? h("p", { class: "ok", id: "server-check" }, tn("The server checked every die: the {n} die matches the seed.", v.dice, { n: v.dice }))
      : h("div", { id: "server-check" }, h("p", { class: "bad" }, t("Problems found:")), h("ul", {}, v.problems.map((p) => h("li", {}, p)))),
    h("p", { id: "browser-check", role: "status" }, "…"),
    h("p", {}, h("a", { href: `/api/matches/${v.code}/log` }, t("Download the event log")), " · ",
      h("a", { href: `/replay/${v.code}` }, t("Watch the replay"))),
  ];
  document.getElementById("content").replaceChildren(...out);
  const el = document.getElementById("browser-check");
  if (!(window.crypto && crypto.subtle)) { el.textContent = ""; return; }
  const problem = await recompute(v);
  el.className = problem ? "bad" : "ok";
  el.textContent = problem === null
    ? `${tn("Your browser recomputed every die: the {n} die matches the seed.", v.dice, { n: v.dice })} ${t("The seed matches the hash published before the match.")}`
    : t("Your browser found a die that does not match: {detail}", { detail: problem });
}

await boot(render);
render();
