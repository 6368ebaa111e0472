/* sound.js: the play pages' short sounds, made with Web Audio, no file fetched (docs/play.md,
 * "Sound": what plays when, the setting and its defaults). The AudioContext is made at the first
 * gesture (autoplay rules); without Web Audio the page works on, silent. window.kioskSound's
 * played and started are for tests. Safe to load twice (boosted navigation).
 */
(function () {
  "use strict";

  if (window.kioskSound) {
    window.kioskSound.boot();
    return;
  }

  var KEY = "kiosk.sound";
  var MASTER = 0.25; // quiet-ish: a child's ear is close to the screen
  var GAP_S = 0.12; // between the sounds of one table
  var TAP_MS = 1500; // a call's click this soon after its pointerdown already had its sound
  var Ctx = window.AudioContext;

  var state = {
    ctx: null,
    out: null, // the master gain every sound goes through
    noise: null, // a buffer of white noise, made once
    broken: !Ctx, // no Web Audio, or it threw: silent, and no control
    memory: null, // the setting when storage throws
    tapAt: -Infinity // performance.now() of the last call sound played at a pointerdown
  };

  var api = {
    played: [],
    started: 0,
    enabled: enabled,
    set: set,
    play: play,
    boot: sync,
    state: state
  };

  function read() {
    try {
      return window.sessionStorage.getItem(KEY);
    } catch (e) {
      return state.memory; // storage off (a sandboxed frame): kept for the page
    }
  }

  function write(value) {
    state.memory = value;
    try {
      window.sessionStorage.setItem(KEY, value);
    } catch (e) {
      /* storage off: the page keeps it */
    }
  }

  function enabled() {
    var value = read();
    if (value === "on") return true;
    if (value === "off") return false;
    return !document.body.classList.contains("is-embed"); // kiosk mode is never in an embed
  }

  function set(on) {
    write(on ? "on" : "off");
    sync();
    return !!on;
  }

  function sync() {
    // the toggles say the setting; morphs leave them alone (htmx skips hx-morph-skip)
    var on = enabled();
    document.querySelectorAll("[data-sound-toggle]").forEach(function (button) {
      button.setAttribute("hx-morph-skip", "");
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.hidden = state.broken;
    });
  }

  function fail() {
    state.broken = true;
    state.ctx = null;
    sync();
    return null;
  }

  function context() {
    if (state.broken) return null;
    if (!state.ctx) {
      if (!navigator.userActivation.hasBeenActive) return null; // it could only start suspended
      try {
        var ctx = new Ctx({ latencyHint: "interactive" });
        var out = ctx.createGain();
        out.gain.value = MASTER;
        var soft = ctx.createBiquadFilter(); // nothing shrill, whatever a sound is made of
        soft.type = "lowpass";
        soft.frequency.value = 7000;
        out.connect(soft);
        soft.connect(ctx.destination);
        state.ctx = ctx;
        state.out = out;
      } catch (e) {
        return fail();
      }
    }
    var c = state.ctx;
    if (c.state === "closed") return fail();
    // a sound scheduled now starts when it runs
    if (c.state !== "running") c.resume().catch(function () {});
    return c;
  }

  function ready(ctx) {
    // running, or being started by the gesture now under way: a sound scheduled on a context
    // the browser holds suspended would come out late, with others, when it resumed
    return ctx.state === "running" || navigator.userActivation.isActive;
  }

  function noise(ctx) {
    if (!state.noise) {
      var length = Math.round(ctx.sampleRate * 0.25);
      var buffer = ctx.createBuffer(1, length, ctx.sampleRate);
      var data = buffer.getChannelData(0);
      for (var i = 0; i < length; i += 1) data[i] = Math.random() * 2 - 1;
      state.noise = buffer;
    }
    return state.noise;
  }

  function envelope(param, t, attack, length, peak) {
    // a soft start (no click) and an exponential fade to silence at t + length
    param.setValueAtTime(0.0001, t);
    param.linearRampToValueAtTime(peak, t + attack);
    param.exponentialRampToValueAtTime(0.0001, t + length);
  }

  function filter(ctx, type, frequency, q) {
    var f = ctx.createBiquadFilter();
    f.type = type;
    f.frequency.value = frequency;
    if (q) f.Q.value = q;
    return f;
  }

  function voice(ctx, source, t, length, peak, attack, shape) {
    // source -> (filter) -> gain -> master; started at t, stopped just after its fade
    var gain = ctx.createGain();
    envelope(gain.gain, t, attack || 0.008, length, peak);
    var nodes = [source, gain];
    if (shape) {
      source.connect(shape);
      shape.connect(gain);
      nodes.push(shape);
    } else {
      source.connect(gain);
    }
    gain.connect(state.out);
    source.onended = function () {
      nodes.forEach(function (node) {
        node.disconnect();
      });
    };
    source.start(t);
    source.stop(t + length + 0.02);
    api.started += 1;
  }

  function tone(ctx, t, o) {
    var osc = ctx.createOscillator();
    osc.type = o.type || "sine";
    osc.frequency.setValueAtTime(o.freq, t);
    if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, t + o.length);
    if (o.detune) osc.detune.value = o.detune;
    var shape = o.lowpass ? filter(ctx, "lowpass", o.lowpass) : null;
    voice(ctx, osc, t, o.length, o.peak || 0.4, o.attack, shape);
  }

  function hiss(ctx, t, o) {
    var src = ctx.createBufferSource();
    src.buffer = noise(ctx);
    var shape = filter(ctx, o.band ? "bandpass" : "lowpass", o.freq, o.q);
    voice(ctx, src, t, o.length, o.peak || 0.5, o.attack || 0.003, shape);
  }

  // Each sound: (ctx, t) -> nodes started from t. Lengths: 600 ms at most, the fanfare 1.2 s.
  var C4 = 261.63, E4 = 329.63, F4 = 349.23, G4 = 392, A4 = 440, C5 = 523.25, E5 = 659.25;
  var G5 = 783.99, C6 = 1046.5;
  var SOUNDS = {
    card: function (ctx, t) {
      // a card flicked over: a short, soft burst of filtered noise
      hiss(ctx, t, { band: true, freq: 2400, q: 0.9, length: 0.07, peak: 0.7 });
    },
    call: function (ctx, t) {
      // "Snap!": a bright little bark, falling as a voice does
      hiss(ctx, t, { band: true, freq: 3000, q: 1.5, length: 0.03, peak: 0.35 });
      tone(ctx, t, {
        type: "triangle", freq: 880, to: 600, length: 0.16, peak: 0.55, attack: 0.006
      });
      tone(ctx, t, { type: "square", freq: 440, to: 300, length: 0.14, peak: 0.12, lowpass: 2200 });
    },
    win: function (ctx, t) {
      // a happy rising arpeggio
      [C5, E5, G5, C6].forEach(function (f, i) {
        tone(ctx, t + i * 0.075, { type: "triangle", freq: f, length: 0.17, peak: 0.38 });
      });
    },
    lose: function (ctx, t) {
      // a gentle falling pair
      tone(ctx, t, { freq: G4, length: 0.2, peak: 0.45, attack: 0.015 });
      tone(ctx, t + 0.18, { freq: E4, length: 0.28, peak: 0.4, attack: 0.015 });
    },
    wrong: function (ctx, t) {
      // a low buzz, softened: two close tones that beat
      // (not lower: a kiosk's small speakers hardly play under 150 Hz)
      var buzz = { type: "sawtooth", length: 0.26, attack: 0.02, lowpass: 900 };
      tone(ctx, t, Object.assign({ freq: 180, peak: 0.22 }, buzz));
      tone(ctx, t, Object.assign({ freq: 187, peak: 0.18 }, buzz));
    },
    late: function (ctx, t) {
      // a short, dull blip
      tone(ctx, t, { type: "triangle", freq: 300, to: 230, length: 0.1, peak: 0.4, lowpass: 1200 });
    },
    "end-win": function (ctx, t) {
      // a little fanfare: three quick notes up to a held chord
      [G4, C5, E5].forEach(function (f, i) {
        tone(ctx, t + i * 0.12, { type: "triangle", freq: f, length: 0.13, peak: 0.38 });
        tone(ctx, t + i * 0.12, {
          type: "square", freq: f, length: 0.11, peak: 0.05, lowpass: 1800
        });
      });
      var held = t + 0.36;
      tone(ctx, held, { type: "triangle", freq: G5, length: 0.6, peak: 0.35 });
      tone(ctx, held, { type: "triangle", freq: E5, length: 0.6, peak: 0.22 });
      tone(ctx, held, { type: "triangle", freq: C5, length: 0.6, peak: 0.22 });
      tone(ctx, held, { type: "square", freq: C4, length: 0.5, peak: 0.05, lowpass: 1200 });
    },
    "end-lose": function (ctx, t) {
      // a calm close: two soft chords, F to C
      [F4, A4, C5].forEach(function (f) {
        tone(ctx, t, { freq: f, length: 0.3, peak: 0.2, attack: 0.03 });
      });
      [E4, G4, C5].forEach(function (f) {
        tone(ctx, t + 0.24, { freq: f, length: 0.32, peak: 0.2, attack: 0.03 });
      });
    }
  };

  function play(name, options) {
    // options: from (what asked: "table", "tap", "toggle"), and for a table's sounds the
    // moment they are counted from (base: {t, at}) and the delay after it, in seconds
    var o = options || {};
    var make = SOUNDS[name];
    if (!make || !enabled()) return false;
    var ctx = context();
    if (!ctx || !ready(ctx)) return false;
    var base = o.base || { t: ctx.currentTime + 0.01, at: performance.now() };
    var delay = o.delay || 0;
    make(ctx, base.t + delay);
    var entry = { name: name, at: base.at + delay * 1000, from: o.from || "page" };
    api.played.push(entry);
    if (api.played.length > 2000) api.played.shift();
    return true;
  }

  function region() {
    return document.querySelector("[data-game][data-step]");
  }

  function onShown() {
    var g = region();
    var names = ((g && g.getAttribute("data-sounds")) || "").split(/\s+/).filter(function (name) {
      return Object.prototype.hasOwnProperty.call(SOUNDS, name);
    });
    var ctx = names.length && enabled() ? context() : null;
    if (!ctx || !ready(ctx)) return;
    var base = { t: ctx.currentTime + 0.01, at: performance.now() }; // one clock for them all
    names.forEach(function (name, i) {
      play(name, { base: base, delay: i * GAP_S, from: "table" });
    });
  }

  function gesture() {
    if (enabled()) context(); // made (or resumed) inside the gesture, so it may run
  }

  function onPointerDown(event) {
    gesture();
    var b = event.target.closest && event.target.closest("#snap-button, #pool-button");
    if (!b || b.disabled) return;
    if (play("call", { from: "tap" })) state.tapAt = performance.now();
  }

  function onCall() {
    // a key's call sounds now; a tap's sounded at its pointerdown
    if (performance.now() - state.tapAt < TAP_MS) {
      state.tapAt = -Infinity;
      return;
    }
    play("call", { from: "tap" });
  }

  function onClick(event) {
    var b = event.target.closest && event.target.closest("[data-sound-toggle]");
    if (!b) return;
    var on = set(!enabled());
    if (on) play("card", { from: "toggle" }); // what it sounds like, at once
  }

  document.addEventListener("pointerdown", onPointerDown, true);
  ["keydown", "pointerup", "touchend"].forEach(function (type) {
    document.addEventListener(type, gesture, true);
  });
  document.addEventListener("click", onClick);
  document.addEventListener("play:shown", onShown);
  document.addEventListener("play:call", onCall);
  document.addEventListener("htmx:after:swap", sync); // a new page (boosted) or table

  window.kioskSound = api;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", sync);
  else sync();
})();
