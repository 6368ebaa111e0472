"""Where a served game action's CPU goes: the view, the app beyond the view, gunicorn itself.

Run from the repository root (127.0.0.1 only; about 20 s a tree and round):

    .venv/bin/python benchmarks/profile_worker.py                       # the working tree
    .venv/bin/python benchmarks/profile_worker.py --against d798835     # and REV, side by side
    .venv/bin/python benchmarks/profile_worker.py --cprofile /tmp/prof  # + each worker's profile

Each tree is served as ``bench_capacity.py --server gunicorn-sync`` serves it (two sync
workers, production settings) with this file added as a gunicorn config file
(``GUNICORN_CMD_ARGS=--config benchmarks/profile_worker.py``): its hooks time, in each worker,
the CPU of the view (Flask's ``dispatch_request``), of the whole WSGI call (the view plus
the request context, every ``before_request``/``after_request``/teardown hook and building
the response), of gunicorn's ``handle_request`` (that plus writing the answer) and of the
whole process (that plus accepting, parsing and closing, and anything a thread of the
process does). bench_capacity's back-to-back client plays 16 games on, posting as fast as
answers come, for ``--seconds``. Printed per tree: each part in ms per action, medians of
``--rounds``; with ``--against``, the ratio of each part. ``--cprofile DIR`` also writes each
worker's cProfile (its main thread, from the first measured request: ``pstats`` reads it), which
slows every part, so its own figures are not comparable with a run without it.

CPU figures move with everything else the machine runs: compare the parts and the ratios
measured in the same run.
"""

from __future__ import annotations

import json
import os
import time

# ----------------------------------------------------------------- gunicorn hooks (workers)
# gunicorn reads this file as a config file: only the hook functions below are settings.

_DIR_VARIABLE = "KIOSK_PROFILE_DIR"  # where each worker writes its figures
_CPROFILE_VARIABLE = "KIOSK_PROFILE_CPROFILE"  # "1": and its cProfile
_state: dict = {"on": False, "n": 0, "view": 0.0, "app": 0.0, "handle": 0.0, "t0": 0.0}


def _marker() -> str:
    return os.path.join(os.environ[_DIR_VARIABLE], "go")


def post_worker_init(worker) -> None:
    """Time the view (``dispatch_request``) and the whole WSGI call of this worker's app."""
    app = worker.wsgi
    dispatch = app.dispatch_request

    def timed_dispatch():
        started = time.thread_time()
        try:
            return dispatch()
        finally:
            _state["view"] += time.thread_time() - started

    def timed_app(environ, start_response):
        started = time.thread_time()
        body = b"".join(app(environ, start_response))  # the whole answer, as gunicorn sends it
        _state["app"] += time.thread_time() - started
        return [body]

    app.dispatch_request = timed_dispatch
    worker.wsgi = timed_app


def pre_request(worker, req) -> None:
    if not _state["on"] and os.path.exists(_marker()):  # the measured part has begun
        times = os.times()
        _state.update(on=True, n=0, view=0.0, app=0.0, handle=0.0, base=times[0] + times[1])
        if os.environ.get(_CPROFILE_VARIABLE) == "1":
            import cProfile

            _state["profile"] = cProfile.Profile()
            _state["profile"].enable()
    _state["t0"] = time.thread_time()


def post_request(worker, req, environ, resp) -> None:
    if _state["on"]:
        _state["handle"] += time.thread_time() - _state["t0"]
        _state["n"] += 1


def worker_exit(server, worker) -> None:
    if not _state["on"]:
        return
    folder = os.environ[_DIR_VARIABLE]
    if "profile" in _state:
        _state["profile"].disable()
        _state["profile"].dump_stats(os.path.join(folder, f"worker-{os.getpid()}.prof"))
    times = os.times()
    figures = {key: _state[key] for key in ("n", "view", "app", "handle")}
    figures["process"] = times[0] + times[1] - _state["base"]
    with open(os.path.join(folder, f"worker-{os.getpid()}.json"), "w") as file:
        json.dump(figures, file)


