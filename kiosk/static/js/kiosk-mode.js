/* Kiosk mode (KIOSK_MODE): the gallery touchscreen's own behaviour, in <head> and not deferred
   so that it can leave a page of the last visitor before it is painted. Idle: "Are you still
   there?" counts down, then a reset (storage cleared, location.replace(home): every game token
   and uncovered card gone); on the home page, the attract loop instead. The reset notes the
   Navigation API ids of the entries it leaves (kiosk.gone): Back or Forward to one goes home at
   once (htmx keeps no copy of a page: it fetches a restored entry afresh). Also: no context
   menu, selection or zoom; three text sizes kept for the visit. Safe to load twice. */
(function () {
  "use strict";
  if (window.kioskMode) return;

  var GONE = "kiosk.gone";
  var SIZE = "kiosk.textSize";
  var ATTRACT = "kiosk.attract";
  var SIZES = ["standard", "large", "largest"];
  var root = document.documentElement;
  var home = root.dataset.kioskHome; // base.html sets these four in kiosk mode
  var firstSlide = root.dataset.kioskAttract;
  var idleMs = Number(root.dataset.kioskIdleMs);
  var countdownMs = Number(root.dataset.kioskCountdownMs);
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

  function read(store, key) {
    try { return window[store].getItem(key); } catch (e) { return null; }
  }
  function write(store, key, value) {
    try { window[store].setItem(key, value); } catch (e) { /* storage off: nothing kept */ }
  }
  function wipe(store) {
    try { window[store].clear(); } catch (e) { /* storage off: nothing to clear */ }
  }

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

  document.addEventListener("contextmenu", function (event) {
    event.preventDefault();
  }, true);
  document.addEventListener("selectstart", function (event) {
    var t = event.target; // a text node has no closest()
    if (!(t.closest && t.closest("input, textarea, select, [contenteditable]"))) event.preventDefault();
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

  var phase = "active"; // "active" | "warning" | "attract"
  var last = Date.now();
  var deadline = 0;
  var announced = 0;
  var swallowUntil = 0;

  // base.html draws the dialog and the attract layer outside #main in kiosk mode: always there
  function dialog() {
    return document.getElementById("kiosk-idle");
  }
  function part(name) {
    return dialog().querySelector("[data-idle-" + name + "]");
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
    var secs = seconds(left);
    var count = part("count");
    if (count.textContent !== String(secs)) count.textContent = String(secs);
    part("bar").max = seconds(countdownMs);
    part("bar").value = secs;
    // Said when the question opens and at 20, 10 and 5 seconds: never every second.
    if (announced === 0 || (secs !== announced && [20, 10, 5].indexOf(secs) >= 0)) {
      announced = secs;
      part("status").textContent = "The kiosk will start again in " + secs + " seconds unless you tap.";
    }
  }

  function openWarning(now) {
    phase = "warning";
    deadline = now + countdownMs;
    announced = 0;
    showCount(countdownMs);
    if (!dialog().open) dialog().showModal();
    part("stay").focus();
  }

  function extend() {
    phase = "active";
    last = Date.now();
    if (dialog().open) dialog().close();
    part("status").textContent = "";
  }

  function tick() {
    if (leaving) return;
    var now = Date.now();
    if (phase === "active" && now - last >= idleMs) {
      if (onHome()) reset(true);
      else openWarning(now);
    } else if (phase === "warning") {
      if (!dialog().open) {
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

  var run = 0; // bumped to stop a loop whose fetch or timer is still pending
  var timer = 0;

  function layer() {
    return document.getElementById("kiosk-attract");
  }
  function stage() {
    return layer().querySelector("[data-attract-stage]");
  }

  function startAttract() {
    phase = "attract";
    layer().hidden = false;
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
    layer().hidden = true;
    stage().replaceChildren();
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
    fetch(url, { headers: { "HX-Request": "true" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        if (token !== run || phase !== "attract") return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var slide = doc.querySelector("[data-attract-slide]");
        if (!slide) throw new Error("not a slide"); // an error page, say
        stage().replaceChildren(document.importNode(slide, true));
        play(stage().firstElementChild, token);
      })
      .catch(function () {
        later(5000, token, function () { load(firstSlide, token); }); // try again quietly
      });
  }

  function play(slide, token) {
    var next = slide.dataset.next; // attract/_slide.html sets all three
    var slideMs = Number(slide.dataset.slideMs);
    var stepMs = Number(slide.dataset.stepMs);
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
