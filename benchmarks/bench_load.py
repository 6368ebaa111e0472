"""Load benchmarks under gunicorn: 200 connections, catalogue pages and a Snap action vs trivial.

Run from the repository root:

    .venv/bin/python benchmarks/bench_load.py          # full run, about 3.5 minutes
    .venv/bin/python benchmarks/bench_load.py --quick  # shorter, about 1.5 minutes

The server is gunicorn from .venv serving ``benchmarks.bench_app:make_app()`` (the product
plus a trivial route and a stats route) on a free 127.0.0.1 port, with two workers of the
``gthread`` class: a gthread worker keeps idle keep-alive connections in its poller and hands
a connection to one of its threads only while a request is being served, so two workers hold
200 open connections (up to ``--worker-connections``, 1000 each) while the sync class would
serve one connection per worker at a time and leave the others waiting in the listen backlog.

The client is this script's own asyncio HTTP/1.1 client (keep-alive, one task per
connection): Debian's ``wrk`` is not installed. It shares the two cores with the server, so
absolute requests per second understate the server; the ratios do not, because the same
client measures the baseline and the page in the same run, interleaved round by round.
Anything but a 200 counts as an error.

1. **200 connections** for 30 s (``--quick``: 10 s) against a mix of catalogue pages (home,
   a set, a game, a rule step): requests per second, p50/p99 latency, non-200 responses and
   socket errors (target: no errors).
2. **Catalogue page** (``/sets/misc-869-1986``) throughput as a ratio to the trivial route
   on the same server, medians of interleaved rounds (target ≥ 0.8): once as before (no
   ``Accept-Encoding``) and once with ``Accept-Encoding: gzip, deflate, br`` as a browser sends
   it, each against the trivial route with the same headers.
3. **Snap action**: POST ``/sets/misc-869-1986/play/act`` as the play page's form does (its
   hidden inputs and the pressed button's ``act``, htmx headers); ratio to the trivial route
   (target ≥ 0.5). *Played on*: each connection plays its own game, like a visitor: every
   request posts the hidden inputs of that connection's previous response, with ``next`` when
   the page's Next button is enabled and else ``turn`` (turn your card), both always legal;
   the games start 500 actions in (prepared beforehand, the kiosk's turn bound lifted), and
   a game that ends is replaced by a fresh prepared one. A keep-alive connection stays on one
   gunicorn worker, so this mostly hits the worker's state cache (``flow.state_cache()``).
   Measured without and with gzip. *Cold*: the same prepared tokens posted over and over (no
   chaining), so every request replays 500 actions. Each worker's cache hits and misses are
   read from the stats route before and after, to show which path each line measured (the
   one flow's cache counts a kept state one action past the posted record as a hit, though
   the request replays: so the cold line shows hits too).

Each ratio is also given by the workers' CPU time a request (read from /proc around every
round): the trivial route's CPU a request over the line's. It includes the gunicorn worker's
own share but not the client's or other jobs', so it moves less than req/s on a busy machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import html
import json
import os
import re
import secrets
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

from benchmarks import servers  # noqa: E402
from benchmarks.bench_app import STATS, TRIVIAL, make_app  # noqa: E402
from benchmarks.long_games import played  # noqa: E402
from kiosk.web import tokens  # noqa: E402

SET = "misc-869-1986"
SET_PAGE = f"/sets/{SET}"
ACT = f"/sets/{SET}/play/act"
MIX = ["/", SET_PAGE, "/games/snap", "/rules/snap/woolworths/1"]
APP = "benchmarks.bench_app:make_app()"
HTMX = {"HX-Request": "true", "HX-Request-Type": "full"}  # as play.js's form sends it
GZIP = {"Accept-Encoding": "gzip, deflate, br"}  # as a browser sends it
HIDDEN_RE = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
BUTTON_RE = re.compile(r'id="(next|turn)-button"( disabled)?>')


# --------------------------------------------------------------------------- requests


def get(path: str, host: str, headers: dict[str, str] | None = None) -> bytes:
    """A keep-alive GET, encoded once before the run."""
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/html\r\n{extra}\r\n".encode()


def post(path: str, host: str, form: dict[str, str], headers: dict[str, str]) -> bytes:
    """A keep-alive form POST."""
    body = urllib.parse.urlencode(form).encode()
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{extra}"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def next_form(page: str) -> dict[str, str] | None:
    """What the visitor's page posts next: its hidden inputs and Next, else Turn your card.

    None when the game is over (or, never seen, neither button is enabled).
    """
    if 'data-over="1"' in page:
        return None
    enabled = {name for name, disabled in BUTTON_RE.findall(page) if not disabled}
    what = "next" if "next" in enabled else "turn" if "turn" in enabled else None
    if what is None:
        return None
    form = {name: html.unescape(value) for name, value in HIDDEN_RE.findall(page)}
    if "token" not in form:
        return None
    form["act"] = what
    return form


# --------------------------------------------------------------------------- what is sent


class Fixed:
    """The same encoded requests, round robin (each connection starting at its own)."""

    wants_body = False

    def __init__(self, requests: list[bytes]) -> None:
        self.requests = requests

    def request(self, conn: int, i: int) -> bytes:
        return self.requests[(conn + i) % len(self.requests)]

    def feed(self, conn: int, status: int, body: bytes | None) -> None:
        return None


class Chained:
    """Each connection plays its own game on: it posts what its last response's page offers.

    The games persist across rounds (a connection of the next round takes up slot ``conn``'s
    game); a game that ends, or a response that is not a 200, takes the next prepared game.
    """

    wants_body = True

    def __init__(self, host: str, prepared: list[dict[str, str]], headers: dict[str, str]):
        self.host, self.prepared, self.headers = host, prepared, headers
        self.used = 0
        self.games: dict[int, dict[str, str]] = {}
        self.ended = self.restarted = self.reused = 0

    def fresh(self) -> dict[str, str]:
        """The next prepared game (reused once all are: then two games may share a seed)."""
        form = self.prepared[self.used % len(self.prepared)]
        self.used += 1
        self.reused += self.used > len(self.prepared)
        return form

    def request(self, conn: int, i: int) -> bytes:
        form = self.games.get(conn)
        if form is None:
            form = self.games[conn] = self.fresh()
        return post(ACT, self.host, form, self.headers)

    def feed(self, conn: int, status: int, body: bytes | None) -> None:
        form = next_form(body.decode()) if status == 200 and body is not None else None
        if form is None:
            if status == 200:
                self.ended += 1
            else:
                self.restarted += 1
            form = self.fresh()
        self.games[conn] = form


# --------------------------------------------------------------------------- the client


@dataclass
class Run:
    """What one load run saw."""

    seconds: float = 0.0
    done: int = 0
    non_200: int = 0
    socket_errors: int = 0
    gzipped: int = 0
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    client_cpu: float = 0.0

    @property
    def rps(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.non_200 + self.socket_errors


async def _read_response(reader: asyncio.StreamReader, keep: bool) -> tuple[int, bool, bytes]:
    """Read one response (Content-Length or chunked): status, gzipped, body if ``keep``."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length, chunked, gzipped = 0, False, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
        elif name == "content-encoding" and "gzip" in value.lower():
            gzipped = True
    parts = []
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append((await reader.readexactly(size + 2))[:-2])
            if size == 0:
                break
    elif length:
        parts.append(await reader.readexactly(length))
    body = b"".join(parts) if keep else b""
    if keep and gzipped:
        body = gzip.decompress(body)
    return status, gzipped, body


