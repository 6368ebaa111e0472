// Inside an /embed/ page, whatever frame the host gives it (docs/embedding.md, "Inside a host's
// sandbox"): the height told to the host page (our message for embed.js, and WordPress's with the
// secret from the frame's #?secret=); in WordPress's sandbox a link that leaves the embed asked of
// the host ("link"); every submit button sent by script (a frame without allow-forms refuses the
// browser's own submission); in an opaque origin, no boosting and htmx in CORS mode. Links need
// nothing: the server already puts them under /embed/.
(function () {
  "use strict";
  if (window.kioskEmbed) return;
  var framed = window.parent !== window;
  var opaque = window.origin === "null";

  // window.name outlives a reload and the frame's own navigations, where storage may throw (an
  // opaque origin): it keeps WordPress's secret, and the game play.js keeps (kioskEmbed.keep).
  // JSON marked as ours; a name the host gave the frame is left alone until something is kept.
  function named() {
    try {
      var data = JSON.parse(window.name);
      if (data && data.kiosk === 1) return data;
    } catch (e) { /* not ours */ }
    return { kiosk: 1 };
  }

  function keep(key, value) {
    var data = named();
    if (value === null || value === undefined) delete data[key];
    else data[key] = value;
    window.name = JSON.stringify(data);
  }

  function kept(key) {
    var data = named();
    return Object.prototype.hasOwnProperty.call(data, key) ? data[key] : null;
  }

  var SECRET = /[#&?]secret=([A-Za-z0-9]+)/;

  function wordpressSecret() {
    var found = SECRET.exec(location.hash);
    if (found) {
      keep("secret", found[1]); // the next page in the frame has no hash: it finds it here
      return found[1];
    }
    var known = kept("secret");
    return typeof known === "string" && /^[A-Za-z0-9]+$/.test(known) ? known : "";
  }
  var secret = framed ? wordpressSecret() : "";

  function tell(data) {
    try { window.parent.postMessage(data, "*"); } catch (e) { /* no parent to tell */ }
  }

  function submitterOf(target) {
    var button = target.closest("button, input[type=submit], input[type=image]");
    if (!button || button.disabled || !button.form) return null;
    return button.type === "submit" || button.type === "image" ? button : null;
  }

  function send(form, submitter) {
    // a submit event for the page's scripts; the browser's own submission only if none took it
    var event = new SubmitEvent("submit", { bubbles: true, cancelable: true, submitter: submitter });
    if (form.dispatchEvent(event)) form.requestSubmit(submitter);
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0) return;
    var submitter = submitterOf(event.target);
    if (!submitter) return;
    event.preventDefault(); // no browser submission (a sandbox would refuse it with an error)
    send(submitter.form, submitter);
  });

  // This script runs before htmx (base.html): htmx takes the page's links and forms once it
  // has loaded (on a timer, which may come before DOMContentLoaded), and an element it has
  // taken as boosted stays boosted, whatever its own target says. So boosting is turned off
  // here first; htmx's request mode, read when a request is made, is set once htmx is there.
  function corsMode() {
    if (window.htmx && window.htmx.config) window.htmx.config.mode = "cors";
  }
  if (opaque) {
    if (document.body) document.body.setAttribute("data-hx-boost", "false");
    corsMode();
    document.addEventListener("DOMContentLoaded", corsMode);
  }

  document.addEventListener("click", function (event) {
    if (!secret || event.defaultPrevented || event.button !== 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var link = event.target.closest("a[href][target=_blank]");
    if (!link) return;
    event.preventDefault(); // the sandbox opens no window: WordPress's host page goes there
    tell({ message: "link", value: link.href, secret: secret });
  });

  window.kioskEmbed = { send: send, keep: keep, kept: kept };
  if (!framed) return;
  var last = 0;

  function contentHeight() {
    // <main> (always there: base.html) grows to fill the frame, so measure what is inside it
    var main = document.getElementById("main");
    var bottom = main.getBoundingClientRect().top;
    for (var i = 0; i < main.children.length; i += 1) {
      bottom = Math.max(bottom, main.children[i].getBoundingClientRect().bottom);
    }
    var padding = parseFloat(getComputedStyle(main).paddingBottom) || 0;
    return Math.ceil(bottom + padding + window.scrollY);
  }

  function post() {
    var height = contentHeight();
    if (height === last) return;
    last = height;
    tell({ type: "kiosk:height", height: height });
    if (secret) tell({ message: "height", value: height, secret: secret });
  }

  // Resizing the frame aborts a running view transition (the rule step-throughs use them), so the
  // height waits until none is running.
  function transitionRunning() {
    if (document.activeViewTransition) return true;
    return document.getAnimations().some(function (animation) {
      var effect = animation.effect;
      var pseudo = effect && effect.pseudoElement;
      return typeof pseudo === "string" && pseudo.indexOf("::view-transition") === 0;
    });
  }

  var timer = null;
  function schedule() {
    if (timer !== null) return;
    timer = window.setTimeout(function () {
      timer = null;
      if (transitionRunning()) schedule();
      else post();
    }, 80);
  }

  window.addEventListener("load", schedule);
  window.addEventListener("resize", schedule);
  document.addEventListener("htmx:after:swap", schedule);
  document.addEventListener("htmx:after:settle", schedule);
  new ResizeObserver(schedule).observe(document.body);
  schedule();
})();
