// Visitor insights: what only the browser sees (docs/insights.md, "What is counted"), sent as
// counts with navigator.sendBeacon to this script's data-event-url: a contested card uncovered,
// a note read, how far a rule was watched, kiosk mode's idle resets and attract taps, a game left
// unfinished. Nothing about the visitor: no id, no time, no storage. Leaving is the page hiding,
// or htmx swapping #main for another page. Safe to load twice.
(function () {
  "use strict";
  if (window.kioskInsights) return;
  var script = document.currentScript;
  var url = script && script.getAttribute("data-event-url");
  if (!url || !navigator.sendBeacon) return;

  var READ_MS = 15000;
  var RULE = /\/rules\/([a-z0-9-]+)\/([a-z0-9-]+)\/(\d+)$/;
  var SET = /\/sets\/([a-z0-9-]+)(\/|$)/;
  var NOTE = /\/notes\/([a-z0-9-]+)$/;

  function send(fields) {
    var body = new URLSearchParams();
    Object.keys(fields).forEach(function (key) { body.append(key, String(fields[key])); });
    try { navigator.sendBeacon(url, body); } catch (e) { /* counting never breaks a page */ }
  }

  var rule = null; // {game, scenario, furthest, key}

  function ruleHere() {
    var m = RULE.exec(location.pathname);
    return m ? { game: m[1], scenario: m[2], step: parseInt(m[3], 10) } : null;
  }
  function sendRule() {
    if (rule) send({ e: "rule", game: rule.game, scenario: rule.scenario, step: rule.furthest });
    rule = null;
  }
  function watchRule() {
    var here = document.getElementById("rules-stage") ? ruleHere() : null;
    var key = here ? here.game + "/" + here.scenario : null;
    if (rule && rule.key !== key) sendRule();
    if (!here) return;
    if (!rule) rule = { game: here.game, scenario: here.scenario, furthest: 0, key: key };
    rule.furthest = Math.max(rule.furthest, here.step);
  }

  var noteTimer = 0;
  var noteObserver = null;

  function watchNote() {
    window.clearTimeout(noteTimer);
    if (noteObserver) noteObserver.disconnect();
    noteObserver = null;
    var m = NOTE.exec(location.pathname);
    var article = document.querySelector("#main .record--note");
    if (!m || !article || !window.IntersectionObserver) return;
    var slug = m[1];
    var seenEnd = false;
    var longEnough = false;
    var sent = false;
    function maybe() {
      if (seenEnd && longEnough && !sent) {
        sent = true;
        send({ e: "note-read", note: slug });
        if (noteObserver) noteObserver.disconnect();
      }
    }
    var end = document.createElement("span");
    end.setAttribute("data-insights-note-end", "");
    end.setAttribute("aria-hidden", "true");
    article.appendChild(end);
    noteObserver = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { if (entry.isIntersecting) seenEnd = true; });
      maybe();
    });
    noteObserver.observe(end);
    noteTimer = window.setTimeout(function () { longEnough = true; maybe(); }, READ_MS);
  }

  function sendAbandoned() {
    var t = document.querySelector("#main .stage[data-over][data-game]");
    if (!t || t.getAttribute("data-over") !== "0") return;
    var setMatch = SET.exec(location.pathname);
    var get = function (name) { return t.getAttribute("data-insights-" + name) || ""; };
    send({
      e: "abandon",
      set: setMatch ? setMatch[1] : "",
      game: t.getAttribute("data-game"),
      variant: get("variant"),
      level: get("level"),
      bots: get("bots") || "0",
      moves: get("moves") || "0"
    });
    t.setAttribute("data-over", "left"); // once: the page may hide more than once
  }

  function leaving() {
    sendRule();
    sendAbandoned();
  }
  function arrived() {
    watchRule();
    watchNote();
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") leaving();
  });
  window.addEventListener("pagehide", leaving);
  window.addEventListener("pageshow", function (event) { if (event.persisted) arrived(); });
  document.addEventListener("htmx:before:swap", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var target = ctx && ctx.target;
    if (target && target.id === "main") sendAbandoned(); // the table is about to go
  });
  document.addEventListener("htmx:after:swap", function (event) {
    var ctx = event.detail && event.detail.ctx;
    var target = ctx && ctx.target;
    if (target && target.id === "main") arrived();
  });
  // htmx pushes a step's address after its swap: the step is read from the address once it is there
  document.addEventListener("htmx:after:history:push", watchRule);
  document.addEventListener("htmx:after:history:replace", watchRule);
  document.addEventListener("kiosk:reveal", function (event) {
    var flagged = event.target;
    var form = flagged && flagged.querySelector && flagged.querySelector("form[data-reveal]");
    var card = form && form.querySelector('input[name="view"]');
    var setMatch = form && SET.exec(new URL(form.action, location.href).pathname);
    if (card && setMatch) send({ e: "reveal", set: setMatch[1], card: card.value });
  });
  document.addEventListener("kiosk:reset", function (event) {
    leaving();
    var how = event.detail && event.detail.how;
    send({ e: "idle-reset", how: how === "home" ? "home" : "countdown" });
  });
  document.addEventListener("kiosk:attract-stop", function () { send({ e: "attract-tap" }); });

  window.kioskInsights = { leaving: leaving, arrived: arrived };
  arrived();
})();
