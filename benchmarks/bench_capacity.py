"""Capacity of a hosted kiosk: how many visitors playing Snap at human pace one server holds.

Run from the repository root (servers take turns; 127.0.0.1 only; every loop is bounded):

    .venv/bin/python benchmarks/bench_capacity.py --quick                   # about 8 minutes
    .venv/bin/python benchmarks/bench_capacity.py --server granian --rounds 3
    .venv/bin/python benchmarks/bench_capacity.py --server gunicorn-sync --against d798835

For each server (``--server``, several allowed; ``SERVERS`` below says how each is started),
in rounds, each round starting the server afresh:

1. **Back-to-back**: 16 games at once, each posting its next action the moment the last
   answer is in: actions a second, and the server's CPU an action, read from ``/proc`` for
   the server's whole process tree (the client's left out).
2. **Human pace**: N visitors, each playing Snap at one action per 1.2 s (a phone or a
   touchscreen each: its own keep-alive connection where the server keeps it, a new one
   where it closes it). Each visitor posts the setup (``POST /sets/<set>/play/snap`` with
   the setup page's choices, two computer players) and then, every 1.2 s, what the answer's
   page offers: its hidden inputs with Next when that button is enabled, else Turn your
   card; a finished game starts again with the setup. The largest N whose requests (setups
   included) all answer 200 within 5 s with a p99 of at most 50 ms: found by doubling from
   ``--start`` until a probe fails, then bisecting to within 5 % (``--quick``: 10 %). Every
   visitor arrives in a probe's first 1.2 s and sets a game up, a burst no gallery sees: the
   latencies are taken after the first 2.4 s (errors count from the start).

The client speaks only the public URLs and form fields, so it measures any revision whose
pages keep them. ``--against REV`` checks REV out in a temporary git worktree and measures
it too, in the same rounds, with this venv's python: side by side, with ratios. ``--rev REV``
measures REV in place of the working tree (whose uncommitted edits are otherwise measured).

The client is one asyncio process sharing the machine's cores with the server; its own CPU
is printed with every figure (as a share of one core). Figures on a shared machine move with
everything else running: compare the medians of rounds, and the ratios within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402  (kiosk-free: the client imports no kiosk code)

SET = "misc-869-1986"
SETUP = f"/sets/{SET}/play/snap"
ACT = f"/sets/{SET}/play/act"
HOST = "127.0.0.1"  # in KIOSK_TRUSTED_HOSTS by default
HTMX = {"HX-Request": "true", "HX-Request-Type": "full"}  # as play.js's form sends it
PACE_S = 1.2  # a visitor's action every 1.2 s
RAMP_S = 2 * PACE_S  # a human-pace probe's start, left out of its figures
P99_LIMIT_MS = 50.0
BACK_TO_BACK_GAMES = 16
MIN_SAMPLES = 300  # answers a human-pace probe waits for, if it can
TIMEOUT_S = 5.0  # a request not answered by then is an error
BIN = Path(sys.executable).parent  # this venv's scripts

TAG_RE = re.compile(r"<(input|button)\b([^>]*)>")
ATTR_RE = re.compile(r'([a-z-]+)(?:="([^"]*)")?')


# --------------------------------------------------------------------------- the servers


def _gunicorn(port: int, tree: Path, *extra: str) -> list[str]:
    return [
        str(BIN / "gunicorn"),
        *("--workers", "2", "--bind", f"{HOST}:{port}", "--chdir", str(tree)),
        *("--log-level", "warning", *extra, "kiosk:create_app()"),
    ]


def _granian(port: int, tree: Path, *extra: str) -> list[str]:
    return [
        str(BIN / "granian"),
        *("--interface", "wsgi", "--workers", "2", "--no-ws", "--working-dir", str(tree)),
        *("--host", HOST, "--port", str(port), "--log-level", "warning", *extra),
        *("--factory", "kiosk:create_app"),
    ]


# name: (what it is, its command line for a port and a source tree)
SERVERS: dict[str, tuple[str, Callable[[int, Path], list[str]]]] = {
    "gunicorn-sync": (
        "gunicorn, 2 sync workers (a new connection each request)",
        lambda port, tree: _gunicorn(port, tree),
    ),
    "gunicorn-gthread": (
        "gunicorn, 2 gthread workers x 4 threads, keep-alive 5 s",
        lambda port, tree: _gunicorn(
            port,
            tree,
            *("--worker-class", "gthread", "--threads", "4", "--keep-alive", "5"),
            *("--worker-connections", "2000", "--backlog", "2048"),
        ),
    ),
    "granian": (
        "granian (WSGI), 2 workers, its default threads, keep-alive",
        lambda port, tree: _granian(port, tree),
    ),
    "waitress": (
        "kiosk run: waitress, one process, 8 threads, keep-alive (the embedded default)",
        lambda port, tree: [sys.executable, "-m", "kiosk", "run", "--port", str(port)],
    ),
    "uwsgi": (
        "uWSGI (pyuwsgi), 2 processes, http-socket (a new connection each request)",
        lambda port, tree: [
            str(BIN / "uwsgi"),
            *("--http-socket", f"{HOST}:{port}", "--master", "--processes", "2"),
            *("--chdir", str(tree), "--module", "kiosk:create_app()", "--need-app"),
            *("--disable-logging", "--die-on-term", "--listen", "1024", "--home", sys.prefix),
        ],
    ),
}
DEFAULT_SERVERS = ["gunicorn-sync", "gunicorn-gthread", "granian", "waitress"]


@contextmanager
def serving(name: str, tree: Path, secret: str) -> Iterator[tuple[int, int]]:
    """``name`` serving the kiosk from ``tree`` (its own code and content): its port and its
    first process, until the block ends."""
    port = servers.free_port()
    env = {**os.environ, "PYTHONPATH": str(tree), "KIOSK_SECRET_KEY": secret}
    # cwd = tree (``env -C``): ``python -m`` and the servers put it first on sys.path
    argv = ["env", "-C", str(tree), *SERVERS[name][1](port, tree)]
    proc = servers.start(argv, port, name, env=env, seconds=60)
    try:
        yield port, proc.pid
    finally:
        servers.stop(proc)


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it now (gunicorn's, granian's and uWSGI's workers)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        with suppress(OSError):  # it ended meanwhile
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
    return found


def cpu_seconds(root: int) -> float:
    """User and system CPU that ``root`` and every process under it have used, in seconds (from
    /proc): the live ones' own and the ended ones' that their parent has reaped (a replaced
    worker's CPU stays counted)."""
    ticks = 0
    for pid in process_tree(root):
        with suppress(OSError):  # it ended meanwhile: its CPU is its parent's once reaped
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the pages


def controls(page: str) -> tuple[dict[str, str], set[str]]:
    """A page's hidden inputs (name: value) and the ``act`` values of its enabled buttons."""
    hidden, enabled = {}, set()
    for tag, text in TAG_RE.findall(page):
        attrs = {name: html.unescape(value) for name, value in ATTR_RE.findall(text)}
        if tag == "input" and attrs.get("type") == "hidden" and "name" in attrs:
            hidden[attrs["name"]] = attrs.get("value", "")
        elif tag == "button" and attrs.get("name") == "act" and "disabled" not in attrs:
            enabled.add(attrs.get("value", ""))
    return hidden, enabled


def next_form(page: str) -> dict[str, str] | None:
    """What the visitor posts next: the table's hidden inputs with Next when enabled, else
    Turn your card; None when neither is enabled (the game is over: set up a new one)."""
    hidden, enabled = controls(page)
    what = "next" if "next" in enabled else "turn" if "turn" in enabled else None
    if what is None or "token" not in hidden:
        return None
    return {**hidden, "act": what}


def setup_choices(page: str) -> dict[str, str]:
    """The setup page's checked choices, with two computer players (as the other benchmarks)."""
    checked = {}
    for tag, text in TAG_RE.findall(page):
        attrs = dict(ATTR_RE.findall(text))
        if tag == "input" and "checked" in attrs and "name" in attrs:
            checked[attrs["name"]] = html.unescape(attrs.get("value", ""))
    return {**checked, "bots": "2"}


def request(method: str, path: str, form: dict[str, str] | None, headers: dict[str, str]) -> bytes:
    """An HTTP/1.1 request as a browser on a keep-alive connection sends it."""
    body = urllib.parse.urlencode(form).encode() if form is not None else b""
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Accept: text/html"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    if form is not None:
        head += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bool, bytes]:
    """One response: its status, whether the server closes the connection after it, its body."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower().split("\r\n")
    version, status = head[0].split(" ", 2)[:2]
    headers = dict(line.partition(":")[::2] for line in head[1:] if line)
    headers = {k.strip(): v.strip() for k, v in headers.items()}
    close = headers.get("connection") == "close" or version == "http/1.0"
    if "chunked" in headers.get("transfer-encoding", ""):
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        await reader.readuntil(b"\r\n")
        return int(status), close, b"".join(parts)
    return int(status), close, await reader.readexactly(int(headers.get("content-length", 0)))


# --------------------------------------------------------------------------- the client


@dataclass
class Tally:
    """What one load saw: every request's latency (setups included) from ``measured_from`` (a
    ``perf_counter`` time) on; errors, connections and CPU throughout."""

    measured_from: float = 0.0
    latencies: list[float] = field(default_factory=list)
    setups: int = 0
    errors: int = 0
    connections: int = 0
    stale: int = 0  # keep-alive connections the server had closed, retried once
    seconds: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0

    @property
    def done(self) -> int:
        return len(self.latencies)

    def p(self, q: float) -> float:
        """The q-th percentile latency in ms."""
        ordered = sorted(self.latencies) or [0.0]
        return 1000 * ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]

    def line(self) -> str:
        cpu = 1000 * self.server_cpu / max(1, self.done)
        return (
            f"{self.done / self.seconds:7.1f} req/s  p50 {self.p(50):6.1f}"
            f"  p99 {self.p(99):6.1f} ms"
            f"  requests {self.done} (setups {self.setups})  errors {self.errors}"
            f"  connections {self.connections}  server CPU {cpu:.2f} ms/req"
            f"  client CPU {self.client_cpu / self.seconds:.0%}"
        )


class Visitor:
    """One visitor: their connection and their game, played on from each answer."""

    def __init__(self, port: int, setup: dict[str, str], tally: Tally) -> None:
        self.port, self.setup, self.tally = port, setup, tally
        self.form: dict[str, str] | None = None  # None: set up a new game next
        self.conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def _exchange(self, message: bytes) -> tuple[int, bool, bytes]:
        reused = self.conn is not None
        while True:
            if self.conn is None:
                self.conn = await asyncio.open_connection(HOST, self.port)
                self.tally.connections += 1
            reader, writer = self.conn
            try:
                writer.write(message)
                return await read_response(reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if not reused:
                    raise
                reused = False  # the server closed an idle keep-alive connection: once more
                self.tally.stale += 1

    async def step(self) -> None:
        """Post the next request and read its answer (timed from the send)."""
        if self.form is None:
            message = request("POST", SETUP, self.setup, {})
        else:
            message = request("POST", ACT, self.form, HTMX)
        started = time.perf_counter()
        try:
            status, close, body = await asyncio.wait_for(self._exchange(message), TIMEOUT_S)
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
            self.tally.errors += 1
            self.close()
            self.form = None
            return
        if started >= self.tally.measured_from:
            self.tally.latencies.append(time.perf_counter() - started)
            self.tally.setups += self.form is None
        if status != 200:
            self.tally.errors += 1
        self.form = next_form(body.decode("utf-8", "replace")) if status == 200 else None
        if close:
            self.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn[1].close()
            self.conn = None


async def _measured(root: int, tally: Tally, work: list) -> Tally:
    """Run ``work``; CPU and time counted from ``tally.measured_from`` (slept until then)."""
    readings: list[float] = []

    async def from_start() -> None:
        await asyncio.sleep(max(0.0, tally.measured_from - time.perf_counter()))
        readings.extend([time.process_time(), cpu_seconds(root), time.perf_counter()])

    await asyncio.gather(from_start(), *work)
    cpu, server, started = readings
    tally.seconds = time.perf_counter() - started
    tally.client_cpu = time.process_time() - cpu
    tally.server_cpu = cpu_seconds(root) - server
    return tally


async def _back_to_back(port: int, root: int, setup: dict[str, str], seconds: float):
    tally = Tally()
    end = time.perf_counter() + seconds

    async def game() -> None:
        visitor = Visitor(port, setup, tally)
        while time.perf_counter() < end:
            await visitor.step()
        visitor.close()

    return await _measured(root, tally, [game() for _ in range(BACK_TO_BACK_GAMES)])


async def _human_pace(port: int, root: int, setup: dict[str, str], visitors: int, seconds: float):
    # every visitor arrives in the first PACE_S and sets up a game: a burst no gallery sees,
    # so the figures are taken from the third PACE_S on (errors counted throughout)
    tally = Tally(measured_from=time.perf_counter() + 0.1 + RAMP_S)
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.1
    end = start + RAMP_S + seconds

    async def visitor(n: int) -> None:
        one = Visitor(port, setup, tally)
        due = start + PACE_S * n / visitors  # spread evenly over the first 1.2 s
        while due < end:
            await asyncio.sleep(max(0.0, due - loop.time()))
            await one.step()
            due += PACE_S
        one.close()

    return await _measured(root, tally, [visitor(n) for n in range(visitors)])


def back_to_back(port: int, root: int, setup: dict[str, str], seconds: float) -> Tally:
    """``BACK_TO_BACK_GAMES`` games posting as fast as answers come, for ``seconds``."""
    return asyncio.run(_back_to_back(port, root, setup, seconds))


def human_pace(port: int, root: int, setup: dict[str, str], visitors: int, seconds: float) -> Tally:
    """``visitors`` visitors acting every ``PACE_S`` seconds for ``seconds``."""
    return asyncio.run(_human_pace(port, root, setup, visitors, seconds))


def get_page(port: int, path: str) -> str:
    """A GET on a connection of its own: the page (raises unless 200)."""

    async def fetch() -> tuple[int, bool, bytes]:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(request("GET", path, None, {"Connection": "close"}))
        try:
            return await read_response(reader)
        finally:
            writer.close()

    status, _, body = asyncio.run(fetch())
    if status != 200:
        raise RuntimeError(f"GET {path}: {status}")
    return body.decode()


def settle(port: int, seconds: float = 15.0) -> None:
    """Wait until the server answers ``/healthz`` quickly again (a failed probe leaves a queue)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.5)
        started = time.perf_counter()
        get_page(port, "/healthz")
        if time.perf_counter() - started < 0.02:
            return


