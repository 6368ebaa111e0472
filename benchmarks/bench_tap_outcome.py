"""Tap on Snap! to the outcome painted at the cards, on a slow kiosk PC, side by side with a
revision (issue 23).

Run from the repository root:

    .venv/bin/python benchmarks/bench_tap_outcome.py                 # against 7aba744, 30 calls
    .venv/bin/python benchmarks/bench_tap_outcome.py --quick         # 8 calls, one round each
    .venv/bin/python benchmarks/bench_tap_outcome.py --against d798835 --calls 40 --rounds 4
    .venv/bin/python benchmarks/bench_tap_outcome.py --against none  # this tree alone

A slow kiosk PC: Debian's Chromium (headless, no GPU) with its CPU throttled ``--throttle``
times (4 by default, as Lighthouse throttles for a mobile device) through the DevTools
protocol (``Emulation.setCPUThrottlingRate``), on a 1920×1080 touchscreen. Each tree is
served as ``kiosk run`` serves it (waitress in a process of its own, ``bench_play.py``'s
recipe), from its own folder: this working tree (edits included) and REV checked out in a
temporary git worktree (``bench_capacity.py``'s, removed afterwards). Both serve the same
deal (a fixed nonce) against Sleepy Sam, and the page never posts Next by itself.

A call: once a card has been painted and its cards have landed, and no sooner than 300 ms
after its paint (a quick visitor, as in ``bench_play.py``), a real pointer tap on Snap!
(Playwright's touchscreen: the DevTools protocol's touch input, then the browser's own
pointerdown and click), whatever the card (a match won, a mistaken call, too slow). From
the tap (the pointerdown event's timestamp: when the input reached the page, before any
script ran) to the outcome painted at the cards: the page's own "painted" note
(``window.kioskPlay.log``, snap.js's paint mark: the frame that first shows the new table,
rendered) whose table carries ``data-outcome`` ("outcome"); a tree whose table has no
``data-outcome`` (7aba744, or this tree before it had one) is measured to the first
"painted" note after the tap, the table with the words ("words"). Each tree's figures say
which measure was used, and how often.

Long tasks (``PerformanceObserver`` "longtask": a main-thread task over 50 ms) are counted
from the tap to the outcome painted, and while cards move (from that paint to snap.js's
"landed" note, or for a tree that moves its cards by view transition, to that transition's
end). Rounds alternate the trees (ABBA), each round a fresh
page; the figures are medians and p90s of every call, with each round's median in brackets.
Target (issue 23): median ≤ 100 ms, p90 ≤ 150 ms, no long task over 50 ms while cards move.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402
from benchmarks.bench_capacity import short, worktree  # noqa: E402
from benchmarks.bench_play import (  # noqa: E402
    PAINT_CONFIG,
    REACTION_MS,
    SERVE_LIKE_KIOSK_RUN,
    load_average,
    pct,
)

BASELINE = "7aba744"  # the main
CONFIG = {**PAINT_CONFIG, "PLAY_NONCE": "bench-tap-outcome"}  # the same deal for every tree
VIEWPORT = {"width": 1920, "height": 1080}  # the gallery's landscape touchscreen
TARGET_MEDIAN_MS, TARGET_P90_MS, LONG_TASK_MS = 100.0, 150.0, 50.0
# from the tap to: snap.js's pointerdown handler, the request sent, the answer parsed, the
# swap, the images decoded, (trees with view transitions) the transition's first frame; and
# how long the cards then moved
STEPS = ("handler", "request", "response", "swap", "decoded", "ready", "moving")

# What the page tells the benchmark beyond its own log: each pointerdown on Snap! (its
# timestamp), every long task, and each view transition's start, first frame and end.
WATCH = """
window.__bench = {downs: [], longtasks: [], transitions: []};
(function () {
  const bench = window.__bench;
  window.addEventListener("pointerdown", (event) => {
    if (event.target.closest && event.target.closest("#snap-button")) {
      bench.downs.push(event.timeStamp);
    }
  }, true);
  if (window.PerformanceObserver
      && (PerformanceObserver.supportedEntryTypes || []).includes("longtask")) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longtasks.push([e.startTime, e.duration]);
    }).observe({type: "longtask", buffered: true});
  }
  document.addEventListener("DOMContentLoaded", () => {
    const start = document.startViewTransition && document.startViewTransition.bind(document);
    if (!start) return;
    document.startViewTransition = (update) => {
      const vt = start(update), t = {start: performance.now()};
      bench.transitions.push(t);
      const end = () => { t.finished = performance.now(); };
      vt.ready.then(() => { t.ready = performance.now(); }, () => { t.skipped = true; });
      vt.finished.then(end, end);
      return vt;
    };
  });
})();
"""
# A call's figures, read once its cards have landed (``down``: the tap's pointerdown).
ROW = """down => {
  const log = window.kioskPlay.log, bench = window.__bench;
  const call = log.find(e => e.type === "call" && e.tapAt >= down);
  const paints = log.filter(e => e.type === "painted" && e.at > down);
  const withOutcome = paints.find(e => e.outcome);
  const paint = withOutcome || paints[0];
  // when the cards landed: snap.js's "landed" note (its cards travel by Web Animations), or
  // for a tree whose cards travel by view transition, the end of the last one begun after
  // the tap (an early one given up for a slow answer is followed by htmx's own)
  const swapped = (paint.steps && paint.steps.swap) || down;
  const note = log.find(e => e.type === "landed" && e.at >= swapped);
  const moved = bench.transitions.filter(t => t.start >= down).at(-1);
  const landed = note ? Math.max(note.at, paint.at)
    : moved && moved.finished !== undefined ? moved.finished : paint.at;
  const over = (from, to) => bench.longtasks
    .filter(([start, ms]) => start < to && start + ms > from).map(([, ms]) => ms);
  const steps = paint.steps || {};
  const words = document.getElementById("game-status").innerText;
  return {
    ms: paint.at - down,
    measure: withOutcome ? "outcome" : "words",
    outcome: withOutcome ? withOutcome.outcome : null,
    said: /You called first|You called Snap Pool! first/.test(words) ? "won"
      : /No match/.test(words) ? "wrong" : /Too slow/.test(words) ? "slow"
      : /together/.test(words) ? "tie" : /Too late/.test(words) ? "late" : "other",
    handler_ms: call ? call.tapAt - down : null,
    ...Object.fromEntries(["request", "response", "swap", "decoded", "ready"].map(
      (step) => [`${step}_ms`, steps[step] !== undefined ? steps[step] - down : null])),
    moving_ms: landed - paint.at,
    // (trees with view transitions) 2: the early transition was given up (an answer slower
    // than snap.js's EARLY_MS then) and htmx's own carried the cards, a capture later
    transitions: bench.transitions.filter(t => t.start >= down).length,
    long_to_paint: over(down, paint.at),
    long_moving: over(paint.at, landed),
  };
}"""


@contextlib.contextmanager
def served(tree: Path, label: str) -> Iterator[str]:
    """``tree``'s kiosk as `kiosk run` serves it (bench_play.py's recipe), its own code and
    content first (``env -C``, as bench_capacity.py serves a worktree); yields its URL."""
    port = servers.free_port()
    argv = ["env", "-C", str(tree), sys.executable, "-c", SERVE_LIKE_KIOSK_RUN]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = servers.start([*argv, json.dumps(CONFIG), str(port)], port, label, env=env, seconds=60)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        servers.stop(proc)


def open_game(browser: Any, url: str, throttle: float) -> Any:
    """A fresh touchscreen page, its CPU throttled, with a game against Sleepy Sam started."""
    context = browser.new_context(has_touch=True, viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.add_init_script(WATCH)
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(f"{url}/sets/snap-standard-deck/play")
    page.get_by_role("button", name="Start").click()
    page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
    return page


def painted_count(page: Any) -> int:
    return page.evaluate("() => window.kioskPlay.log.filter(e => e.type === 'painted').length")


def next_card(page: Any) -> None:
    """Turn the visitor's card, or post Next for Sam's; wait for the new table's paint and
    for its cards to land (a game over: Play again, the same deal)."""
    if page.locator("#snap-game[data-over='1']").count():
        page.get_by_role("button", name="Play again").click()
        page.wait_for_function("() => document.getElementById('snap-button')")
    count = painted_count(page)
    turn = page.locator("#turn-button")
    if turn.count() and turn.is_enabled():
        turn.tap()
    else:
        page.evaluate("() => document.getElementById('next-button').click()")
    page.wait_for_function(
        """n => window.kioskPlay.log.filter(e => e.type === 'painted').length > n
             && !window.kioskSnap.state.busy""",
        arg=count,
    )


def call_samples(page: Any, calls: int, seconds: float) -> list[dict[str, Any]]:
    """``calls`` taps on Snap!, each on a new card, with their figures (ROW)."""
    rows: list[dict[str, Any]] = []
    box = page.locator("#snap-button").bounding_box()  # Snap! never moves during a game
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    started = time.monotonic()
    while len(rows) < calls and time.monotonic() - started < seconds:
        next_card(page)
        if not page.locator("#snap-button:enabled").count():
            continue
        page.wait_for_function(
            """ms => !window.kioskSnap.state.busy
                 && performance.now() - window.kioskSnap.state.paintedAt >= ms""",
            arg=REACTION_MS,
        )
        downs = page.evaluate("() => window.__bench.downs.length")
        page.touchscreen.tap(x, y)
        page.wait_for_function("n => window.__bench.downs.length > n", arg=downs)
        down = page.evaluate("n => window.__bench.downs[n]", downs)
        page.wait_for_function(
            """down => window.kioskPlay.log.some(e => e.type === 'painted' && e.at > down)
                 && !window.kioskSnap.state.busy && !document.activeViewTransition
                 && !document.getAnimations().some(a => !(a instanceof CSSAnimation))""",
            arg=down,
        )
        rows.append(page.evaluate(ROW, down))
    return rows


def figures(rows: list[dict[str, Any]], rounds: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Median and p90 of every call, each round's median, the measure used, the long tasks."""
    ms = [float(r["ms"]) for r in rows]  # (the page's JSON gives whole numbers as ints)
    out: dict[str, Any] = {
        "calls": len(rows),
        "median_ms": statistics.median(ms),
        "p90_ms": pct(ms, 90),
        "round_medians": [statistics.median(float(r["ms"]) for r in rs) for rs in rounds if rs],
        "measure": {m: sum(r["measure"] == m for r in rows) for m in ("outcome", "words")},
        "said": {s: sum(r["said"] == s for r in rows) for s in sorted({r["said"] for r in rows})},
        "early_given_up": sum(r["transitions"] > 1 for r in rows),
    }
    for said in ("won", "wrong"):
        some = [float(r["ms"]) for r in rows if r["said"] == said]
        if some:
            out[f"median_ms_{said}"] = statistics.median(some)
            # how long the won cards (or a mistaken call's penalty) travelled
            moved = [float(r["moving_ms"]) for r in rows if r["said"] == said]
            out[f"median_moving_ms_{said}"] = statistics.median(moved)
    for key in (f"{step}_ms" for step in STEPS):
        seen = [float(r[key]) for r in rows if r[key] is not None]
        if seen:
            out[f"median_{key}"] = statistics.median(seen)
    for key in ("long_to_paint", "long_moving"):
        tasks = [float(t) for r in rows for t in r[key]]
        out[f"{key}_calls"] = sum(bool(r[key]) for r in rows)
        out[f"{key}_tasks"] = len(tasks)
        out[f"{key}_max_ms"] = max(tasks, default=0.0)
    return out


