// Shared helpers: DOM building (text only: names are never parsed as HTML), translations,
// the header with its language choice, and JSON fetches.

export const LANGS = ["en", "de", "nb"];
let strings = {};

/** Build an element; children are nodes or strings (strings become text nodes, never HTML). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Translate an English message id and fill its {placeholders}. */
export function t(id, params = {}) {
  const text = strings[id] || id;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

export function currentLang() {
  const saved = localStorage.getItem("scc:lang");
  if (LANGS.includes(saved)) return saved;
  const nav = (navigator.language || "en").slice(0, 2).toLowerCase();
  if (nav === "no" || nav === "nn" || nav === "nb") return "nb";
  return LANGS.includes(nav) ? nav : "en";
}

/** Use the table's language for someone who never chose one (the browser's guess is weaker). */
export async function adoptLang(lang, onLang) {
  if (localStorage.getItem("scc:lang") || !LANGS.includes(lang) || lang === document.documentElement.lang) return false;
  await loadStrings(lang);
  const select = document.getElementById("lang");
  if (select) select.value = lang;
  header(onLang, lang);
  translateStatic();
  return true;
}

export async function loadStrings(lang) {
  const res = await fetch(`/api/i18n/${lang}`);
  strings = res.ok ? await res.json() : {};
  document.documentElement.lang = lang;
}

export async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", ...(options.headers || {}) };
  const res = await fetch(path, { ...options, headers });
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) {
    const err = new Error((body && body.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

/** Fill every [data-t] element with its translation (static page text). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
}

/** The header: brand, navigation and language choice; calls onLang after a change. */
export function header(onLang, chosen) {
  const lang = chosen || currentLang();
  const select = h("select", { id: "lang" }, LANGS.map((l) =>
    h("option", { value: l, selected: l === lang }, { en: "English", de: "Deutsch", nb: "Norsk bokmål" }[l])));
  select.addEventListener("change", async () => {
    localStorage.setItem("scc:lang", select.value);
    await loadStrings(select.value);
    renderHeader();
    translateStatic();
    onLang && onLang(select.value);
  });
  const el = document.getElementById("top");
  function renderHeader() {
    el.replaceChildren(
      h("a", { class: "skip", href: "#main" }, t("Skip to content")),
      h("a", { class: "brand", href: "/" }, t("Ship, Captain and Crew")),
      h("nav", { "aria-label": t("Home") },
        h("a", { href: "/" }, t("Home")), h("a", { href: "/history" }, t("History")),
        h("a", { href: "/stats" }, t("Leaderboard"))),
      h("label", {}, t("Language"), select));
  }
  renderHeader();
}

export async function boot(onLang) {
  await loadStrings(currentLang());
  header(onLang);
  translateStatic();
}

export function seatToken(code) { return localStorage.getItem(`scc:seat:${code}`); }
export function saveSeatToken(code, token) { localStorage.setItem(`scc:seat:${code}`, token); }
export function codeFromPath() { return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase(); }
