// Shared helpers: DOM building (text only: names are never parsed as HTML), translations and
// the language's number and date formats, the header (navigation, language, light/dark), and
// JSON fetches that ask for answers in the page's language.

// The languages come from the core (served by the app as a module): no copy of the list here.
import { DEFAULT_LANG, LANG_NAMES, LANGS } from "./facts.js";

const SVG_NS = "http://www.w3.org/2000/svg";
let strings = {};
// Answers the server put in the page (its strings, the option table): no round trip for what
// every start needs.  Keyed by the URL the page would have fetched (see web/pages/release.py).
const preloaded = (() => {
  const el = document.getElementById("scc-preload");
  try { return el ? JSON.parse(el.textContent) : {}; } catch (e) { return {}; }
})();
function inPage(url) { return Object.hasOwn(preloaded, url) ? structuredClone(preloaded[url]) : undefined; }

/** Build an element; children are nodes or strings (strings become text nodes, never HTML). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** The same for SVG elements (dice, icons). */
export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.setAttribute("class", v);
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
  return filled(typeof text === "string" ? text : text.other || id, params);
}

function filled(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A message with plural forms (web/strings.py's UI_PLURALS), by its singular id: the
 * language's form for ``count`` (the browser's CLDR plural rules pick the category the
 * server gave a form for), its {placeholders} filled. */
export function tn(id, count, params = {}) {
  const forms = strings[id];
  if (!forms || typeof forms === "string") return filled(forms || id, params);
  let category = "other";
  try { category = new Intl.PluralRules(document.documentElement.lang || "en").select(count); } catch (e) { /* an old browser: "other" */ }
  return filled(forms[category] || forms.other || id, params);
}

function stored(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

export function remember(key, value) {
  // The language this device keeps goes to the server too (a cookie), which then puts that
  // language's words in the page (web/pages/routes.py): no second fetch for them.
  if (key === "scc:lang") document.cookie = value === null ? "scc_lang=; path=/; max-age=0; samesite=lax" : `scc_lang=${value}; path=/; max-age=31536000; samesite=lax`;
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch (e) { /* private mode: the choice lasts for this page only */ }
}

/** The browser's own language if it is one of ours (its list in order: "de-DE" is German,
 * "nb", "nn" and "no" Norwegian bokmål), else the default. */
function browserLang() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of wanted) {
    const l = String(tag).slice(0, 2).toLowerCase();
    const mapped = l === "no" || l === "nn" ? "nb" : l;
    if (LANGS.includes(mapped)) return mapped;
  }
  return DEFAULT_LANG;
}

/** The page's language: ?lang=, else the one this device used last, else the browser's (then
 * remembered on this device).  Never the table's or the host's: each phone in its own. */
export function currentLang() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGS.includes(asked)) {
    remember("scc:lang", asked);
    return asked;
  }
  const saved = stored("scc:lang");
  if (LANGS.includes(saved)) return saved;
  const found = browserLang();
  remember("scc:lang", found);
  return found;
}

export function lang() { return document.documentElement.lang || DEFAULT_LANG; }

export async function loadStrings(l) {
  const given = inPage(`/api/i18n/${l}`);
  if (given) {
    strings = given;
    document.documentElement.lang = l;
    return;
  }
  try {
    const res = await fetch(`/api/i18n/${l}`);
    strings = res.ok ? await res.json() : {};
  } catch (e) { strings = {}; }
  document.documentElement.lang = l;
}

