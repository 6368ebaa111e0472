// The kiosk's own small script. Progressive enhancement only: every page works without it.
// - "View card" uncovers a flagged card in place (without JS the button reloads the page
//   with the card uncovered), and "Cover card again" covers it.
// - After htmx swaps #main (boosted navigation), the body takes the new page's class, the
//   window goes to the top and focus moves to the new page's heading, so keyboard and
//   screen-reader users land at the start of the new content (keeping is-embed / is-kiosk).
// No inline handlers, no eval: the CSP forbids both.
(function () {
  "use strict";

  function setRevealed(flagged, show) {
    var cover = flagged.querySelector("[data-cover]");
    var face = flagged.querySelector("[data-face]");
    if (!cover || !face) {
      return;
    }
    cover.hidden = show;
    face.hidden = !show;
    flagged.classList.toggle("is-revealed", show);
    if (show) flagged.dispatchEvent(new CustomEvent("kiosk:reveal", { bubbles: true })); // insights.js
    var next = show ? face.querySelector("[data-cover-again]") : cover.querySelector("button");
    if (next) {
      next.focus();
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-reveal")) {
      return;
    }
    var flagged = form.closest("[data-flagged]");
    if (flagged) {
      event.preventDefault();
      setRevealed(flagged, true);
    }
  });

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("[data-cover-again]") : null;
    var flagged = link ? link.closest("[data-flagged]") : null;
    if (flagged) {
      event.preventDefault();
      setRevealed(flagged, false);
    }
  });

  document.addEventListener("htmx:after:swap", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var target = ctx && ctx.target;
    if (!target || target.id !== "main" || target.isConnected) {
      return; // a morph (a rule step) keeps <main>, its place and its focus
    }
    // Boosted links swap <main> whole: take the new page's class, go to its top, focus it.
    var main = document.getElementById("main");
    if (!main) {
      return;
    }
    var keep = ["is-embed", "is-kiosk"].filter(function (name) {
      return document.body.classList.contains(name);
    });
    document.body.className = (main.getAttribute("data-body-class") || "").trim();
    keep.forEach(function (name) { document.body.classList.add(name); });
    if (!location.hash) {
      window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    }
    var heading = main.querySelector("h1");
    (heading || main).focus({ preventScroll: true });
  });
})();
