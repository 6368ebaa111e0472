"""Play benchmarks: server time per action, tap-to-paint in Chromium, throughput under gunicorn.

Run from the repository root:

    .venv/bin/python benchmarks/bench_play.py             # everything (about a minute)
    .venv/bin/python benchmarks/bench_play.py --only server [--rescan 1]
    .venv/bin/python benchmarks/bench_play.py --only paint
    .venv/bin/python benchmarks/bench_play.py --only gunicorn

1. **server**: the time of one game action (a POST through the Flask app: load the token,
   rebuild the game, apply, render the table, sign the new token) 500 actions into a game,
   p50 and p99 (target p99 ≤ 5 ms), with a trivial route through the same app as baseline:
   games played on across two app instances (two workers, each with its state cache), and
   cold (the cache off: the same 500-action token replayed every time). ``--rescan S``: the
   catalogue walks ``content/`` at most every S seconds.
2. **paint**: in Debian's Chromium on localhost, from the tap on Snap! (pointerdown) to the
   result painted (play.js's paint mark: images decoded, then the next frame rendered),
   median (target ≤ 50 ms), with the median time from the tap to each step on the way
   (request sent, response in, swap, images decoded); the tap comes 300 ms after the card
   was painted, as a quick visitor's would; baseline: two animation frames, in the same page.
3. **gunicorn**: requests per second of a game action under gunicorn with two sync workers,
   as a ratio to a trivial Flask route on the same server in the same run (target ≥ 0.5).
   127.0.0.1 only; each load loop is bounded in requests and in seconds.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
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


RESCAN_S = 0.0  # --rescan: walk the content folder at most this often (0: every request)


def make_app() -> Any:
    """The kiosk app plus a trivial route (the baseline); gunicorn loads this too."""
    app = create_app({"SECRET_KEY": SECRET})
    app.add_url_rule(TRIVIAL, "bench_trivial", lambda: "ok")
    app.extensions["catalogue"].rescan_s = RESCAN_S  # TESTING apps walk on every request
    return app


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- a long game


def long_record(app: Any, actions: int = 500, first: int = 0) -> str:
    """A token for a Woolworths game, one visitor against two computers, ``actions`` long
    (the first such game dealt from nonce ``bench-<first>`` on)."""
    with app.test_request_context():
        set_record = play.set_or_404(SET)
        deck = play.deck_of(set_record)
        for attempt in range(first, first + 200):
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


TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')


def _next_form(oracle: Any, html: str) -> dict[str, str]:
    """What the visitor's page sends next: Snap! on a match, Next while the computers pace,
    else a turn (``oracle``, another app, reads the new token outside the timing)."""
    token = TOKEN_RE.search(html).group(1)  # type: ignore[union-attr]
    with oracle.test_request_context():
        game = play.rebuild(tokens.load(token, "snap"), play.set_or_404(SET))
        play.keep(game)
    s = game.state
    w = s.window
    if w is not None and w.snap and not w.calls and not s.out[play.HUMAN]:
        return {"token": token, "act": "snap", "turn": str(w.turn), "reaction_ms": "400"}
    if play.next_action(game) is not None:
        return {"token": token, "act": "next"}
    return {"token": token, "act": "turn"}


HTMX = {"HX-Request": "true", "HX-Request-Type": "full"}  # as play.js's form sends it


def _time_posts(
    clients: list[Any], forms: list[dict[str, str]], repeat: int, seed: int, oracle: Any = None
) -> tuple[list[float], list[float], int]:
    """Post ``repeat`` actions, each to a random one of ``clients`` (gunicorn's workers).

    With an ``oracle``, a game is played on: each post carries the last response's token and
    the visitor's next move; when the game ends the next of ``forms`` starts. Without one,
    ``forms[0]`` (the same 500-action token) is posted every time."""
    pick = random.Random(seed)
    queue = list(forms)
    form = queue.pop(0)
    times, cpu, games = [], [], 1
    for _ in range(repeat):
        client = pick.choice(clients)
        t, c = time.perf_counter(), time.process_time()
        response = client.post(ACT, data=form, headers=HTMX)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        assert response.status_code == 200, response.status_code
        if oracle is not None:
            html = response.get_data(as_text=True)
            if 'data-over="1"' in html:
                form, games = queue.pop(0), games + 1
            else:
                form = _next_form(oracle, html)
    return times, cpu, games


def _games_under_way(clients: list[Any], oracle: Any, count: int) -> list[dict[str, str]]:
    """The next posts of ``count`` games 500 actions in, as two workers would hold them: each
    game's last two actions were served one by each worker (so both have it cached)."""
    forms = []
    for n in range(count):
        form = {"token": long_record(oracle, first=1000 * n), "act": "next"}
        for client in clients:
            form = _next_form(oracle, client.post(ACT, data=form, headers=HTMX).get_data(True))
        forms.append(form)
    return forms


def bench_server(repeat: int = 400) -> dict[str, float]:
    """Server time per action 500 actions in: games played on (two apps as two workers, each
    with its state cache), and the cold case (the cache off: every action replays)."""
    apps = [make_app(), make_app()]
    oracle = make_app()
    cold_app = make_app()
    cold_app.config["PLAY_STATE_CACHE"] = 0
    token = long_record(oracle)
    clients = [app.test_client() for app in apps]
    cold = [cold_app.test_client()]
    trivial = clients[0]
    for client in [*clients, *cold]:  # warm up: templates compiled, content read
        client.post(ACT, data={"token": token, "act": "next"})
        client.get(TRIVIAL)
    forms = _games_under_way(clients, oracle, 8)
    caches = [a.extensions[play.CACHE_EXTENSION] for a in apps]
    hits, misses = sum(c.hits for c in caches), sum(c.misses for c in caches)
    base = []
    for _ in range(repeat):
        t = time.perf_counter()
        trivial.get(TRIVIAL)
        base.append((time.perf_counter() - t) * 1000)
    times, cpu, games = _time_posts(clients, forms, repeat, seed=1, oracle=oracle)
    cold_times, cold_cpu, _ = _time_posts(cold, [{"token": token, "act": "next"}], repeat, 2)
    with oracle.test_request_context():
        actions = len(tokens.load(token, "snap").actions)
    out = {
        "actions_in_record": actions,
        "token_chars": len(token),
        "p50_ms": statistics.median(times),
        "p99_ms": pct(times, 99),
        "cpu_p50_ms": statistics.median(cpu),
        "cpu_p99_ms": pct(cpu, 99),
        "cache_hits": sum(c.hits for c in caches) - hits,
        "cache_misses": sum(c.misses for c in caches) - misses,
        "games_played": games,
        "cold_p50_ms": statistics.median(cold_times),
        "cold_p99_ms": pct(cold_times, 99),
        "cold_cpu_p50_ms": statistics.median(cold_cpu),
        "cold_cpu_p99_ms": pct(cold_cpu, 99),
        "trivial_p50_ms": statistics.median(base),
    }
    out["p50_ratio_to_trivial"] = out["p50_ms"] / out["trivial_p50_ms"]
    out["cold_p50_ratio_to_trivial"] = out["cold_p50_ms"] / out["trivial_p50_ms"]
    return out


# --------------------------------------------------------------------------- 2. paint


REACTION_MS = 300  # quicker than any computer level's median (420 ms for the quickest)


def bench_paint(samples: int = 30) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM_ARGS, LiveServer, find_chromium

    chromium = find_chromium()
    if chromium is None:
        return {"skipped": 1.0}
    config = {"SECRET_KEY": SECRET, "PLAY_PACE_MS": 60_000, "PLAY_MAX_TURNS": 400}
    taps, base = [], []
    parts: dict[str, list[float]] = {"request": [], "response": [], "swap": [], "decoded": []}
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
                # a visitor's reaction: no sooner than REACTION_MS after the card was painted
                # (a tap at once would mostly wait for the last card's move to finish)
                page.evaluate(
                    """ms => new Promise(done => setTimeout(done, Math.max(0,
                        ms - (performance.now() - window.kioskPlay.state.paintedAt))))""",
                    REACTION_MS,
                )
                count = page.evaluate("() => window.kioskPlay.log.length")
                snap_button.tap()  # whatever the outcome (won, mistaken, too slow): painted
                page.wait_for_function(
                    "n => window.kioskPlay.log.slice(n).some(e => e.type === 'painted')",
                    arg=count,
                    timeout=5000,
                )
            except Exception:  # the table moved on mid-step (or the game ended): go on
                continue
            steps = page.evaluate(
                """n => { const log = window.kioskPlay.log.slice(n);
                    const call = log.find(e => e.type === 'call');
                    const paint = log.find(e => e.type === 'painted' && e.at > call.tapAt);
                    const steps = paint.steps || {};
                    const at = t => (steps[t] === undefined ? NaN : steps[t])
                                    - call.tapAt;
                    return {paint: paint.at - call.tapAt, request: at('request'),
                            response: at('response'), swap: at('swap'),
                            decoded: at('decoded')}; }""",
                count,
            )  # fmt: skip
            taps.append(steps["paint"])
            for key in parts:
                parts[key].append(steps[key])
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
        out["tap_to_paint_p90_ms"] = float(pct(taps, 90))
        out["two_frames_median_ms"] = statistics.median(base)
        out["ratio_to_two_frames"] = out["tap_to_paint_median_ms"] / out["two_frames_median_ms"]
        for key, values in parts.items():  # where the time goes: tap to each step, median
            seen = [v for v in values if v == v]  # NaN: the step did not happen
            if seen:
                out[f"tap_to_{key}_median_ms"] = statistics.median(seen)
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
    parser.add_argument("--rescan", type=float, default=0.0,
                        help="the catalogue's rescan interval in seconds (default 0: every "
                             "request, as under tests; 1: production)")  # fmt: skip
    args = parser.parse_args()
    global RESCAN_S
    RESCAN_S = args.rescan
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
