/* families.js: the pace of the computer players in Happy Families and Snitch'ems.
 *
 * Shared by both games' pages (#hf-game, #sn-game: any element with data-more-game).
 * The pages work without this script: every button is a form, and "Next" lets a computer
 * player ask (or play) once. With it:
 * - while the computer players are playing, "Next" is sent by itself data-pace ms after each
 *   new table is shown, so their asks and answers appear one at a time at a readable pace;
 * - a tap on any other button stops that timer first (the visitor's move wins);
 * - after a swap that took away the focused button, focus goes to the game's heading, so
 *   keyboard users are not lost; when the game has just ended, to the result's heading;
 * - each table shown is noted in window.kioskMoreGames.log with the status words (for tests;
 *   the log starts afresh with each new game).
 * htmx sends the forms and morphs the game in place. Safe to load twice (boosted navigation).
 * No inline handlers, no eval: the CSP forbids both.
 */
(function () {
  "use strict";

  if (window.kioskMoreGames) {
    window.kioskMoreGames.boot();
    return;
  }

  var state = { timer: null, booted: null, busy: false, log: [] };

  function root() {
    return document.querySelector("[data-more-game]");
  }

  function note(type, data) {
    var entry = Object.assign({ type: type, at: performance.now() }, data || {});
    state.log.push(entry);
    if (state.log.length > 5000) state.log.shift();
  }

  function nextButton(g) {
    var b = g.querySelector("button[name=move][value=next]");
    return b && !b.disabled ? b : null;
  }

  function schedule() {
    clearTimeout(state.timer);
    var g = root();
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
      if (state.busy || !now || now.dataset.step !== step) return;
      var b = nextButton(now);
      var f = b && b.form;
      if (!f) return;
      if (typeof f.requestSubmit === "function") f.requestSubmit(b);
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
    return !!(form && (form.id === "hf-form" || form.id === "sn-form"));
  }

  function onClick(event) {
    var b = event.target.closest && event.target.closest("#hf-form button, #sn-form button");
    if (b && b.value !== "next") clearTimeout(state.timer);
  }

  function boot() {
    var g = root();
    if (!g || g === state.booted) return;
    state.booted = g;
    state.log.length = 0; // a new page or a new game: its log starts afresh
    schedule();
  }

  document.addEventListener("click", onClick, true);
  document.addEventListener("htmx:before:request", function (event) {
    if (!ours(event)) return;
    state.busy = true;
    clearTimeout(state.timer);
  });
  document.addEventListener("htmx:finally:request", function (event) {
    if (ours(event)) state.busy = false;
  });
  document.addEventListener("htmx:after:swap", function (event) {
    if (ours(event)) {
      state.booted = root();
      refocus();
      schedule();
      return;
    }
    boot();
  });

  window.kioskMoreGames = { boot: boot, state: state, log: state.log };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
