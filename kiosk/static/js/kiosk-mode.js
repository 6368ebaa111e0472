/* Kiosk mode (KIOSK_MODE=1 or `kiosk run --kiosk`): the gallery touchscreen's own behaviour.
   Loaded only in kiosk mode, in <head> and not deferred, so that it can leave a page from the
   last visitor before anything of it is painted.

   - Idle, two stages: after data-kiosk-idle-ms without a touch, key or pointer, the "Are you
     still there?" dialog counts down data-kiosk-countdown-ms (announced politely at a few
     moments, not every second); any tap or key closes it. When it runs out: reset.
   - Reset: session and local storage cleared (text size, anything opened) and
     location.replace(home): a new document, so every game token (kept only in the page and
     sessionStorage) is gone and every contested card is covered again.
   - No way back: the reset notes the ids of every history entry it leaves behind (the
     Navigation API's, in sessionStorage as kiosk.gone). An entry noted there, reached by Back
     or Forward (a new document, or a page from the back/forward cache), goes home at once.
     htmx 4 keeps no copy of a page: it fetches a restored entry afresh, in the same document,
     so the new visitor's own entries are the only ones it restores.
   - Attract loop: idle on the home page resets (nothing to ask) and starts the loop, slides
     fetched from /attract/<n> into the layer over the page; any tap or key stops it.
   - Locked down: no context menu, no text selection outside form fields, no zoom by
     ctrl+wheel or keys (CSS touch-action forbids pinch).
   - Text size: three sizes on <html data-text-size>, kept in sessionStorage for the visit.
   No inline handlers, no eval (the CSP forbids both). Safe to load twice. */
