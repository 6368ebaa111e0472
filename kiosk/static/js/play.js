/* play.js: what every game's table shares (Snap, Happy Families, Snitch'ems; docs/play.md).
 *
 * A game region is the element with data-game and data-step (#<slug>-game); its form is
 * #play-form. The pages work without this script: every button is a form, and "Next" lets
 * the computer players move once. With it:
 * - while the computer players are playing, "Next" is sent by itself data-pace ms after each
 *   new table is shown, so their moves appear one at a time at a readable pace;
 * - one request at a time: the pace waits while a request (or a game script's hold) is on,
 *   and a tap on any button stops the pace's timer first (the visitor's move wins);
 * - after a swap that took away the focused button, focus goes to the game's heading, so
 *   keyboard users are not lost; when the game has just ended, to the result's heading;
 * - each table shown is noted in window.kioskPlay.log with the status words, and a game
 *   script's notes with it (for tests and benchmarks; the log starts afresh with each game).
 * A region with data-shown-by="script" is shown when its own script says so (snap.js: once
 * the new card has been painted), through kioskPlay.shown(region).
 * htmx sends the forms and morphs the game in place. Safe to load twice (boosted navigation).
 * No inline handlers, no eval: the CSP forbids both.
 */
(function () {
  "use strict";

  if (window.kioskPlay) {
    window.kioskPlay.boot();
    return;
  }

  var state = { timer: null, booted: null, busy: false, held: false, log: [] };

  function root() {
    return document.querySelector("[data-game][data-step]");
  }

  function note(type, data) {
    var entry = Object.assign({ type: type, at: performance.now() }, data || {});
    state.log.push(entry);
    if (state.log.length > 5000) state.log.shift();
    document.dispatchEvent(new CustomEvent("play:" + type, { detail: entry }));
    return entry;
  }

  function nextButton(g) {
    var b = g.querySelector("#play-form button[value=next]");
    return b && !b.disabled ? b : null;
  }

  function shown(g) {
    // a new table is on screen: note it, and pace the computer players from now
    clearTimeout(state.timer);
    if (!g) return;
    var status = g.querySelector("[role=status]");
    note("shown", {
      step: g.dataset.step,
      over: g.dataset.over === "1",
      said: status ? status.innerText : ""
    });
    var pace = parseInt(g.dataset.pace || "", 10);
    if (!pace || g.dataset.over === "1") return;
    var step = g.dataset.step;
    state.timer = setTimeout(function () {
      var now = root();
      if (state.busy || state.held || !now || now.dataset.step !== step) return;
      var b = nextButton(now);
      if (!b) return;
      if (typeof b.form.requestSubmit === "function") b.form.requestSubmit(b);
      else b.click();
    }, pace);
  }

  function refocus() {
    var g = root();
    var result = g && g.dataset.over === "1" ? g.querySelector("#result-title") : null;
    if (result) {
      // the game has just ended: the result is what to read next
      result.focus({ preventScroll: true });
      result.scrollIntoView({ block: "nearest" });
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var heading = g && g.querySelector("#page-title");
    if (heading) heading.focus({ preventScroll: true });
  }

  function ours(event) {
    var ctx = event.detail && event.detail.ctx;
    var src = ctx && ctx.sourceElement;
    var form = src && src.closest ? src.closest("form") : null;
    return !!(form && form.id === "play-form");
  }

  function onShown(g) {
    if (g && g.dataset.shownBy !== "script") shown(g);
  }

  function boot() {
    var g = root();
    if (!g || g === state.booted) return;
    state.booted = g;
    state.log.length = 0; // a new page or a new game: its log starts afresh
    onShown(g);
  }

  document.addEventListener(
    "click",
    function (event) {
      var b = event.target.closest && event.target.closest("#play-form button");
      if (b) clearTimeout(state.timer);
    },
    true
  );
  document.addEventListener("htmx:before:request", function (event) {
    if (!ours(event)) return;
    state.busy = true;
    clearTimeout(state.timer);
  });
  document.addEventListener("htmx:finally:request", function (event) {
    if (ours(event)) state.busy = false;
  });
  document.addEventListener("htmx:after:swap", function (event) {
    if (!ours(event)) {
      boot();
      return;
    }
    state.booted = root();
    refocus();
    onShown(state.booted);
  });

  document.documentElement.classList.add("play-js");
  window.kioskPlay = { boot: boot, state: state, log: state.log, note: note, shown: shown };
  document.dispatchEvent(new Event("kiosk:play-ready")); // snap.js may be waiting
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