async def _connection(
    port: int, source: Fixed | Chained, conn: int, deadline: float, run: Run
) -> None:
    """One keep-alive connection sending ``source``'s requests until the deadline."""
    i = 0
    writer = None
    while time.perf_counter() < deadline:
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            message = source.request(conn, i)
            i += 1
            t = time.perf_counter()
            writer.write(message)
            status, gzipped, body = await _read_response(reader, source.wants_body)
            run.latencies.append(time.perf_counter() - t)
            run.done += 1
            run.gzipped += gzipped
            run.statuses[status] = run.statuses.get(status, 0) + 1
            if status != 200:
                run.non_200 += 1
            source.feed(conn, status, body)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            run.socket_errors += 1
            if writer is not None:
                writer.close()
            writer = None
            await asyncio.sleep(0.01)
    if writer is not None:
        writer.close()


async def _load(port: int, source: Fixed | Chained, connections: int, seconds: float) -> Run:
    run = Run()
    cpu = time.process_time()
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(_connection(port, source, n, deadline, run) for n in range(connections)))
    run.seconds = time.perf_counter() - started
    run.client_cpu = time.process_time() - cpu
    return run


def load(port: int, source: Fixed | Chained, connections: int, seconds: float) -> Run:
    """``connections`` keep-alive connections sending ``source``'s requests for ``seconds``."""
    return asyncio.run(_load(port, source, connections, seconds))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- game tokens


