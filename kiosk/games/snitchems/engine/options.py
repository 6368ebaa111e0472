"""Snitch'ems' variant and options: a frozen dataclass, checked so a bad choice fails early."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import (
    OptionsError,
    Variant,
    options_from_mapping,
    variant_options,
    variants_by_name,
)

GAME = "snitchems"
HAND_SIZE = 3
LAYOUT_SIZE = 4

_SEED = "snitchems-rules.txt"
VARIANTS = variants_by_name(
    Variant(
        name="classic",
        source=(
            f'{_SEED}, The Capturing: "Capture by Pairing", "Capture by Making 8s or 10s", '
            '"Capture by Pairing 8s or 10s"; "You are obliged to capture if you can do so."'
        ),
        options={},
    ),
)
LEVELS: tuple[str, ...] = ("beginner", "careful")
LEVEL_OPTION = "level"
# Action words a curator writes in a scenario (``- capture: 1``) and the fields each may carry.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("card",),
    "capture": ("card", "take", "kind"),
}


@dataclass(frozen=True, slots=True)
class SnitchemsOptions:
    """Every choice that makes one Snitch'ems game different from another."""

    players: int = 2
    dealer: int | None = None  # None: drawn from the game's RNG
    shuffle: bool = True  # False: deal the deck as given, its first card first (for scenarios)
    pairing_takes_all: bool = True  # "a 6 in hand will capture any and all 6s on the layout"
    making_several: bool = True  # "create a set of three with, for example, a 5 and a 2"
    pairing_made_takes_all: bool = True  # same reading as pairing: the rank's cards go together
    level: str = LEVELS[0]  # the computer seat's level

    def to_json(self) -> dict[str, Any]:
        """The options as plain JSON, under the keys game tokens have always used."""
        return asdict(self)


def options_for(variant: str = "classic", **overrides: Any) -> SnitchemsOptions:
    """Options for a named variant with overrides, checked (raises OptionsError)."""
    return variant_options(
        SnitchemsOptions, "Snitch'ems", VARIANTS, variant, overrides, check_options
    )


def options_from_json(data: Mapping[str, Any]) -> SnitchemsOptions:
    """Options back from :meth:`SnitchemsOptions.to_json` (a game token's), checked."""
    return options_from_mapping(data, options_for)


def kiosk_bound() -> dict[str, Any]:
    """No bound to add: a game is eight deals of a finite pack, so it always ends."""
    return {}


def default_deck() -> list[Card]:
    """The deck simulations and tests play with: the standard 52."""
    return standard_deck()


def check_options(o: SnitchemsOptions) -> None:
    """Refuse options that make no game."""
    if o.players != 2:
        raise OptionsError("Snitch'ems is a game for two players")
    for key in ("pairing_takes_all", "making_several", "pairing_made_takes_all", "shuffle"):
        if not isinstance(getattr(o, key), bool):
            raise OptionsError(f"{key} must be true or false")
    if o.dealer is not None and (isinstance(o.dealer, bool) or o.dealer not in (0, 1)):
        raise OptionsError("dealer must be seat 0 or 1")
    if o.level not in LEVELS:
        raise OptionsError(f"unknown level {o.level!r}: choose from {', '.join(LEVELS)}")


def check_deck(deck: list[Card]) -> None:
    """Refuse a deck that makes no game: repeated ids, too few cards, numbers out of 1-10."""
    ids = [c.id for c in deck]
    if len(set(ids)) != len(ids):
        raise OptionsError("every card in a Snitch'ems deck needs its own id")
    if len(deck) < LAYOUT_SIZE + 2 * HAND_SIZE:
        raise OptionsError("a Snitch'ems deck needs at least ten cards")
    for card in deck:
        if card.value is not None and not 1 <= card.value <= 10:
            raise OptionsError(f"card {card.id} has value {card.value}; number cards are 1-10")
