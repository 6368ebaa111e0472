"""Load benchmarks under gunicorn: 200 connections, catalogue pages and a Snap action vs trivial.

Run from the repository root:

    .venv/bin/python benchmarks/bench_load.py          # full run, about 2 minutes
    .venv/bin/python benchmarks/bench_load.py --quick  # shorter, about 40 seconds

The server is gunicorn from .venv serving ``benchmarks.bench_app:make_app()`` (the product
plus a trivial route) on a free 127.0.0.1 port, with two workers of the ``gthread`` class:
a gthread worker keeps idle keep-alive connections in its poller and hands a connection to
one of its threads only while a request is being served, so two workers hold 200 open
connections (up to ``--worker-connections``, 1000 each) while the sync class would serve one
connection per worker at a time and leave the others waiting in the listen backlog.

The client is this script's own asyncio HTTP/1.1 client (keep-alive, one task per
connection): Debian's ``wrk`` is not installed. It shares the two cores with the server, so
absolute requests per second understate the server; the ratios do not, because the same
client measures the baseline and the page in the same run, interleaved round by round.

1. **200 connections** for 30 s (``--quick``: 10 s) against a mix of catalogue pages (home,
   a set, a game, a rule step): requests per second, p50/p99 latency, non-2xx responses and
   socket errors (target: no errors).
2. **Catalogue page** (``/sets/misc-869-1986``) throughput as a ratio to the trivial route
   on the same server, medians of interleaved rounds (target ≥ 0.8).
3. **Snap action**: POST ``/sets/misc-869-1986/play/act`` as the play page's form does
   (the signed token and ``act``, htmx headers), each request with a valid token of a real
   game 500 actions in, prepared beforehand; ratio to the trivial route (target ≥ 0.5).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SECRET = "bench-load-" + secrets.token_hex(16)
os.environ["KIOSK_SECRET_KEY"] = SECRET  # the server and the token maker share it

from benchmarks.bench_app import TRIVIAL, make_app  # noqa: E402
from kiosk.games import snap  # noqa: E402
from kiosk.web import play, tokens  # noqa: E402

SET = "misc-869-1986"
SET_PAGE = f"/sets/{SET}"
ACT = f"/sets/{SET}/play/act"
MIX = ["/", SET_PAGE, "/games/snap", "/rules/snap/woolworths/1"]
APP = "benchmarks.bench_app:make_app()"
HTMX = {"HX-Request": "true", "HX-Request-Type": "full"}  # as play.js's form sends it


# --------------------------------------------------------------------------- requests


def get(path: str, host: str) -> bytes:
    """A keep-alive GET, encoded once before the run."""
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/html\r\n\r\n".encode()


def post(path: str, host: str, form: dict[str, str], headers: dict[str, str]) -> bytes:
    """A keep-alive form POST, encoded once before the run."""
    body = urllib.parse.urlencode(form).encode()
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{extra}"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


# --------------------------------------------------------------------------- the client


@dataclass
class Run:
    """What one load run saw."""

    seconds: float = 0.0
    done: int = 0
    non_2xx: int = 0
    socket_errors: int = 0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    client_cpu: float = 0.0

    @property
    def rps(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.non_2xx + self.socket_errors


async def _read_response(reader: asyncio.StreamReader) -> int:
    """Read one response (Content-Length or chunked); return its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length, chunked = 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status


async def _connection(
    port: int, requests: list[bytes], start: int, deadline: float, run: Run
) -> None:
    """One keep-alive connection sending requests round robin until the deadline."""
    i = start
    writer = None
    while time.perf_counter() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            t = time.perf_counter()
            writer.write(requests[i % len(requests)])
            i += 1
            status = await _read_response(reader)
            run.latencies.append(time.perf_counter() - t)
            run.done += 1
            run.statuses[status] = run.statuses.get(status, 0) + 1
            if not 200 <= status < 300:
                run.non_2xx += 1
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            run.socket_errors += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.01)
    if writer is not None:
        writer.close()


