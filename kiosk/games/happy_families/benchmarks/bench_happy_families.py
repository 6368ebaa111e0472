"""Happy Families with a scripted visitor: how often the visitor asks, and how long a game lasts.

Run from the repository root:

    .venv/bin/python kiosk/games/happy_families/benchmarks/bench_happy_families.py  # 200 a row
    .venv/bin/python kiosk/games/happy_families/benchmarks/bench_happy_families.py --games 400 \
        --think 8

Each row plays ``--games`` seeded games (seeds 0, 1, …) of the play page's game: the visitor in
seat 0 and the computer players as the page seats them (the setup's default two, and three),
classic rules, each set's playable deck as the catalogue deals it. The computer players move
through :meth:`GameType.next_move` with a bot seeded as the play page seeds it
(``"<seed>:<actions so far>"``). The scripted visitor is a computer player of the row's
``visitor`` level in seat 0: ``forgetful`` (remembers only the last three asks, like the
easiest computer player) or ``remembering`` (a visitor who follows every ask).

The time model, in seconds, of one game:

    minutes = (computer asks x PACE + visitor asks x THINK) / 60

* PACE is the play page's pace between two computer moves, ``HappyFamilies.pace_for`` (2.2 s
  with two computer players, 1.7 s with three: play.js posts "Next" that long after each
  table is shown; the server's reply, a few ms, is left out);
* THINK is the visitor's stated time for one ask: read the table, tap a player, tap a card
  (``--think``, 5 s by default).

The deal, the setup page and the result screen are left out. "Visitor share" is the visitor's
asks over all asks in the game; "asks vs each" compares the visitor's mean asks with each
computer seat's own mean (the target: at least 1.0 against every seat) and a game's length
(target: two to five minutes, as a median).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from kiosk.catalogue import Catalogue
from kiosk.catalogue.decks import game_deck
from kiosk.config import ROOT
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine.game import GAME_TYPE
from kiosk.games.happy_families.web import DEFAULT_LEVEL, HappyFamilies

VISITOR = 0
SETS = ("twizzles-happy-families", "jaques-happy-families")


@dataclass
class Played:
    """One scripted game: asks by seat, and whether the visitor won."""

    asks: list[int]
    won: bool
    pace: float  # seconds after each computer move, as the play page paces this table

    def minutes(self, think: float) -> float:
        """The game's length by the model in the docstring."""
        computer = sum(self.asks) - self.asks[VISITOR]
        return (computer * self.pace + self.asks[VISITOR] * think) / 60


def play(deck: list, bots: int, level: str, visitor: str, seed: int) -> Played:
    """One game to its end: the computer players as the play page moves them, the scripted
    visitor as a player of level ``visitor``."""
    options = hf.options_for("classic", players=bots + 1, level=level, tricks_face_down=False)
    state, _ = hf.new_game(deck, options, seed=seed)
    asks = [0] * (bots + 1)
    while not hf.is_over(state):
        moment = f"{seed}:{len(state.record)}"
        seat = state.turn
        if seat == VISITOR:
            action = hf.make_bot(visitor, seat, moment).act(hf.view(state, seat))
        else:
            action = GAME_TYPE.next_move(
                state, (VISITOR,), lambda s, m=moment: hf.make_bot(level, s, m)
            )
        assert action is not None, "a game not over waits for someone"
        action = {k: v for k, v in action.items() if k != "why"}
        state, _ = hf.apply(state, action)
        asks[seat] += 1
    pace = HappyFamilies().pace_for(state) / 1000
    return Played(asks, VISITOR in hf.result(state)["winners"], pace)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(slug: str, deck: list, bots: int, visitor: str, games: int, think: float) -> str:
    """One line of the table: a set, a table size and a visitor, over ``games`` seeds."""
    played = [play(deck, bots, DEFAULT_LEVEL, visitor, seed) for seed in range(games)]
    mine = statistics.mean(g.asks[VISITOR] for g in played)
    each = [statistics.mean(g.asks[s] for g in played) for s in range(1, bots + 1)]
    share = statistics.mean(g.asks[VISITOR] / sum(g.asks) for g in played)
    moves = [sum(g.asks) for g in played]
    minutes = [g.minutes(think) for g in played]
    ratios = " ".join(f"{mine / e:.2f}" for e in each)
    return (
        f"| {slug} | {bots} | {visitor} | {mine:.1f} | {' / '.join(f'{e:.1f}' for e in each)} "
        f"| {ratios} | {share:.0%} | {statistics.median(moves):.0f} "
        f"| {statistics.median(minutes):.1f} ({quantile(minutes, 0.1):.1f}–"
        f"{quantile(minutes, 0.9):.1f}) | {sum(g.won for g in played) / games:.0%} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="seeded games a row")
    parser.add_argument("--think", type=float, default=5.0, help="the visitor's s per ask")
    args = parser.parse_args()
    snapshot = Catalogue(ROOT / "content").current()
    print(
        f"{args.games} games a row; pace 2.2 s a computer ask (1.7 s with three),"
        f" think {args.think:.1f} s"
        f" a visitor ask; computer players {DEFAULT_LEVEL}, classic rules\n"
    )
    print(
        "| set | computer players | visitor | visitor asks | each computer's asks "
        "| visitor vs each | visitor share | moves (median) | minutes, median (p10–p90) "
        "| visitor wins |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for slug in SETS:
        deck = game_deck(snapshot.sets[slug].record, hf.GAME)
        for bots in (2, 3):
            for visitor in hf.LEVELS:
                print(row(slug, deck, bots, visitor, args.games, args.think), flush=True)


if __name__ == "__main__":
    main()
