// The service worker: static files from the cache (their URLs change with their content),
// pages from the network, else the copy kept when this phone last saw them.
const CACHE = "scorekeeper-1";
const OFFLINE = {{ offline|tojson }};
const STATIC = {{ static|tojson }};

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
  if (url.pathname.startsWith(STATIC)) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)
      .then((response) => keep(request, response))));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => keep(request, response))
      .catch(() => caches.match(request).then((kept) => kept || caches.match(OFFLINE))));
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
        // the newest pages only: static files and the offline page are never dropped here
        const pages = kept.filter((each) => {
          const path = new URL(each.url).pathname;
          return !path.startsWith(STATIC) && path !== OFFLINE;
        });
        return Promise.all(pages.slice(0, -PAGES_KEPT).map((each) => cache.delete(each)));
      }));
  }
  return response;
}
