"""Snap against the computer with a scripted visitor who calls within about a second.

Issue 24 asks that the easiest level be beaten more often than not by a visitor who calls
within about a second of every match, and that a game end within about three minutes (or
with a shown count-down). This plays many seeded games the way the live table does
(``GameType.next_move`` with the visitor at seat 0, the kiosk bound of turns) with a visitor
who calls every match (Snap! or Snap Pool!) after a reaction drawn evenly from REACTION_MS,
turns their own card when it is their turn, and never calls in error. It reports, for each
level and number of computer players, the visitor's win rate (a shared win counts as half)
and the median game length in turns and in minutes at the table's real pace: each computer
move after the level's pace (PACE_MS), a match held open at least MATCH_OPEN_MS, an outcome
held OUTCOME_HOLD_MS longer, and the visitor's own turn after VISITOR_TURN_MS.

    .venv/bin/python kiosk/games/snap/benchmarks/bench_snap_visitor.py  # 400 games a row
    .venv/bin/python kiosk/games/snap/benchmarks/bench_snap_visitor.py --variant snap-pool
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from kiosk.games.cards import standard_deck
from kiosk.games.snap import engine as snap
from kiosk.games.snap.web import MATCH_OPEN_MS, OUTCOME_HOLD_MS, OUTCOMES, PACE_MS

DECK = standard_deck()
VISITOR = 0
REACTION_MS = (500.0, 1000.0)  # "within about a second of every match"
VISITOR_TURN_MS = 1000.0  # a visitor's tap on their own pile, after the last card landed


def play(level: str, bots: int, seed: int, variant: str) -> tuple[float, int, float]:
    """One game: the visitor's share of the win (1, 0.5, 0), its turns and its minutes."""
    rng = random.Random(f"visitor:{seed}")
    options = snap.options_for(
        variant,
        players=bots + 1,
        humans=(VISITOR,),
        level=level,
        max_turns=snap.KIOSK_MAX_TURNS,
    )
    state, _ = snap.new_game(DECK, options, seed)
    ms = 0.0
    for _ in range(10_000):
        if state.over:
            break
        w = state.window
        if w is not None and not state.out[VISITOR] and not w.calls and (w.snap or w.pool):
            kind = "call" if w.snap else "call-pool"
            reaction = rng.uniform(*REACTION_MS)
            state, events = snap.apply(
                state, {"type": kind, "player": VISITOR, "turn": w.turn, "reaction_ms": reaction}
            )
            ms += reaction
            held = OUTCOME_HOLD_MS if any(e.type in OUTCOMES for e in events) else 0
            ms += held
            continue
        action = snap.GAME_TYPE.next_move(
            state, (VISITOR,), lambda seat: snap.make_bot(level, seat)
        )
        if action is None:  # the visitor's own turn
            action = {"type": "turn", "player": VISITOR}
            ms += VISITOR_TURN_MS
        else:
            open_match = w is not None and (w.snap or w.pool)
            ms += max(PACE_MS[level], MATCH_OPEN_MS) if open_match else PACE_MS[level]
        state, events = snap.apply(state, action)
        if any(e.type in OUTCOMES for e in events):
            ms += OUTCOME_HOLD_MS
    share = 0.0
    if VISITOR in state.winners:
        share = 1.0 / len(state.winners)
    return share, state.turn, ms / 60_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--variant", default="classic", choices=list(snap.VARIANTS))
    args = parser.parse_args()
    print(f"Snap, {args.variant}, {args.games} seeded games a row; the visitor calls every match")
    print(
        f"{REACTION_MS[0]:.0f}-{REACTION_MS[1]:.0f} ms after it "
        f"(kiosk bound {snap.KIOSK_MAX_TURNS} turns)"
    )
    print(
        f"{'level':8} {'bots':>4} {'visitor wins':>13} {'median turns':>13} "
        f"{'median min':>11} {'p95 min':>8}"
    )
    for level in snap.LEVELS:
        for bots in (1, 2, 3):
            runs = [play(level, bots, seed, args.variant) for seed in range(1, args.games + 1)]
            wins = sum(r[0] for r in runs) / len(runs)
            turns = statistics.median(r[1] for r in runs)
            minutes = sorted(r[2] for r in runs)
            p95 = minutes[int(0.95 * (len(minutes) - 1))]
            print(
                f"{level:8} {bots:>4} {wins:>12.0%} {turns:>13.0f} "
                f"{statistics.median(minutes):>11.2f} {p95:>8.2f}"
            )


if __name__ == "__main__":
    main()
