// The offline table: Pyodide (vendored in static/, never from elsewhere) runs the server's
// own rules, view-model and templates in this page (web/offline/table.py), so that with the
// connection down a tap moves the table on exactly as the server's answer would.
// It is fetched after the first screen is up, in the background, once: the service worker
// keeps its files. table.js asks it (window.offlineEngine) when a tap cannot reach the server.
// Its state (the match at the revision the server last confirmed) is kept on the phone, so
// a reload with no connection starts from there. Words come from the page (#offline-engine).
(() => {
  "use strict";

  const box = document.getElementById("offline-engine");
  if (!box || typeof WebAssembly !== "object") return;
  const SAVED = `engine:${window.location.pathname}`;
  const ROOT = "/engine";
  let python = null; // the Pyodide runtime
  let module = null; // scorekeeper.web.offline.table
  let table = null; // the OfflineTable of this page's match
  let json = null; // Python's json: the state goes between the two as the server wrote it
  let resyncing = null;
  const listeners = [];

  function say(state) {
    box.dataset.state = state;
    box.textContent = box.dataset[state] || "";
    listeners.forEach((listener) => listener(state));
  }

  function saved() {
    try {
      return JSON.parse(localStorage.getItem(SAVED) || "null");
    } catch {
      return null;
    }
  }

  function save(state) {
    try {
      localStorage.setItem(SAVED, JSON.stringify(state));
    } catch {
      // no storage (a private window): a reload offline starts from the page it gets
    }
  }

  function token() {
    return document.querySelector("#table input[name=csrf_token]")?.value || "";
  }

  // The service worker keeps what it fetched: wait for it (at most a few seconds) first.
  function controlled() {
    const ready = navigator.serviceWorker?.ready;
    return ready ? Promise.race([ready, new Promise((done) => setTimeout(done, 5000))]) : null;
  }

  async function runtime() {
    await controlled();
    const address = new URL(box.dataset.runtime, window.location.href);
    const { loadPyodide } = await import(address.href);
    const [loaded, zip] = await Promise.all([
      loadPyodide({ indexURL: new URL(".", address).href }),
      fetch(box.dataset.engine).then((answer) => {
        if (!answer.ok) throw new Error(`engine ${answer.status}`);
        return answer.arrayBuffer();
      }),
    ]);
    python = loaded;
    python.unpackArchive(zip, "zip", { extractDir: ROOT });
    python.runPython(`import sys; sys.path[:0] = ["${ROOT}", "${ROOT}/lib"]`);
    module = python.pyimport("scorekeeper.web.offline.table");
    json = python.pyimport("json");
  }

  function build(state) {
    const built = module.OfflineTable(json.loads(JSON.stringify(state)), ROOT, token());
    table?.destroy();
    table = built;
    save(state);
  }

  async function fetched() {
    const answer = await fetch(box.dataset.source, { credentials: "same-origin" });
    if (!answer.ok) throw new Error(`state ${answer.status}`);
    return answer.json();
  }

  function answer(result) {
    const plain = result.toJs({ dict_converter: Object.fromEntries });
    result.destroy();
    return plain;
  }

  // The revision the table on the screen shows (its forms' hidden field).
  function shown() {
    return Number(document.querySelector("#table input[name=pos]")?.value);
  }

  const engine = {
    ready: false,
    onChange(listener) {
      listeners.push(listener);
    },
    revision() {
      return table ? table.revision : null;
    },
    // A tap applied here: {html, status, revision}; the fields as the form sent them.
    tap(action, fields) {
      table.token = token();
      return answer(table.tap(action, python.toPy(fields)));
    },
    // The table this engine holds, drawn as the server draws it.
    screen() {
      table.token = token();
      return answer(table.show()).html;
    },
    // The state to start from after a reload: kept before the first tap made offline.
    keep() {
      if (table) save(JSON.parse(json.dumps(table.saved())));
    },
    // Start again from the state the phone kept (a reload offline), then the taps kept since,
    // in order: each one applied is marked as made offline, on the revision it was applied
    // to; those it cannot apply (kept from another revision) are answered.
    restore(taps) {
      const state = saved();
      if (!state) return null;
      build(state);
      return taps.filter((tap) => {
        if (tap.pos !== undefined && tap.pos !== table.revision) return true;
        const before = table.revision;
        if (this.tap(tap.name, tap.fields).revision === before) return true;
        tap.pos = before;
        tap.offline = true;
        return false;
      });
    },
    // The server answered a tap the engine did not make: make it too, and if the two
    // revisions still differ (another phone, an answer the engine cannot predict), ask the
    // server for its state.
    follow(tap, revision) {
      if (!table) return;
      if (table.revision === tap.pos && tap.name) this.tap(tap.name, tap.fields);
      if (table.revision !== revision) this.resync();
      else this.keep();
    },
    resync() {
      if (!module || resyncing) return resyncing;
      resyncing = fetched().then(build).catch(() => {}).finally(() => {
        resyncing = null;
      });
      return resyncing;
    },
  };

  async function start() {
    say("loading");
    try {
      await runtime();
      const state = await fetched().catch(() => null);
      if (state && !state.broken) {
        build(state);
      } else if (!state && saved()) {
        build(saved()); // no connection now: the state kept on the last visit
      } else {
        throw new Error("no state");
      }
      if (table.revision !== shown()) await engine.resync();
      engine.ready = true;
      say("ready");
      // the page too: a reload with no connection gets it from the service worker
      navigator.serviceWorker?.controller?.postMessage({ keep: window.location.href });
    } catch (error) {
      say(navigator.onLine ? "failed" : "notReady");
      console.info("offline table not started", error); // eslint-disable-line no-console
    }
  }

  window.offlineEngine = engine;
  // After the first screen is up and the browser is idle: the table is usable meanwhile.
  const later = window.requestIdleCallback || ((run) => setTimeout(run, 200));
  if (document.readyState === "complete") later(start);
  else window.addEventListener("load", () => later(start), { once: true });
})();
