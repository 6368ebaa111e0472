"""How far a game action's throughput could rise with no template at all (issue 4's 0.5).

Run from the repository root (about 1.5 minutes):

    .venv/bin/python benchmarks/bench_ceiling.py [--rounds 8]

gunicorn (two sync workers, production settings, as ``bench_play.py --only gunicorn``)
serves the product. A request with the header ``X-Bench-No-Template: 1`` is played exactly
as any other (token read, game rebuilt, action applied, table model built, new token signed)
but its table is not rendered: a fixed string of the usual size stands in for the template,
with the token, the turn and the buttons the next move needs. Three crowds of eight visitors
take turns, a few seconds each: the trivial route, real game actions, and game actions with
no template. The ratio with no template is the most that any renderer, however fast, could
give; the header exists only in this benchmark's app, never in the product.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import bench_play, servers  # noqa: E402
from benchmarks.bench_load import cpu_seconds, worker_pids  # noqa: E402

HEADER = "X-Bench-No-Template"
BODY_CHARS = 5000  # about a real table's size, so sending it costs the same
GAME_TEMPLATES = ("play/_region.html", "play/page.html")  # the flow's table: region or page


def _stand_in(ctx: dict[str, Any]) -> str:
    """What the next move needs of a table (as ``bench_play.Visitor`` reads it), padded."""
    parts = [
        f'<div id="snap-game" data-over="{1 if ctx["over"] else 0}">',
        "x" * BODY_CHARS,
        f'<input type="hidden" name="token" value="{ctx["token"]}">',
        f'<input type="hidden" name="turn" value="{ctx["turn"]}">',
    ]
    if ctx["can_call"] and not ctx["over"]:
        parts.append('<button id="snap-button" aria-keyshortcuts="Space Enter">Snap!</button>')
    if ctx["pace"]:
        parts.append('<button id="next-button">Next</button>')
    if ctx["over"]:  # "Play again" posts these
        parts += [f'<input name="{k}" value="{v}">' for k, v in ctx["again"].items()]
    return "".join(parts) + "</div>"


def make_app() -> Any:
    """``bench_play``'s app (trivial route included) whose play pages skip the template on
    request."""
    from flask import request

    from kiosk.web.play import flow

    app = bench_play.make_app()
    render = flow.render_template

    def render_or_stand_in(name: str, **ctx: Any) -> str:
        if request.headers.get(HEADER) == "1" and name in GAME_TEMPLATES:
            return _stand_in(ctx)
        return render(name, **ctx)

    flow.render_template = render_or_stand_in  # this benchmark's process only
    return app


class NoTemplate(bench_play.Visitor):
    """A visitor whose requests ask for no template."""

    def request(self) -> tuple[str, str, bytes | None, dict[str, str]]:
        method, path, body, headers = super().request()
        return method, path, body, {**headers, HEADER: "1"}


def bench(rounds: int = 8, seconds: float = 4.0, threads: int = 8) -> dict[str, float]:
    """The three crowds in turn for ``rounds`` rounds: medians, ratios, and the workers' CPU."""
    proc, port = bench_play.start_gunicorn("benchmarks.bench_ceiling:make_app()")
    try:
        app = bench_play.make_app()
        firsts = [
            {"token": bench_play.long_record(app, first=1000 * n), "act": "next"}
            for n in range(2 * threads)
        ]
        crowds = {
            "trivial": [bench_play.Visitor(None, n) for n in range(threads)],
            "game_action": [bench_play.Visitor(firsts[n], n) for n in range(threads)],
            "no_template": [NoTemplate(firsts[threads + n], n) for n in range(threads)],
        }
        for crowd in crowds.values():  # warm: templates compiled, games kept by the workers
            bench_play.load(port, crowd, max_requests=200, max_seconds=3)
        pids = worker_pids(proc)
        rps: dict[str, list[float]] = {name: [] for name in crowds}
        cpu: dict[str, list[float]] = {name: [] for name in crowds}
        errors = 0
        for _ in range(rounds):  # interleaved, so all three see the same machine
            for name, crowd in crowds.items():
                used = cpu_seconds(pids)
                count = [0]
                rate, err = bench_play.load(
                    port, crowd, max_requests=1000, max_seconds=seconds, done=count
                )
                cpu[name].append((cpu_seconds(pids) - used) * 1000 / max(1, count[0]))
                rps[name].append(rate)
                errors += err
    finally:
        servers.stop(proc)
    out: dict[str, float] = {}
    for name in crowds:
        out[f"{name}_rps"] = statistics.median(rps[name])
        out[f"{name}_worker_cpu_ms"] = statistics.median(cpu[name])
    for name in ("game_action", "no_template"):
        out[f"{name}_ratio"] = out[f"{name}_rps"] / out["trivial_rps"]
        out[f"{name}_ratio_by_worker_cpu"] = (
            out["trivial_worker_cpu_ms"] / out[f"{name}_worker_cpu_ms"]
        )
        ratios = sorted(a / b for a, b in zip(rps[name], rps["trivial"], strict=True))
        out[f"{name}_ratio_lowest_round"] = ratios[0]
        out[f"{name}_ratio_highest_round"] = ratios[-1]
    out["errors"] = float(errors)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    for key, value in bench(args.rounds).items():
        print(f"  {key:36} {value:10.2f}")


if __name__ == "__main__":
    main()
