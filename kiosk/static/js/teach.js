/* "Embed this" (templates/teach/_embed.html): the Copy button copies the snippet and says so.
   Without this script the button stays hidden and the code can be selected by hand.
   Print and play (templates/print/set.html): the Print button opens the browser's print.
   Safe to load twice (boosted navigation). */
(function () {
  "use strict";
  if (window.kioskTeach) {
    window.kioskTeach.show();
    return;
  }

  function show() {
    document.querySelectorAll("[data-copy][hidden], [data-print][hidden]").forEach(function (b) {
      b.hidden = false;
    });
  }

  function say(button, words) {
    var status = button.parentNode.querySelector("[data-copy-status]");
    if (status) status.textContent = words;
  }

  function selectAll(source) {
    source.focus();
    source.select();
  }

  function copy(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = source.value;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(
        function () { say(button, "Copied. Now paste it into your page."); },
        function () { selectAll(source); say(button, "Press Ctrl+C (or Cmd+C) to copy."); }
      );
    } else {
      selectAll(source);
      say(button, "Press Ctrl+C (or Cmd+C) to copy.");
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var button = target && target.closest("[data-copy]");
    if (button) {
      copy(button);
      return;
    }
    if (target && target.closest("[data-print]")) window.print();
  });
  document.addEventListener("htmx:after:swap", show);
  window.kioskTeach = { show: show };
  show();
})();