async def _load(port: int, requests: list[bytes], connections: int, seconds: float) -> Run:
    run = Run()
    cpu = time.process_time()
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(
        *(_connection(port, requests, n, deadline, run) for n in range(connections))
    )
    run.seconds = time.perf_counter() - started
    run.client_cpu = time.process_time() - cpu
    return run


def load(port: int, requests: list[bytes], connections: int, seconds: float) -> Run:
    """``connections`` keep-alive connections sending ``requests`` round robin for ``seconds``."""
    return asyncio.run(_load(port, requests, connections, seconds))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- game tokens


def long_games(count: int, actions: int) -> list[dict[str, str]]:
    """Forms for ``count`` real Woolworths games ``actions`` actions in, as the page posts them.

    One visitor against two medium computer players, played through the same functions the
    views use (the visitor calls Snap! on every third match); the kiosk's turn bound is
    lifted so a game can last that long. The form's ``act`` is what the page would send
    next: ``turn`` when it is the visitor's move, else ``next``.
    """
    app = make_app()
    forms: list[dict[str, str]] = []
    with app.test_request_context():
        set_record = play.set_or_404(SET)
        deck = play.deck_of(set_record)
        for attempt in range(50 * count):
            if len(forms) == count:
                break
            record = play.start_record(SET, deck, "woolworths", 2, "medium")
            record = tokens.GameRecord(**{
                **record.__dict__,
                "nonce": f"bench-load-{attempt}",
                "options": {**record.options, "max_turns": None},
            })  # fmt: skip
            options = snap.options_from_json(record.options)
            state, _ = snap.new_game(deck, options, tokens.seed_for(record.nonce))
            game = play.Game(record, state, [])
            while len(game.record.actions) < actions and not state.over:
                w = state.window
                n = len(game.record.actions)
                if w is not None and w.snap and not w.calls and n % 3 == 0 and not state.out[0]:
                    action = {"type": "call", "player": 0, "turn": w.turn, "reaction_ms": 500.0}
                else:
                    action = play.next_action(game)
                    if action is None and state.out[0]:
                        break
                    action = action or {"type": "turn", "player": 0}
                play.play(game, action)
            if state.over or len(game.record.actions) < actions:
                continue
            what = "next" if play.next_action(game) is not None else "turn"
            forms.append({"token": tokens.dump(game.record), "act": what})
    if len(forms) < count:
        raise RuntimeError("not enough games lasted long enough")
    return forms


def check_forms(forms: list[dict[str, str]]) -> tuple[int, int]:
    """Post each form in-process: a 200 with one action more. Return the first's counts."""
    app = make_app()
    client = app.test_client()
    marker = 'name="token" value="'
    counts = []
    for form in forms:
        response = client.post(ACT, data=form, headers=HTMX)
        text = response.get_data(as_text=True)
        after = text[text.index(marker) + len(marker) :].split('"', 1)[0]
        with app.test_request_context():
            held = len(tokens.load(form["token"], "snap").actions)
            now = len(tokens.load(after, "snap").actions)
        if response.status_code != 200 or now != held + 1:
            raise RuntimeError(f"not a real action: {response.status_code}, {held} -> {now}")
        counts.append((held, now))
    return counts[0]


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, workers: int, threads: int, app: str) -> subprocess.Popen[bytes]:
    """gunicorn from .venv, gthread workers, in its own process group (so it can be ended)."""
    gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "KIOSK_SECRET_KEY": SECRET}
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "--workers", str(workers),
            "--worker-class", "gthread",
            "--threads", str(threads),
            "--worker-connections", "1000",
            "--keep-alive", "5",
            "--backlog", "2048",
            "--bind", f"127.0.0.1:{port}",
            "--log-level", "warning",
            app,
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )  # fmt: skip
    for _ in range(150):  # wait for it to answer (15 s at most)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return proc
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited")
        time.sleep(0.1)
    stop(proc)
    raise RuntimeError("gunicorn did not answer")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End gunicorn and its workers (its own process group)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


