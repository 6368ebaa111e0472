"""The computer's think time per move in Happy Families and Snitch'ems (target: p99 <= 50 ms).

Run: ``.venv/bin/python benchmarks/bench_bots.py [--games N]``

For every game and bot level, bots play whole games against each other; each move is timed
with ``time.perf_counter``: ``act`` (the bot's choice, given its view) and ``view+act``
(building the view as the play page must, then choosing). The baseline is a no-op bot that
takes the first legal action: it is timed on the very same views in the same run, so the
figures can be read against this machine's speed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk.games.happy_families import engine as hf
from kiosk.games.snitchems import engine as sn


class NoOpBot:
    """The baseline: the first legal action, no thought at all."""

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        return view["legal"][0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def measure(module: Any, level: str, games: int, make_options: Any) -> dict[str, Any]:
    """Time every move of ``games`` games whose seats all play at ``level``."""
    acts: list[float] = []
    total: list[float] = []
    base: list[float] = []
    noop = NoOpBot()
    for seed in range(games):
        options = make_options(seed)
        state, _ = module.new_game(None, options, seed)
        bots = [module.make_bot(level, s, seed) for s in range(options.players)]
        while not module.is_over(state):
            (seat,) = module.to_move(state)
            t0 = time.perf_counter()
            view = module.view(state, seat)
            t1 = time.perf_counter()
            action = bots[seat].act(view)
            t2 = time.perf_counter()
            noop.act(view)
            t3 = time.perf_counter()
            acts.append((t2 - t1) * 1000)
            total.append((t2 - t0) * 1000)
            base.append((t3 - t2) * 1000)
            state, _ = module.apply(state, action)
    return {
        "moves": len(acts),
        "base_p50": statistics.median(base),
        "base_p99": percentile(base, 99),
        "act_p50": statistics.median(acts),
        "act_p99": percentile(acts, 99),
        "act_max": max(acts),
        "all_p50": statistics.median(total),
        "all_p99": percentile(total, 99),
        "all_max": max(total),
    }


def main() -> None:
    """Print one row per game and level, the no-op baseline first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per row (default 100)")
    args = parser.parse_args()
    games = {
        "happy-families (4-6 players, variation)": (
            hf,
            lambda seed: hf.options_for("variation", players=4 + seed % 3),
        ),
        "snitchems": (sn, lambda seed: sn.options_for()),
    }
    cols = (
        "no-op p50",
        "no-op p99",
        "act p50",
        "act p99",
        "act max",
        "v+a p50",
        "v+a p99",
        "v+a max",
    )
    print(f"{'game':46} {'level':12} {'moves':>6} " + " ".join(f"{c:>9}" for c in cols) + "   (ms)")
    worst = 0.0
    for title, (module, make_options) in games.items():
        for level in module.LEVELS:
            row = measure(module, level, args.games, make_options)
            worst = max(worst, row["all_p99"])
            keys = (
                "base_p50",
                "base_p99",
                "act_p50",
                "act_p99",
                "act_max",
                "all_p50",
                "all_p99",
                "all_max",
            )
            print(
                f"{title:46} {level:12} {row['moves']:6d} "
                + " ".join(f"{row[k]:9.3f}" for k in keys)
            )
    verdict = "meets" if worst <= 50 else "MISSES"
    print(f"\nworst bot p99 (view + act): {worst:.3f} ms: {verdict} the 50 ms target")


if __name__ == "__main__":
    main()
