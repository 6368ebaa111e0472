// Inside an /embed/ page: tell the host page how tall the content is, so its iframe fits.
// The height is not a secret, so any parent may read it; the host's embed.js checks
// that the message really comes from its own iframe.
// Links need nothing from this script: the server already puts every same-site address of an
// embedded page under /embed/ (url_for for the templates, the offsite filter for content).
(function () {
  "use strict";
  if (window.parent === window) {
    return;
  }
  var last = 0;

  function contentHeight() {
    // <main> grows to fill the frame (flex: 1), so measure what is inside it instead.
    var main = document.getElementById("main");
    if (!main) {
      return document.documentElement.scrollHeight;
    }
    var bottom = main.getBoundingClientRect().top;
    for (var i = 0; i < main.children.length; i += 1) {
      bottom = Math.max(bottom, main.children[i].getBoundingClientRect().bottom);
    }
    var padding = parseFloat(getComputedStyle(main).paddingBottom) || 0;
    return Math.ceil(bottom + padding + window.scrollY);
  }

  function post() {
    var height = contentHeight();
    if (height === last) {
      return;
    }
    last = height;
    window.parent.postMessage({ type: "kiosk:height", height: height }, "*");
  }

  // Resizing the frame aborts a running view transition (the game table uses them), so the
  // height waits until none is running.
  function transitionRunning() {
    if (document.activeViewTransition) {
      return true;
    }
    if (typeof document.getAnimations !== "function") {
      return false;
    }
    return document.getAnimations().some(function (animation) {
      var effect = animation.effect;
      var pseudo = effect && effect.pseudoElement;
      return typeof pseudo === "string" && pseudo.indexOf("::view-transition") === 0;
    });
  }

  var timer = null;
  function schedule() {
    if (timer !== null) {
      return;
    }
    timer = window.setTimeout(function () {
      timer = null;
      if (transitionRunning()) {
        schedule();
      } else {
        post();
      }
    }, 80);
  }

  window.addEventListener("load", schedule);
  window.addEventListener("resize", schedule);
  document.addEventListener("htmx:after:swap", schedule);
  document.addEventListener("htmx:after:settle", schedule);
  if (typeof ResizeObserver === "function") {
    new ResizeObserver(schedule).observe(document.body);
  }
  schedule();
})();
