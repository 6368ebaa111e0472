"""Play benchmarks: server time per action, tap-to-paint in Chromium, throughput under gunicorn.

Run from the repository root:

    .venv/bin/python benchmarks/bench_play.py             # everything (about a minute)
    .venv/bin/python benchmarks/bench_play.py --only server [--rescan 1]
    .venv/bin/python benchmarks/bench_play.py --only paint
    .venv/bin/python benchmarks/bench_play.py --only gunicorn
    .venv/bin/python benchmarks/bench_play.py --only server --against d798835 [--rounds 4]

1. **server**: the time of one game action (a POST through the Flask app: load the token,
   rebuild the game, apply, render the table, sign the new token) 500 actions into a game,
   p50 and p99 (target p99 ≤ 5 ms), with a trivial route through the same app as baseline:
   games played on across two app instances (two workers, each with its state cache), and
   cold (the cache off: the same 500-action token replayed every time). ``--rescan S``: the
   catalogue walks ``content/`` at most every S seconds.
2. **paint**: in Debian's Chromium on localhost, from the tap on Snap! (pointerdown) to the
   result painted (snap.js's paint mark: images decoded, then the frame that first shows the
   new table rendered), median (target ≤ 50 ms). Served as ``kiosk run`` serves it (waitress
   in a process of its own) and, in alternate rounds, by the browser tests' in-process server
   (``in_thread_``). With the median time from the tap to each step: request sent, old table
   captured, first byte, response parsed, swap, images decoded, the transition's first frame
   (``ready``) and ``frame_after`` (the end of the next frame: where the mark fell before).
   The tap comes 300 ms after the card was painted, as a quick visitor's would; baseline: two
   animation frames, in the same page. About 3½ minutes.
3. **gunicorn**: requests per second of a game action under gunicorn with two sync workers
   and production settings, as a ratio to a trivial Flask route on the same server in the
   same run (target ≥ 0.5). Eight client threads, each a visitor playing a game on (500
   actions in) as play.js sends it: an htmx post with the token of the last answer, so a
   worker usually carries its kept game forward. Also the old measure: the same token posted
   every time (each action replays the whole record). 127.0.0.1 only; each load loop is
   bounded in requests and in seconds.

``--against REV``: the same modes measured on the code at git REV side by side, in one run.
REV is checked out in a temporary git worktree and its *own* bench_play.py runs there (with
this venv's python, REV's tree first on the path and as the working folder), so an old
revision is measured with the module names and DOM ids it had; this tree's script runs the
same way from here. The two take turns, ``--rounds`` each (ABBA order); each run's figures are
read from its output and printed as medians of rounds with the ratio, the load average before
and after every run, and the issue's target. An old long_games.py that kept reading the first
state (its moves were wrong once ``apply`` made new states) is patched in the worktree, and
the output says so.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import long_games, servers  # noqa: E402
from benchmarks.bench_load import cpu_seconds, worker_pids  # noqa: E402
from kiosk import create_app  # noqa: E402
from kiosk.games.snap.web import GAME, next_action  # noqa: E402
from kiosk.memo import Memo  # noqa: E402
from kiosk.web import tokens  # noqa: E402
from kiosk.web.play import flow  # noqa: E402
from kiosk.web.play.games import HUMAN  # noqa: E402

SECRET = "bench-play-secret"
SET = "misc-869-1986"
ACT = f"/sets/{SET}/play/act"
TRIVIAL = "/_bench/trivial"


RESCAN_S = 0.0  # --rescan for the server figures: walk content/ at most this often (0: always)


def make_app(rescan_s: float | None = None) -> Any:
    """The kiosk app plus a trivial route (the baseline); gunicorn loads this too.

    ``rescan_s``: walk the content folder at most this often (0: on every request, as under
    tests); None keeps the production setting (at most once a second).
    """
    app = create_app({"SECRET_KEY": SECRET})
    app.add_url_rule(TRIVIAL, "bench_trivial", lambda: "ok")
    if rescan_s is not None:
        app.extensions["catalogue"].rescan_s = rescan_s
    return app


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- a long game


def long_record(app: Any, actions: int = 500, first: int = 0) -> str:
    """A token for a Woolworths game, one visitor against two computers, ``actions`` long
    (the first such game dealt from nonce ``bench-<first>`` on)."""
    for attempt in range(first, first + 200):
        found = long_games.played(app, f"bench-{attempt}", actions)
        if found is not None:
            return found[0]
    raise RuntimeError("no game lasted long enough")


# --------------------------------------------------------------------------- 1. server


TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')


def _next_form(oracle: Any, html: str) -> dict[str, str]:
    """What the visitor's page sends next: Snap! on a match, Next while the computers pace,
    else a turn (``oracle``, another app, reads the new token outside the timing)."""
    token = TOKEN_RE.search(html).group(1)  # type: ignore[union-attr]
    with oracle.test_request_context():
        set_record = flow.game_or_404(GAME.slug, SET)[1]
        game = flow.rebuild(GAME, tokens.load(token, GAME.slug), set_record)
        flow.keep(GAME, game)
    s = game.state
    w = s.window
    if w is not None and w.snap and not w.calls and not s.out[HUMAN]:
        return {"token": token, "act": "snap", "turn": str(w.turn), "reaction_ms": "400"}
    if next_action(game) is not None:
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


def state_cache_of(app: Any) -> Memo:
    """The app's kept game states (flow.state_cache(), made on first use)."""
    with app.app_context():
        return flow.state_cache()