# ----------------------------------------------------------------- the driver


def _measure(tree, seconds: float, cprofile: str | None) -> dict[str, float]:
    """One round: serve ``tree``, warm up, play back-to-back; each part in ms per action."""
    import secrets
    import tempfile
    from pathlib import Path

    from benchmarks import bench_capacity as capacity

    folder = Path(tempfile.mkdtemp(prefix="kiosk-profile-"))
    settings = {
        "GUNICORN_CMD_ARGS": f"--config {Path(__file__).resolve()}",
        _DIR_VARIABLE: str(folder),
        _CPROFILE_VARIABLE: "1" if cprofile else "0",
    }
    saved = {key: os.environ.get(key) for key in settings}
    os.environ.update(settings)  # bench_capacity.serving passes its environment on
    try:
        with capacity.serving("gunicorn-sync", tree, "profile-" + secrets.token_hex(16)) as (
            port,
            root,
        ):
            setup = capacity.setup_choices(capacity.get_page(port, capacity.SETUP))
            capacity.back_to_back(port, root, setup, 2.0)  # warm: templates compiled
            capacity.settle(port)
            (folder / "go").touch()
            tally = capacity.back_to_back(port, root, setup, seconds)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    workers = [json.loads(p.read_text()) for p in sorted(folder.glob("worker-*.json"))]
    if cprofile:
        Path(cprofile).mkdir(parents=True, exist_ok=True)
        for p in folder.glob("worker-*.prof"):
            p.rename(Path(cprofile) / f"{Path(tree).name}-{p.name}")
    n = sum(w["n"] for w in workers) or 1
    part = {key: 1000 * sum(w[key] for w in workers) / n for key in ("view", "app", "handle")}
    process = 1000 * sum(w["process"] for w in workers) / n
    return {
        "actions/s": tally.done / tally.seconds,
        "view": part["view"],
        "beyond the view": part["app"] - part["view"],
        "writing the answer": part["handle"] - part["app"],
        "rest of the process": process - part["handle"],
        "whole worker": process,
    }


def main() -> None:
    import argparse
    import statistics
    import sys
    from contextlib import ExitStack
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import bench_capacity as capacity

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", metavar="REV", help="also measure the code at git REV")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (default 1)")
    parser.add_argument("--seconds", type=float, default=6.0, help="back-to-back time a round")
    parser.add_argument("--cprofile", metavar="DIR", help="write each worker's cProfile here")
    args = parser.parse_args()
    with ExitStack() as stack:
        trees = {f"tree@{capacity.short('HEAD')}": capacity.ROOT}
        if args.against:
            trees[args.against] = stack.enter_context(capacity.worktree(args.against))
        results: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for label in order:
                with open("/proc/loadavg") as f:
                    load = " ".join(f.read().split()[:3])
                found = _measure(trees[label], args.seconds, args.cprofile)
                results[label].append(found)
                parts = "  ".join(f"{k} {v:.2f}" for k, v in found.items() if k != "actions/s")
                print(
                    f"round {r + 1}: {label:14} {found['actions/s']:6.0f} actions/s  "
                    f"ms/action: {parts}  (load {load})",
                    flush=True,
                )
    labels = list(results)
    keys = list(results[labels[0]][0])
    print(f"\nmedians of {args.rounds} round(s), ms of CPU per action (actions/s as it is):")
    ratio_head = "   ratio" if len(labels) > 1 else ""
    print(f"  {'':20}" + "".join(f"{label:>16}" for label in labels) + ratio_head)
    for key in keys:
        values = [statistics.median(r[key] for r in results[label]) for label in labels]
        ratio = f"   {values[0] / values[1]:.2f}" if len(values) > 1 and values[1] else ""
        print(f"  {key:20}" + "".join(f"{v:16.2f}" for v in values) + ratio)


if __name__ == "__main__":
    main()
