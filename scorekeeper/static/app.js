// Every page: register the service worker that keeps the app's files for when the signal
// drops (its address is on this script's tag).
(() => {
  "use strict";
  const url = document.currentScript?.dataset.serviceWorker;
  if (url && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(url).catch(() => {});
  }
})();
