// The service worker (served at /sw.js, scope /, after the lines the server puts in front:
// RELEASE, PRECACHE and PAGES, see web/pages/release.py).  It keeps this release's pages and files
// so that the next visit opens from the phone itself, in a fraction of a second and offline
// too.  It never touches the API or the WebSocket: every game fact comes live from the server.
//
// A new release is a new /sw.js (its RELEASE differs): the browser, which compares it at every
// visit, installs it; it keeps the new release's files, deletes every older cache, and takes
// over the open pages, which reload onto the new files (static/js/common.js).  So a phone is
// never left on an old release beyond the visit that brought the new one.
const CACHE = `scc-${RELEASE}`;
const ASSETS = "/assets/";  // named by content: a name's bytes never change

self.addEventListener("install", (event) => {
  // Everything or nothing: a release half kept would mix old and new files.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith("scc-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** The page a path is (its cache key: the route, e.g. "/r/{code}"), or null. */
function pageKey(path) {
  for (const [pattern, key] of PAGES) if (new RegExp(pattern).test(path)) return key;
  return null;
}

async function fromNetwork(request, key) {
  const res = await fetch(request);
  if (res.ok && res.type === "basic") {
    const cache = await caches.open(CACHE);
    await cache.put(key, res.clone());
  }
  return res;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Not ours: other origins, anything but GET, the API and the live table.
  if (url.origin !== location.origin || event.request.method !== "GET") return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return;
  const page = event.request.mode === "navigate" ? pageKey(url.pathname) : null;
  const kept = page || (url.pathname.startsWith(ASSETS) || PRECACHE.includes(url.pathname) ? url.pathname : null);
  if (!kept) return;
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(kept, { ignoreVary: true })).then((hit) => {
    if (!hit) return fromNetwork(event.request, kept);
    // A page is the same for every code, and new only with a new release; it is asked for
    // again behind the cached one all the same (the language the server chose may differ).
    if (page) event.waitUntil(fromNetwork(event.request, kept).catch(() => null));
    return hit;
  }).catch(() => Response.error()));
});
