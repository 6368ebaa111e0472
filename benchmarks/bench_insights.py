"""What counting costs: set page throughput under gunicorn with visitor insights on and off.

Run from the repository root:

    .venv/bin/python benchmarks/bench_insights.py            # 7 rounds of 4 s each, about 1.5 min
    .venv/bin/python benchmarks/bench_insights.py --quick    # 3 rounds, under a minute

Two gunicorn servers run side by side, as ``bench_load.py`` starts them (two ``gthread``
workers each, ``benchmarks.bench_app:make_app()``): one counting (``KIOSK_INSIGHTS_DB`` in a
temporary folder) and one with ``KIOSK_INSIGHTS=0``. The same client (``bench_load.py``'s
asyncio keep-alive client, 16 connections) loads ``/sets/misc-869-1986`` as a browser's
navigation, so every request is a counted page view, on one server and then the other, round
after round (the order swapped each round, so a busy moment of the shared machine falls on
both). Reported: the median req/s of the rounds for each, their ratio (counting on over off,
target >= 0.9), the median of each round's own ratio, the workers' CPU time a request (read
from /proc around every round: it moves less than req/s on a busy machine), and, once both
servers are stopped (SIGTERM: every worker writes what it holds at exit), how many page views
reached the database against how many requests were answered.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import servers  # noqa: E402
from benchmarks.bench_load import (  # noqa: E402
    APP,
    SET_PAGE,
    Fixed,
    Run,
    cpu_seconds,
    get,
    load,
    start_gunicorn,
    worker_pids,
)

HOST = "127.0.0.1"
CONNECTIONS = 16
ROUND_SECONDS = 4.0
TARGET = 0.9


def start(counting: bool, database: Path, workers: int) -> tuple[int, object]:
    """A gunicorn server with counting on (into ``database``) or off; its port and process."""
    os.environ["KIOSK_INSIGHTS"] = "1" if counting else "0"
    os.environ["KIOSK_INSIGHTS_DB"] = str(database)
    port = servers.free_port()
    return port, start_gunicorn(port, workers, 8, APP)


def counted(database: Path) -> int:
    """The set page views in the database (0 if it was never made)."""
    if not database.exists():
        return 0
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT SUM(n) FROM page_views WHERE kind = 'set'").fetchone()
    return int(row[0] or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 7")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rounds = args.rounds or (3 if args.quick else 7)
    folder = Path(tempfile.mkdtemp(prefix="bench-insights-"))
    database = folder / "insights.sqlite3"
    on_port, on_proc = start(True, database, args.workers)
    off_port, off_proc = start(False, folder / "unused.sqlite3", args.workers)
    source = Fixed([get(SET_PAGE, HOST)])
    runs: dict[str, list[Run]] = {"on": [], "off": []}
    cpu_ms: dict[str, list[float]] = {"on": [], "off": []}  # workers' CPU per request
    procs = {on_port: on_proc, off_port: off_proc}
    try:
        # warm up: templates compiled, the page cached (the counting server's views count too)
        warm = load(on_port, source, CONNECTIONS, 1.0)
        load(off_port, source, CONNECTIONS, 1.0)
        for i in range(rounds):
            order = [("on", on_port), ("off", off_port)]
            for name, port in order if i % 2 == 0 else order[::-1]:
                pids = worker_pids(procs[port])
                before = cpu_seconds(pids)
                run = load(port, source, CONNECTIONS, ROUND_SECONDS)
                cpu_ms[name].append(1000 * (cpu_seconds(pids) - before) / max(1, run.done))
                runs[name].append(run)
                print(
                    f"  round {i + 1} counting {name:3}  {run.rps:8.1f} req/s"
                    f"  worker CPU {cpu_ms[name][-1]:.3f} ms a request"
                    f"  non-200 {run.non_200}  socket errors {run.socket_errors}"
                )
    finally:
        servers.stop(on_proc)
        servers.stop(off_proc)
    medians = {name: statistics.median(r.rps for r in found) for name, found in runs.items()}
    ratio = medians["on"] / medians["off"]
    paired = statistics.median(
        on.rps / off.rps for on, off in zip(runs["on"], runs["off"], strict=True)
    )
    cpu = {name: statistics.median(found) for name, found in cpu_ms.items()}
    answered = warm.done - warm.non_200 + sum(r.done - r.non_200 for r in runs["on"])
    errors = sum(r.errors for found in runs.values() for r in found)
    print(f"set page {SET_PAGE}, {CONNECTIONS} connections, {rounds} rounds of {ROUND_SECONDS:g} s")
    print(f"  counting off  median {medians['off']:8.1f} req/s")
    print(f"  counting on   median {medians['on']:8.1f} req/s")
    print(f"  ratio on/off  {ratio:.3f}  (target >= {TARGET})  errors {errors}")
    print(f"  median of the rounds' own ratios {paired:.3f}")
    print(
        f"  worker CPU a request: off {cpu['off']:.3f} ms, on {cpu['on']:.3f} ms,"
        f" ratio by CPU (off/on) {cpu['off'] / cpu['on']:.3f}"
    )
    print(f"  set page views in the database after shutdown: {counted(database)} of {answered}")


if __name__ == "__main__":
    main()