def bench_server(repeat: int = 400) -> dict[str, float]:
    """Server time per action 500 actions in: games played on (two apps as two workers, each
    with its state cache), and the cold case (the cache off: every action replays)."""
    apps = [make_app(RESCAN_S), make_app(RESCAN_S)]
    oracle = make_app()
    cold_app = make_app(RESCAN_S)
    cold_app.config["PLAY_STATE_CACHE"] = 0
    token = long_record(oracle)
    clients = [app.test_client() for app in apps]
    cold = [cold_app.test_client()]
    trivial = clients[0]
    for client in [*clients, *cold]:  # warm up: templates compiled, content read
        client.post(ACT, data={"token": token, "act": "next"})
        client.get(TRIVIAL)
    forms = _games_under_way(clients, oracle, 8)
    caches = [state_cache_of(a) for a in apps]
    hits, misses = sum(c.hits for c in caches), sum(c.misses for c in caches)
    base = []
    for _ in range(repeat):
        t = time.perf_counter()
        trivial.get(TRIVIAL)
        base.append((time.perf_counter() - t) * 1000)
    times, cpu, games = _time_posts(clients, forms, repeat, seed=1, oracle=oracle)
    cold_times, cold_cpu, _ = _time_posts(cold, [{"token": token, "act": "next"}], repeat, 2)
    with oracle.test_request_context():
        actions = len(tokens.load(token, GAME.slug).actions)
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
PAINT_CONFIG = {"SECRET_KEY": SECRET, "PLAY_PACE_MS": 60_000, "PLAY_MAX_TURNS": 400}
# the steps of a call, in order (snap.js's marks; first_byte from Resource Timing): request
# sent, old table captured (the view transition's update begins), response's first byte,
# response parsed (htmx:before:swap), morphed, images decoded, new table captured (the
# transition's "ready": its first frame), then painted (that frame rendered); frame_after:
# the end of the next frame, where the mark fell before it was taken from "ready"
PAINT_STEPS = [
    "request",
    "capture",
    "first_byte",
    "response",
    "swap",
    "decoded",
    "ready",
    "frame_after",
]

# `kiosk run`'s way to serve (create_app, then waitress with eight threads), in a process of
# its own; the settings come as JSON because PLAY_PACE_MS and PLAY_MAX_TURNS are not among
# the KIOSK_* environment variables
SERVE_LIKE_KIOSK_RUN = """
import json, sys, waitress
from kiosk import create_app
app = create_app(json.loads(sys.argv[1]))
waitress.serve(app, host="127.0.0.1", port=int(sys.argv[2]), threads=8)
"""


