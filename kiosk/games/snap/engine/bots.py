"""Snap's computer players: per-level reaction-time models (calibrated in docs/play.md) that the
engine draws from at each turned card, so a game replays; the bot itself only turns cards."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

# No bot reacts faster than a quick adult recognises a match: far above FALSE_START_MS, so a
# drawn call always answers the card it is drawn for
FLOOR_MS = 350.0


@dataclass(frozen=True, slots=True)
class BotLevel:
    """One bot level: a lognormal reaction time (median, spread), a miss and a false-call rate."""

    name: str
    title: str  # the kindly name a child sees
    median_ms: float
    sigma: float  # spread of log(reaction time)
    miss: float  # chance the bot does not notice a match at all
    false_call: float  # chance per turned card without a match that the bot calls anyway

    mu: float = field(init=False, repr=False, compare=False)  # the lognormal's mu

    def __post_init__(self) -> None:
        object.__setattr__(self, "mu", math.log(self.median_ms))  # once, not on every draw

    def draw(self, rng: Any) -> float | None:
        """Draw one reaction (ms) from ``rng``, or None for a miss: the engine calls this."""
        if rng.random() < self.miss:
            return None
        return self.reaction_ms(rng)

    def reaction_ms(self, rng: Any) -> float:
        """How quickly this level calls (ms, never under FLOOR_MS), rightly or falsely."""
        return round(max(FLOOR_MS, rng.lognormvariate(self.mu, self.sigma)), 1)


LEVEL_INFO: dict[str, BotLevel] = {
    # a young child's pace: slow and variable, misses one match in five
    "easy": BotLevel("easy", "Sleepy Sam", 900.0, 0.35, 0.20, 0.02),
    # a grown-up paying attention
    "medium": BotLevel("medium", "Steady Sue", 600.0, 0.28, 0.10, 0.01),
    # a quick adult: median just above the 380 ms go/no-go figure
    "hard": BotLevel("hard", "Speedy Sid", 420.0, 0.22, 0.04, 0.005),
}
LEVELS: tuple[str, ...] = tuple(LEVEL_INFO)


def level(name: str) -> BotLevel:
    """The level called ``name``, or a ValueError naming the known ones."""
    try:
        return LEVEL_INFO[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}: choose from {', '.join(LEVELS)}") from None


class SnapBot:
    """A computer player: it turns when it is asked to and closes a finished game's last turn."""

    __slots__ = ("level", "seat")

    def __init__(self, level_name: str, seat: int) -> None:
        self.level = level(level_name)
        self.seat = seat

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        """Turn a card when that is allowed, else close the open call window."""
        actions = view["actions"]
        if "turn" in actions:
            return {"type": "turn", "player": self.seat}
        if "close" in actions:
            return {"type": "close", "player": self.seat}
        raise ValueError(f"seat {self.seat} has nothing to do: {actions}")


def make_bot(level: str, seat: int, seed: int | str | None = None) -> SnapBot:
    """A computer seat that turns its cards (its calls are drawn by the engine, not the bot)."""
    return SnapBot(level, seat)
