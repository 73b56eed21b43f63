// The table screen's taps. No tap is lost: each one is queued and sent in order, each
// against the revision of the table it was made on (a tap made while another was on its
// way: against the table that answer brought); a tap that cannot be applied, a server that
// fails and a connection that drops each say so on the screen. A tap made or in flight
// while the connection is down is kept (also across a reload) and sent when it is back,
// against that same revision: the server applies it once, or says it no longer applies. A
// tap a busy server or a rate limit turned away is sent again after its Retry-After.
// With the offline table ready (engine.js), a tap made with no connection moves the table
// on as the server would, and is kept with the revision it was made on: back online, the
// kept taps are sent in order; those the server no longer takes (another phone scored
// meanwhile) are named, and can be applied again with one tap.
// Without this script the forms post as plain forms.
(() => {
  "use strict";

  let queue = [];
  let sending = false;
  let reconnecting = null;
  let pointer = null; // where the finger last came down
  let shown = false; // the screen shows the taps made offline (the offline table drew it)
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
    const tap = {key, label: key ? button.dataset.label || key : button?.textContent.trim() || "",
                 action: form.action, name: actionName(form.action),
                 fields: [...new FormData(form, button)]
                   .filter(([name]) => name !== "csrf_token" && name !== "pos"),
                 made: Date.now()};
    if (engine()?.ready && (reconnecting || !navigator.onLine)) {
      offlineTap(tap);
      return;
    }
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

  function engine() {
    return window.offlineEngine;
  }

  function actionName(action) {
    return new URL(action, window.location.href).pathname.split("/").pop();
  }

  // With no connection, the offline table applies the tap: the screen moves on as the
  // server's answer would, and the tap is kept with the revision it was made on.
  function offlineTap(tap) {
    if (!queue.some((each) => each.offline)) engine().keep(); // what a reload starts from
    const before = engine().revision();
    const result = engine().tap(tap.name, tap.fields);
    swap(result.html);
    shown = true;
    if (result.revision !== before) {
      tap.pos = before;
      tap.offline = true;
      queue.push(tap);
      keep();
    }
    showWaiting();
  }

  // Taps kept before the offline table was ready now move the table on too, in order (from
  // the state kept before the first of them); one it cannot apply stays kept as it was.
  // (After a reload, the page is the copy kept when the phone last had a connection: the
  // taps made offline since are applied again on the state kept before the first of them.)
  function adopt() {
    if (!engine()?.ready || sending || !(reconnecting || !navigator.onLine) || !queue.length) {
      return;
    }
    if (shown && queue.every((tap) => tap.offline)) return;
    if (!queue.some((tap) => tap.offline)) engine().keep();
    engine().restore(queue);
    swap(engine().screen());
    shown = true;
    keep();
    showWaiting();
  }

  // How many taps wait to be sent, in the page's words and the language's plural forms.
  function showWaiting() {
    const count = queue.length;
    const box = status();
    if (!box || !count) {
      show(say("offlineNow"), "warn");
      return;
    }
    const form = new Intl.PluralRules(document.documentElement.lang).select(count);
    const text = box.dataset[`waiting${form[0].toUpperCase()}${form.slice(1)}`]
      || box.dataset.waitingOther || "";
    show(text.replace("{n}", count.toLocaleString(document.documentElement.lang)), "warn");
  }

  function body(tap) {
    if (tap.offline || tap.again) { // made offline: as it was made, with this page's token
      const data = new FormData();
      tap.fields.forEach(([name, value]) => data.append(name, value));
      const token = table()?.querySelector("input[name=csrf_token]");
      if (token) data.set("csrf_token", token.value);
      return {action: tap.action, data};
    }
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
    const html = await response.text();
    const madeOffline = queue.some((waiting) => waiting.offline);
    if (response.status === 200 && madeOffline) {
      show(say("sendingKept"), "ok"); // the screen already shows them: it stays until the last
      // at the pace the tap limit allows (the page says it): none of them is turned away
      return setTimeout(next, Number(status()?.dataset.pace) || 0);
    }
    swap(html);
    if (response.status === 200) {
      show("");
      if (queue.length && queue[0].pos === undefined) queue[0].pos = revision();
      keep();
      queue.forEach((waiting) => pressed(waiting.key));
      if (tap.offline) engine()?.resync(); // the server's table now: the engine starts from it
      else engine()?.follow(tap, Number(revision()));
      return next();
    }
    const refused = [tap, ...queue.splice(0)]; // the table said no, or another phone was first
    keep();
    sending = false;
    engine()?.resync();
    if (refused.some((each) => each.offline)) return conflict(refused);
    notApplied(refused);
  }

  // Taps made offline that the server did not take: another phone scored this table
  // meanwhile (the table above says what it entered), or its card was confirmed. They are
  // named, and one tap sends them again, in order, on the table as it is now.
  function conflict(taps) {
    const box = status();
    if (!box) return;
    const names = taps.map((tap) => tap.label).join(", ");
    box.textContent = say("conflict", names);
    box.className = "tap-status warn";
    box.hidden = false;
    const again = document.createElement("button");
    again.type = "button";
    again.className = "secondary again";
    again.textContent = say("again", names);
    again.addEventListener("click", () => {
      queue = taps.map((tap) => ({...tap, offline: false, again: true, pos: undefined}));
      keep();
      show(say("sendingKept"), "ok");
      next();
    }, {once: true});
    box.append(" ", again);
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
    adopt(); // the offline table, if ready, moves the screen on with the kept taps
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
      // the table as it is now (a reload offline showed the last page seen), unless the
      // screen shows taps made offline: it stays until the server has them
      if (!queue.some((tap) => tap.offline)) swap(html);
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
  // The offline table ready after a reload with no connection: the kept taps move it on.
  if (engine()) engine().onChange((state) => state === "ready" && adopt());
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