# --------------------------------------------------------------------------- the search


@dataclass
class Settings:
    probe_s: float
    back_to_back_s: float
    precision: float
    start: int
    limit: int


def capacity(
    port: int, root: int, setup: dict[str, str], first: int, s: Settings
) -> tuple[int, list[tuple[int, Tally]]]:
    """The largest N that passes (no errors, p99 ≤ 50 ms): doubling from ``first``, then
    bisecting to within ``s.precision``; and every probe made."""
    passed, failed, probes = 0, 0, []
    n = first
    while True:
        # at least MIN_SAMPLES answers (a p99 of fewer is their slowest), up to 3 probes long
        seconds = min(3 * s.probe_s, max(s.probe_s, MIN_SAMPLES * PACE_S / n))
        tally = human_pace(port, root, setup, n, seconds)
        probes.append((n, tally))
        ok = tally.errors == 0 and tally.p(99) <= P99_LIMIT_MS
        print(f"      {n:5} visitors {'pass' if ok else 'FAIL'}  {tally.line()}", flush=True)
        settle(port)
        if ok:
            passed = n
        else:
            failed = n
        if not failed:
            if n >= s.limit:
                return passed, probes  # the ceiling asked for: no more doubling
            n = min(2 * n, s.limit)
        elif failed - passed <= max(1, s.precision * passed):
            return passed, probes
        else:
            n = (passed + failed) // 2


