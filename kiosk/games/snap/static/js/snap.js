/* snap.js: the Snap table's fair timing (a call's reaction from the table's paint), one request
 * and one call per card, two visitors' taps in one request, keys, and cards that travel (FLIP,
 * not a view transition: capturing the old table cost a frame). docs/play.md, "Fair timing" and
 * after, says what each does. Runs after play.js; safe to load twice (boosted navigation).
 */
(function snapScript() {
  "use strict";

  if (window.kioskSnap) {
    window.kioskSnap.boot();
    return;
  }
  if (!window.kioskPlay) {
    // htmx runs a boosted page's scripts as they arrive, so this one may come before
    // play.js: start when play.js says it is there
    document.addEventListener("kiosk:play-ready", snapScript, { once: true });
    return;
  }

  var play = window.kioskPlay; // play.js

  // the taps of two visitors on one card are sent together: the first opens this collection.
  // Far more than the engine's tie window (60 ms): a tap after it could not win or tie.
  var COLLECT_MS = 250;
  var VISITOR_KEYS = { a: [0, "snap"], s: [0, "pool"], l: [1, "snap"], k: [1, "pool"] };

  var state = {
    batch: null, // two visitors: the calls collected on one card {turn, paintedAt, calls, timer}
    spent: {}, // two visitors: "turn:seat" of every call sent (a second tap is absorbed)
    paintedAt: null, // performance.now() when the table on screen was painted
    paintedTurn: null, // the turn number of that table
    tapAt: null, // pointerdown on a call button
    tapAim: null, // the card painted then: {turn, paintedAt}
    busy: false, // a request of the play form is in flight, or its cards still move
    pending: null, // a tap made while busy: {act, turn, reaction}
    call: null, // the call on its way: {act, turn, reaction, held} (held: not sent yet)
    called: null, // the turn of the card whose call was judged (another tap is absorbed)
    booted: null, // the #snap-game element last booted
    places: null, // the named cards' places before the answer was swapped in (see move)
    moving: null, // a promise: the cards of the last swap have landed
    steps: {} // performance.now() of the current request's steps (see mark)
  };

  function game() {
    return document.getElementById("snap-game");
  }

  function setBusy(busy) {
    state.busy = busy;
    play.state.held = busy; // no "Next" from the pace while a tap waits or cards move
  }

  function form() {
    return document.getElementById("play-form");
  }

  function mark(step) {
    // the next "painted" note carries when this request's steps happened (bench_tap_outcome.py)
    state.steps[step] = performance.now();
  }

  var MOVE_MS = 220; // a card's travel; with reduced motion it arrives in place

  function named(phase) {
    // the table's cards by name: data-vt, or the name shared by the card about to be turned
    // (old table, data-vt-next) and the card just turned (new table, data-vt-turned)
    var g = game();
    var out = {};
    if (!g) return out;
    var key = phase === "old" ? "vtNext" : "vtTurned";
    g.querySelectorAll("[data-vt], [data-vt-next], [data-vt-turned]").forEach(function (el) {
      var name = el.dataset[key] || el.dataset.vt;
      if (name) out[name] = el;
    });
    return out;
  }

  function placesNow() {
    var out = {};
    var cards = named("old");
    Object.keys(cards).forEach(function (name) {
      out[name] = cards[name].getBoundingClientRect();
    });
    return out;
  }

  function upsideDown(el) {
    // inside a strip turned to face the far player (rotate: 180deg) a transform runs backwards
    var angle = 0;
    var root = game();
    for (var node = el; node && node !== root; node = node.parentElement) {
      var m = /^(-?[\d.]+)deg$/.exec(getComputedStyle(node).rotate || "");
      if (m) angle += parseFloat(m[1]);
    }
    angle = ((angle % 360) + 360) % 360;
    return Math.abs(angle - 180) < 45;
  }

  function move(places) {
    // each card of the new table that was on the old one travels from there: settles when all land
    if (!places || matchMedia("(prefers-reduced-motion: reduce)").matches) return Promise.resolve();
    var cards = named("new");
    var runs = [];
    Object.keys(cards).forEach(function (name) {
      var from = places[name];
      var el = cards[name];
      if (!from) return;
      var to = el.getBoundingClientRect();
      if (!to.width || !to.height || !from.width || !from.height) return;
      // drawn upside down, its own top left corner (the transform's origin) is at its bottom right
      var flipped = upsideDown(el);
      var dx = flipped ? to.right - from.right : from.left - to.left;
      var dy = flipped ? to.bottom - from.bottom : from.top - to.top;
      var sx = from.width / to.width;
      var sy = from.height / to.height;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02 && Math.abs(sy - 1) < 0.02) return;
      el.classList.add("is-moving"); // above the table while it travels (snap.css)
      var run = el.animate(
        [
          { transformOrigin: "0 0", transform: "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")" },
          { transformOrigin: "0 0", transform: "none" }
        ],
        { duration: MOVE_MS, easing: "ease-out" }
      );
      var done = function () {
        el.classList.remove("is-moving");
      };
      runs.push(run.finished.then(done, done));
    });
    return Promise.all(runs);
  }

  function decoded() {
    var g = game();
    var imgs = g ? Array.prototype.slice.call(g.querySelectorAll("img.play-card")) : [];
    var all = Promise.all(
      imgs.map(function (img) {
        return img.decode().catch(function () {});
      })
    );
    return Promise.race([all, new Promise(function (r) { setTimeout(r, 250); })]);
  }

  function afterNextPaint(callback) {
    // a message queued from an animation frame runs once it is rendered: one frame, not two
    requestAnimationFrame(function () {
      var channel = new MessageChannel();
      channel.port1.onmessage = function () {
        channel.port1.close(); // a started port stays alive while it is open
        callback();
      };
      channel.port2.postMessage(null);
    });
  }

  function painted() {
    mark("decoded");
    afterNextPaint(function () {
      var g = game();
      if (!g) return;
      if (state.paintedAt === null || state.paintedTurn !== g.dataset.turn) {
        // a new card. The same turn drawn again (a note) keeps its first paint, so a tap
        // under 100 ms cannot restart the clock for the next tap on the same card
        state.paintedAt = performance.now();
        state.paintedTurn = g.dataset.turn;
        state.called = null; // a new card: the visitor may call it
      }
      var steps = state.steps;
      state.steps = {};
      var entry = { turn: g.dataset.turn, over: g.dataset.over === "1", steps: steps };
      if (g.dataset.outcome) entry.outcome = g.dataset.outcome; // what the call came to
      play.note("painted", entry);
      play.shown(g);
    });
  }

  function button(act) {
    var f = form();
    return f ? f.querySelector("button[name=act][value='" + act + "']") : null;
  }

  function aim() {
    return { turn: state.paintedTurn, paintedAt: state.paintedAt };
  }

  function prepareCall(at, card) {
    var f = form();
    var ms = card.paintedAt === null ? "" : Math.max(0, Math.round((at - card.paintedAt) * 10) / 10);
    var turn = card.turn !== null ? card.turn : f.elements.turn.value;
    f.elements.reaction_ms.value = String(ms);
    f.elements.turn.value = turn;
    return { turn: turn, reaction: ms };
  }

  function say(text) {
    var status = document.getElementById("game-status");
    if (!status) return;
    var p = document.createElement("p");
    p.className = "game__headline";
    p.textContent = text;
    status.replaceChildren(p);
  }

  function showing(turn) {
    var g = game();
    return !!g && g.dataset.turn === String(turn);
  }

  function judged() {
    // its request ended, its cards landed: a call not counted (a false start, a failed
    // request) leaves the card's button enabled for a real call; any other spends the card
    var c = state.call;
    if (!c || c.held) return;
    state.call = null;
    var b = button(c.act);
    if (!(showing(c.turn) && b && !b.disabled)) state.called = c.turn;
  }

  function absorb(act, turn, why, at) {
    play.note("absorbed", { act: act, turn: turn, why: why, tapAt: at });
  }

  function flush() {
    var p = state.pending;
    state.pending = null;
    if (!p) return;
    var f = form();
    var b = button(p.act);
    var isCall = /^(snap|pool)/.test(p.act);
    if (!f || !b || b.disabled || (isCall && !showing(p.turn))) {
      // its card has gone: dropped in silence, no words over the card on the table
      if (isCall) {
        state.call = null;
        absorb(p.act, p.turn, "gone", p.tapAt);
      }
      return;
    }
    if (isCall) {
      f.elements.turn.value = p.turn;
      f.elements.reaction_ms.value = String(p.reaction);
      if (f.elements.calls) f.elements.calls.value = p.calls || "";
      state.call = { act: p.act, turn: p.turn, reaction: p.reaction, held: false };
    }
    play.send(f, b);
  }

  function onClick(event) {
    if (together() && onVisitorClick(event)) return;
    var b = event.target.closest && event.target.closest("#play-form button[name=act]");
    if (!b) return;
    var act = b.value;
    var entry = { act: act };
    if (act === "snap" || act === "pool") {
      var now = performance.now();
      var fresh = state.tapAt !== null && now - state.tapAt < 1500;
      var at = fresh ? state.tapAt : now;
      var card = fresh && state.tapAim ? state.tapAim : aim();
      state.tapAt = null;
      state.tapAim = null;
      var why =
        card.turn !== state.paintedTurn
          ? "gone" // a new card was painted between the finger going down and the click
          : state.call && state.call.turn === card.turn
            ? "on its way" // a second tap on the card whose call is held, in flight or landing
            : state.called !== null && state.called === card.turn
              ? "called" // the card's call has been judged
              : null;
      if (why) {
        event.preventDefault();
        event.stopPropagation();
        absorb(act, card.turn, why, at);
        return;
      }
      var call = prepareCall(at, card);
      entry.turn = call.turn;
      entry.reaction = call.reaction;
      entry.tapAt = at;
      play.note("call", { act: act, turn: call.turn, reaction: call.reaction, tapAt: at });
    }
    if (state.busy) {
      event.preventDefault();
      event.stopPropagation();
      if (act === "next") return;
      var held = state.pending;
      if (held && (held.act === "snap" || held.act === "pool")) {
        // a later tap replaces a held call (it can only be on another card, or not a call)
        absorb(held.act, held.turn, "replaced", held.tapAt);
        state.call = null;
      }
      state.pending = entry;
    }
    if (entry.turn !== undefined) {
      state.call = { act: act, turn: entry.turn, reaction: entry.reaction, held: state.busy };
    }
  }

  function together() {
    var g = game();
    return !!g && g.dataset.mode === "together";
  }

  function sendBatch() {
    var batch = state.batch;
    state.batch = null;
    if (!batch) return;
    clearTimeout(batch.timer);
    play.state.held = state.busy;
    var calls = batch.calls.map(function (c) {
      state.spent[batch.turn + ":" + c.seat] = true;
      return c.seat + ":" + c.kind + ":" + c.reaction;
    }).join(" ");
    var first = batch.calls[0];
    var act = first.kind + ":" + first.seat;
    play.note("calls", { turn: batch.turn, calls: batch.calls });
    state.pending = { act: act, turn: batch.turn, reaction: first.reaction, calls: calls, tapAt: first.at };
    // sent now, or when the cards in flight have landed if still the card's
    if (!state.busy) flush();
  }

  function visitorTap(seat, kind, at) {
    // a finger's or key's tap at ``at`` (performance.now()), posted with the other's on its card
    var card = aim();
    if (card.turn === null || card.paintedAt === null) return;
    var b = document.getElementById((kind === "pool" ? "pool-button-" : "snap-button-") + seat);
    var where = card.turn + ":" + seat;
    var batch = state.batch;
    var again = state.spent[where] || (batch && batch.turn === card.turn &&
      batch.calls.some(function (c) { return c.seat === seat; }));
    if (!b || b.disabled || again) {
      absorb(kind + ":" + seat, card.turn, again ? "called" : "disabled", at);
      return;
    }
    if (batch && batch.turn !== card.turn) sendBatch();
    var ms = Math.max(0, Math.round((at - card.paintedAt) * 10) / 10);
    var call = { seat: seat, kind: kind, reaction: ms, at: at };
    play.note("call", { act: kind + ":" + seat, turn: card.turn, reaction: ms, tapAt: at });
    if (!state.batch) {
      state.batch = { turn: card.turn, calls: [call], timer: setTimeout(sendBatch, COLLECT_MS) };
      play.state.held = true; // no "Next" from the pace while the other visitor may still tap
    } else {
      state.batch.calls.push(call);
      if (state.batch.calls.length === 2) sendBatch(); // both have called: no need to wait
    }
  }

  function visitorButton(target) {
    return target && target.closest && target.closest("#play-form .snap-button[data-seat]");
  }

  function onVisitorPointer(event) {
    var b = visitorButton(event.target);
    if (!b) return;
    event.preventDefault(); // no focus moves, no text selection: the other finger may be down
    visitorTap(Number(b.dataset.seat), b.dataset.kind, event.timeStamp);
  }

  function onVisitorClick(event) {
    var b = visitorButton(event.target);
    if (!b) return false;
    event.preventDefault();
    event.stopPropagation();
    // a finger's tap was taken at pointerdown; a click with no pointer (a key, a switch) is one
    if (event.detail === 0 && !(event.pointerType)) {
      visitorTap(Number(b.dataset.seat), b.dataset.kind, event.timeStamp);
    }
    return true;
  }

  function onVisitorKey(event) {
    var hit = VISITOR_KEYS[(event.key || "").toLowerCase()];
    if (!hit || interactive(event.target)) return false;
    event.preventDefault();
    visitorTap(hit[0], hit[1], event.timeStamp);
    return true;
  }

  function markTap() {
    state.tapAt = performance.now();
    state.tapAim = aim();
  }

  function onPointerDown(event) {
    if (together()) {
      onVisitorPointer(event);
      return;
    }
    if (event.target.closest && event.target.closest("#snap-button, #pool-button")) markTap();
  }

  function interactive(el) {
    return el && el.closest && el.closest("a, input, select, textarea, summary, details, [contenteditable]");
  }

  function onKey(event) {
    if (!game() || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    if (together()) {
      onVisitorKey(event);
      return;
    }
    var key = event.key;
    var act = key === " " || key === "Enter" ? "snap" : key === "p" || key === "P" ? "pool" : null;
    if (!act) return;
    var target = event.target;
    var onButton = target && target.closest && target.closest("button");
    if (interactive(target)) return;
    if (onButton && !(act === "snap" && onButton.id === "snap-button") && act !== "pool") return;
    var b = button(act);
    if (!b || b.disabled) return;
    event.preventDefault();
    markTap();
    b.click();
  }

  function ours(event) {
    return play.from(event, "#play-form");
  }

  function onAfterSwap(event) {
    if (!ours(event)) {
      boot();
      return;
    }
    mark("swap");
    var places = state.places;
    state.places = null;
    var turn = game() ? game().dataset.turn : null;
    state.moving = move(places).then(function () {
      play.note("landed", { turn: turn });
    });
    decoded().then(painted);
  }

  function onBeforeRequest(event) {
    if (!ours(event)) return;
    setBusy(true);
    state.steps = {};
    mark("request");
  }

  function onBeforeSwap(event) {
    if (!ours(event)) return;
    mark("response");
    state.places = placesNow(); // the old table, as it is on screen
  }

  function onFinally(event) {
    if (!ours(event)) return;
    mark("done");
    state.places = null;
    var moving = state.moving || Promise.resolve();
    state.moving = null;
    moving.then(function () {
      setBusy(false);
      judged();
      setTimeout(flush, 0);
    });
  }

  function onError(event) {
    if (!ours(event)) return;
    setBusy(false);
    say("The kiosk did not answer. Tap again, or start a new game.");
  }

  function preload(g) {
    (g.dataset.faces || "").split(" ").forEach(function (src) {
      if (src) new Image().src = src;
    });
  }

  function boot() {
    var g = game();
    if (!g || g === state.booted || !g.dataset.game) return;
    state.booted = g;
    if (state.batch) clearTimeout(state.batch.timer);
    state.batch = null;
    state.spent = {};
    state.pending = null;
    state.call = null;
    state.called = null;
    state.paintedAt = null; // a new page: its first paint starts the clock
    state.paintedTurn = null;
    preload(g);
    decoded().then(painted);
  }

  document.addEventListener("pointerdown", onPointerDown, true);
  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKey);
  document.addEventListener("htmx:after:swap", onAfterSwap);
  document.addEventListener("htmx:before:request", onBeforeRequest);
  document.addEventListener("htmx:before:swap", onBeforeSwap);
  document.addEventListener("htmx:finally:request", onFinally);
  document.addEventListener("htmx:error", onError);

  window.kioskSnap = { boot: boot, state: state };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
