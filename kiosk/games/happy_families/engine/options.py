"""Happy Families' variants and options: a frozen dataclass, checked so a bad choice fails early."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from kiosk.games.core import (
    OptionsError,
    Variant,
    options_from_mapping,
    variant_options,
    variants_by_name,
)

GAME = "happy-families"
MIN_PLAYERS, MAX_PLAYERS = 3, 8
MAX_ASKS, MAX_CLAIMS = 400, 60  # the kiosk's bounds (not historic) on a game's length

_SEED = "twizzles-happy-families-rules.txt"
VARIANTS = variants_by_name(
    Variant(
        name="classic",
        source=(
            f'{_SEED}, rule 4: "If the player asked has the card he must hand it over, and the '
            'player who asked can again ask the same player or any other player"'
        ),
        options={"variation": False},
    ),
    Variant(
        name="variation",
        source=(
            f'{_SEED}, rule 6: "The player with the most tricks may ask any other player for a '
            'complete set he thinks that other player has."'
        ),
        options={"variation": True},
    ),
)
LEVELS: tuple[str, ...] = ("forgetful", "remembering")
LEVEL_OPTION = "level"
# Action words a curator writes in a scenario (``- ask: 1``) and the fields each may carry.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "ask": ("target", "card"),
    "claim": ("target", "family"),
}


@dataclass(frozen=True, slots=True)
class FamiliesOptions:
    """Every choice that makes one Happy Families game different from another."""

    players: int = 4
    variation: bool = False
    tricks_face_down: bool = True  # rule 3: "lay down in front of him, face down"
    dealer: int | None = None  # None: drawn from the game's RNG
    shuffle: bool = True  # False: deal the deck as given, its first card first (for scenarios)
    max_asks: int = MAX_ASKS  # kiosk bound (not historic) on asks in the main game
    max_claims: int = MAX_CLAIMS  # kiosk bound (not historic) on claims in the variation
    names: tuple[str, ...] | None = None  # display names, used by the bots' explanations
    level: str = LEVELS[0]  # the computer seats' level

    def to_json(self) -> dict[str, Any]:
        """The options as plain JSON, under the keys game tokens have always used."""
        data = asdict(self)
        data["names"] = list(self.names) if self.names is not None else None
        return data


def options_for(variant: str = "classic", **overrides: Any) -> FamiliesOptions:
    """Options for a named variant with overrides, checked (raises OptionsError)."""
    if isinstance(overrides.get("names"), list | tuple):
        overrides["names"] = tuple(overrides["names"])
    return variant_options(
        FamiliesOptions, "Happy Families", VARIANTS, variant, overrides, check_options
    )


def options_from_json(data: Mapping[str, Any]) -> FamiliesOptions:
    """Options back from :meth:`FamiliesOptions.to_json` (a game token's), checked."""
    return options_from_mapping(data, options_for)


def kiosk_bound() -> dict[str, Any]:
    """The kiosk's bound on a game's length: on in every game, so this restates the defaults."""
    return {"max_asks": MAX_ASKS, "max_claims": MAX_CLAIMS}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_options(o: FamiliesOptions) -> None:
    """Refuse options that make no game, with words a curator or visitor can act on."""
    if not _whole(o.players):
        raise OptionsError("players must be a whole number")
    if o.players < MIN_PLAYERS:
        raise OptionsError(
            f"Happy Families needs at least {MIN_PLAYERS} players "
            '(the rule card: "any number more than two")'
        )
    if o.players > MAX_PLAYERS:
        raise OptionsError(f"the kiosk plays Happy Families with at most {MAX_PLAYERS} players")
    for key in ("variation", "tricks_face_down", "shuffle"):
        if not isinstance(getattr(o, key), bool):
            raise OptionsError(f"{key} must be true or false")
    for key in ("max_asks", "max_claims"):
        value = getattr(o, key)
        if not _whole(value) or value < 1:
            raise OptionsError(f"{key} must be a whole number of at least 1")
    if o.dealer is not None and (not _whole(o.dealer) or not 0 <= o.dealer < o.players):
        raise OptionsError(f"dealer must be a seat from 0 to {o.players - 1}")
    if o.names is not None and (
        len(o.names) != o.players or not all(isinstance(n, str) and n for n in o.names)
    ):
        raise OptionsError("names must give one non-empty name per player")
    if o.level not in LEVELS:
        raise OptionsError(f"unknown level {o.level!r}: choose from {', '.join(LEVELS)}")
