// The service worker (served at /sw.js, scope /): it keeps the app shell -- the pages, the
// style sheet, the scripts and the icons -- so the table opens and says "offline" without a
// network.  It never touches the API or the WebSocket: every game fact comes live from the
// server, and a stale one must never be served from a cache.
const CACHE = "scc-shell-v1";
const SHELL = [
  "/", "/history", "/stats",
  "/static/room.html", "/static/replay.html", "/static/verify.html",
  "/static/style.css", "/manifest.webmanifest",
  "/static/icons/icon.svg", "/static/icons/icon-192.png",
  ...["common", "theme", "home", "room", "line", "lobby", "looks", "playview", "table", "dice", "moments", "fx", "md",
    "history", "replay", "verify", "stats", "facts"].map((m) => `/static/js/${m}.js`),
];
// Pages whose path carries a code are one file each on the server.
const TEMPLATES = [[/^\/r\/[^/]+$/, "/static/room.html"], [/^\/replay\/[^/]+$/, "/static/replay.html"], [/^\/verify\/[^/]+$/, "/static/verify.html"]];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(SHELL.map((url) => cache.add(url).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function shellKey(url) {
  for (const [pattern, file] of TEMPLATES) if (pattern.test(url.pathname)) return file;
  if (SHELL.includes(url.pathname)) return url.pathname;
  return null;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Not ours: other origins, anything but GET, the API and the live table.
  if (url.origin !== location.origin || event.request.method !== "GET") return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  const key = shellKey(url);
  if (!key) return;
  // Network first (a new version shows at once); the cached shell when the network is gone.
  event.respondWith(fetch(event.request).then((res) => {
    if (res.ok && key === url.pathname) {
      const copy = res.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return res;
  }).catch(() => caches.match(key).then((hit) => hit || Response.error())));
});
