// For a host page (a school's site) that embeds kiosk pages in iframes: each embedded page
// posts {type: "kiosk:height", height}; this sets the matching iframe's height. A message is
// trusted only if it comes from an iframe on this page (event.source) whose src has the
// sender's origin (event.origin).
(function () {
  "use strict";
  var MAX = 20000;

  function frameFor(event) {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i += 1) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) {
        continue;
      }
      var origin;
      try {
        origin = new URL(frame.src, document.baseURI).origin;
      } catch (error) {
        return null;
      }
      return origin === event.origin ? frame : null;
    }
    return null;
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object" || data.type !== "kiosk:height") {
      return;
    }
    var height = Number(data.height);
    if (!isFinite(height) || height <= 0) {
      return;
    }
    var frame = frameFor(event);
    if (frame) {
      frame.style.height = Math.min(Math.ceil(height), MAX) + "px";
    }
  });
})();
