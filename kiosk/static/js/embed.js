// For a host page (a school's site) that embeds kiosk pages in iframes: each embedded page
// posts {type: "kiosk:height", height}; this sets the matching iframe's height. A message is
// trusted only if it comes from an iframe on this page (event.source) whose src has the
// sender's origin (event.origin); from a frame this page sandboxed without allow-same-origin
// the origin is the opaque "null", believed because event.source is that frame's window.
// Once a frame has spoken, the oEmbed answer's blockquote before it is hidden.
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
      var opaque = event.origin === "null" && frame.hasAttribute("sandbox") &&
        !/(^|\s)allow-same-origin(\s|$)/.test(frame.getAttribute("sandbox"));
      return origin === event.origin || opaque ? frame : null;
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
      // the oEmbed answer's words before the frame (kiosk/web/oembed.py): the frame is here
      var words = frame.previousElementSibling;
      if (words && words.classList.contains("kiosk-embed-fallback")) words.hidden = true;
    }
  });
})();
