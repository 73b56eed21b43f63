// Every page: register the service worker that keeps the app's files for when the signal
// drops (its address is on this script's tag), and let polling wait while the server is busy.
(() => {
  "use strict";
  const url = document.currentScript?.dataset.serviceWorker;
  if (url && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(url).catch(() => {});
  }

  // A busy server answers 503 with Retry-After: a part of the page that polls (the
  // scoreboard, a league's live parts) waits that long before it asks again.
  const resting = new WeakMap();
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (xhr?.status === 503) {
      const seconds = Number(xhr.getResponseHeader("Retry-After")) || 5;
      resting.set(event.detail.elt, Date.now() + Math.min(seconds, 60) * 1000);
    }
  });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const until = resting.get(event.detail.elt);
    if (until && Date.now() < until && event.detail.requestConfig?.verb === "get") {
      event.preventDefault();
    }
  });
})();
