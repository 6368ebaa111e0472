"""Play benchmarks: server time per action, tap-to-paint in Chromium, throughput under gunicorn.

Run from the repository root:

    .venv/bin/python benchmarks/bench_play.py             # everything (about a minute)
    .venv/bin/python benchmarks/bench_play.py --only server
    .venv/bin/python benchmarks/bench_play.py --only paint
    .venv/bin/python benchmarks/bench_play.py --only gunicorn

1. **server**: the time of one game action (a POST through the Flask app: load the token,
   replay the record, apply, render the table, sign the new token) 500 actions into a game,
   p50 and p99 (target p99 ≤ 5 ms), with a trivial route through the same app as baseline.
2. **paint**: in Debian's Chromium on localhost, from the tap on Snap! (pointerdown) to the
   result painted (play.js's paint mark: images decoded, two animation frames), median
   (target ≤ 50 ms); baseline: a tap that only waits two frames, in the same page.
3. **gunicorn**: requests per second of a game action under gunicorn with two sync workers,
   as a ratio to a trivial Flask route on the same server in the same run (target ≥ 0.5).
   127.0.0.1 only; each load loop is bounded in requests and in seconds.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk import create_app  # noqa: E402
from kiosk.games import snap  # noqa: E402
from kiosk.web import play, tokens  # noqa: E402

SECRET = "bench-play-secret"
SET = "misc-869-1986"
ACT = f"/sets/{SET}/play/act"
TRIVIAL = "/_bench/trivial"


def make_app() -> Any:
    """The kiosk app plus a trivial route (the baseline); gunicorn loads this too."""
    app = create_app({"SECRET_KEY": SECRET})
    app.add_url_rule(TRIVIAL, "bench_trivial", lambda: "ok")
    return app


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- a long game


def long_record(app: Any, actions: int = 500) -> str:
    """A token for a Woolworths game, one visitor against two computers, ``actions`` long."""
    with app.test_request_context():
        set_record = play.set_or_404(SET)
        deck = play.deck_of(set_record)
        for attempt in range(200):
            record = play.start_record(SET, deck, "woolworths", 2, "medium")
            record = tokens.GameRecord(**{
                **record.__dict__,
                "nonce": f"bench-{attempt}",
                "options": {**record.options, "max_turns": None},
            })  # fmt: skip
            options = snap.options_from_json(record.options)
            state, _ = snap.new_game(deck, options, tokens.seed_for(record.nonce))
            game = play.Game(record, state, [])
            n = 0
            while n < actions and not state.over:
                w = state.window
                if w is not None and w.snap and not w.calls and n % 3 == 0 and not state.out[0]:
                    action = {"type": "call", "player": 0, "turn": w.turn, "reaction_ms": 500.0}
                else:
                    action = play.next_action(game)
                    if action is None and state.out[0]:
                        break
                    action = action or {"type": "turn", "player": 0}
                play.play(game, action)
                n = len(game.record.actions)
            if not state.over and n >= actions:
                return tokens.dump(game.record)
    raise RuntimeError("no game lasted long enough")


# --------------------------------------------------------------------------- 1. server


def bench_server(repeat: int = 400) -> dict[str, float]:
    app = make_app()
    client = app.test_client()
    token = long_record(app)
    form = {"token": token, "act": "next"}
    htmx = {"HX-Request": "true", "HX-Request-Type": "full"}  # as play.js's form sends it
    for _ in range(20):  # warm up
        client.post(ACT, data=form, headers=htmx)
        client.get(TRIVIAL)
    times, base, cpu = [], [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        response = client.post(ACT, data=form, headers=htmx)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert response.status_code == 200
        t = time.perf_counter()
        client.get(TRIVIAL)
        base.append((time.perf_counter() - t) * 1000)
    with app.test_request_context():
        actions = len(tokens.load(token, "snap").actions)
    out = {
        "actions_in_record": actions,
        "token_chars": len(token),
        "p50_ms": statistics.median(times),
        "p99_ms": pct(times, 99),
        "cpu_p50_ms": statistics.median(cpu),
        "cpu_p99_ms": pct(cpu, 99),
        "trivial_p50_ms": statistics.median(base),
    }
    out["p50_ratio_to_trivial"] = out["p50_ms"] / out["trivial_p50_ms"]
    return out


# --------------------------------------------------------------------------- 2. paint


def bench_paint(samples: int = 30) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM_ARGS, LiveServer, find_chromium

    chromium = find_chromium()
    if chromium is None:
        return {"skipped": 1.0}
    config = {"SECRET_KEY": SECRET, "PLAY_PACE_MS": 60_000, "PLAY_MAX_TURNS": 400}
    taps, base = [], []
    with LiveServer(config) as server, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_context(has_touch=True, viewport={"width": 1280, "height": 800})
        page = page.new_page()
        page.goto(f"{server.url}/sets/snap-standard-deck/play")
        page.get_by_role("button", name="Start").click()
        page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
        snap_button = page.get_by_role("button", name="Snap!", exact=True)
        turn = page.get_by_role("button", name="Turn your card")
        nxt = page.locator("#next-button")
        started = time.monotonic()
        while len(taps) < samples and time.monotonic() - started < 120:
            try:
                if page.locator("#game[data-over='1']").count():
                    page.get_by_role("button", name="Play again").click()
                    page.wait_for_function("() => document.getElementById('snap-button')")
                count = page.evaluate("() => window.kioskPlay.log.length")
                if turn.is_enabled(timeout=2000):
                    turn.tap()
                elif nxt.is_enabled(timeout=2000):
                    page.evaluate("() => document.getElementById('next-button').click()")
                page.wait_for_function(
                    "n => window.kioskPlay.log.length > n", arg=count, timeout=5000
                )
                if not snap_button.is_enabled(timeout=2000):
                    continue
                count = page.evaluate("() => window.kioskPlay.log.length")
                snap_button.tap()  # whatever the outcome (won, mistaken, too slow): painted
                page.wait_for_function(
                    "n => window.kioskPlay.log.slice(n).some(e => e.type === 'painted')",
                    arg=count,
                    timeout=5000,
                )
            except Exception:  # the table moved on mid-step (or the game ended): go on
                continue
            taps.append(page.evaluate(
                """n => { const log = window.kioskPlay.log.slice(n);
                    const call = log.find(e => e.type === 'call');
                    const paint = log.find(e => e.type === 'painted' && e.at > call.tapAt);
                    return paint.at - call.tapAt; }""",
                count,
            ))  # fmt: skip
            base.append(page.evaluate(
                """() => new Promise(done => {
                    const t = performance.now();
                    requestAnimationFrame(() => requestAnimationFrame(
                      () => done(performance.now() - t))); })"""
            ))  # fmt: skip
        browser.close()
    out = {"samples": float(len(taps))}
    if taps:
        out["tap_to_paint_median_ms"] = statistics.median(taps)
        out["tap_to_paint_p90_ms"] = pct(taps, 90)
        out["two_frames_median_ms"] = statistics.median(base)
        out["ratio_to_two_frames"] = out["tap_to_paint_median_ms"] / out["two_frames_median_ms"]
    return out


# --------------------------------------------------------------------------- 3. gunicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load(port: int, method: str, path: str, body: bytes | None, *, threads: int,
         max_requests: int, max_seconds: float) -> tuple[float, int]:  # fmt: skip
    """Requests per second from ``threads`` clients, bounded in requests and seconds."""
    done = [0]
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + max_seconds
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}

    def worker() -> None:
        while time.monotonic() < stop:
            with lock:
                if done[0] >= max_requests:
                    return
                done[0] += 1
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    errors[0] += 1
            except OSError:
                errors[0] += 1
            finally:
                conn.close()

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - started
    return done[0] / elapsed, errors[0]


def bench_gunicorn(rounds: int = 3, max_requests: int = 1500, max_seconds: float = 8.0):
    gunicorn = shutil.which("gunicorn", path=str(ROOT / ".venv" / "bin")) or "gunicorn"
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         "benchmarks.bench_play:make_app()"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        for _ in range(100):  # wait for it to listen (10 s at most)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        app = make_app()
        token = long_record(app, actions=60)  # a game some way in
        body = urllib.parse.urlencode({"token": token, "act": "next"}).encode()
        load(port, "GET", TRIVIAL, None, threads=4, max_requests=200, max_seconds=3)  # warm
        load(port, "POST", ACT, body, threads=4, max_requests=200, max_seconds=3)
        trivial, game, errors = [], [], 0
        for _ in range(rounds):  # interleaved, so both see the same machine
            rps, err = load(port, "GET", TRIVIAL, None, threads=8,
                            max_requests=max_requests, max_seconds=max_seconds)  # fmt: skip
            trivial.append(rps)
            errors += err
            rps, err = load(port, "POST", ACT, body, threads=8,
                            max_requests=max_requests, max_seconds=max_seconds)  # fmt: skip
            game.append(rps)
            errors += err
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    return {
        "trivial_rps": statistics.median(trivial),
        "game_action_rps": statistics.median(game),
        "ratio": statistics.median(game) / statistics.median(trivial),
        "errors": float(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=["server", "paint", "gunicorn"])
    args = parser.parse_args()
    runs = {"server": bench_server, "paint": bench_paint, "gunicorn": bench_gunicorn}
    for name, fn in runs.items():
        if args.only and name != args.only:
            continue
        t = time.perf_counter()
        result = fn()
        print(f"{name} ({time.perf_counter() - t:.1f} s)")
        for key, value in result.items():
            shown = f"{value:10.2f}" if isinstance(value, float) else str(value)
            print(f"  {key:24} {shown}")


if __name__ == "__main__":
    main()