@contextlib.contextmanager
def kiosk_process(config: dict[str, Any]) -> Iterator[str]:
    """The app served as `kiosk run` serves it, in its own process group; yields its URL."""
    port = servers.free_port()
    proc = servers.start(
        [sys.executable, "-c", SERVE_LIKE_KIOSK_RUN, json.dumps(config), str(port)],
        port,
        "the kiosk process",
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        servers.stop(proc)


def _paint_samples(url: str, chromium: str, samples: int, seconds: float) -> list[dict]:
    """Taps on Snap! in one Chromium page, each with its times from the tap (ms)."""
    from playwright.sync_api import sync_playwright

    from tests.browser.harness import CHROMIUM_ARGS

    rows: list[dict] = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_context(has_touch=True, viewport={"width": 1280, "height": 800})
        page = page.new_page()
        page.goto(f"{url}/sets/snap-standard-deck/play")
        page.get_by_role("button", name="Start").click()
        page.wait_for_function("() => window.kioskPlay && window.kioskPlay.log.length > 0")
        snap_button = page.get_by_role("button", name="Snap!", exact=True)
        turn = page.get_by_role("button", name="Turn your card")
        nxt = page.locator("#next-button")
        started = time.monotonic()
        while len(rows) < samples and time.monotonic() - started < seconds:
            try:
                if page.locator("#snap-game[data-over='1']").count():
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
                        ms - (performance.now() - window.kioskSnap.state.paintedAt))))""",
                    REACTION_MS,
                )
                count = page.evaluate(
                    "() => (performance.clearResourceTimings(), window.kioskPlay.log.length)"
                )
                snap_button.tap()  # whatever the outcome (won, mistaken, too slow): painted
                page.wait_for_function(
                    "n => window.kioskPlay.log.slice(n).some(e => e.type === 'painted')",
                    arg=count,
                    timeout=5000,
                )
            except Exception:  # the table moved on mid-step (or the game ended): go on
                continue
            row = page.evaluate(
                """async n => { const log = window.kioskPlay.log.slice(n);
                    const call = log.find(e => e.type === 'call');
                    const paint = log.find(e => e.type === 'painted' && e.at > call.tapAt);
                    const steps = paint.steps || {}, since = performance.now();
                    while (steps.ready !== undefined && steps.frame_after === undefined
                           && performance.now() - since < 250)
                      await new Promise(done => setTimeout(done, 5));
                    const t0 = call.tapAt, row = {paint: paint.at - t0};
                    for (const [step, at] of Object.entries(paint.steps || {}))
                      row[step] = at - t0;
                    const fetched = performance.getEntriesByType('resource')
                      .filter(e => e.name.includes('/play/act')).pop();
                    if (fetched) row.first_byte = fetched.responseStart - t0;
                    return row; }""",
                count,
            )
            row["two_frames"] = page.evaluate(
                """() => new Promise(done => {
                    const t = performance.now();
                    requestAnimationFrame(() => requestAnimationFrame(
                      () => done(performance.now() - t))); })"""
            )
            rows.append(row)
        browser.close()
    return rows


def _paint_figures(rows: list[dict], prefix: str = "") -> dict[str, float]:
    """Median and p90 tap-to-paint, the baseline, and the median time to each step."""
    out = {f"{prefix}samples": float(len(rows))}
    if not rows:
        return out
    taps = [r["paint"] for r in rows]
    frames = statistics.median(r["two_frames"] for r in rows)
    out[f"{prefix}tap_to_paint_median_ms"] = statistics.median(taps)
    out[f"{prefix}tap_to_paint_p90_ms"] = float(pct(taps, 90))
    out[f"{prefix}two_frames_median_ms"] = frames
    out[f"{prefix}ratio_to_two_frames"] = statistics.median(taps) / frames
    for step in PAINT_STEPS:  # where the time goes: tap to each step, median
        seen = [r[step] for r in rows if step in r]  # absent: the step did not happen
        if seen:
            out[f"{prefix}tap_to_{step}_median_ms"] = statistics.median(seen)
    return out


def bench_paint(samples: int = 30, seconds: float = 120.0, rounds: int = 3) -> dict[str, float]:
    """Tap-to-paint with the app served as a kiosk serves it (`kiosk run`: waitress in a
    process of its own) and, for comparison, by the browser tests' LiveServer (waitress in a
    thread of this process, which also drives Playwright: ``in_thread_`` figures), taken in
    alternate rounds so that both see the same load on a shared machine."""
    from tests.browser.harness import LiveServer, find_chromium

    chromium = find_chromium()
    if chromium is None:
        return {"skipped": 1.0}
    kiosk: list[dict] = []
    in_thread: list[dict] = []
    with kiosk_process(PAINT_CONFIG) as url, LiveServer(PAINT_CONFIG) as server:
        for _ in range(rounds):
            for rows, base in ((kiosk, url), (in_thread, server.url)):
                rows += _paint_samples(base, chromium, samples // rounds, seconds / rounds)
    return {**_paint_figures(kiosk), **_paint_figures(in_thread, "in_thread_")}


# --------------------------------------------------------------------------- 3. gunicorn


FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded"}
TURN_RE = re.compile(r'name="turn" value="(\d+)"')
AGAIN_RE = re.compile(r'name="(variant|level|bots)" value="([^"]*)"')
START = f"/sets/{SET}/play"


class Visitor:
    """One visitor's next request, played on from each answer as play.js's form would send it.

    ``first`` is the form of a game under way; each answer's token and buttons make the next
    (Snap! on one open window in four, mistaken or not; Next while the computers pace; else a
    turn); a finished game is followed by "Play again". Without ``first``: the trivial route.
    ``play_on=False`` posts ``first`` every time (each action then replays the whole record).
    """

    def __init__(self, first: dict[str, str] | None, seed: int, play_on: bool = True) -> None:
        self.first = first
        self.form = first
        self.path = ACT
        self.play_on = play_on
        self.rng = random.Random(seed)

    def request(self) -> tuple[str, str, bytes | None, dict[str, str]]:
        if self.form is None:
            return "GET", TRIVIAL, None, HTMX
        body = urllib.parse.urlencode(self.form).encode()
        return "POST", self.path, body, {**FORM_HEADERS, **HTMX}

    def answered(self, html: str) -> None:
        if self.form is None or not self.play_on:
            return
        self.path = ACT
        token = TOKEN_RE.search(html)
        if token is None:  # not a table: start over
            self.form = self.first
            return
        if 'data-over="1"' in html:  # "Play again" (the result's form: a new game)
            self.path = START
            self.form = dict(AGAIN_RE.findall(html)) or {"bots": "2"}
            return
        form = {"token": token.group(1)}
        if 'id="snap-button" aria-keyshortcuts="Space Enter">' in html and self.rng.random() < 0.25:
            turn = TURN_RE.search(html)
            form.update(act="snap", turn=turn.group(1) if turn else "0", reaction_ms="500")
        elif 'id="next-button">' in html:
            form["act"] = "next"
        else:
            form["act"] = "turn"
        self.form = form


def load(
    port: int,
    visitors: list[Visitor],
    *,
    max_requests: int,
    max_seconds: float,
    done: list[int] | None = None,
) -> tuple[float, int]:
    """Requests per second from one client thread per visitor, bounded in requests and time
    (``done[0]``: how many were sent)."""
    done = [0] if done is None else done
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + max_seconds

    def worker(visitor: Visitor) -> None:
        while time.monotonic() < stop:
            with lock:
                if done[0] >= max_requests:
                    return
                done[0] += 1
            method, path, body, headers = visitor.request()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                html = response.read().decode("utf-8", "replace")
                if response.status != 200:
                    errors[0] += 1
                visitor.answered(html)
            except OSError:
                errors[0] += 1
            finally:
                conn.close()

    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(v,)) for v in visitors]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - started
    return done[0] / elapsed, errors[0]


def start_gunicorn(app: str) -> tuple[Any, int]:
    """gunicorn from .venv serving ``app`` with two sync workers and production settings,
    started and answering: its process and its port."""
    gunicorn = shutil.which("gunicorn", path=str(ROOT / ".venv" / "bin")) or "gunicorn"
    port = servers.free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = servers.start(
        [gunicorn, "--workers", "2", "--bind", f"127.0.0.1:{port}", "--log-level", "warning", app],
        port,
        "gunicorn",
        env=env,
    )
    return proc, port


def bench_gunicorn(
    rounds: int = 3, max_requests: int = 1500, max_seconds: float = 8.0, threads: int = 8
) -> dict[str, float]:
    """Game actions against a trivial route under gunicorn (two sync workers, production
    settings), interleaved in rounds; games played on, and the same token posted again."""
    proc, port = start_gunicorn("benchmarks.bench_play:make_app()")
    try:
        app = make_app()
        firsts = [
            {"token": long_record(app, first=1000 * n), "act": "next"} for n in range(threads)
        ]
        same = [{"token": firsts[0]["token"], "act": "next"}] * threads

        def crowd(forms: list[dict[str, str]] | None, play_on: bool = True) -> list[Visitor]:
            return [
                Visitor(None if forms is None else forms[n], n, play_on) for n in range(threads)
            ]

        pids = worker_pids(proc)
        playing = crowd(firsts)
        load(port, crowd(None), max_requests=200, max_seconds=3)  # warm: templates compiled
        load(port, playing, max_requests=200, max_seconds=3)  # and each game kept by a worker
        trivial, game, frozen, errors = [], [], [], 0
        cpu: dict[int, list[float]] = {id(trivial): [], id(game): [], id(frozen): []}
        for _ in range(rounds):  # interleaved, so all three see the same machine
            for figures, people in (
                (trivial, crowd(None)),
                (game, playing),
                (frozen, crowd(same, play_on=False)),
            ):
                used = cpu_seconds(pids)
                rps, err = load(
                    port,
                    people,
                    max_requests=max_requests,
                    max_seconds=max_seconds,
                    done=(count := [0]),
                )
                cpu[id(figures)].append((cpu_seconds(pids) - used) * 1000 / max(1, count[0]))
                figures.append(rps)
                errors += err
    finally:
        servers.stop(proc)
    return {
        "trivial_rps": statistics.median(trivial),
        "game_action_rps": statistics.median(game),
        "ratio": statistics.median(game) / statistics.median(trivial),
        "same_token_rps": statistics.median(frozen),
        "same_token_ratio": statistics.median(frozen) / statistics.median(trivial),
        # the workers' own CPU per request (the client's is left out): the server's cost
        "trivial_worker_cpu_ms": statistics.median(cpu[id(trivial)]),
        "game_action_worker_cpu_ms": statistics.median(cpu[id(game)]),
        "ratio_by_worker_cpu": statistics.median(cpu[id(trivial)])
        / statistics.median(cpu[id(game)]),
        "errors": float(errors),
    }


# --------------------------------------------------------------------------- --against REV


MODES = ("server", "paint", "gunicorn")
FIGURE_RE = re.compile(r"^  (\w+)\s+(\S+)$")  # a figure line as main() prints it
TARGETS = {  # the figure of each mode: (name, target, at most?)
    "server": ("p99_ms", 5.0, True),
    "paint": ("tap_to_paint_median_ms", 50.0, True),
    "gunicorn": ("ratio", 0.5, False),
}
LONG_GAMES_LOOP = "play.play(game, action)"  # long_games.py's move, before issue 14
LONG_GAMES_FIX = "state = game.state"


def load_average() -> str:
    """The machine's 1, 5 and 15 minute load averages, as /proc/loadavg gives them."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def fix_long_games(tree: Path) -> str | None:
    """Make the tree's long_games.py read the game's state after each move (the loop kept
    the first state: its games were wrong once ``apply`` made new states); what was done."""
    path = tree / "benchmarks" / "long_games.py"
    text = path.read_text()
    if LONG_GAMES_FIX in text or LONG_GAMES_LOOP not in text:
        return None
    lines = text.splitlines(keepends=True)
    at = next(n for n, line in enumerate(lines) if line.strip() == LONG_GAMES_LOOP)
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines.insert(at + 1, f"{indent}{LONG_GAMES_FIX}\n")
    path.write_text("".join(lines))
    return (
        f"its benchmarks/long_games.py patched in the worktree: {LONG_GAMES_FIX!r} after each "
        "move (its loop read the first state; no change where play() changes it in place)"
    )


