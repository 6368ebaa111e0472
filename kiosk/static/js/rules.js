/* Rule steps (docs/rules.md). The controls are boosted links (templates/rules/step.html): htmx
   fetches the step, morphs #main (the controls stay the same elements) and pushes its address;
   Back and Forward are htmx's history restore. This script adds what htmx cannot: every card
   that moves flies from its old place to its new one in a view transition (a card turned over
   turns; none with reduced motion), Play's dwell, the arrow keys and the swipe. Safe to load twice. */
(function () {
  "use strict";
  if (window.kioskRules) return;

  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var playing = false;
  var timer = 0;
  var moving = [];

  function stage() {
    return document.getElementById("rules-stage");
  }

  function link(kind) {
    var s = stage();
    return s ? s.querySelector('#rules-nav a[data-go="' + kind + '"]') : null;
  }

  function follow(kind) {
    var a = link(kind);
    if (a) a.click(); // htmx takes the click
  }

  function cardsOf(root) {
    var out = {};
    if (!root) return out; // the visitor left the rules while a step was landing
    root.querySelectorAll("[data-card]").forEach(function (el) {
      out[el.getAttribute("data-card")] = el;
    });
    return out;
  }

  function moved(a, b) {
    if (a.getAttribute("data-place") !== b.getAttribute("data-place")) return true;
    return a.getAttribute("data-up") !== b.getAttribute("data-up");
  }

  function mark(root, on) {
    var cards = cardsOf(root);
    moving.forEach(function (m) {
      var el = cards[m[0]];
      if (!el) return;
      el.style.viewTransitionName = on ? "rc-" + m[0] : "";
      el.style.viewTransitionClass = on && m[1] ? "flip" : "";
    });
  }

  function ours(event) {
    var ctx = event.detail && event.detail.ctx;
    var src = ctx && ctx.sourceElement;
    return !!(src && src.hasAttribute && src.hasAttribute("data-go") && stage());
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

  function schedule() {
    window.clearTimeout(timer);
    if (!playing) return;
    if (!link("next")) {
      playing = false;
      syncPlay();
      return;
    }
    var s = stage();
    var dwell = parseInt((s && s.getAttribute("data-dwell")) || "1600", 10);
    timer = window.setTimeout(function () {
      if (playing) follow("next");
    }, dwell);
  }

  function pause() {
    playing = false;
    window.clearTimeout(timer);
    syncPlay();
  }

  function onClick(event) {
    var a = event.target.closest && event.target.closest("#rules-nav a[data-go]");
    if (!a || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var kind = a.getAttribute("data-go");
    if (kind === "start") pause();
    if (kind !== "play" && kind !== "pause") return; // the link goes, by htmx
    event.preventDefault();
    event.stopPropagation();
    if (kind === "pause") {
      pause();
      return;
    }
    playing = true;
    syncPlay();
    follow(link("next") ? "next" : "start"); // at the end, Play starts again from the first step
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

  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onDown);
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", function () { startX = null; });
  document.addEventListener("htmx:before:request", function (event) {
    if (ours(event)) window.clearTimeout(timer);
  });
  document.addEventListener("htmx:before:swap", function (event) {
    // the cards that move between this step and the next: only they are named and animated
    var main = ours(event) && event.detail.tasks[0];
    if (!main) return;
    var before = cardsOf(stage());
    var after = cardsOf(main.fragment);
    moving = Object.keys(after).filter(function (id) {
      return before[id] && moved(before[id], after[id]);
    }).map(function (id) {
      return [id, before[id].getAttribute("data-up") !== after[id].getAttribute("data-up")];
    });
    main.transition = !!(moving.length && !reduced.matches && document.startViewTransition);
    if (main.transition) mark(stage(), true);
    else moving = [];
  });
  document.addEventListener("htmx:before:viewTransition", function (event) {
    var t = event.detail;
    if (!moving.length) return;
    var task = t.task;
    t.task = function () {
      mark(stage(), false);
      return Promise.resolve(task()).then(function () { mark(stage(), true); });
    };
  });
  document.addEventListener("htmx:after:viewTransition", function () {
    mark(stage(), false);
    moving = [];
  });
  document.addEventListener("htmx:after:swap", function (event) {
    if (!stage()) return;
    var step = ours(event);
    if (!step) playing = stage().hasAttribute("data-playing"); // a new page
    syncPlay();
    schedule();
    if (step && document.activeElement === document.body) { // its control went (the last step)
      var again = link(playing ? "pause" : "play") || link("start");
      if (again) again.focus({ preventScroll: true });
    }
  });
  window.kioskRules = {};
  playing = !!(stage() && stage().hasAttribute("data-playing"));
  syncPlay();
  schedule();
})();