def report(results: dict[str, dict[str, Any]], throttle: float) -> None:
    """Each tree's figures side by side, the ratio, and the issue's target."""
    labels = list(results)
    print(f"\ntap on Snap! to the outcome painted, CPU throttled {throttle:g}x (all calls)")
    keys = dict.fromkeys(k for fig in results.values() for k in fig)
    rows = [["figure", *labels, f"{labels[0]} / {labels[-1]}" if len(labels) > 1 else ""]]
    for key in keys:
        cells = [key]
        values = [results[label].get(key) for label in labels]
        for value in values:
            if isinstance(value, float):
                cells.append(f"{value:.1f}")
            elif isinstance(value, list):
                cells.append("/".join(f"{v:.1f}" for v in value))
            elif isinstance(value, dict):
                cells.append(" ".join(f"{k} {v}" for k, v in value.items()))
            else:
                cells.append("–" if value is None else str(value))
        numbers = [v for v in values if isinstance(v, float)]
        ratio = len(numbers) == 2 and len(labels) == 2 and numbers[1]
        cells.append(f"{numbers[0] / numbers[1]:.2f}" if ratio else "")
        rows.append(cells)
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    for row in rows:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    for label, fig in results.items():
        met = [
            fig["median_ms"] <= TARGET_MEDIAN_MS,
            fig["p90_ms"] <= TARGET_P90_MS,
            fig["long_moving_max_ms"] <= LONG_TASK_MS,
        ]
        print(
            f"  target (median <= {TARGET_MEDIAN_MS:g} ms, p90 <= {TARGET_P90_MS:g} ms, no long"
            f" task while cards move): {label} {fig['median_ms']:.1f} / {fig['p90_ms']:.1f} ms,"
            f" {fig['long_moving_tasks']} long tasks moving -> {'met' if all(met) else 'NOT met'}"
        )


