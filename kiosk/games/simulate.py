"""Bot-driven games for any engine and the statistics ``kiosk simulate`` prints."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from kiosk.games import registry
from kiosk.games.cards import Card

# The kiosk's pace, to turn a game into minutes (an assumption stated in snap/rules.md)
SECONDS_PER_ACTION = 1.2
SECONDS_PER_OUTCOME = 2.0
OUTCOMES = ("snap", "pool-formed", "pool-won", "penalty", "mistaken-call", "forfeit")


@dataclass(slots=True)
class GameRun:
    """One finished (or capped) game: its record, result and event counts."""

    seed: Any
    actions: list[dict] = field(default_factory=list)
    result: dict = field(default_factory=dict)
    counts: Counter = field(default_factory=Counter)
    turns: int = 0
    finished: bool = True

    @property
    def seconds(self) -> float:
        """How long this game would take at the kiosk's pace."""
        outcomes = sum(self.counts[t] for t in OUTCOMES)
        return len(self.actions) * SECONDS_PER_ACTION + outcomes * SECONDS_PER_OUTCOME


def default_deck(module: ModuleType) -> list[Card]:
    """The deck a simulation plays with: the engine's own."""
    return list(module.default_deck())


def default_level(module: ModuleType) -> str:
    """The middle bot level of an engine."""
    levels = module.LEVELS
    return levels[len(levels) // 2]


def make_options(
    module: ModuleType, variant: str, players: int | None, level: str | None, **extra: Any
) -> Any:
    """Options for a simulation (raises OptionsError for a bad choice)."""
    overrides = dict(extra)
    if players is not None:
        overrides["players"] = players
    if level is not None:
        overrides[module.LEVEL_OPTION] = level
    return module.options_for(variant, **overrides)


def play(
    module: ModuleType,
    deck: Sequence[Card],
    options: Any,
    seed: Any,
    level: str,
    *,
    cap: int = 100_000,
) -> GameRun:
    """Play one game with a bot in every seat; stop after ``cap`` actions if it has not ended."""
    state, events = module.new_game(deck, options, seed)
    run = GameRun(seed=seed)
    counts = run.counts
    counts.update(e.type for e in events)
    n = options.players
    bots = [module.make_bot(level, seat, f"{seed}:bot{seat}") for seat in range(n)]
    next_move, apply = registry.game(module.GAME).next_move, module.apply
    actions = run.actions
    while not module.is_over(state):
        if len(actions) >= cap:
            run.finished = False
            break
        action = next_move(state, (), bots.__getitem__)  # nobody is a visitor: every seat a bot
        if action is None:
            break
        actions.append(action)
        state, events = apply(state, action)
        counts.update(e.type for e in events)
    run.result = module.result(state)
    turn = module.public_state(state).get("turn")
    run.turns = turn if isinstance(turn, int) and not isinstance(turn, bool) else len(actions)
    return run


def run_games(
    module: ModuleType,
    deck: Sequence[Card],
    options: Any,
    seed: int,
    games: int,
    level: str,
    *,
    cap: int = 100_000,
) -> list[GameRun]:
    """Play ``games`` games with seeds ``seed, seed + 1, …``."""
    return [play(module, deck, options, seed + i, level, cap=cap) for i in range(games)]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def distribution(values: Sequence[float]) -> dict[str, float]:
    """Mean, median, 95th percentile and maximum."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "p95": 0.0, "max": 0.0}
    return {
        "mean": round(statistics.fmean(values), 2),
        "median": statistics.median(values),
        "p95": percentile(values, 95),
        "max": max(values),
    }


def summary(runs: Sequence[GameRun], players: int) -> dict[str, Any]:
    """The statistics ``kiosk simulate`` prints: lengths, wins by seat, calls and penalties."""
    wins = [0] * players
    shared = 0
    reasons: Counter = Counter()
    total: Counter = Counter()
    for run in runs:
        winners = run.result.get("winners") or []
        if len(winners) > 1:
            shared += 1
        for seat in winners:
            wins[seat] += 1
        reasons[run.result.get("reason") or ("ended" if run.finished else "unfinished")] += 1
        total.update(run.counts)
    seconds = [run.seconds for run in runs]
    return {
        "games": len(runs),
        "finished": sum(run.finished for run in runs),
        "turns": distribution([run.turns for run in runs]),
        "seconds_at_kiosk_pace": distribution([round(s, 1) for s in seconds]),
        "within_3_minutes": round(sum(s <= 180 for s in seconds) / max(1, len(runs)), 4),
        "wins_by_seat": wins,
        "shared_wins": shared,
        "end_reasons": dict(sorted(reasons.items())),
        "snaps": total["snap"],
        "pools": total["pool-formed"],
        "pools_won": total["pool-won"],
        "penalties": total["penalty"],
        "mistaken_calls": total["mistaken-call"] + total["penalty"],
        "forfeits": total["forfeit"],
        "events": dict(sorted(total.items())),
    }


def summary_text(game: str, variant: str, data: dict[str, Any]) -> str:
    """The summary as a few readable lines."""
    t = data["turns"]
    s = data["seconds_at_kiosk_pace"]
    lines = [
        f"{game} / {variant}: {data['games']} games, {data['finished']} finished",
        f"turns: mean {t['mean']}, median {t['median']}, p95 {t['p95']}, max {t['max']}",
        f"seconds at kiosk pace: median {s['median']}, p95 {s['p95']}, max {s['max']}"
        f" ({data['within_3_minutes']:.1%} within 3 minutes)",
        "wins by seat: "
        + ", ".join(f"{seat}: {n}" for seat, n in enumerate(data["wins_by_seat"]))
        + f" (shared: {data['shared_wins']})",
        "ended by: " + ", ".join(f"{k} {v}" for k, v in data["end_reasons"].items()),
        f"snaps: {data['snaps']}, pools: {data['pools']} (won {data['pools_won']}), "
        f"penalties: {data['penalties']}, mistaken calls: {data['mistaken_calls']}, "
        f"forfeits: {data['forfeits']}",
    ]
    return "\n".join(lines)