/** Numbers in the page language's format (a decimal comma in German and Norwegian). */
export function num(value, digits = 0) {
  return new Intl.NumberFormat(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function percent(p, digits = 1) {
  return new Intl.NumberFormat(lang(), { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(p);
}

export function dateTime(iso) {
  if (!iso) return "";
  const d = new Date(iso.endsWith("Z") || /[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
  return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(d);
}

/** GET/POST JSON; errors carry the server's message (in this page's language) and code. */
export async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json", "X-Lang": lang(), ...(options.headers || {}) };
  const sep = path.includes("?") ? "&" : "?";
  const given = (options.method || "GET") === "GET" ? inPage(`${path}${sep}lang=${lang()}`) : undefined;
  if (given) return given;
  let res;
  try {
    res = await fetch(`${path}${sep}lang=${lang()}`, { ...options, headers });
  } catch (e) {
    const err = new Error(t("No connection to the server. Check the network and try again."));
    err.status = 0;
    throw err;
  }
  let body = null;
  try { body = await res.json(); } catch (e) { body = null; }
  if (!res.ok) {
    const err = new Error((body && body.detail) || t("Something went wrong ({status}).", { status: res.status }));
    err.status = res.status;
    err.code = body && body.code;
    throw err;
  }
  return body;
}

const titles = new Map();
/** A rule set's human name in the page's language (the canonical text where none comes). */
export async function rulesTitle(rules) {
  const key = `${lang()}:${rules}`;
  if (!titles.has(key)) {
    titles.set(key, api(`/api/rules-text?rules=${encodeURIComponent(rules)}`).then((r) => r.title || rules, () => rules));
  }
  return titles.get(key);
}

/** Fill every [data-t] element with its translation (static page text). */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
  for (const el of root.querySelectorAll("[data-t-placeholder]")) el.setAttribute("placeholder", t(el.dataset.tPlaceholder));
  const title = document.querySelector("meta[name=scc-title]");
  setTitle(title ? t(title.content) : "");
}

/** The tab's title: "what this page is · the game", in the page's language. */
export function setTitle(what) {
  const game = t("Ship, Captain and Crew");
  document.title = what ? `${what} · ${game}` : game;
}

// -- light and dark --------------------------------------------------------------------------
/** Dark or light as drawn now (theme.js set html[data-theme] before the first paint). */
export function isDark() { return document.documentElement.dataset.theme === "dark"; }

function themeButton() {
  const b = h("button", { type: "button", class: "icon-btn", id: "theme", "aria-pressed": String(isDark()), "aria-label": t("Dark mode") },
    icon(isDark() ? "moon" : "sun"));
  b.addEventListener("click", () => {
    const dark = !isDark();
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    remember("scc:theme", dark ? "dark" : "light");
    b.setAttribute("aria-pressed", String(dark));
    b.replaceChildren(icon(dark ? "moon" : "sun"));
  });
  return b;
}

const ICONS = {
  sun: "M12 7a5 5 0 1 0 0 10a5 5 0 1 0 0-10zM12 1v3M12 20v3M1 12h3M20 12h3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1",
  moon: "M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z",
  sound: "M4 9h4l5-4v14l-5-4H4zM16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l6 6M22 9l-6 6",
  share: "M12 3v12M7 8l5-5l5 5M5 13v7h14v-7",
  copy: "M8 8h12v12H8zM4 16V4h12",
  back: "M15 5l-7 7l7 7",
  shake: "M8 3h8v18H8zM11 17.5h2M4.5 8v8M2 10v4M19.5 8v8M22 10v4",
  tv: "M3 5h18v12H3zM8 21h8M12 17v4",
};

/** A small line icon (decorative: the button around it carries the words). */
export function icon(name) {
  return svg("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: ICONS[name] }));
}

// -- the header ------------------------------------------------------------------------------
let headerExtras = () => [];
let headerOnLang = null;

/** The header: brand, navigation, light/dark and language; ``extras()`` adds page buttons. */
export function renderHeader(onLang = headerOnLang, extras = headerExtras) {
  headerOnLang = onLang;
  headerExtras = extras;
  const l = lang();
  const select = h("select", { id: "lang", "aria-label": t("Language") }, LANGS.map((x) =>
    h("option", { value: x, selected: x === l, lang: x }, LANG_NAMES[x])));
  select.addEventListener("change", async () => {
    remember("scc:lang", select.value);
    await loadStrings(select.value);
    renderHeader();
    translateStatic();
    if (headerOnLang) headerOnLang(select.value);
  });
  const here = location.pathname;
  const link = (href, id) => h("a", { href, "aria-current": here === href ? "page" : null }, t(id));
  document.getElementById("top").replaceChildren(...[
    h("a", { class: "skip", href: "#main" }, t("Skip to content")),
    h("a", { class: "brand", href: "/" }, h("img", { src: "/static/icons/icon.svg", alt: "", width: 28, height: 28 }),
      h("span", {}, t("Ship, Captain and Crew"))),
    h("nav", { "aria-label": t("Pages") }, link("/", "Home"), link("/history", "History"), link("/stats", "Leaderboard")),
    h("div", { class: "tools" }, ...extras(), themeButton()),
    h("div", { class: "langs" }, select),
    // Over plain http (a phone on the host's Wi-Fi) the browser turns off what needs a secure
    // context: those controls are not shown, and this line says why.
    window.isSecureContext ? null : h("p", { class: "insecure", id: "insecure", role: "note" },
      t("This page is plain http: shake to roll, keeping the screen on, the installed app and copying the link need https."))
  ].filter(Boolean));
}

// -- the address phones open ---------------------------------------------------------------
let joinBase = null;  // the server's base of join links (its public or network address), once told

/** The link friends open to join ``code``: the one the server's QR code carries (its public
 * address, or the network address it printed at start-up), this page's own until it answered. */
export function joinLink(code) { return `${joinBase || location.origin}/r/${code}`; }

/** Ask the server once where its join links point; ``changed()`` runs if that is news. */
export function learnJoinLink(code, changed) {
  api(`/api/rooms/${encodeURIComponent(code)}`).then((r) => {
    const base = String(r.link || "").replace(/\/r\/[^/]*$/, "");
    if (base && base !== joinBase) { joinBase = base; changed(); }
  }, () => { /* the table is gone: its page says so */ });
}

/** Whether a link opens only on this very computer (127.x, localhost, [::1]): no phone can. */
export function onlyHere(link) {
  const host = new URL(link).hostname;
  return host === "localhost" || host.startsWith("127.") || host === "[::1]";
}

/** Every page starts here: strings in the chosen language, the header, the app shell. */
export async function boot(onLang, extras) {
  await loadStrings(currentLang());
  renderHeader(onLang, extras);
  translateStatic();
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    // A new release's worker takes over while a page of the old one is open: load the new
    // files at once.  Registered after the page has loaded: it never competes with it.
    const had = navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener("controllerchange", () => { if (had) location.reload(); });
    const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* no app shell */ });
    if (document.readyState === "complete") register();
    else addEventListener("load", register, { once: true });
  }
}

export function seatToken(code) { return stored(`scc:seat:${code}`); }
export function saveSeatToken(code, token) { remember(`scc:seat:${code}`, token); }
/** A table screen's token (one per browser: a screen paired once stays paired at this
 * table's next matches and after a reload); ``value`` keeps a new one. */
export function screenToken(value = undefined) {
  if (value !== undefined) remember("scc:screen-token", value);
  return stored("scc:screen-token");
}

export function forgetSeatToken(code) { remember(`scc:seat:${code}`, null); }
/** The table code of a page's path: /r/CODE, /r/CODE/screen, /verify/CODE, /replay/CODE. */
export function codeFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return decodeURIComponent(parts[1] || parts[0] || "").toUpperCase();
}
