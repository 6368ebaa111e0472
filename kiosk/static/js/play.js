/* play.js: what every game's table shares (docs/play.md, "One action" and "Reload, Back and
 * Forward"): the computer players' pace ("Next" sent by itself data-pace ms after a table is
 * shown, waiting while a request or a game script's hold is on), focus after a swap, a log for
 * tests and benchmarks (kioskPlay.log), and the game kept with its history entry's id so that a
 * reload, Back or Forward brings it back. A region with data-shown-by="script" is shown when its
 * script says so (kioskPlay.shown). In an embed every form is sent by script (send(): a sandbox
 * may refuse the browser's own submission). Safe to load twice (boosted navigation).
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
    if (window.kioskEmbed) window.kioskEmbed.send(form, button);
    else form.requestSubmit(button);
  }

  function nextButton(g) {
    var b = g.querySelector("#play-form button[value=next]");
    return b && !b.disabled ? b : null;
  }

  var KEPT = "kiosk.play:"; // sessionStorage: one game per game and set
  var BRINGING = "Bringing back your game, as you left it\u2026";

  function leaving() {
    // kiosk mode is taking this page home
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
    // null: forgotten
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
    store(kept.game, kept.set, g.dataset.over === "1" ? null : kept);
  }

  function forgetGone() {
    // the friendly "Let's start a new game" page: that game cannot come back
    var gone = document.querySelector("[data-game-gone]");
    if (gone) store(gone.getAttribute("data-game-gone"), gone.getAttribute("data-set"), null);
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
    // without a token the form has no address or method: nothing can send it
    p.form.setAttribute("method", "post");
    p.form.setAttribute("action", p.form.dataset.action);
    p.token.value = kept.token;
  }

  function bringBack(box, kept) {
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
    // a setup page: this entry's own game comes back; one kept for this setup is offered
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
    // an htmx event about a request of an element in selector (htmx:error may have no ctx)
    var src = event.detail.ctx && event.detail.ctx.sourceElement;
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
  window.kioskPlay = { boot: boot, state: state, log: state.log, note: note, shown: shown, send: send, from: from };
  document.dispatchEvent(new Event("kiosk:play-ready")); // snap.js may be waiting
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", boot);
  } else {
    boot(); // first loaded by a swap (boosted navigation)
  }
})();