@dataclass
class Result:
    capacity: int
    actions_per_s: float
    server_cpu_ms: float
    client_cpu: float
    at_capacity: Tally | None


def measure(name: str, tree: Path, secret: str, first: int, s: Settings) -> Result:
    """One round of one server on one tree: back-to-back, then the capacity search."""
    with serving(name, tree, secret) as (port, root):
        setup = setup_choices(get_page(port, SETUP))
        back_to_back(port, root, setup, 2.0)  # warm: every worker's templates compiled
        settle(port)
        fast = back_to_back(port, root, setup, s.back_to_back_s)
        print(f"      back-to-back, {BACK_TO_BACK_GAMES} games: {fast.line()}", flush=True)
        settle(port)
        found, probes = capacity(port, root, setup, first, s)
    at = next((t for n, t in probes if n == found), None)
    return Result(
        found,
        fast.done / fast.seconds,
        1000 * fast.server_cpu / max(1, fast.done),
        fast.client_cpu / fast.seconds,
        at,
    )


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """REV checked out in a temporary git worktree (removed afterwards)."""
    where = Path(tempfile.mkdtemp(prefix="kiosk-capacity-")) / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(where), rev],
        check=True,
    )
    try:
        yield where
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], check=False
        )


def short(rev: str) -> str:
    """A revision's short hash."""
    return subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def _spread(values: list[float], fmt: str) -> str:
    return "/".join(format(v, fmt) for v in values)


