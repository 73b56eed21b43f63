// Every page: register the service worker that keeps the app's files for when the signal
// drops (its address is on this script's tag), let polling wait while the server is busy,
// and print a paper page from its Print button.
(() => {
  "use strict";
  const url = document.currentScript?.dataset.serviceWorker;
  // A paper page's Print button (a league's match card, its fixture list).
  document.addEventListener("click", (event) => {
    if (event.target.closest?.("[data-print]")) {
      window.print();
    }
  });
  if (url && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(url).catch(() => {});
  }

  // A link to a part of a page that is folded away (a hand's moves on the score sheet,
  // `#hand-2`) unfolds it.
  const unfold = () => {
    const target = location.hash.length > 1 && document.getElementById(location.hash.slice(1));
    const folded = target && target.closest("details:not([open])");
    if (folded) {
      folded.open = true;
      target.scrollIntoView();
    }
  };
  window.addEventListener("hashchange", unfold);
  document.addEventListener("DOMContentLoaded", unfold);

  // A busy server answers 503 with Retry-After, and before that, under load, its answers
  // carry Scorekeeper-Poll-After: a part of the page that polls (the scoreboard, a
  // league's live parts) waits that long before it asks again, and up to half as long
  // again at random (REST_SPREAD): the phones a server asked to wait at the same moment must
  // not all come back at the same moment, or their polls arrive in waves.
  // By the polling element's id: a swap replaces the element, and htmx then tells the
  // answer to the closest parent still on the page (the element is in requestConfig).
  const REST_SPREAD = 0.5;
  const spread = (seconds) => seconds * (1 + REST_SPREAD * Math.random());
  const resting = new Map();
  const key = (detail) => detail.requestConfig?.elt?.id || detail.elt;
  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    const seconds = xhr?.status === 503
      ? Number(xhr.getResponseHeader("Retry-After")) || 5
      : Number(xhr?.getResponseHeader("Scorekeeper-Poll-After"));
    if (seconds > 0) {
      resting.set(key(event.detail), Date.now() + spread(Math.min(seconds, 60)) * 1000);
    }
  });

  // A scoreboard whose polls fail (its server cannot read the scores, is gone, or has been
  // busy for a while) keeps the last board it has and says since when, in the page's words
  // (data-stale, with {time}); the next board that arrives replaces it, note and all.
  const updated = new Map();
  const board = (detail) => document.getElementById(detail.requestConfig?.elt?.id || "");
  const note = (elt) => {
    const since = updated.get(elt.id) ?? Date.now();
    if ((Date.now() - since) / 1000 < Number(elt.dataset.staleAfter || 0)) return;
    const time = new Date(since).toLocaleTimeString(document.documentElement.lang,
                                                    { hour: "2-digit", minute: "2-digit" });
    let shown = elt.querySelector(".stale");
    if (!shown) {
      shown = document.createElement("p");
      shown.className = "stale";
      shown.setAttribute("role", "status");
      elt.prepend(shown);
    }
    shown.textContent = elt.dataset.stale.replace("{time}", time);
  };
  document.querySelectorAll("[data-stale]").forEach((elt) => updated.set(elt.id, Date.now()));
  const polled = (event) => {
    const elt = board(event.detail);
    if (!elt?.dataset.stale) return;
    const status = event.detail.xhr?.status || 0;
    if (status >= 200 && status < 400 && event.type === "htmx:afterRequest") {
      updated.set(elt.id, Date.now());
    } else {
      note(elt);
    }
  };
  document.addEventListener("htmx:afterRequest", polled);
  document.addEventListener("htmx:sendError", polled);
  document.addEventListener("htmx:beforeRequest", (event) => {
    const until = resting.get(key(event.detail));
    if (until && Date.now() < until && event.detail.requestConfig?.verb === "get") {
      event.preventDefault();
    }
  });
})();
