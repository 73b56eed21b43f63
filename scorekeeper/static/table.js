// The table screen's taps. No tap is lost: each one is queued and sent in order, against
// the revision the previous answer brought; a tap that cannot be applied, a server that
// fails and a connection that drops each say so on the screen; a tap a busy server turned
// away is sent again after its Retry-After. Without this script the
// forms post as plain forms.
(() => {
  "use strict";

  const queue = [];
  let sending = false;
  let reconnecting = null;
  let pointer = null; // where the finger last came down
  let previous = null; // the last tap taken: its key, button, place and time
  const DOUBLE_TAP_MS = 500;

  const table = () => document.getElementById("table");
  const status = () => document.getElementById("tap-status");

  // Words come from the page (the server's catalogue), never from this file.
  function say(name, what) {
    const box = status();
    const text = box ? box.dataset[name] || "" : "";
    return what === undefined ? text : text.replace("{what}", what);
  }

  function show(text, kind) {
    const box = status();
    if (!box) return;
    box.textContent = text;
    box.className = `tap-status ${kind || ""}`;
    box.hidden = !text;
  }

  function pressed(key, tapped) {
    const button = tapped || (key && table()?.querySelector(`[data-key="${CSS.escape(key)}"]`));
    if (!button) return;
    button.classList.add("pressed");
    const waiting = queue.filter((tap) => tap.key === key).length;
    if (waiting > 1) button.dataset.waiting = `×${waiting}`;
  }

  document.addEventListener("pointerdown", (event) => {
    pointer = {x: event.clientX, y: event.clientY, time: event.timeStamp};
  }, {capture: true, passive: true});

  // The second tap of a double tap can land on the table the first one brought, on
  // another button (the next player's tile): that tap is not taken, and the screen says so.
  function secondOfDoubleTap(button, key, now) {
    const here = pointer && now - pointer.time < DOUBLE_TAP_MS ? pointer : null;
    const last = previous;
    previous = {key, button, here, time: now};
    return Boolean(last && here && last.here && key !== last.key && !last.button.isConnected
      && now - last.time < DOUBLE_TAP_MS
      && Math.hypot(here.x - last.here.x, here.y - last.here.y) < 24);
  }

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("#table form.tap")) return;
    event.preventDefault();
    const button = event.submitter;
    const key = button?.dataset.key || "";
    if (button && secondOfDoubleTap(button, key, event.timeStamp)) {
      previous = null;
      show(say("doubleTap", button.dataset.label || button.textContent.trim()), "warn");
      return;
    }
    // A tap that names a button is sent as that button of the table it reaches; any
    // other form (the pips at the end of a hand) as it was filled in.
    const tap = key ? {key, label: button.dataset.label || key}
                    : {form: new FormData(form, button), action: form.action};
    queue.push(tap);
    pressed(key, button);
    if (!sending) next();
  });

  function body(tap) {
    if (!tap.key) return {action: tap.action, data: tap.form};
    const button = table()?.querySelector(`[data-key="${CSS.escape(tap.key)}"]`);
    if (!button) return null;
    return {action: button.form.action, data: new FormData(button.form, button)};
  }

  async function next() {
    const tap = queue.shift();
    if (!tap) {
      sending = false;
      return;
    }
    sending = true;
    const request = body(tap);
    if (!request) {
      notApplied([tap]);
      return next();
    }
    const pos = table()?.querySelector("input[name=pos]");
    if (pos) request.data.set("pos", pos.value);
    let response;
    try {
      response = await fetch(request.action, {
        method: "POST", body: request.data, headers: {"HX-Request": "true"},
        credentials: "same-origin",
      });
    } catch {
      return failed(say("offline"), true);
    }
    if (response.headers.get("HX-Refresh")) {
      window.location.reload();
      return;
    }
    if (response.status === 503 && response.headers.get("Scorekeeper-Busy")) {
      return later(tap, Number(response.headers.get("Retry-After")) || 2);
    }
    if (![200, 409, 422].includes(response.status)) {
      return failed(say("notSaved"), false);
    }
    swap(await response.text());
    if (response.status === 200) {
      show("");
      queue.forEach((waiting) => pressed(waiting.key));
      return next();
    }
    notApplied(queue.splice(0)); // the table said no, or another phone got there first
    sending = false;
  }

  // The server was past its capacity and turned the tap away before reading it: it stays
  // first in the queue, the screen says it is not applied yet, and it is sent again.
  function later(tap, seconds) {
    queue.unshift(tap);
    show(say("busy"), "warn");
    // up to half as long again at random: taps turned away together are not sent together
    setTimeout(next, Math.min(seconds, 30) * (1 + 0.5 * Math.random()) * 1000);
  }

  function notApplied(taps) {
    if (taps.length) {
      show(say("notApplied", taps.map((tap) => tap.label || "").join(", ")), "warn");
    }
  }

  function failed(text, offline) {
    queue.splice(0);
    sending = false;
    table()?.querySelectorAll(".pressed").forEach((button) => {
      button.classList.remove("pressed");
      delete button.dataset.waiting;
    });
    show(text, "warn");
    if (offline) reconnect();
  }

  function swap(html) {
    const found = new DOMParser().parseFromString(html, "text/html").getElementById("table");
    if (found && table()) table().replaceWith(document.adoptNode(found));
  }

  // Until the server answers again, ask for the table every few seconds (and at once when
  // the phone says it is back online); then show the table as it is now.
  function reconnect() {
    if (reconnecting) return;
    reconnecting = setInterval(refresh, 3000);
  }

  async function refresh() {
    try {
      const response = await fetch(window.location.href, {headers: {"HX-Request": "true"}});
      if (!response.ok) return;
      const html = await response.text();
      if (sending) return;
      swap(html);
      clearInterval(reconnecting);
      reconnecting = null;
      show(say("back"), "ok");
    } catch {
      // still offline: try again at the next tick
    }
  }

  window.addEventListener("offline", () => {
    show(say("offlineNow"), "warn");
    reconnect();
  });
  window.addEventListener("online", refresh);
  if (!navigator.onLine) {
    show(say("offlineNow"), "warn");
    reconnect();
  }
})();
