"""Snap's options: every variant in the seeds, the kiosk's own limits, and the checks."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import IllegalAction, OptionsError, Variant, variants_by_name
from kiosk.games.snap.engine.bots import LEVEL_INFO, LEVELS

GAME = "snap"
LEVEL_OPTION = "level"  # the option that sets the computer seats' level (for simulations)
# Action words a curator writes in a scenario (``- call: 2``) and the fields each may carry.
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "turn": (),
    "call": ("ms",),
    "call-pool": ("ms",),
    "close": (),
}
ACTION_TYPES = tuple(ACTION_FIELDS)

PENALTIES = ("none", "card-each", "face-up-to-pool", "face-down-to-pool")
LAYOUTS = ("piles", "central")  # own face-up piles, or Easy Snap's one central pile

# The kiosk bound (not historic), chosen by simulation (snap/rules.md, "The kiosk bound")
KIOSK_MAX_TURNS = 100
TIE_WINDOW_MS = 60  # about four frames at 60 Hz: below what a browser's timing can separate
MAX_REACTION_MS = 60_000  # a "reaction" slower than a minute is not a reaction
MAX_PLAYERS = 8  # the kiosk's own limit; the seeds set none (kiosk/games/snap/rules.md, "Players")
# Nobody reacts to a card quicker (the false-start line of sprint starts): a call measured
# under this from a card's paint answers the card before it, whose window has gone.
FALSE_START_MS = 100


class BadReaction(IllegalAction):
    """A call whose reaction_ms is no reaction (negative, not finite, over a minute)."""


@dataclass(frozen=True, slots=True)
class SnapOptions:
    """Every choice that makes one Snap game different from another."""

    variant: str = "classic"
    players: int = 2
    layout: str = "piles"  # "central" is Easy Snap
    speed: bool = False  # Speed Snap: everybody turns together
    pool: bool = False  # tied calls send the matched piles to a pool
    penalty: str = "card-each"  # mistaken calls: see PENALTIES (the classic game's)
    forfeits: bool = False  # the forfeits game with counters
    counters: int = 5  # counters each in the forfeits game
    decks: int = 1  # 2: play with two copies of the deck (four or more players)
    max_turns: int | None = None  # the kiosk bound: ends after this many turns
    max_snaps: int | None = None  # the kiosk bound: ends after this many snaps
    tie_window_ms: int = TIE_WINDOW_MS
    humans: tuple[int, ...] = ()  # seats played by people; the others are computer seats
    level: str = "medium"  # the computer seats' level
    levels: tuple[str, ...] = ()  # per-seat levels, overriding ``level`` where given
    shuffle: bool = True  # False: deal the deck as given, its first card first (scenarios)
    # Snap at your own pace (not historic): a person's call, however slow, comes before every
    # computer call on that card; the computer seats call a match only when nobody did
    wait_for_people: bool = False

    def to_json(self) -> dict[str, Any]:
        """The options as plain JSON (tuples become lists)."""
        data = asdict(self)
        data["humans"] = list(self.humans)
        data["levels"] = list(self.levels)
        return data

    @property
    def has_pool(self) -> bool:
        """Whether cards can go to a pool in the middle: calls tied, or a penalty paid into it."""
        return self.pool or self.penalty in ("face-up-to-pool", "face-down-to-pool")

    def seat_level(self, seat: int) -> str:
        """The bot level of ``seat``."""
        return self.levels[seat] if seat < len(self.levels) else self.level


WOOLWORTHS = "woolworths-snap-misc-869-1986.txt"
DIAGRAM = "snap-diagram-group-rules.txt"
# A general text after the Woolworths card that nothing ties to that pack: cited by its heading
BASIC = "the general text The basic rules for the game of SNAP"

VARIANTS = variants_by_name(
    Variant(
        "classic",
        f"{DIAGRAM}, the rules and Penalties: \"The first person to yell 'Snap!' gets to "
        'keep both of the face-up piles with the matching cards on top" and "The player '
        "could give one card to each of the others from the face-down pile in front of "
        'him."',
        {"penalty": "card-each"},
    ),
    Variant(
        "snap-pool",
        f'{WOOLWORTHS}, instruction card rules 4 and 5: "If two players call Snap together, '
        "and it cannot be decided who was first, the disputed cards are put face upwards "
        "into the pool in the centre of the table. If a card is turned up the same as the "
        'top one of the pool, the call is Snap Pool." and a mistaken caller is only '
        '"often penalised"',
        {"pool": True, "penalty": "none"},
    ),
    Variant(
        "woolworths",
        f'{WOOLWORTHS}, instruction card rules 4 and 5: "the disputed cards are put face '
        'upwards into the pool" and "Anyone who calls Snap in error is often penalised by '
        'having to put all his upturned cards in the pool."',
        {"pool": True, "penalty": "face-up-to-pool"},
    ),
    Variant(
        "penalty-card-each",
        f"{WOOLWORTHS}, {BASIC}, SNAP POOL and PENALTY 1: \"if two players shout `snap' "
        'together, the matching cards are put face up in a pool in the centre" and "the '
        'player gives one card from his face down pile to each of the other players"',
        {"pool": True, "penalty": "card-each"},
    ),
    Variant(
        "penalty-face-up-to-pool",
        f'{DIAGRAM}, Penalties: "the player could put his face-up cards into the pool so '
        'that other players can win them."',
        {"penalty": "face-up-to-pool"},
    ),
    Variant(
        "penalty-face-down-to-pool",
        f"{WOOLWORTHS}, {BASIC}, SNAP POOL and PENALTY 2: \"if two players shout `snap' "
        'together, the matching cards are put face up in a pool in the centre" and "the '
        "player's face down pile is put into the central pool to be won like an ordinary "
        'snap pool."',
        {"pool": True, "penalty": "face-down-to-pool"},
    ),
    Variant(
        "forfeits",
        f"{WOOLWORTHS}, {BASIC}: \"if that card matches the first, he or she `snaps' "
        'the first player, who pays a forfeit by giving up one counter." and "Should the '
        "third player also have a similar card, he or she `snaps' the second player, who "
        'then has to pay a double forfeit"',
        {"forfeits": True, "penalty": "none"},
    ),
    Variant(
        "easy",
        f'{WOOLWORTHS}, {BASIC}, EASY SNAP: "This version is particularly suitable for '
        "very young children. Instead of having individual face up piles, each player "
        'plays his cards into a central face up pile."',
        {"layout": "central", "penalty": "none"},
    ),
    Variant(
        "speed",
        f'{WOOLWORTHS}, {BASIC}, SPEED SNAP and PENALTY 1: "players still turn their '
        'cards up one at a time but all players do so together." and "the player gives '
        'one card from his face down pile to each of the other players"',
        {"speed": True, "penalty": "card-each"},
    ),
)

_FIELDS = {f.name for f in fields(SnapOptions)}


def options_for(variant: str = "classic", **overrides: Any) -> SnapOptions:
    """The options of a named variant with overrides, checked (raises OptionsError)."""
    if variant not in VARIANTS:
        raise OptionsError(f"unknown Snap variant {variant!r}: choose from {', '.join(VARIANTS)}")
    unknown = set(overrides) - _FIELDS
    if unknown:
        raise OptionsError(f"unknown Snap option(s): {', '.join(sorted(unknown))}")
    values = {**VARIANTS[variant].options, **overrides, "variant": variant}
    for key in ("humans", "levels"):
        if key in values:
            values[key] = tuple(values[key])
    options = SnapOptions(**values)
    check_options(options)
    return options


def options_from_json(data: dict[str, Any]) -> SnapOptions:
    """Rebuild options from :meth:`SnapOptions.to_json` output (raises OptionsError)."""
    data = dict(data)
    variant = data.pop("variant", "classic")
    return options_for(variant, **data)


def check_options(o: SnapOptions) -> None:
    """Raise OptionsError for options that make no game."""

    def bad(msg: str) -> None:
        raise OptionsError(msg)

    if not isinstance(o.players, int) or o.players < 2:
        bad(f"Snap needs at least two players, not {o.players!r}")
    if o.players > MAX_PLAYERS:
        bad(f"at most {MAX_PLAYERS} players round one table, not {o.players}")
    if o.layout not in LAYOUTS:
        bad(f"unknown layout {o.layout!r}: choose from {', '.join(LAYOUTS)}")
    if o.penalty not in PENALTIES:
        bad(f"unknown penalty {o.penalty!r}: choose from {', '.join(PENALTIES)}")
    if o.layout == "central" and o.speed:
        bad("Easy Snap and Speed Snap cannot be played together")
    if o.forfeits and (o.speed or o.layout == "central"):
        bad("the forfeits game is played on separate piles, one player at a time")
    if o.forfeits and (o.pool or o.penalty != "none"):
        bad("the forfeits game has no calls, so no pool and no penalties")
    if o.layout == "central" and (o.pool or o.penalty not in ("none", "card-each")):
        bad("Easy Snap has one central pile: no pool, and only the card-each penalty")
    if o.decks not in (1, 2):
        bad(f"play with one deck or two, not {o.decks!r}")
    if o.counters < 1:
        bad("the forfeits game needs at least one counter each")
    for name in ("max_turns", "max_snaps"):
        value = getattr(o, name)
        if value is not None and (not isinstance(value, int) or value < 1):
            bad(f"{name} must be a positive whole number or None, not {value!r}")
    if not 0 <= o.tie_window_ms <= 1000:
        bad(f"tie_window_ms must be between 0 and 1000, not {o.tie_window_ms!r}")
    if any(not isinstance(h, int) or not 0 <= h < o.players for h in o.humans):
        bad(f"human seats {list(o.humans)} must be seats 0..{o.players - 1}")
    if len(set(o.humans)) != len(o.humans):
        bad("a human seat is listed twice")
    for name in (o.level, *o.levels):
        if name not in LEVEL_INFO:
            bad(f"unknown level {name!r}: choose from {', '.join(LEVELS)}")


def kiosk_bound() -> dict[str, Any]:
    """The overrides that add the kiosk's (non-historic) bound to any variant."""
    return {"max_turns": KIOSK_MAX_TURNS}


def default_deck() -> list[Card]:
    """The deck simulations and tests play with: the standard 52, matched by rank."""
    return standard_deck()