@contextlib.contextmanager
def tree_at(rev: str) -> Iterator[Path]:
    """REV in a temporary git worktree, ready to run its own bench_play.py with this venv."""
    from benchmarks.bench_capacity import worktree

    with worktree(rev) as tree:
        (tree / ".venv").symlink_to(sys.prefix)  # its gunicorn is found under .venv/bin
        patched = fix_long_games(tree)
        if patched:
            print(f"{rev}: {patched}", flush=True)
        yield tree


def run_tree(tree: Path, mode: str, rescan: float) -> dict[str, Any]:
    """The tree's own bench_play.py for one mode, run in the tree with its code first on the
    path: its figures, its time, and the load average before and after."""
    argv = [sys.executable, "benchmarks/bench_play.py", "--only", mode]
    if rescan:  # only when asked: older scripts may not know the option
        argv += ["--rescan", str(rescan)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before, started = load_average(), time.perf_counter()
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, check=False)
    seconds, after = time.perf_counter() - started, load_average()
    if done.returncode != 0:
        raise RuntimeError(f"{tree}'s bench_play.py --only {mode} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, float] = {}
    for line in done.stdout.splitlines():
        found = FIGURE_RE.match(line)
        if found:
            with contextlib.suppress(ValueError):
                figures[found.group(1)] = float(found.group(2))
    return {"figures": figures, "seconds": seconds, "load": (before, after)}


def report_against(mode: str, results: dict[str, list[dict[str, Any]]]) -> None:
    """Each tree's medians of rounds (each round in brackets), their ratio, and the target."""
    labels = list(results)
    rows = [["figure", *labels, f"{labels[0]} / {labels[1]}"]]
    keys = dict.fromkeys(k for runs in results.values() for r in runs for k in r["figures"])
    for key in keys:
        cells, medians = [key], []
        whole = all(r["figures"].get(key, 0.0).is_integer() for rs in results.values() for r in rs)
        shown = "{:.0f}" if whole else "{:.2f}"  # counts as counts, times with two decimals
        for label in labels:
            values = [r["figures"][key] for r in results[label] if key in r["figures"]]
            if values:
                medians.append(statistics.median(values))
                each = "/".join(shown.format(v) for v in values)
                cells.append(f"{shown.format(medians[-1])} ({each})")
            else:
                cells.append("–")
        both = len(medians) == 2 and medians[1]
        cells.append(f"{medians[0] / medians[1]:.2f}" if both else "")
        rows.append(cells)
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    print(f"\n{mode}: medians of rounds (each round)")
    for row in rows:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    for label in labels:
        loads = "; ".join(f"{b} -> {a}" for b, a in (r["load"] for r in results[label]))
        print(f"  load average ({label}, before -> after each round): {loads}")
    name, target, at_most = TARGETS[mode]
    for label in labels:
        values = [r["figures"][name] for r in results[label] if name in r["figures"]]
        if values:
            value = statistics.median(values)
            met = value <= target if at_most else value >= target
            sign = "<=" if at_most else ">="
            verdict = "met" if met else "NOT met"
            print(f"  target {name} {sign} {target:g}: {label} {value:.2f}, {verdict}")


def against(rev: str, modes: list[str], rounds: int, rescan: float) -> None:
    """This tree's bench_play.py and REV's own, each in its tree, in alternating rounds."""
    from benchmarks.bench_capacity import short

    here = f"tree@{short('HEAD')}"  # the working tree, edits included
    print(f"bench_play.py: {here} against {rev} ({short(rev)}), {rounds} rounds", flush=True)
    with tree_at(rev) as old:
        trees = {here: ROOT, rev: old}
        for mode in modes:
            figure = TARGETS[mode][0]
            results: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for r in range(rounds):
                order = list(trees) if r % 2 == 0 else list(trees)[::-1]  # ABBA: drift evens out
                for name in order:
                    run = run_tree(trees[name], mode, rescan)
                    results[name].append(run)
                    print(
                        f"round {r + 1}: {name:14} {mode:8} {run['seconds']:6.1f} s  "
                        f"{figure} {run['figures'].get(figure, float('nan')):.2f}  "
                        f"load {run['load'][0]} -> {run['load'][1]}",
                        flush=True,
                    )
            report_against(mode, results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=MODES)
    parser.add_argument(
        "--rescan",
        type=float,
        default=0.0,
        help="the catalogue's rescan interval in seconds (default 0: every "
        "request, as under tests; 1: production)",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also measure the code at git REV (its own bench_play.py in a temporary "
        "worktree), in alternating rounds, and print both side by side",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds of each tree with --against (default 2)"
    )
    args = parser.parse_args()
    if args.against:
        against(args.against, [args.only] if args.only else list(MODES), args.rounds, args.rescan)
        return
    global RESCAN_S
    RESCAN_S = args.rescan
    runs = {"server": bench_server, "paint": bench_paint, "gunicorn": bench_gunicorn}
    print(f"load average before: {load_average()}", flush=True)
    for name, fn in runs.items():
        if args.only and name != args.only:
            continue
        t = time.perf_counter()
        result = fn()
        print(f"{name} ({time.perf_counter() - t:.1f} s, load average after: {load_average()})")
        for key, value in result.items():
            shown = f"{value:10.2f}" if isinstance(value, float) else str(value)
            print(f"  {key:24} {shown}")


if __name__ == "__main__":
    main()