(function () {
  "use strict";
  if (window.kioskMode) return;

  var GONE = "kiosk.gone";
  var SIZE = "kiosk.textSize";
  var ATTRACT = "kiosk.attract";
  var SIZES = ["standard", "large", "largest"];
  var root = document.documentElement;
  var home = root.getAttribute("data-kiosk-home") || "/";
  var firstSlide = root.getAttribute("data-kiosk-attract") || "/attract/1";
  var idleMs = number(root.getAttribute("data-kiosk-idle-ms"), 90000);
  var countdownMs = number(root.getAttribute("data-kiosk-countdown-ms"), 30000);
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  function number(raw, fallback) {
    var n = parseInt(raw || "", 10);
    return n > 0 ? n : fallback;
  }

  // ------------------------------------------------------------------ storage

  function read(store, key) {
    try { return window[store].getItem(key); } catch (e) { return null; }
  }
  function write(store, key, value) {
    try { window[store].setItem(key, value); } catch (e) { /* storage off: nothing kept */ }
  }
  function wipe(store) {
    try { window[store].clear(); } catch (e) { /* storage off: nothing to clear */ }
  }

  // ------------------------------------------------------------------ no way back

  var leaving = false;

  function entries() {
    return navigation.entries().map(function (entry) { return entry.id; });
  }
  function gone() {
    var noted = (read("sessionStorage", GONE) || "").split(" ");
    return noted.indexOf(navigation.currentEntry.id) >= 0 && location.pathname + location.search !== home;
  }
  function goHome() {
    if (leaving) return;
    leaving = true;
    root.classList.add("is-leaving");
    location.replace(home);
  }

  if (gone()) {
    goHome();
    window.kioskMode = {}; // nothing starts: the page is leaving
    return;
  }
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && gone()) goHome();
  });

  // ------------------------------------------------------------------ text size

  function applySize(size) {
    if (SIZES.indexOf(size) < 0) size = "standard";
    if (size === "standard") root.removeAttribute("data-text-size");
    else root.setAttribute("data-text-size", size);
    syncSizeButtons();
  }
  function syncSizeButtons() {
    var size = root.getAttribute("data-text-size") || "standard";
    document.querySelectorAll("[data-set-text-size]").forEach(function (button) {
      var on = button.getAttribute("data-set-text-size") === size;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  applySize(read("sessionStorage", SIZE));

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-set-text-size]");
    if (!button) return;
    var size = button.getAttribute("data-set-text-size");
    write("sessionStorage", SIZE, size);
    applySize(size);
  });

  // ------------------------------------------------------------------ locked down

  function editable(target) {
    return !!(target && target.closest &&
      target.closest("input, textarea, select, [contenteditable]"));
  }
  document.addEventListener("contextmenu", function (event) {
    event.preventDefault();
  }, true);
  document.addEventListener("selectstart", function (event) {
    if (!editable(event.target)) event.preventDefault();
  }, true);
  document.addEventListener("dragstart", function (event) {
    event.preventDefault();
  }, true);
  document.addEventListener("wheel", function (event) {
    if (event.ctrlKey) event.preventDefault(); // a trackpad pinch arrives as ctrl+wheel
  }, { capture: true, passive: false });
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && /^[-+=0]$/.test(event.key)) event.preventDefault();
  }, true);

  // ------------------------------------------------------------------ idle: two stages

  var phase = "active"; // "active" | "warning" | "attract"
  var last = Date.now();
  var deadline = 0;
  var announced = 0;
  var swallowUntil = 0;

  function dialog() {
    return document.getElementById("kiosk-idle");
  }
  function onHome() {
    var main = document.getElementById("main");
    return !!main && main.classList.contains("page-home");
  }

  function reset(thenAttract) {
    // counted by insights.js: the countdown ran out, or the home page went quiet
    document.dispatchEvent(new CustomEvent("kiosk:reset", { detail: { how: thenAttract ? "home" : "countdown" } }));
    var noted = read("sessionStorage", GONE) || "";
    wipe("sessionStorage");
    wipe("localStorage");
    write("sessionStorage", GONE, (noted + " " + entries().join(" ")).trim());
    if (thenAttract) write("sessionStorage", ATTRACT, "1");
    goHome();
  }

  function seconds(ms) {
    return Math.max(0, Math.ceil(ms / 1000));
  }

  function showCount(left) {
    var d = dialog();
    if (!d) return;
    var secs = seconds(left);
    var count = d.querySelector("[data-idle-count]");
    var bar = d.querySelector("[data-idle-bar]");
    var status = d.querySelector("[data-idle-status]");
    if (count && count.textContent !== String(secs)) count.textContent = String(secs);
    if (bar) {
      bar.max = seconds(countdownMs);
      bar.value = secs;
    }
    // Said when the question opens and at 20, 10 and 5 seconds: never every second.
    var say = announced === 0 || (secs !== announced && [20, 10, 5].indexOf(secs) >= 0);
    if (status && say) {
      announced = secs;
      status.textContent = "The kiosk will start again in " + secs + " seconds unless you tap.";
    }
  }

  function openWarning(now) {
    var d = dialog();
    if (!d) {
      reset(false);
      return;
    }
    phase = "warning";
    deadline = now + countdownMs;
    announced = 0;
    showCount(countdownMs);
    if (!d.open) d.showModal();
    var stay = d.querySelector("[data-idle-stay]");
    if (stay) stay.focus();
  }

  function extend() {
    phase = "active";
    last = Date.now();
    var d = dialog();
    if (d && d.open) d.close();
    var status = d && d.querySelector("[data-idle-status]");
    if (status) status.textContent = "";
  }

  function tick() {
    if (leaving) return;
    var now = Date.now();
    if (phase === "active" && now - last >= idleMs) {
      if (onHome()) reset(true);
      else openWarning(now);
    } else if (phase === "warning") {
      var d = dialog();
      if (!d || !d.open) {
        extend(); // closed some other way (a history restore replaced it)
      } else if (now >= deadline) {
        reset(false);
      } else {
        showCount(deadline - now);
      }
    }
  }

  function onActivity(event) {
    if (leaving) return;
    var tap = event.type === "pointerdown" || event.type === "touchstart";
    if (phase === "warning" || phase === "attract") {
      if (event.type === "pointermove") return; // a moved mouse does not answer
      if (phase === "warning") extend();
      else stopAttract();
      if (tap) swallowUntil = Date.now() + 800; // the tap only answers: it follows no link
      if (event.type === "keydown" && event.key !== "Tab") event.preventDefault();
    }
    last = Date.now();
  }

  ["pointerdown", "touchstart", "keydown", "wheel", "pointermove"].forEach(function (type) {
    document.addEventListener(type, onActivity, { capture: true, passive: type !== "keydown" });
  });
  document.addEventListener("click", function (event) {
    if (swallowUntil && Date.now() < swallowUntil) {
      event.preventDefault();
      event.stopPropagation();
    }
    swallowUntil = 0;
  }, true);
  document.addEventListener("close", function (event) {
    if (event.target === dialog() && phase === "warning") extend();
  }, true);

  // ------------------------------------------------------------------ the attract loop

  var run = 0; // bumped to stop a loop whose fetch or timer is still pending
  var timer = 0;

  function layer() {
    return document.getElementById("kiosk-attract");
  }

  function startAttract() {
    var l = layer();
    if (!l) return;
    phase = "attract";
    l.hidden = false;
    root.classList.add("is-attract");
    run += 1;
    load(firstSlide, run);
  }

  function stopAttract() {
    document.dispatchEvent(new CustomEvent("kiosk:attract-stop")); // a tap (insights.js)
    run += 1;
    window.clearTimeout(timer);
    phase = "active";
    root.classList.remove("is-attract");
    var l = layer();
    if (l) {
      l.hidden = true;
      var stage = l.querySelector("[data-attract-stage]");
      if (stage) stage.replaceChildren();
    }
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    var heading = document.querySelector("#main h1");
    if (heading) heading.focus({ preventScroll: true });
  }

  function later(ms, token, fn) {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      if (token === run && phase === "attract") fn();
    }, ms);
  }

  function load(url, token) {
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (token !== run || phase !== "attract") return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var slide = doc.querySelector("[data-attract-slide]");
        var stage = layer() && layer().querySelector("[data-attract-stage]");
        if (!slide || !stage) throw new Error("not a slide");
        stage.replaceChildren(document.importNode(slide, true));
        play(stage.firstElementChild, token);
      })
      .catch(function () {
        later(5000, token, function () { load(firstSlide, token); }); // try again quietly
      });
  }

  function play(slide, token) {
    var next = slide.getAttribute("data-next") || firstSlide;
    var slideMs = number(slide.getAttribute("data-slide-ms"), 10000);
    var stepMs = number(slide.getAttribute("data-step-ms"), 2600);
    var frames = slide.querySelectorAll("[data-frame]");
    if (!frames.length || reduced.matches) {
      // a set, or a rule with reduced motion: its last step stands still, then the next slide
      later(slideMs, token, function () { load(next, token); });
      return;
    }
    var at = 0;
    frames.forEach(function (frame, i) { frame.hidden = i !== 0; });
    function step() {
      if (at + 1 >= frames.length) {
        load(next, token);
        return;
      }
      showFrame(frames[at], frames[at + 1]);
      at += 1;
      later(at + 1 >= frames.length ? stepMs * 2 : stepMs, token, step);
    }
    later(stepMs, token, step);
  }

  function name(el, on) {
    el.querySelectorAll("[data-card]").forEach(function (card) {
      card.style.viewTransitionName = on ? "ak-" + card.getAttribute("data-card") : "";
    });
  }

  function showFrame(from, to) {
    if (reduced.matches) {
      from.hidden = true;
      to.hidden = false;
      return;
    }
    name(from, true);
    var transition = document.startViewTransition(function () {
      name(from, false);
      from.hidden = true;
      to.hidden = false;
      name(to, true);
    });
    transition.finished.then(function () { name(to, false); }, function () { name(to, false); });
  }

  // ------------------------------------------------------------------ start

  var starts = 0; // how many idle timers run: one per document, however often this loads

  function boot() {
    starts += 1;
    syncSizeButtons();
    last = Date.now();
    if (read("sessionStorage", ATTRACT)) {
      sessionStorage.removeItem(ATTRACT); // it was read: storage works
      if (onHome()) startAttract();
    }
    window.setInterval(tick, 250);
  }

  document.addEventListener("htmx:after:swap", syncSizeButtons);
  window.kioskMode = {
    phase: function () { return phase; },
    starts: function () { return starts; }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
