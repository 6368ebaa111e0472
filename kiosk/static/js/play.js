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
 * - reload, Back and Forward keep the game (docs/play.md, "Reload, Back and Forward"): each
 *   table shown is kept with the id of its history entry; on the setup (the entry's address)
 *   a kept game of this very entry comes back by itself, and is offered ("Carry on with your
 *   game") on a setup reached any other way.
 * A region with data-shown-by="script" is shown when its own script says so (snap.js: once
 * the new card has been painted), through kioskPlay.shown(region).
 * htmx sends the forms and morphs the game in place. Safe to load twice (boosted navigation).
 * In an embed every form goes by script, never by the browser's own submission (a frame
 * sandboxed without allow-forms refuses that): the pace's "Next" and the resume go through
 * send() (embedded.js's kioskEmbed.send: a submit event for htmx).
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

  function send(form, button) {
    // one way to send a form: by script inside an embed (embedded.js), else as the browser would
    if (window.kioskEmbed) window.kioskEmbed.send(form, button);
    else form.requestSubmit(button);
  }

  function nextButton(g) {
    var b = g.querySelector("#play-form button[value=next]");
    return b && !b.disabled ? b : null;
  }

  // ------------------------------------------------------------------ keeping the game

  var KEPT = "kiosk.play:"; // sessionStorage: one game per game and set
  var BRINGING = "Bringing back your game, as you left it\u2026";

  function leaving() {
    // kiosk mode is taking this page home (an idle reset, or an entry of an earlier visit)
    return document.documentElement.classList.contains("is-leaving");
  }

  function entryId() {
    // this history entry's own id: the same after a reload, Back or Forward, new for a new visit
    var entry = window.navigation && window.navigation.currentEntry;
    return entry ? entry.id : "";
  }

  function setOf(url) {
    var m = /\/sets\/([^\/]+)\/play(\/|$)/.exec(new URL(url, location.href).pathname);
    return m ? decodeURIComponent(m[1]) : "";
  }

  function stored(game, set) {
    try {
      return JSON.parse(sessionStorage.getItem(KEPT + game + ":" + set));
    } catch (e) { // storage off (a sandbox's opaque origin): the frame's window.name (embedded.js)
      return window.kioskEmbed ? window.kioskEmbed.kept(KEPT + game + ":" + set) : null;
    }
  }
  function store(game, set, kept) {
    // kept (null: forgotten) in sessionStorage, or where it throws (off or full) the frame's
    try {
      if (kept) sessionStorage.setItem(KEPT + game + ":" + set, JSON.stringify(kept));
      else sessionStorage.removeItem(KEPT + game + ":" + set);
    } catch (e) {
      if (window.kioskEmbed) window.kioskEmbed.keep(KEPT + game + ":" + set, kept);
    }
  }

  function usable(kept, game, set) {
    return !!kept && typeof kept === "object" && kept.game === game && kept.set === set &&
      typeof kept.token === "string" && kept.token !== "";
  }

  function forget(game, set) {
    if (game && set) store(game, set, null); // ended or refused: nothing to bring back
  }

  function keepGame(g) {
    // the table on screen: its game kept with its entry's id, or forgotten if over
    var form = g && g.querySelector("#play-form");
    var token = form && form.querySelector("input[name=token]");
    if (!token || !token.value || leaving()) return;
    var kept = {
      game: g.dataset.game,
      set: setOf(form.getAttribute("action") || ""),
      token: token.value,
      step: g.dataset.step,
      entry: entryId()
    };
    if (!kept.game || !kept.set) return;
    if (g.dataset.over === "1") {
      forget(kept.game, kept.set);
      return;
    }
    store(kept.game, kept.set, kept);
  }

  function forgetGone() {
    // the friendly "Let's start a new game" page: that game cannot come back
    var gone = document.querySelector("[data-game-gone]");
    if (gone) forget(gone.getAttribute("data-game-gone"), gone.getAttribute("data-set"));
  }

  function resumeParts(box) {
    var form = box.querySelector("form");
    return { form: form, token: form.elements.token, words: box.querySelector(".setup__resume-words") };
  }

  function resetBox(box) {
    // the setup as the page drew it: Start, and the offer (if any) with its button
    var p = resumeParts(box);
    if (!box.dataset.words) box.dataset.words = p.words.textContent;
    p.words.textContent = box.dataset.words;
    p.form.removeAttribute("data-hx-push-url");
    box.classList.remove("is-resuming"); // play.css: words shown, Carry on and Start hidden
    box.hidden = true;
    return p;
  }

  function armed(p, kept) {
    // the resume form with the kept token, its address and method (none without a token)
    p.form.setAttribute("method", "post");
    p.form.setAttribute("action", p.form.dataset.action);
    p.token.value = kept.token;
  }

  function bringBack(box, kept) {
    // this entry held an unfinished game: post its token to the resume address, in place
    var p = resetBox(box);
    armed(p, kept);
    p.form.setAttribute("data-hx-push-url", "false"); // the entry stays: only its page changes
    p.words.textContent = BRINGING; // a moment the only thing on screen
    box.classList.add("is-resuming");
    box.hidden = false;
    // htmx takes the page's forms on DOMContentLoaded, after this script's own listener
    setTimeout(function () {
      if (!document.contains(p.form) || leaving()) return;
      send(p.form, null);
    }, 0);
  }

  function arrive() {
    // a setup page: bring this entry's own game back, or offer the one kept for this setup
    var box = document.getElementById("play-resume");
    if (!box || box.dataset.arrived || leaving()) return;
    box.dataset.arrived = "1";
    var game = box.dataset.game;
    var set = box.dataset.set;
    var kept = stored(game, set);
    if (usable(kept, game, set) && kept.entry && kept.entry === entryId()) {
      bringBack(box, kept);
      return;
    }
    var p = resetBox(box);
    if (!usable(kept, game, set)) return;
    armed(p, kept);
    box.hidden = false;
  }

  function shown(g) {
    // a new table is on screen: note it, and pace the computer players from now
    clearTimeout(state.timer);
    if (!g) return;
    keepGame(g);
    var status = g.querySelector("[role=status]");
    note("shown", {
      step: g.dataset.step,
      over: g.dataset.over === "1",
      said: status ? status.innerText : ""
    });
    var pace = parseInt(g.dataset.pace || "", 10);
    if (!pace || g.dataset.over === "1") return;
    var step = g.dataset.step;
    function next() {
      var now = root();
      if (!now || now.dataset.step !== step) return;
      if (state.busy || state.held) {
        // a request, or a game script's hold (cards still moving): wait for it, then go on
        state.timer = setTimeout(next, 50);
        return;
      }
      var b = nextButton(now);
      if (!b) return;
      send(b.form, b);
    }
    state.timer = setTimeout(next, pace);
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

  function from(event, selector) {
    // an htmx event about a request of an element in selector (#play-form, #play-resume)
    var src = event.detail.ctx.sourceElement;
    return !!(src && src.closest(selector));
  }

  function onShown(g) {
    if (g && g.dataset.shownBy !== "script") shown(g);
  }

  function boot() {
    forgetGone();
    arrive();
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
    if (!from(event, "#play-form")) return;
    state.busy = true;
    clearTimeout(state.timer);
  });
  document.addEventListener("htmx:finally:request", function (event) {
    if (from(event, "#play-form")) state.busy = false;
    var box = from(event, "#play-resume") ? document.getElementById("play-resume") : null;
    if (box && box.classList.contains("is-resuming")) {
      // no answer swapped in (the network failed): the setup again, with its offer
      delete box.dataset.arrived;
      var p = resetBox(box);
      if (p.token && p.token.value) box.hidden = false;
    }
  });
  document.addEventListener("htmx:after:swap", function (event) {
    if (!from(event, "#play-form")) {
      boot();
      return;
    }
    forgetGone();
    state.booted = root();
    refocus();
    onShown(state.booted);
  });
  window.addEventListener("pageshow", function (event) {
    // back from the back/forward cache: a setup page looks again; a table is kept again
    if (!event.persisted || leaving()) return;
    var box = document.getElementById("play-resume");
    if (box) delete box.dataset.arrived;
    arrive();
    if (root()) keepGame(root());
  });

  document.documentElement.classList.add("play-js");
  window.kioskPlay = { boot: boot, state: state, log: state.log, note: note, shown: shown, send: send };
  document.dispatchEvent(new Event("kiosk:play-ready")); // snap.js may be waiting
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", boot);
  } else {
    boot(); // first loaded by a swap (boosted navigation)
  }
})();