def report(results: dict[tuple[str, str], list[Result]], labels: list[str]) -> None:
    """Medians of rounds (each round in brackets), then the ratios."""
    print("\nmedians of rounds (each round):")
    medians: dict[tuple[str, str], tuple[float, float]] = {}
    for (label, name), rounds in results.items():
        if not rounds:
            continue
        cap = statistics.median(r.capacity for r in rounds)
        aps = statistics.median(r.actions_per_s for r in rounds)
        cpu = statistics.median(r.server_cpu_ms for r in rounds)
        client = statistics.median(r.client_cpu for r in rounds)
        medians[label, name] = (cap, aps)
        each = (
            _spread([r.capacity for r in rounds], ".0f"),
            _spread([r.actions_per_s for r in rounds], ".0f"),
            _spread([r.server_cpu_ms for r in rounds], ".2f"),
        )
        print(
            f"  {label:12} {name:17} human pace {cap:6.0f} visitors ({each[0]})"
            f"  back-to-back {aps:6.1f} actions/s ({each[1]})"
            f"  server CPU {cpu:.2f} ms/action ({each[2]})  client CPU {client:.0%} of a core"
        )
    names = list(dict.fromkeys(name for label, name in medians))
    print("ratios (human pace, back-to-back):")
    for label in labels:
        base = names[0]
        for name in names[1:]:
            if (label, name) not in medians or (label, base) not in medians:
                continue
            (c, a), (c0, a0) = medians[label, name], medians[label, base]
            print(f"  {label:12} {name} / {base}: {c / max(1, c0):.2f}, {a / a0:.2f}")
    for label in labels[1:]:
        for name in names:
            if (labels[0], name) not in medians or (label, name) not in medians:
                continue
            (c, a), (c0, a0) = medians[labels[0], name], medians[label, name]
            print(f"  {name}: {labels[0]} / {label}: {c / max(1, c0):.2f}, {a / a0:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--server",
        action="append",
        choices=list(SERVERS),
        help=f"a server to measure (several allowed; default: {' '.join(DEFAULT_SERVERS)})",
    )
    parser.add_argument("--against", metavar="REV", help="also measure the code at git REV")
    parser.add_argument(
        "--rev", metavar="REV", help="measure the code at git REV instead of the working tree"
    )
    parser.add_argument("--rounds", type=int, help="rounds (default 3; --quick: 1)")
    parser.add_argument("--quick", action="store_true", help="shorter probes, coarser search")
    parser.add_argument("--start", type=int, default=32, help="visitors of the first probe")
    parser.add_argument("--limit", type=int, default=4096, help="the most visitors to try")
    args = parser.parse_args()
    names = args.server or DEFAULT_SERVERS
    rounds = args.rounds or (1 if args.quick else 3)
    s = Settings(
        probe_s=5.0 if args.quick else 10.0,
        back_to_back_s=4.0 if args.quick else 8.0,
        precision=0.10 if args.quick else 0.05,
        start=args.start,
        limit=args.limit,
    )
    secret = "bench-capacity-" + secrets.token_hex(16)
    for name in names:
        print(f"{name}: {SERVERS[name][0]}")
    print(
        f"{BACK_TO_BACK_GAMES} back-to-back games for {s.back_to_back_s:.0f} s; human pace "
        f"probes of {s.probe_s:.0f} s, one action per {PACE_S} s a visitor, pass: no errors, "
        f"p99 <= {P99_LIMIT_MS:.0f} ms; {rounds} round(s); {os.cpu_count()} cores"
    )
    with open("/proc/loadavg") as f:
        print(f"load average before: {' '.join(f.read().split()[:3])}", flush=True)
    with ExitStack() as stack:
        if args.rev is None:
            trees = {f"tree@{short('HEAD')}": ROOT}  # the working tree, edits included
        else:
            trees = {args.rev: stack.enter_context(worktree(args.rev))}
        if args.against:
            trees[args.against] = stack.enter_context(worktree(args.against))
        results: dict[tuple[str, str], list[Result]] = {}
        runs = [(label, name) for label in trees for name in names]
        for r in range(rounds):
            shift = r % len(runs)  # each round starts with another server
            for label, name in runs[shift:] + runs[:shift]:
                done = results.setdefault((label, name), [])
                first = max(s.start, done[-1].capacity // 2) if done else s.start
                print(f"round {r + 1}: {label} {name}", flush=True)
                try:
                    done.append(measure(name, trees[label], secret, first, s))
                except RuntimeError as error:  # it did not start: say so, measure the others
                    print(f"      {name} from {label}: {error}", flush=True)
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")
    report(results, list(trees))


if __name__ == "__main__":
    main()
