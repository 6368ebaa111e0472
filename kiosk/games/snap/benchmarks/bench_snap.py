"""Snap engine benchmarks: replay speed, bulk simulation, game lengths and the kiosk bound.

Run from the repository root:

    .venv/bin/python kiosk/games/snap/benchmarks/bench_snap.py          # everything (minutes)
    .venv/bin/python kiosk/games/snap/benchmarks/bench_snap.py --quick  # smaller samples
    .venv/bin/python kiosk/games/snap/benchmarks/bench_snap.py --only replay --against d798835

Timings are medians of CPU time (``time.process_time``), each with a ratio to a baseline
measured in the same run (a loop of 500 list pops), so figures from different machines can
be compared.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import io
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from kiosk.games import simulate as sim
from kiosk.games.cards import standard_deck
from kiosk.games.snap import engine as snap

ROOT = Path(__file__).resolve().parents[4]
DECK = standard_deck()


def cpu_times(fn, repeat: int) -> list[float]:
    """CPU times of ``repeat`` calls of ``fn()`` in seconds (other processes cannot add to
    them, though on a shared machine they still slow the CPU's caches down)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return times


def median_time(fn, repeat: int) -> float:
    """Median CPU time of ``fn()`` in seconds."""
    return statistics.median(cpu_times(fn, repeat))


def baseline() -> None:
    pile = list(range(500))
    while pile:
        pile.pop()


def record_500() -> tuple[snap.SnapOptions, int, list[dict]]:
    """A 500-action Woolworths game, one person against two computers, with calls."""
    options = snap.options_for("woolworths", players=3, humans=(0,))
    policy = random.Random(1)
    for seed in range(1000):
        state, _ = snap.new_game(DECK, options, seed)
        record: list[dict] = []
        while len(record) < 500 and not state.over:
            legal = {a["type"]: a for a in snap.legal_actions(state, 0)}
            if "call" in legal and policy.random() < 0.25:
                action = {**legal["call"], "reaction_ms": round(policy.uniform(300, 900), 1)}
            else:
                seat = snap.to_move(state)[0]
                kinds = [a["type"] for a in snap.legal_actions(state, seat)]
                action = {"type": "turn" if "turn" in kinds else "close", "player": seat}
            record.append(action)
            state, _ = snap.apply(state, action)
        if len(record) == 500:
            return options, seed, record
    raise RuntimeError("no 500-action game found")


def bench_replay(repeat: int) -> dict:
    options, seed, record = record_500()
    base = median_time(baseline, repeat * 10)

    def full() -> None:
        state, _ = snap.new_game(DECK, options, seed)
        for action in record:
            state, _ = snap.apply(state, action)

    def quiet() -> None:
        snap.replay(DECK, options, seed, record)

    replay_times = cpu_times(quiet, repeat * 3)
    r = statistics.median(replay_times)
    f = median_time(full, repeat)
    return {
        "baseline_ms": base * 1e3,
        "replay_ms": r * 1e3,
        "events_ms": f * 1e3,
        "replay_ratio": r / base,
        "events_ratio": f / base,
        "replay_best_ms": min(replay_times) * 1e3,
        "replay_p90_ms": sorted(replay_times)[int(len(replay_times) * 0.9)] * 1e3,
    }


def engine_at(rev: str) -> ModuleType:
    """The Snap engine as it was at git revision ``rev`` (a module or a package), loaded
    beside today's: that revision's ``kiosk/games`` is unpacked into a temporary folder as
    the package ``kiosk_at_<rev>.games``, its own imports renamed to match."""
    name = f"kiosk_at_{rev}".replace("-", "_")
    if name not in sys.modules:
        folder = Path(tempfile.mkdtemp(prefix="bench_snap_"))
        atexit.register(shutil.rmtree, folder, True)
        archive = subprocess.run(
            ["git", "archive", rev, "kiosk/games"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        (folder / "kiosk" / "__init__.py").write_text("")
        for path in (folder / "kiosk").rglob("*.py"):
            path.write_text(
                path.read_text(encoding="utf-8").replace("kiosk.games", f"{name}.games")
            )
        (folder / "kiosk").rename(folder / name)
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{name}.games.snap")


def bench_against(rev: str, repeat: int) -> dict:
    """Replay of the same record by today's engine and by ``rev``'s, interleaved in one
    process (so both see the same machine), after checking they build the same game."""
    old = engine_at(rev)
    options, seed, record = record_500()
    old_options = old.options_for(
        options.variant, **{k: v for k, v in options.to_json().items() if k != "variant"}
    )
    new_state = snap.replay(DECK, options, seed, record)
    old_state = old.replay(DECK, old_options, seed, record)
    if new_state.key()[1:] != old_state.key()[1:]:  # [0]: the options, another class
        raise RuntimeError(f"the engine at {rev} replays this record to another state")
    new_times, old_times = [], []
    for _ in range(repeat):
        new_times += cpu_times(lambda: snap.replay(DECK, options, seed, record), 1)
        old_times += cpu_times(lambda: old.replay(DECK, old_options, seed, record), 1)
    new_ms, old_ms = statistics.median(new_times) * 1e3, statistics.median(old_times) * 1e3
    return {"new_ms": new_ms, "old_ms": old_ms, "ratio": new_ms / old_ms}


def bench_bulk(games: int) -> dict:
    options = snap.options_for("classic", players=2, **snap.kiosk_bound())
    base = median_time(baseline, 200)
    t = time.process_time()
    runs = sim.run_games(snap, DECK, options, 1, games, "medium")
    took = time.process_time() - t
    return {
        "games": games,
        "seconds": took,
        "per_game_ms": took / games * 1e3,
        "ratio_per_game": (took / games) / base,
        "turns": sim.distribution([r.turns for r in runs]),
    }


def play_profile(variant: str, players: int, seed: int, max_turns: int) -> tuple[list, bool]:
    """Seconds at kiosk pace after each turn, and whether the game ended by itself."""
    options = snap.options_for(variant, players=players, max_turns=max_turns)
    state, _ = snap.new_game(DECK, options, seed)
    bots = [snap.make_bot("medium", p) for p in range(players)]
    seconds = 0.0
    profile = []  # profile[n - 1]: seconds when the n-th turn's window has settled
    while not state.over:
        seat = snap.to_move(state)[0]
        before = state.turn
        state, events = snap.apply(state, bots[seat].act(snap.view(state, seat)))
        seconds += sim.SECONDS_PER_ACTION
        seconds += sim.SECONDS_PER_OUTCOME * sum(e.type in sim.OUTCOMES for e in events)
        if state.turn > before and len(profile) < before:
            profile.append(seconds - sim.SECONDS_PER_ACTION)
    profile.append(seconds)
    return profile, state.reason != "kiosk-bound"


def bench_lengths(games: int, candidates: list[int], cap: int) -> dict:
    """Turn counts without a bound (capped), and the share of games within 3 minutes per bound."""
    table = {}
    for variant in snap.VARIANTS:
        for players in (2, 3, 4):
            natural, shares = [], {n: 0 for n in candidates}
            for seed in range(games):
                profile, ended = play_profile(variant, players, seed, cap)
                turns = len(profile) - 1
                natural.append(turns if ended else cap)
                for n in candidates:
                    # the game as it would be with bound n: the same deal and draws up to n
                    secs = profile[-1] if turns <= n else profile[n - 1] + sim.SECONDS_PER_ACTION
                    shares[n] += secs <= 180
            table[(variant, players)] = {
                "turns": sim.distribution(natural),
                "ended_by_itself": sum(t < cap for t in natural) / games,
                "within_3_min": {n: shares[n] / games for n in candidates},
            }
    ok = [n for n in candidates if all(row["within_3_min"][n] >= 0.95 for row in table.values())]
    return {"table": table, "chosen": max(ok) if ok else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--only", choices=["replay"], help="only the replay figures")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also replay with the engine at this git revision, side by side",
    )
    args = parser.parse_args()
    quick = args.quick
    if args.against:
        a = bench_against(args.against, 60 if quick else 300)
        print(
            f"replay side by side with {args.against}'s engine (median of interleaved runs): "
            f"{a['new_ms']:.2f} ms against {a['old_ms']:.2f} ms, ratio {a['ratio']:.2f}"
        )
    r = bench_replay(20 if quick else 100)
    print("replay of a 500-action record (median):")
    print(f"  baseline (500 list pops) {r['baseline_ms']:.4f} ms")
    print(
        f"  snap.replay {r['replay_ms']:.2f} ms ({r['replay_ratio']:.0f}x baseline;"
        f" best {r['replay_best_ms']:.2f} ms, p90 {r['replay_p90_ms']:.2f} ms)"
    )
    print(
        f"  snap.apply, action by action (a new state and events each)"
        f" {r['events_ms']:.2f} ms ({r['events_ratio']:.0f}x baseline)"
    )
    if args.only == "replay":
        return
    b = bench_bulk(1000 if quick else 10_000)
    print(
        f"{b['games']} bounded two-player games: {b['seconds']:.1f} s "
        f"({b['per_game_ms']:.2f} ms a game, {b['ratio_per_game']:.0f}x baseline); "
        f"turns {b['turns']}"
    )
    candidates = [60, 80, 90, 100, 110, 120, 140]
    lengths = bench_lengths(60 if quick else 200, candidates, 3000)
    print("game lengths (medium bots, no bound, capped at 3000 turns) and the share of games")
    print("within 3 minutes at 1.2 s a turn + 2 s a settled call, per kiosk bound:")
    head = " ".join(f"{n:>5}" for n in candidates)
    print(f"  {'variant':<26}{'pl':>3}{'median':>8}{'p95':>7}{'ends':>6}   bound: {head}")
    for (variant, players), row in lengths["table"].items():
        t = row["turns"]
        shares = " ".join(f"{row['within_3_min'][n]:5.0%}" for n in candidates)
        print(
            f"  {variant:<26}{players:>3}{t['median']:>8}{t['p95']:>7}"
            f"{row['ended_by_itself']:>6.0%}          {shares}"
        )
    print(
        f"largest bound with >= 95% of every variant's games within 3 minutes: "
        f"{lengths['chosen']} turns (KIOSK_MAX_TURNS = {snap.KIOSK_MAX_TURNS})"
    )


if __name__ == "__main__":
    main()