def measure(
    trees: dict[str, Path], calls: int, rounds: int, throttle: float
) -> dict[str, dict[str, Any]]:
    """Each tree served, one Chromium, ``calls`` calls a tree in ``rounds`` alternating
    rounds (ABBA), each round a fresh page: each tree's figures."""
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM_ARGS, find_chromium

    chromium = find_chromium()
    if chromium is None:
        sys.exit("Debian's chromium is not installed (make browser-deps installs it)")
    done: dict[str, list[list[dict[str, Any]]]] = {label: [] for label in trees}
    with contextlib.ExitStack() as stack:
        urls = {label: stack.enter_context(served(tree, label)) for label, tree in trees.items()}
        driver = stack.enter_context(sync_playwright())
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        for r in range(rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]  # ABBA
            for label in order:
                want = calls // rounds + (r < calls % rounds)
                before, t = load_average(), time.perf_counter()
                page = open_game(browser, urls[label], throttle)
                rows = call_samples(page, want, seconds=60 + 10 * want)
                page.context.close()
                done[label].append(rows)
                ms = [row["ms"] for row in rows]
                print(
                    f"round {r + 1}: {label:14} {len(rows):3} calls in "
                    f"{time.perf_counter() - t:5.1f} s, median "
                    f"{statistics.median(ms) if ms else float('nan'):6.1f} ms, "
                    f"load {before} -> {load_average()}",
                    flush=True,
                )
    return {label: figures([r for rows in rs for r in rows], rs) for label, rs in done.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--against",
        default=BASELINE,
        metavar="REV",
        help=f"the git revision to measure side by side (default {BASELINE}; 'none': this "
        "tree alone)",
    )
    parser.add_argument("--calls", type=int, default=30, help="calls a tree (default 30)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds a tree (default 2)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (default 4)")
    parser.add_argument("--quick", action="store_true", help="8 calls a tree in one round")
    args = parser.parse_args()
    if args.quick:
        args.calls, args.rounds = 8, 1
    here = f"tree@{short('HEAD')}"
    against = None if args.against == "none" else args.against
    print(
        f"bench_tap_outcome.py: {here}"
        + (f" against {against} ({short(against)})" if against else "")
        + f", {args.calls} calls a tree in {args.rounds} rounds, CPU throttled {args.throttle:g}x,"
        f" load average {load_average()}",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        trees = {here: ROOT}
        if against:
            trees[against] = stack.enter_context(worktree(against))
        results = measure(trees, args.calls, args.rounds, args.throttle)
    report(results, args.throttle)


if __name__ == "__main__":
    main()
