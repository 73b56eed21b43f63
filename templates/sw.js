// The service worker: static files and the offline table's zip from the cache (their URLs
// change with their content), pages from the network, else the copy kept when this phone
// last saw them.
const CACHE = "scorekeeper-1";
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static|tojson }};
const ENGINE = {{ engine|tojson }};
const KEPT_FOR_GOOD = [STATIC, ENGINE];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(OFFLINE))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE)
      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (KEPT_FOR_GOOD.some((prefix) => url.pathname.startsWith(prefix))) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)
      .then((response) => keep(request, response))));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => keep(request, response))
      // (a page kept at its own request was fetched with other headers than a navigation)
      .catch(() => caches.match(request, {ignoreVary: true})
        .then((kept) => kept || caches.match(OFFLINE))));
  }
});

// A page asks to be kept (the table, once it can score offline): the copy a reload with
// no connection gets, also when the page was opened before this worker took it over.
self.addEventListener("message", (event) => {
  const url = event.data?.keep && new URL(event.data.keep, self.location.href);
  if (url && url.origin === self.location.origin) {
    event.waitUntil(fetch(url.href).then((response) => keep(new Request(url.href), response))
      .catch(() => {}));
  }
});

const PAGES_KEPT = 20;

function keep(request, response) {
  if (response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.delete(request)
      .then(() => cache.put(request, copy))
      .then(() => cache.keys())
      .then((kept) => {
        // the newest pages only: files kept for good and the offline page are never
        // dropped here
        const pages = kept.filter((each) => {
          const path = new URL(each.url).pathname;
          return !KEPT_FOR_GOOD.some((prefix) => path.startsWith(prefix)) && path !== OFFLINE;
        });
        return Promise.all(pages.slice(0, -PAGES_KEPT).map((each) => cache.delete(each)));
      }));
  }
  return response;
}
