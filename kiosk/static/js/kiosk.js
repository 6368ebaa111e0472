// The kiosk's own small script, on every page; every page works without it. "View card"
// uncovers a flagged card in place (without it the button reloads the page); "Copy the code" and
// "Print" (hidden without it); after a boosted swap of #main, the body takes the new page's
// class, the window goes to the top and focus to the new heading.
(function () {
  "use strict";

  function setRevealed(flagged, show) {
    // cards/_card.html: a cover always, a face whenever it can be shown in place
    var cover = flagged.querySelector("[data-cover]");
    var face = flagged.querySelector("[data-face]");
    cover.hidden = show;
    face.hidden = !show;
    flagged.classList.toggle("is-revealed", show);
    if (show) flagged.dispatchEvent(new CustomEvent("kiosk:reveal", { bubbles: true })); // insights.js
    (show ? face.querySelector("[data-cover-again]") : cover.querySelector("button")).focus();
  }

  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("data-reveal")) return; // a submit event's target is a form
    event.preventDefault();
    setRevealed(event.target.closest("[data-flagged]"), true);
  });

  function showButtons() {
    document.querySelectorAll("[data-copy][hidden], [data-print][hidden]").forEach(function (b) {
      b.hidden = false;
    });
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector("[data-copy-status]");
    function byHand() {
      source.focus();
      source.select();
      status.textContent = "Press Ctrl+C (or Cmd+C) to copy.";
    }
    if (!navigator.clipboard) return byHand(); // not a secure context
    navigator.clipboard.writeText(source.value).then(function () {
      status.textContent = "Copied. Now paste it into your page.";
    }, byHand);
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var link = target.closest("[data-cover-again]");
    if (link) {
      event.preventDefault();
      setRevealed(link.closest("[data-flagged]"), false);
    }
    if (target.closest("[data-copy]")) copy(target.closest("[data-copy]"));
    if (target.closest("[data-print]")) window.print();
  });

  showButtons();
  document.addEventListener("htmx:after:swap", function (event) {
    showButtons();
    var target = event.detail.ctx && event.detail.ctx.target;
    // a morph (a rule step) keeps <main>, its place and its focus; a boosted link swaps it whole
    if (!target || target.id !== "main" || target.isConnected) return;
    var main = document.getElementById("main");
    if (!main) return;
    var keep = ["is-embed", "is-kiosk"].filter(function (name) {
      return document.body.classList.contains(name);
    });
    document.body.className = (main.getAttribute("data-body-class") || "").trim();
    keep.forEach(function (name) { document.body.classList.add(name); });
    if (!location.hash) window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    (main.querySelector("h1") || main).focus({ preventScroll: true });
  });
})();