def long_games(count: int, actions: int, first: int = 0) -> list[dict[str, str]]:
    """Forms for ``count`` real Woolworths games ``actions`` actions in, as the page posts them
    (see ``benchmarks/long_games.py``). Nonces start at ``first``, so two calls can make games
    that share nothing."""
    app = make_app()
    forms: list[dict[str, str]] = []
    for attempt in range(first, first + 50 * count):
        if len(forms) == count:
            break
        found = played(app, f"bench-load-{attempt}", actions)
        if found is not None:
            forms.append({"token": found[0], "act": found[1]})
    if len(forms) < count:
        raise RuntimeError("not enough games lasted long enough")
    return forms


def _actions(app: object, token: str) -> int:
    with app.test_request_context():  # type: ignore[attr-defined]
        return len(tokens.load(token, "snap").actions)


def check_forms(forms: list[dict[str, str]], steps: int = 0) -> tuple[int, int]:
    """Post each form in-process: a 200 with one action more; then ``steps`` more posts of
    what :func:`next_form` reads from each page, one action more each (until the game ends).
    The first form's counts."""
    app = make_app()
    client = app.test_client()
    counts = []
    for form in forms:
        held = _actions(app, form["token"])
        before = held
        for step in range(steps + 1):
            response = client.post(ACT, data=form, headers={**HTMX, **GZIP})
            page = response.get_data()
            if response.headers.get("Content-Encoding") == "gzip":
                page = gzip.decompress(page)
            after = next_form(page.decode())
            if response.status_code == 200 and b'data-over="1"' in page:
                break  # the game ended: nothing more to post
            if response.status_code != 200 or after is None:
                raise RuntimeError(f"not a real action: {response.status_code}, step {step}")
            now = _actions(app, after["token"])
            if now != before + 1:
                raise RuntimeError(f"not a real action: step {step}, {before} -> {now}")
            form, before = after, now
        counts.append((held, held + 1))
    return counts[0]


def check_gzip() -> int:
    """The set page in-process with a browser's Accept-Encoding: gzipped; its gzipped size."""
    client = make_app().test_client()
    for _ in range(2):  # rendered, then from the page cache
        response = client.get(SET_PAGE, headers={"Accept": "text/html", **GZIP})
        if response.status_code != 200 or response.headers.get("Content-Encoding") != "gzip":
            raise RuntimeError(f"the set page is not gzipped: {response.status_code}")
    return len(response.get_data())


# --------------------------------------------------------------------------- the server