# --------------------------------------------------------------------------- report


def show_run(name: str, run: Run) -> None:
    lat = [x * 1000 for x in run.latencies] or [0.0]
    print(
        f"  {name:26} {run.rps:8.1f} req/s  p50 {statistics.median(lat):7.1f} ms"
        f"  p99 {pct(lat, 99):7.1f} ms  requests {run.done}  non-2xx {run.non_2xx}"
        f"  socket errors {run.socket_errors}  client CPU {run.client_cpu / run.seconds:.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (about 40 s)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--ratio-connections", type=int, default=16)
    parser.add_argument("--actions", type=int, default=500, help="how far in each game is")
    parser.add_argument(
        "--app",
        default=APP,
        help="the app gunicorn serves (to try a change); it must keep the trivial route",
    )
    args = parser.parse_args()
    mix_seconds = 10.0 if args.quick else 30.0
    rounds, round_seconds = (3, 2.0) if args.quick else (5, 4.0)
    games, actions = (4 if args.quick else 12), args.actions

    t = time.perf_counter()
    forms = long_games(games, actions)
    held, after = check_forms(forms)
    print(
        f"prepared {len(forms)} game tokens ({held} actions in, {after} after the POST, "
        f"token {len(forms[0]['token'])} chars) in {time.perf_counter() - t:.1f} s"
    )

    port = free_port()
    host = f"127.0.0.1:{port}"
    proc = start_gunicorn(port, args.workers, args.threads, args.app)
    try:
        mix = [get(p, host) for p in MIX]
        trivial = [get(TRIVIAL, host)]
        page = [get(SET_PAGE, host)]
        action = [post(ACT, host, form, HTMX) for form in forms]
        print(
            f"gunicorn 23, {args.workers} gthread workers x {args.threads} threads, "
            f"127.0.0.1:{port}, {args.app}; client: asyncio keep-alive, one process"
        )
        for requests in (mix, trivial, action):  # warm up: templates compiled in each worker
            load(port, requests, 8, 1.5)

        print(f"1. {args.connections} connections for {mix_seconds:.0f} s, catalogue mix:")
        run = load(port, mix, args.connections, mix_seconds)
        show_run("home/set/game/rule step", run)
        print(f"  statuses {dict(sorted(run.statuses.items()))}; errors {run.errors}")

        print(
            f"2./3. {rounds} interleaved rounds of {round_seconds:.0f} s each, "
            f"{args.ratio_connections} connections:"
        )
        seen: dict[str, list[Run]] = {"trivial": [], "set page": [], "snap action": []}
        for _ in range(rounds):
            seen["trivial"].append(load(port, trivial, args.ratio_connections, round_seconds))
            seen["set page"].append(load(port, page, args.ratio_connections, round_seconds))
            seen["snap action"].append(load(port, action, args.ratio_connections, round_seconds))
        medians = {name: statistics.median(r.rps for r in runs) for name, runs in seen.items()}
        for name, runs in seen.items():
            merged = Run(
                seconds=sum(r.seconds for r in runs),
                done=sum(r.done for r in runs),
                non_2xx=sum(r.non_2xx for r in runs),
                socket_errors=sum(r.socket_errors for r in runs),
                latencies=[x for r in runs for x in r.latencies],
                client_cpu=sum(r.client_cpu for r in runs),
            )
            show_run(name, merged)
            print(f"  {'':26} median of rounds {medians[name]:8.1f} req/s")
        base = medians["trivial"]
        page_ratio = medians["set page"] / base
        action_ratio = medians["snap action"] / base
        print(f"  set page / trivial     {page_ratio:5.2f}  (target >= 0.8)")
        print(f"  snap action / trivial  {action_ratio:5.2f}  (target >= 0.5)")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
