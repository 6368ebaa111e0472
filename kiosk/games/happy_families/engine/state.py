"""One moment of a Happy Families game, and what anyone at the table can read from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.games.core import CardTable
from kiosk.games.happy_families.engine.deck import FAMILY_SIZE
from kiosk.games.happy_families.engine.options import FamiliesOptions


@dataclass(kw_only=True)
class State(CardTable):
    """Where every card is, whose turn, and the record that led here."""

    families: list[str]
    options: FamiliesOptions
    phase: str  # "ask", "variation" or "over"
    asks: int = 0
    claims: int = 0
    end: str | None = None  # why the game ended

    @property
    def players(self) -> int:
        """How many seats round the table."""
        return self.options.players


def hand_of(state: State, seat: int) -> list[str]:
    """The card ids one player holds."""
    return state.places[f"hand:{seat}"]


def family_cards(state: State, family: str) -> list[str]:
    """The card ids of one family, in deck order."""
    return [cid for cid, c in state.cards.items() if c.family == family]


def trick_families(state: State, seat: int) -> list[str]:
    """The families one player has laid down (or won), in the order they came."""
    seen: list[str] = []
    for cid in state.places[f"tricks:{seat}"]:
        fam = state.cards[cid].family
        if fam is not None and fam not in seen:
            seen.append(fam)
    return seen


def trick_counts(state: State) -> list[int]:
    """Tricks held by each seat."""
    return [len(state.places[f"tricks:{s}"]) // FAMILY_SIZE for s in range(state.players)]


def to_move(state: State) -> list[int]:
    """The seat the game waits for, or [] when it is over."""
    return [] if state.phase == "over" else [state.turn]


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == "over"


def result(state: State) -> dict[str, Any]:
    """Tricks per seat and the winners (everyone tied on most tricks shares the win)."""
    scores = trick_counts(state)
    best = max(scores)
    over = state.phase == "over"
    return {
        "over": over,
        "scores": scores,
        "winners": [s for s, n in enumerate(scores) if n == best] if over else [],
        "reason": state.end,
    }


def public_state(state: State) -> dict[str, Any]:
    """What anyone watching the table knows: counts, tricks, turn, phase."""
    return {
        "phase": state.phase,
        "dealer": state.dealer,
        "current": None if state.phase == "over" else state.turn,
        "hand_counts": [len(hand_of(state, s)) for s in range(state.players)],
        "tricks": trick_counts(state),
        "asks": state.asks,
        "claims": state.claims,
        "end": state.end,
    }


def names(state: State) -> list[str]:
    """Display names: the options' or "Player 1"…"""
    given = state.options.names
    return list(given) if given else [f"Player {s + 1}" for s in range(state.players)]