def start_gunicorn(port: int, workers: int, threads: int, app: str) -> subprocess.Popen[bytes]:
    """gunicorn from .venv, gthread workers, in its own process group (so it can be ended)."""
    gunicorn = ROOT / ".venv" / "bin" / "gunicorn"
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "KIOSK_SECRET_KEY": SECRET}
    argv = [
        str(gunicorn),
        "--workers",
        str(workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--worker-connections",
        "1000",
        "--keep-alive",
        "5",
        "--backlog",
        "2048",
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        app,
    ]
    return servers.start(argv, port, "gunicorn", env=env)


def worker_pids(proc: subprocess.Popen[bytes]) -> list[int]:
    """gunicorn's worker processes (the master's children)."""
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text()
    return [int(pid) for pid in children.split()]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU the processes have used, in seconds (from /proc)."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def cache_stats(port: int, workers: int) -> dict[int, tuple[int, int]]:
    """Each worker's state cache (hits, misses), asking on new connections until all answered."""
    found: dict[int, tuple[int, int]] = {}
    for _ in range(200):
        if len(found) == workers:
            break
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            ask = f"GET {STATS} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            s.sendall(ask.encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        stats = json.loads(data.split(b"\r\n\r\n", 1)[1])
        found[stats["pid"]] = (stats["hits"], stats["misses"])
    return found


# --------------------------------------------------------------------------- report


def show_run(name: str, run: Run) -> None:
    lat = [x * 1000 for x in run.latencies] or [0.0]
    gz = f"  gzip {run.gzipped / run.done:.0%}" if run.gzipped else ""
    print(
        f"  {name:26} {run.rps:8.1f} req/s  p50 {statistics.median(lat):7.1f} ms"
        f"  p99 {pct(lat, 99):7.1f} ms  requests {run.done}  non-200 {run.non_200}"
        f"  socket errors {run.socket_errors}  client CPU {run.client_cpu / run.seconds:.0%}{gz}"
    )


def merge(runs: list[Run]) -> Run:
    """Rounds as one run (for the totals and the latencies)."""
    return Run(
        seconds=sum(r.seconds for r in runs),
        done=sum(r.done for r in runs),
        non_200=sum(r.non_200 for r in runs),
        socket_errors=sum(r.socket_errors for r in runs),
        gzipped=sum(r.gzipped for r in runs),
        latencies=[x for r in runs for x in r.latencies],
        client_cpu=sum(r.client_cpu for r in runs),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (about 1.5 min)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--ratio-connections", type=int, default=16)
    parser.add_argument("--actions", type=int, default=500, help="how far in each game is")
    parser.add_argument(
        "--app",
        default=APP,
        help="the app gunicorn serves (to try a change); it must keep the bench routes",
    )
    args = parser.parse_args()
    mix_seconds = 10.0 if args.quick else 30.0
    rounds, round_seconds = (3, 2.0) if args.quick else (5, 4.0)
    cold_games, actions = (4 if args.quick else 12), args.actions
    spare = 12 if args.quick else 64  # games per played-on line to replace games that end

    t = time.perf_counter()
    cold_forms = long_games(cold_games, actions)
    chain_forms = long_games(2 * (args.ratio_connections + spare), actions, first=100_000)
    held, after = check_forms(cold_forms)
    check_forms(chain_forms[:2], steps=20)
    gz_size = check_gzip()
    print(
        f"prepared {len(cold_forms)} cold and {len(chain_forms)} played-on game tokens "
        f"({held} actions in, {after} after the POST, token {len(cold_forms[0]['token'])} "
        f"chars) in {time.perf_counter() - t:.1f} s; set page gzipped to {gz_size} bytes"
    )

    port = servers.free_port()
    host = f"127.0.0.1:{port}"
    proc = start_gunicorn(port, args.workers, args.threads, args.app)
    try:
        mix = Fixed([get(p, host) for p in MIX])
        sources: dict[str, Fixed | Chained] = {
            "trivial": Fixed([get(TRIVIAL, host)]),
            "set page": Fixed([get(SET_PAGE, host)]),
            "trivial, gzip": Fixed([get(TRIVIAL, host, GZIP)]),
            "set page, gzip": Fixed([get(SET_PAGE, host, GZIP)]),
            "snap action, played on": Chained(host, chain_forms[0::2], HTMX),
            "snap action, on, gzip": Chained(host, chain_forms[1::2], {**HTMX, **GZIP}),
            "snap action, cold": Fixed([post(ACT, host, f, HTMX) for f in cold_forms]),
        }
        print(
            f"gunicorn 23, {args.workers} gthread workers x {args.threads} threads, "
            f"127.0.0.1:{port}, {args.app}; client: asyncio keep-alive, one process"
        )
        for name in ("trivial", "set page", "set page, gzip", "snap action, cold"):
            load(port, sources[name], 8, 1.5)  # warm up: templates compiled in each worker
        for name in ("snap action, played on", "snap action, on, gzip"):
            load(port, sources[name], args.ratio_connections, 1.5)  # every game under way
        with open("/proc/loadavg") as f:
            print(f"load average before: {' '.join(f.read().split()[:3])}")

        print(f"1. {args.connections} connections for {mix_seconds:.0f} s, catalogue mix:")
        run = load(port, mix, args.connections, mix_seconds)
        show_run("home/set/game/rule step", run)
        print(f"  statuses {dict(sorted(run.statuses.items()))}; errors {run.errors}")

        print(
            f"2./3. {rounds} interleaved rounds of {round_seconds:.0f} s each, "
            f"{args.ratio_connections} connections:"
        )
        seen: dict[str, list[Run]] = {name: [] for name in sources}
        cache: dict[str, list[int]] = {name: [0, 0] for name in sources}
        server_cpu: dict[str, float] = {name: 0.0 for name in sources}
        pids = worker_pids(proc)
        for _ in range(rounds):
            for name, source in sources.items():
                before = cache_stats(port, args.workers) if "snap" in name else None
                cpu = cpu_seconds(pids)
                seen[name].append(load(port, source, args.ratio_connections, round_seconds))
                server_cpu[name] += cpu_seconds(pids) - cpu
                if before is not None:
                    now = cache_stats(port, args.workers)
                    for pid, (h, m) in now.items():
                        h0, m0 = before.get(pid, (0, 0))
                        cache[name][0] += h - h0
                        cache[name][1] += m - m0
        medians = {name: statistics.median(r.rps for r in runs) for name, runs in seen.items()}
        cost = {  # the workers' CPU per request: steadier than req/s on a busy machine
            name: 1000 * server_cpu[name] / max(1, sum(r.done for r in runs))
            for name, runs in seen.items()
        }
        for name, runs in seen.items():
            show_run(name, merge(runs))
            each = "/".join(f"{r.rps:.0f}" for r in runs)
            line = f"  {'':26} median of rounds {medians[name]:8.1f} req/s ({each})"
            line += f"; server CPU {cost[name]:.2f} ms/request"
            if "snap" in name:
                h, m = cache[name]
                line += f"; state cache hits {h}, misses {m} ({h / max(1, h + m):.0%} hits)"
            source = sources[name]
            if isinstance(source, Chained):
                line += f"; games ended {source.ended}, restarted after an error "
                line += f"{source.restarted}, prepared games reused {source.reused}"
            print(line)
        with open("/proc/loadavg") as f:
            print(f"load average after: {' '.join(f.read().split()[:3])}")
        ratios = [
            ("set page / trivial", "set page", "trivial", 0.8),
            ("set page / trivial, gzip", "set page, gzip", "trivial, gzip", 0.8),
            ("snap action played on / trivial", "snap action, played on", "trivial", 0.5),
            ("  the same, gzip", "snap action, on, gzip", "trivial, gzip", 0.5),
            ("snap action cold / trivial", "snap action, cold", "trivial", 0.5),
        ]
        print(f"  {'':33} req/s   by server CPU a request")
        for label, name, base, target in ratios:
            by_cpu = cost[base] / cost[name] if cost[name] else 0.0
            print(
                f"  {label:33} {medians[name] / medians[base]:5.2f}   {by_cpu:5.2f}"
                f"  (target >= {target})"
            )
    finally:
        servers.stop(proc)


if __name__ == "__main__":
    main()
