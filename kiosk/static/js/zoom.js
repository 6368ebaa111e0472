/* Deep zoom: "Look closely" opens a picture's IIIF tiles (made by `kiosk images`) in
   OpenSeadragon inside a modal <dialog> (templates/pages/_zoom.html, in #main), with our own big
   buttons, pinch, double-tap and keys, and the credit and rights in view. Without this script
   "Look closely" is a link to the largest copy. OpenSeadragon is fetched when a picture is first
   opened. Kiosk mode's idle reset closes it. Safe to load twice. */
(function () {
  "use strict";
  if (window.kioskZoom) {
    window.kioskZoom.upgrade();
    return;
  }

  var STEP = 1.6; // one press of zoom in or out
  var ZOOM_KEYS = { Equal: STEP, NumpadAdd: STEP, Minus: 1 / STEP, NumpadSubtract: 1 / STEP };
  var HINT = "Pinch or double-tap to zoom in. Drag to look around.";
  var reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  var viewer = null; // one OpenSeadragon viewer, for the dialog it was made in
  var opener = null; // the button that opened the dialog: focus goes back to it
  var loading = null; // the promise of OpenSeadragon's script

  function dialog() {
    return document.querySelector("[data-zoom-dialog]");
  }

  function part(name) {
    var d = dialog();
    return d ? d.querySelector("[data-zoom-" + name + "]") : null;
  }

  function upgrade() {
    if (viewer && !viewer.element.isConnected) {
      viewer.destroy(); // made for a page that boosted navigation has since replaced
      viewer = null;
    }
    if (!dialog() || typeof dialog().showModal !== "function") return; // the links stay
    document.querySelectorAll("[data-zoom-open][hidden]").forEach(function (button) {
      button.hidden = false;
      var link = button.parentNode.querySelector("[data-zoom-fallback]");
      if (link) link.hidden = true;
    });
  }

  function loadViewer() {
    if (window.OpenSeadragon) return Promise.resolve(window.OpenSeadragon);
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = dialog().getAttribute("data-zoom-osd");
      script.onload = function () { resolve(window.OpenSeadragon); };
      script.onerror = function () {
        loading = null;
        script.remove();
        reject(new Error("OpenSeadragon did not load"));
      };
      document.head.appendChild(script);
    });
    return loading;
  }

  // OpenSeadragon adds a <style> of its own (it hides the focus ring on touch screens) unless
  // one marked data-openseadragon-mobile-css is in the document. The CSP refuses inline styles,
  // and the focus ring must stay: a mark of another namespace, which no browser applies as a
  // style sheet, tells OpenSeadragon not to.
  function markStyleAdded() {
    if (document.querySelector("style[data-openseadragon-mobile-css]")) return;
    var mark = document.createElementNS("urn:x-kiosk:zoom", "style");
    mark.setAttribute("data-openseadragon-mobile-css", "kiosk");
    document.head.appendChild(mark);
  }

  function settings(element, info) {
    var still = reduced.matches;
    return {
      element: element,
      tileSources: info,
      drawer: "canvas", // works without a GPU, as a kiosk PC or a headless browser may be
      showNavigationControl: false, // our own big buttons instead of its small ones
      showSequenceControl: false,
      prefixUrl: "",
      visibilityRatio: 1,
      constrainDuringPan: true,
      minZoomImageRatio: 1,
      maxZoomPixelRatio: 2,
      zoomPerClick: 2,
      animationTime: still ? 0 : 0.9,
      springStiffness: still ? 100 : 8,
      blendTime: 0,
      gestureSettingsTouch: {
        pinchToZoom: true,
        dblClickToZoom: true,
        clickToZoom: false,
        flickEnabled: !still
      },
      gestureSettingsMouse: {
        clickToZoom: false, // a click gives the picture focus; a double-click zooms
        dblClickToZoom: true,
        scrollToZoom: true
      }
    };
  }

  function describe(alt) {
    // OpenSeadragon's canvas is one focusable element: it is the picture, with its alt text
    var canvas = viewer && viewer.canvas;
    if (!canvas) return;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", alt);
    canvas.setAttribute("aria-describedby", "zoom-keys");
  }

  function status(words) {
    var el = part("status");
    if (!el) return;
    el.textContent = words;
    el.hidden = !words;
  }

  function show(info, alt) {
    var d = dialog();
    var element = part("viewer");
    return loadViewer().then(function (OSD) {
      if (!d.open) return;
      if (viewer && viewer.element !== element) {
        viewer.destroy(); // made for a page that boosted navigation has since replaced
        viewer = null;
      }
      if (!viewer) {
        markStyleAdded();
        viewer = OSD(settings(element, info));
        viewer.addHandler("open", function () {
          status(HINT); // until the visitor first touches the picture
          dialog().setAttribute("data-zoom-ready", "");
        });
        ["canvas-press", "canvas-scroll", "canvas-key"].forEach(function (name) {
          viewer.addHandler(name, function () { status(""); });
        });
        viewer.addHandler("open-failed", function () {
          status("Sorry, this picture cannot be zoomed just now.");
        });
        viewer.addHandler("canvas-key", function (event) {
          // + and - (the main keyboard's and the number pad's) zoom a step a press, as the
          // buttons do: OpenSeadragon's own is a held key's slow glide (a tenth a press)
          var key = event.originalEvent;
          var factor = ZOOM_KEYS[key.code];
          if (!factor || key.ctrlKey || key.altKey || key.metaKey) return;
          event.preventDefaultAction = true;
          key.preventDefault();
          if (!key.repeat) zoomBy(factor);
        });
      } else {
        viewer.open(info);
      }
      describe(alt);
    });
  }

  function fill(button) {
    var title = button.getAttribute("data-zoom-title") || "";
    var rights = button.getAttribute("data-zoom-rights") || "";
    var rightsName = button.getAttribute("data-zoom-rights-name") || "";
    part("title").textContent = title;
    part("credit-text").textContent = button.getAttribute("data-zoom-credit") || "";
    var link = part("rights-link");
    var text = part("rights-text");
    link.hidden = !rights;
    text.hidden = !!rights;
    if (rights) {
      link.href = rights;
      link.textContent = rightsName;
    } else {
      link.removeAttribute("href");
      text.textContent = rightsName;
    }
  }

  function open(button) {
    var d = dialog();
    if (!d || d.open) return;
    opener = button;
    fill(button);
    d.removeAttribute("data-zoom-ready");
    status("Loading the picture…");
    d.showModal();
    var close = part("close");
    if (close) close.focus();
    show(button.getAttribute("data-zoom-info"), button.getAttribute("data-zoom-alt") || "")
      .catch(function () { status("Sorry, this picture cannot be zoomed just now."); });
  }

  function zoomBy(factor) {
    if (!viewer || !viewer.viewport) return;
    status("");
    viewer.viewport.zoomBy(factor);
    viewer.viewport.applyConstraints();
  }

  function reset() {
    if (viewer && viewer.viewport) viewer.viewport.goHome(true);
  }

  function close() {
    var d = dialog();
    if (d && d.open) d.close(); // the "close" event does the rest
  }

  function closed() {
    reset();
    if (viewer) viewer.close(); // its tiles go; the next picture opens in the same viewer
    status("");
    var back = opener;
    opener = null;
    if (back && back.isConnected) back.focus();
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    var openButton = target.closest("[data-zoom-open]");
    if (openButton) {
      open(openButton);
      return;
    }
    if (target.closest("[data-zoom-close]")) close();
    else if (target.closest("[data-zoom-in]")) zoomBy(STEP);
    else if (target.closest("[data-zoom-out]")) zoomBy(1 / STEP);
    else if (target.closest("[data-zoom-reset]")) reset();
  });

  document.addEventListener("close", function (event) {
    if (event.target === dialog()) closed();
  }, true);

  document.addEventListener("kiosk:reset", function () {
    close();
    closed(); // now: the page is about to be replaced, and "close" is fired later
  });

  document.addEventListener("htmx:after:swap", upgrade);

  var api = { open: open, close: close, reset: reset, upgrade: upgrade };
  Object.defineProperty(api, "viewer", { get: function () { return viewer; } });
  window.kioskZoom = api;

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", upgrade);
  else upgrade();
})();
