/* Rule steps: Previous / Next / Play / Start again without reloading, with every card moving
   from its old place to its new one (view transitions; a card turned over turns).
   The links work without this script; it only makes them smoother. Safe to load twice.
   In a frame sandboxed without allow-same-origin (a WordPress embed) the history may refuse
   a new address (an opaque origin): the step then changes without one (remember()). */
(function () {
  "use strict";
  if (window.kioskRules) {
    window.kioskRules.init();
    return;
  }

  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var busy = false;
  var pending = null; // the last address asked for while a step was still arriving
  var transition = null;
  var playing = false;
  var timer = 0;

  function remember(replace, url) {
    // the step's address in the history, where the frame allows it
    try {
      if (replace) history.replaceState({ rules: true }, "", url);
      else history.pushState({ rules: true }, "", url);
    } catch (e) { /* an opaque origin: the step shows, its address stays */ }
  }

  function stage() {
    return document.getElementById("rules-stage");
  }

  function link(kind) {
    var s = stage();
    return s ? s.querySelector('#rules-nav a[data-go="' + kind + '"]') : null;
  }

  function cardsOf(root) {
    var out = {};
    root.querySelectorAll("[data-card]").forEach(function (el) {
      out[el.getAttribute("data-card")] = el;
    });
    return out;
  }

  function moved(a, b) {
    if (a.getAttribute("data-place") !== b.getAttribute("data-place")) return true;
    return a.getAttribute("data-up") !== b.getAttribute("data-up");
  }

  function name(id) {
    return "rc-" + id;
  }

  function mark(el, id, flip) {
    el.style.viewTransitionName = name(id);
    if (flip) el.style.viewTransitionClass = "flip";
  }

  function clear(root) {
    root.querySelectorAll("[data-card]").forEach(function (el) {
      el.style.viewTransitionName = "";
      el.style.viewTransitionClass = "";
    });
  }

  function syncPlay() {
    var a = link("play") || link("pause");
    if (!a) return;
    if (playing) {
      a.textContent = "Pause";
      a.setAttribute("data-go", "pause");
      a.setAttribute("href", location.pathname);
    } else if (a.getAttribute("data-go") === "pause") {
      a.textContent = "Play";
      a.setAttribute("data-go", "play");
      var next = link("next");
      a.setAttribute("href", (next ? next.getAttribute("href") : location.pathname) + "?play=1");
    }
  }

  // The controls stay the same elements where they can (a finger may be on one): only their
  // address, words and state change; a link that becomes a disabled label is replaced.
  function swapNav(from, to) {
    from.querySelectorAll("[data-slot]").forEach(function (fresh) {
      var slot = fresh.getAttribute("data-slot");
      var old = to.querySelector('[data-slot="' + slot + '"]');
      if (!old) return;
      if (old.tagName !== fresh.tagName) {
        old.replaceWith(document.importNode(fresh, true));
        return;
      }
      ["href", "rel", "data-go", "class", "aria-disabled"].forEach(function (name) {
        var value = fresh.getAttribute(name);
        if (value === null) old.removeAttribute(name);
        else if (old.getAttribute(name) !== value) old.setAttribute(name, value);
      });
      if (old.innerHTML !== fresh.innerHTML) old.innerHTML = fresh.innerHTML;
    });
  }

  function swap(fresh, focusKind, doc) {
    var s = stage();
    ["rules-caption", "rules-table"].forEach(function (id) {
      var from = fresh.querySelector("#" + id);
      var to = document.getElementById(id);
      if (from && to) to.innerHTML = from.innerHTML;
    });
    // The trail above the stage names this step too (in an embed, its one way out: the same
    // step on the full kiosk), so it follows the step.
    var crumbs = doc && doc.querySelector("nav.breadcrumbs");
    var here = document.querySelector("nav.breadcrumbs");
    if (crumbs && here && here.innerHTML !== crumbs.innerHTML) here.innerHTML = crumbs.innerHTML;
    var nav = fresh.querySelector("#rules-nav");
    if (nav) swapNav(nav, document.getElementById("rules-nav"));
    s.setAttribute("data-total", fresh.getAttribute("data-total") || "");
    syncPlay();
    document.dispatchEvent(new CustomEvent("kiosk:rule-step")); // a step reached (insights.js)
    if (focusKind && !document.activeElement.closest("#rules-nav")) {
      var again = link(focusKind) || link(playing ? "pause" : "play") || link("start");
      if (again) again.focus({ preventScroll: true });
    }
  }

  function done() {
    var s = stage();
    busy = false;
    transition = null;
    if (s) {
      clear(s);
      s.setAttribute("data-state", "idle");
    }
    if (pending) {
      var url = pending;
      pending = null;
      go(url, true);
      return;
    }
    schedule();
  }

  function schedule() {
    window.clearTimeout(timer);
    if (!playing) return;
    var next = link("next");
    if (!next) {
      playing = false;
      syncPlay();
      return;
    }
    var s = stage();
    var dwell = parseInt((s && s.getAttribute("data-dwell")) || "1600", 10);
    timer = window.setTimeout(function () {
      var n = link("next");
      if (playing && n && !busy) go(n.getAttribute("href"), true);
    }, dwell);
  }

  function go(url, push) {
    var s = stage();
    if (!s) return;
    window.clearTimeout(timer);
    if (busy) {
      pending = url; // never ignore a tap: finish the running move at once, then go on
      if (transition) transition.skipTransition();
      return;
    }
    busy = true;
    s.setAttribute("data-state", "busy");
    var focused = document.activeElement;
    var focusKind = focused && focused.closest && focused.closest("#rules-nav")
      ? focused.getAttribute("data-go") : null;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("rules-stage");
        if (!fresh) throw new Error("not a step");
        if (doc.title) document.title = doc.title;
        if (push) remember(false, url);
        var before = cardsOf(s);
        var after = cardsOf(fresh);
        var moving = [];
        Object.keys(after).forEach(function (id) {
          var a = before[id];
          if (a && moved(a, after[id])) {
            moving.push([id, a.getAttribute("data-up") !== after[id].getAttribute("data-up")]);
          }
        });
        if (reduced.matches || !document.startViewTransition || !moving.length) {
          swap(fresh, focusKind, doc);
          done();
          return;
        }
        moving.forEach(function (m) { mark(before[m[0]], m[0], m[1]); });
        transition = document.startViewTransition(function () {
          swap(fresh, focusKind, doc);
          var now = cardsOf(stage());
          moving.forEach(function (m) { if (now[m[0]]) mark(now[m[0]], m[0], m[1]); });
        });
        // a transition the browser gives up (a busy machine) skips its animation, not the step
        if (transition.ready) transition.ready.catch(function () { /* the step shows anyway */ });
        transition.finished.then(done, done);
      })
      .catch(function () {
        busy = false;
        location.assign(url); // the address works on its own
      });
  }

  function follow(kind) {
    var a = link(kind);
    if (a) go(a.getAttribute("href"), true);
  }

  function play() {
    playing = true;
    syncPlay();
    var next = link("next");
    if (!next) { // at the end: Play starts again from the first step
      var start = link("start");
      if (start) go(start.getAttribute("href"), true);
      return;
    }
    go(next.getAttribute("href"), true);
  }

  function pause() {
    playing = false;
    window.clearTimeout(timer);
    syncPlay();
  }

  function onClick(event) {
    var a = event.target.closest && event.target.closest("#rules-nav a[data-go]");
    if (!a || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    var kind = a.getAttribute("data-go");
    if (kind === "play") play();
    else if (kind === "pause") pause();
    else {
      if (kind === "start") pause();
      go(a.getAttribute("href"), true);
    }
  }

  function onKey(event) {
    if (!stage() || event.altKey || event.ctrlKey || event.metaKey) return;
    var t = event.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
    if (event.key === "ArrowRight") { event.preventDefault(); follow("next"); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); follow("prev"); }
  }

  var startX = null;
  var startY = 0;
  function onDown(event) {
    if (!event.target.closest || !event.target.closest("#rules-table")) return;
    startX = event.clientX;
    startY = event.clientY;
  }
  function onUp(event) {
    if (startX === null) return;
    var dx = event.clientX - startX;
    var dy = event.clientY - startY;
    startX = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
    follow(dx < 0 ? "next" : "prev");
  }

  function init() {
    var s = stage();
    if (!s || s.getAttribute("data-bound")) return;
    s.setAttribute("data-bound", "1");
    s.setAttribute("data-state", "idle");
    remember(true, location.href);
    if (s.hasAttribute("data-playing")) {
      playing = true;
      remember(true, location.pathname);
      syncPlay();
      schedule();
    } else {
      playing = false;
    }
  }

  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onDown);
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", function () { startX = null; });
  window.addEventListener("popstate", function (event) {
    if (event.state && event.state.rules && stage()) {
      pause();
      go(location.href, false);
    }
  });
  document.addEventListener("htmx:after:swap", init);
  window.kioskRules = { init: init, go: go };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
