// The table screen's taps. No tap is lost: each one is queued and sent in order, each
// against the revision of the table it was made on (a tap made while another was on its
// way: against the table that answer brought); a tap that cannot be applied, a server that
// fails and a connection that drops each say so on the screen. A tap made or in flight
// while the connection is down is kept (also across a reload) and sent when it is back,
// against that same revision: the server applies it once, or says it no longer applies. A
// tap a busy server or a rate limit turned away is sent again after its Retry-After.
// Without this script the forms post as plain forms.
(() => {
  "use strict";

  let queue = [];
  let sending = false;
  let reconnecting = null;
  let pointer = null; // where the finger last came down
  let previous = null; // the last tap taken: its key, button, place and time
  const DOUBLE_TAP_MS = 500;
  const KEPT_MS = 12 * 3600 * 1000; // an unsent tap older than this is not sent
  const KEPT = `taps:${window.location.pathname}`;
  const TYPED = `typed:${window.location.pathname}`;

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

  // The queue outlives the page: a reload or a closed tab while offline keeps its taps.
  function keep() {
    try {
      if (queue.length) localStorage.setItem(KEPT, JSON.stringify(queue));
      else localStorage.removeItem(KEPT);
    } catch {
      // no storage (a private window): the queue lives as long as the page
    }
  }

  // Kept taps go on only with the revision they were made against: one that was waiting
  // behind another when the page went away, or kept too long, is said not applied.
  function kept() {
    let taps;
    try {
      taps = JSON.parse(localStorage.getItem(KEPT) || "[]");
    } catch {
      return [];
    }
    const going = taps.filter((tap) => tap.pos !== undefined && Date.now() - tap.made < KEPT_MS);
    notApplied(taps.filter((tap) => !going.includes(tap)));
    return going;
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
                    : {fields: [...new FormData(form, button)]
                         .filter(([name]) => name !== "csrf_token" && name !== "pos"),
                       action: form.action, label: button?.textContent.trim() || ""};
    tap.made = Date.now();
    if (!queue.length && !sending) tap.pos = revision(); // the table the scorer sees
    queue.push(tap);
    keep();
    pressed(key, button);
    if (reconnecting) {
      show(say("keptOffline", tap.label), "warn");
    } else if (!sending) {
      next();
    }
  });

  function body(tap) {
    if (!tap.key) { // the form as it was filled in, with this page's form token
      const data = new FormData();
      tap.fields.forEach(([name, value]) => data.append(name, value));
      const token = table()?.querySelector("input[name=csrf_token]");
      if (token) data.set("csrf_token", token.value);
      return {action: tap.action, data};
    }
    const button = table()?.querySelector(`[data-key="${CSS.escape(tap.key)}"]`);
    if (!button) return null;
    return {action: button.form.action, data: new FormData(button.form, button)};
  }

  async function next() {
    const tap = queue[0];
    if (!tap) {
      sending = false;
      keep();
      return;
    }
    sending = true;
    const request = body(tap);
    if (!request) {
      queue.shift();
      notApplied([tap]);
      return next();
    }
    // The revision the tap was made against decides, also for a tap sent again: the server
    // applies it once (a second copy is taken for the first), or refuses it.
    if (tap.pos === undefined) tap.pos = revision(); // it waited behind one just answered
    request.data.set("pos", tap.pos);
    keep();
    let response;
    try {
      response = await fetch(request.action, {
        method: "POST", body: request.data, headers: {"HX-Request": "true"},
        credentials: "same-origin",
      });
    } catch {
      return offline(tap);
    }
    if (response.headers.get("HX-Refresh")) { // a form token too old: a fresh page, once
      if (tap.refreshed) {
        queue.shift();
        notApplied([tap]);
        keep();
        sending = false;
        return;
      }
      tap.refreshed = true;
      keep();
      window.location.reload();
      return;
    }
    if (response.status === 503 && response.headers.get("Scorekeeper-Busy")) {
      return later(say("busy"), Number(response.headers.get("Retry-After")) || 2);
    }
    if (response.status === 429) {
      const seconds = Number(response.headers.get("Retry-After")) || 60;
      return later(say("tooMany", String(seconds)), seconds);
    }
    queue.shift();
    keep();
    if (![200, 409, 422].includes(response.status)) {
      return failed(say("notSaved"));
    }
    swap(await response.text());
    if (response.status === 200) {
      show("");
      if (queue.length) queue[0].pos = revision(); // the table the next tap follows
      keep();
      queue.forEach((waiting) => pressed(waiting.key));
      return next();
    }
    notApplied([tap, ...queue.splice(0)]); // the table said no, or another phone was first
    keep();
    sending = false;
  }

  // The server was past its capacity, or the scorer past the tap limit, and the tap was
  // turned away before it was applied: it stays first in the queue and is sent again.
  function later(text, seconds) {
    show(text, "warn");
    // up to half as long again at random: taps turned away together are not sent together
    setTimeout(next, Math.min(seconds, 60) * (1 + 0.5 * Math.random()) * 1000);
  }

  function notApplied(taps) {
    if (taps.length) {
      show(say("notApplied", taps.map((tap) => tap.label || "").join(", ")), "warn");
    }
  }

  function failed(text) {
    queue = [];
    keep();
    sending = false;
    table()?.querySelectorAll(".pressed").forEach((button) => {
      button.classList.remove("pressed");
      delete button.dataset.waiting;
    });
    show(text, "warn");
  }

  // No answer: the tap may or may not have reached the server. It is kept with the
  // revision it was sent against and sent again once the connection is back.
  function offline(tap) {
    sending = false;
    keep();
    show(say("maybeSent", tap.label), "warn");
    reconnect();
  }

  function swap(html) {
    const found = new DOMParser().parseFromString(html, "text/html").getElementById("table");
    if (found && table()) table().replaceWith(document.adoptNode(found));
    restoreTyped();
  }

  // Until the server answers again, ask for the table every second (and at once when
  // the phone says it is back online); then send what was kept, or show the table as it is.
  function reconnect() {
    if (reconnecting) return;
    reconnecting = setInterval(refresh, 1000);
  }

  let refreshing = false;

  async function refresh() {
    if (refreshing || sending) return;
    refreshing = true;
    try {
      const response = await fetch(window.location.href, {headers: {"HX-Request": "true"}});
      if (!response.ok || sending) return;
      const html = await response.text();
      clearInterval(reconnecting);
      reconnecting = null;
      swap(html); // the table as it is now (a reload offline showed the last page seen)
      if (queue.length) { // then the kept taps, against the revisions they were made on
        show(say("sendingKept"), "ok");
        return next();
      }
      show(say("back"), "ok");
    } catch {
      // still offline: try again at the next tick
    } finally {
      refreshing = false;
    }
  }

  // The pips typed at the end of a hand outlive a reload of the page (the language menu).
  function typed() {
    try {
      return JSON.parse(sessionStorage.getItem(TYPED) || "null");
    } catch {
      return null;
    }
  }

  function endForm() {
    return table()?.querySelector("form.end-hand");
  }

  function revision() {
    return table()?.querySelector("input[name=pos]")?.value;
  }

  document.addEventListener("input", (event) => {
    const form = endForm();
    if (!form || !form.contains(event.target)) return;
    const fields = [...new FormData(form)].filter(([name]) => /^(pips|tiles)_/.test(name));
    try {
      sessionStorage.setItem(TYPED, JSON.stringify({pos: revision(), fields}));
    } catch {
      // no storage: nothing kept
    }
  });

  function restoreTyped() {
    const form = endForm();
    const saved = typed();
    if (!form || !saved || saved.pos !== revision()) return;
    saved.fields.forEach(([name, value]) => {
      const field = form.querySelector(`[name="${CSS.escape(name)}"]`
        + (name.startsWith("tiles_") ? `[value="${CSS.escape(value)}"]` : ""));
      if (!field) return;
      if (field.type === "checkbox") {
        field.checked = true;
        field.closest("details")?.setAttribute("open", "");
      } else if (!field.value) {
        field.value = value;
      }
    });
  }

  window.addEventListener("offline", () => {
    show(say("offlineNow"), "warn");
    reconnect();
  });
  window.addEventListener("online", refresh);
  restoreTyped();
  queue = kept();
  if (!navigator.onLine) {
    show(say("offlineNow"), "warn");
    reconnect();
  } else if (queue.length) { // the page may be the copy kept offline: the table now, first,
    reconnect(); // and again every second if this first try finds no connection yet
    refresh();
  }
})();
