"""Snap: one event-sourced engine for every variant in the seeds (see ``docs/rules/snap.md``).

States are *owned by the caller*: :func:`apply` mutates the state it is given and returns
that same object (no copying, so replaying a long record is cheap). Keep the record
(``deck + options + seed + actions``) and :func:`replay` it, or :func:`copy_state` first,
if you need an earlier moment.

Timing. When a card is turned and a match shows (two face-up tops alike, or a top like the
pool's top), the engine opens a *call window* for that turn and pre-draws every computer
seat's reaction time from the state's seeded RNG (:mod:`kiosk.games.snap_bots`). A human
seat's ``call`` action carries the ``reaction_ms`` its browser measured. The window is
settled when every human seat still in the game has called, or by ``close``, or by the next
``turn`` (which settles it first): the earliest call wins; calls within
``tie_window_ms`` of the earliest are "together". A call whose ``turn`` is not the current
turn, or that comes after its window was settled, changes nothing and yields a
``late-call`` event, so a late or duplicated tap is harmless. So does a call measured under
``FALSE_START_MS`` (100 ms): nobody reacts that quickly, so it answers the card before the
one on screen, whose window has gone (``why: "false start"``): never a win, never a penalty.
A ``reaction_ms`` that is negative, not finite or over ``MAX_REACTION_MS`` is refused
(:class:`BadReaction`).

A live game against the computer (``humans=(0,)``) goes like this: the page sends
``{"type": "turn", "player": p}`` for whoever is to move (``to_move``), the visitor with a
tap and the computer seats at the kiosk's pace; after each turn it shows ``view(state, 0)``.
A tap on Snap! sends ``{"type": "call", "player": 0, "turn": view["turn"],
"reaction_ms": …}`` (``"call-pool"`` for Snap Pool!), which settles the window at once
against the computer seats' pre-drawn reactions. If the visitor does not call, the next
``turn`` (or a ``close``) settles the computer seats' calls first. In a simulation every
seat is a computer seat and only ``turn``/``close`` actions are sent.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from kiosk.games import snap_bots
from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction, OptionsError, Variant

GAME = "snap"
LEVELS = snap_bots.LEVELS
LEVEL_OPTION = "level"  # the option that sets the computer seats' level (for simulations)

PENALTIES = ("none", "card-each", "face-up-to-pool", "face-down-to-pool")
LAYOUTS = ("piles", "central")  # own face-up piles, or Easy Snap's one central pile

# The kiosk bound (not historic): chosen by simulation, see benchmarks/bench_snap.py and
# docs/rules/snap.md ("The kiosk bound"). At 1.2 s a turn plus 2 s per settled call,
# >= 95% of two- to four-player games against the computer end within 3 minutes.
KIOSK_MAX_TURNS = 100
TIE_WINDOW_MS = 60  # about four frames at 60 Hz: below what a browser's timing can separate
MAX_REACTION_MS = 60_000  # a "reaction" slower than a minute is not a reaction
MAX_PLAYERS = 8  # the kiosk's own limit; the seeds set none (docs/rules/snap.md, "Players")
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

    def to_json(self) -> dict[str, Any]:
        """The options as plain JSON (tuples become lists)."""
        data = asdict(self)
        data["humans"] = list(self.humans)
        data["levels"] = list(self.levels)
        return data

    def seat_level(self, seat: int) -> str:
        """The bot level of ``seat``."""
        return self.levels[seat] if seat < len(self.levels) else self.level


WOOLWORTHS = "woolworths-snap-misc-869-1986.txt"
DIAGRAM = "snap-diagram-group-rules.txt"
# The seed file gives the Woolworths instruction card, then a general text headed "The basic
# rules for the game of SNAP" that nothing ties to that pack: cited by its own heading.
BASIC = "the general text The basic rules for the game of SNAP"

# What a wrong call costs, in the words that end every description of a game with calls.
MISTAKE_WORDS = {
    "none": "No penalty for a wrong call.",
    "card-each": "A wrong call: a card to each other player.",
    "face-up-to-pool": "A wrong call: your face-up pile to the pool.",
    "face-down-to-pool": "A wrong call: your face-down pile to the pool.",
}
OWN_PILES = "Turn in turn; first to call a match takes both piles."
WITH_POOL = "Tied calls make a pool, won by calling Snap Pool."


def _called(name: str, title: str, what: str, source: str, options: dict) -> Variant:
    """A variant with calls, its description ending with what its own penalty costs."""
    penalty = SnapOptions(**options).penalty
    return Variant(name, title, f"{what} {MISTAKE_WORDS[penalty]}", source, options)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _called(
            "classic",
            "Snap",
            OWN_PILES,
            f"{DIAGRAM}, the rules and Penalties: \"The first person to yell 'Snap!' gets to "
            'keep both of the face-up piles with the matching cards on top" and "The player '
            "could give one card to each of the others from the face-down pile in front of "
            'him."',
            {"penalty": "card-each"},
        ),
        _called(
            "snap-pool",
            "Snap Pool",
            WITH_POOL,
            f'{WOOLWORTHS}, instruction card rules 4 and 5: "If two players call Snap together, '
            "and it cannot be decided who was first, the disputed cards are put face upwards "
            "into the pool in the centre of the table. If a card is turned up the same as the "
            'top one of the pool, the call is Snap Pool." and a mistaken caller is only '
            '"often penalised"',
            {"pool": True, "penalty": "none"},
        ),
        _called(
            "woolworths",
            "The Woolworths instruction card",
            "The 1950s card: Snap Pool for tied calls.",
            f'{WOOLWORTHS}, instruction card rules 4 and 5: "the disputed cards are put face '
            'upwards into the pool" and "Anyone who calls Snap in error is often penalised by '
            'having to put all his upturned cards in the pool."',
            {"pool": True, "penalty": "face-up-to-pool"},
        ),
        _called(
            "penalty-card-each",
            "Penalty: a card to each player",
            WITH_POOL,
            f"{WOOLWORTHS}, {BASIC}, SNAP POOL and PENALTY 1: \"if two players shout `snap' "
            'together, the matching cards are put face up in a pool in the centre" and "the '
            'player gives one card from his face down pile to each of the other players"',
            {"pool": True, "penalty": "card-each"},
        ),
        _called(
            "penalty-face-up-to-pool",
            "Penalty: face-up pile to the pool",
            OWN_PILES,
            f'{DIAGRAM}, Penalties: "the player could put his face-up cards into the pool so '
            'that other players can win them."',
            {"penalty": "face-up-to-pool"},
        ),
        _called(
            "penalty-face-down-to-pool",
            "Penalty: face-down pile to the pool",
            WITH_POOL,
            f"{WOOLWORTHS}, {BASIC}, SNAP POOL and PENALTY 2: \"if two players shout `snap' "
            'together, the matching cards are put face up in a pool in the centre" and "the '
            "player's face down pile is put into the central pool to be won like an ordinary "
            'snap pool."',
            {"pool": True, "penalty": "face-down-to-pool"},
        ),
        Variant(
            "forfeits",
            "Snap with forfeits",
            "Match the last player's card and they give up a counter; a run doubles it.",
            f"{WOOLWORTHS}, {BASIC}: \"if that card matches the first, he or she `snaps' "
            'the first player, who pays a forfeit by giving up one counter." and "Should the '
            "third player also have a similar card, he or she `snaps' the second player, who "
            'then has to pay a double forfeit"',
            {"forfeits": True, "penalty": "none"},
        ),
        _called(
            "easy",
            "Easy Snap",
            "One central pile; call when its top two cards match.",
            f'{WOOLWORTHS}, {BASIC}, EASY SNAP: "This version is particularly suitable for '
            "very young children. Instead of having individual face up piles, each player "
            'plays his cards into a central face up pile."',
            {"layout": "central", "penalty": "none"},
        ),
        _called(
            "speed",
            "Speed Snap",
            "Everybody turns a card at the same moment.",
            f'{WOOLWORTHS}, {BASIC}, SPEED SNAP and PENALTY 1: "players still turn their '
            'cards up one at a time but all players do so together." and "the player gives '
            'one card from his face down pile to each of the other players"',
            {"speed": True, "penalty": "card-each"},
        ),
    )
}

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
        if name not in snap_bots.LEVEL_INFO:
            bad(f"unknown level {name!r}: choose from {', '.join(LEVELS)}")


def kiosk_bound() -> dict[str, Any]:
    """The overrides that add the kiosk's (non-historic) bound to any variant."""
    return {"max_turns": KIOSK_MAX_TURNS}


# --------------------------------------------------------------------------- state


class Window:
    """The open call window of one turn: what can be called and the pre-drawn bot calls."""

    __slots__ = ("bot_calls", "calls", "pool", "snap", "turn")

    def __init__(self, turn: int, snap: bool, pool: bool) -> None:
        self.turn = turn
        self.snap = snap  # a snap match shows
        self.pool = pool  # a top matches the pool's top
        self.bot_calls: tuple[tuple[float, int, str], ...] = ()  # (ms, seat, kind), pre-drawn
        self.calls: tuple[tuple[float, int, str], ...] = ()  # human calls (ms, seat, kind)

    def key(self) -> tuple:
        """Everything in the window, for state equality."""
        return (self.turn, self.snap, self.pool, self.bot_calls, self.calls)


class SnapState:
    """One game of Snap in progress. Mutable: owned by whoever called new_game."""

    __slots__ = (
        "actions",
        "aside",
        "bots",
        "cards",
        "central",
        "centre",
        "chain",
        "counters",
        "current",
        "down",
        "false_slices",
        "false_total",
        "kitty",
        "last",
        "last_turner",
        "match",
        "options",
        "order",
        "out",
        "over",
        "penalties",
        "pool",
        "pools",
        "reason",
        "rng",
        "seed",
        "snaps",
        "turn",
        "up",
        "window",
        "winners",
    )

    def key(self) -> tuple:
        """Everything that makes this state what it is (for equality and replay tests)."""
        return (
            self.options,
            self.seed,
            self.order,
            tuple(map(tuple, self.down)),
            tuple(map(tuple, self.up)),
            tuple(self.centre),
            tuple(self.pool),
            tuple(self.aside),
            tuple(self.counters),
            self.kitty,
            tuple(self.out),
            self.current,
            self.turn,
            self.last_turner,
            self.chain,
            self.snaps,
            self.pools,
            self.penalties,
            self.over,
            self.reason,
            tuple(self.winners),
            self.window.key() if self.window else None,
            self.rng.getstate(),
            self.actions,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SnapState) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]


def _card_json(card: Card | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {"id": card.id, "name": card.name, "match": card.match, "face": card.face}


def expand_deck(deck: Sequence[Card], decks: int) -> list[Card]:
    """The cards in play: the deck, or two copies of it with the second's ids marked ``~2``."""
    cards = list(deck)
    if decks == 2:
        cards += [replace(c, id=f"{c.id}~2") for c in deck]
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise OptionsError("the deck has two cards with the same id")
    if len(cards) < 2:
        raise OptionsError("Snap needs at least two cards")
    return cards


def new_game(
    deck: Sequence[Card], options: SnapOptions, seed: int | str
) -> tuple[SnapState, list[Event]]:
    """Shuffle with the game's own RNG and deal; return the state and the deal's events."""
    events: list[Event] = []
    return _new_game(deck, options, seed, events), events


def _new_game(
    deck: Sequence[Card], options: SnapOptions, seed: int | str, events: list[Event] | None
) -> SnapState:
    """new_game, adding the deal's events to ``events`` unless it is None (replay)."""
    check_options(options)
    cards = expand_deck(deck, options.decks)
    s = SnapState()
    s.options = options
    s.seed = seed
    s.rng = random.Random(seed)
    s.cards = {c.id: c for c in cards}
    s.match = {c.id: c.match for c in cards}
    order = [c.id for c in cards]
    if options.shuffle:
        s.rng.shuffle(order)
    else:
        order.reverse()  # the stock's top is its last card: the deck's first card goes first
    s.order = tuple(order)
    n = options.players
    s.down = [[] for _ in range(n)]
    s.up = [[] for _ in range(n)]
    s.centre, s.pool, s.aside = [], [], []
    s.counters = [options.counters if options.forfeits else 0] * n
    s.kitty = 0
    s.out = [False] * n
    s.current = 0  # the player to the dealer's left; the dealer is the last seat
    s.turn = 0
    s.last_turner = None
    s.chain = 0
    s.snaps = s.pools = s.penalties = 0
    s.over = False
    s.reason = None
    s.winners = []
    s.window = None
    s.last = []
    s.actions = 0
    s.central = options.layout == "central"
    edge = 0.0
    slices = []
    for p in range(n):
        if p not in options.humans:
            lvl = snap_bots.LEVEL_INFO[options.seat_level(p)]
            edge += lvl.false_call
            slices.append((edge, p, lvl))
    s.false_slices = tuple(slices)
    s.false_total = edge
    s.bots = tuple(
        (p, snap_bots.LEVEL_INFO[options.seat_level(p)])
        for p in range(n)
        if p not in options.humans
    )
    # deal one at a time from the top of the stock, starting left of the dealer
    stock = list(order)
    dealt = len(stock) - (len(stock) % n if options.forfeits else 0)  # forfeits: equal hands
    for i in range(dealt):
        s.down[i % n].append(stock.pop())
    if stock:
        s.aside = stock
    if events is not None:
        moves = [
            {"cards": [card], "from": "stock", "to": f"down:{i % n}", "at": "top"}
            for i, card in enumerate(reversed(order[len(order) - dealt :]))
        ]
        if stock:
            moves.append({"cards": list(stock), "from": "stock", "to": "aside", "at": "top"})
        events.append(
            Event(
                "shuffle",
                {
                    "cards": len(order),
                    "moves": [{"cards": list(order), "from": "box", "to": "stock", "at": "top"}],
                },
            )
        )
        events.append(
            Event(
                "deal", {"hands": [len(d) for d in s.down], "aside": len(s.aside), "moves": moves}
            )
        )
    for p in range(n):
        if not s.down[p]:
            s.out[p] = True
            if events is not None:
                events.append(Event("out", {"player": p, "why": "dealt no cards"}))
    _check_end(s, events)
    return s


def copy_state(state: SnapState) -> SnapState:
    """An independent copy (apply mutates in place)."""
    return copy.deepcopy(state)


def replay(
    deck: Sequence[Card], options: SnapOptions, seed: int | str, actions: Iterable[dict]
) -> SnapState:
    """Rebuild a game from its record: new_game then every action, in order (no events).

    The fast path: a plain turn with nothing to settle is done inline; anything else goes
    through the same code as :func:`apply`, so the result is the state ``apply`` builds.
    """
    return advance(_new_game(deck, options, seed, None), actions)


def advance(s: SnapState, actions: Iterable[dict]) -> SnapState:
    """Apply more of a record to a replayed state, in place, by replay's fast path (no events).

    ``replay(deck, options, seed, a + b)`` equals ``advance(replay(deck, options, seed, a), b)``,
    so a state kept from an earlier request can be carried forward instead of rebuilt.
    """
    o = s.options
    if o.speed or o.forfeits or o.layout != "piles":
        for action in actions:
            _apply(s, action, None)
        return s
    limit = o.max_turns if o.max_turns is not None else 1 << 62
    n = o.players
    seats = range(n)
    # new_game makes these once and nothing replaces them, so they can be held here
    downs, ups, out, m, rng = s.down, s.up, s.out, s.match, s.rng
    false_total, false_slices = s.false_total, s.false_slices
    # the state's busiest fields, held in locals and written back before the slow path
    turn, current, done, last, over = s.turn, s.current, s.actions, s.last_turner, s.over
    w = s.window
    lazy = False  # the open window is a quiet one (nothing to settle) not yet built as a Window
    # who turns after each seat; only the slow path puts a player out, and out is for good
    after = [_next_active(s, p) for p in seats]
    gone = out.count(True)
    # each seat's top's match key, and the pool's: the fast path turns one card at a time,
    # and only the slow path moves piles, so they are remade after it
    tops = [m[up[-1]] if up else None for up in ups]
    pool_key = m[s.pool[-1]] if s.pool else None
    for action in actions:
        if (
            type(action) is dict
            and action.get("type") == "turn"
            and action.get("player") == current
            and type(action["player"]) is int
            and not over
            and turn < limit
            and (lazy or w is None or not (w.snap or w.pool or w.bot_calls or w.calls))
        ):
            p = current
            down = downs[p]
            if down and not out[p]:
                fresh = w is None and not lazy  # no window at all: compare every top
                turn += 1
                card = down.pop()
                ups[p].append(card)
                last = p
                current = after[p]
                done += 1
                key = m[card]
                snap = pooled = False
                if not fresh:
                    # the window just closed was opened on these tops and saw no match, and
                    # nothing but this card changed since: only it can make a match now
                    tops[p] = None
                    snap = key in tops
                    pooled = key == pool_key
                tops[p] = key
                if fresh or snap or pooled:
                    s.turn, s.current, s.actions, s.last_turner = turn, current, done, last
                    s.window = None
                    if fresh:
                        _open_window(s)
                    else:
                        _open_window_with(s, snap, pooled)
                    w = s.window
                    lazy = False
                    continue
                # no match: _open_window_with's draws, inline (the common case); the quiet
                # window itself is built only if the slow path or the caller needs it
                w = None
                lazy = True
                if false_total:
                    u = rng.random()
                    if u < false_total:
                        for edge, seat, lvl in false_slices:
                            if u < edge:
                                if not out[seat]:
                                    w = Window(turn, False, False)
                                    w.bot_calls = ((_false_ms(lvl, rng), seat, "snap"),)
                                    lazy = False
                                break
                continue
        s.turn, s.current, s.actions, s.last_turner = turn, current, done, last
        s.window = Window(turn, False, False) if lazy else w
        lazy = False
        _apply(s, action, None)
        turn, current, done, last, over = s.turn, s.current, s.actions, s.last_turner, s.over
        w = s.window
        tops = [m[up[-1]] if up else None for up in ups]
        pool_key = m[s.pool[-1]] if s.pool else None
        if out.count(True) != gone:
            after = [_next_active(s, p) for p in seats]
            gone = out.count(True)
    s.turn, s.current, s.actions, s.last_turner = turn, current, done, last
    s.window = Window(turn, False, False) if lazy else w
    return s


# --------------------------------------------------------------------------- rules


def _active(s: SnapState) -> list[int]:
    return [p for p in range(s.options.players) if not s.out[p]]


def _next_active(s: SnapState, after: int) -> int:
    n = s.options.players
    for k in range(1, n + 1):
        p = (after + k) % n
        if not s.out[p]:
            return p
    return after


def _matches(s: SnapState) -> list[int]:
    """Seats whose face-up top matches another seat's top (Easy Snap: [] or the centre)."""
    m = s.match
    if s.options.layout == "central":
        c = s.centre
        return [-1] if len(c) >= 2 and m[c[-1]] == m[c[-2]] else []
    tops = [m[pile[-1]] for pile in s.up if pile]
    if len(set(tops)) == len(tops):
        return []
    keys: dict[str, list[int]] = {}
    for p, pile in enumerate(s.up):
        if pile:
            keys.setdefault(m[pile[-1]], []).append(p)
    return [p for seats in keys.values() if len(seats) > 1 for p in seats]


def _pool_match(s: SnapState) -> bool:
    if not s.pool:
        return False
    key = s.match[s.pool[-1]]
    m = s.match
    if s.options.layout == "central":
        return bool(s.centre) and m[s.centre[-1]] == key
    return any(pile and m[pile[-1]] == key for pile in s.up)


def _open_window(s: SnapState) -> None:
    """Open this turn's call window and pre-draw every computer seat's calls from the RNG."""
    if s.central:
        snap = bool(_matches(s))
        pool = _pool_match(s) if s.pool else False
    else:
        m = s.match
        tops = [m[pile[-1]] for pile in s.up if pile]
        snap = len(set(tops)) < len(tops)
        pool = bool(s.pool) and m[s.pool[-1]] in tops
    _open_window_with(s, snap, pool)


def _open_window_with(s: SnapState, snap: bool, pool: bool) -> None:
    """Open the window for what shows (a match, a pool match) and draw the bots' calls."""
    w = Window(s.turn, snap, pool)
    s.window = w
    rng = s.rng
    out = s.out
    if not (snap or pool):
        # at most one false call a turn: one draw, each seat owning a slice of [0, 1) as wide
        # as its false-call rate (two in one turn would be rarer than 1 in 10,000)
        if s.false_total:
            u = rng.random()
            if u < s.false_total:
                for edge, p, lvl in s.false_slices:
                    if u < edge:
                        if not out[p]:
                            w.bot_calls += ((_false_ms(lvl, rng), p, "snap"),)
                        break
        return
    for p, lvl in s.bots:
        if out[p]:
            continue
        if snap:
            ms = lvl.draw(rng)
            if ms is not None:
                w.bot_calls += ((ms, p, "snap"),)
        if pool:
            ms = lvl.draw(rng)
            if ms is not None:
                w.bot_calls += ((ms, p, "pool"),)


def _false_ms(lvl: snap_bots.BotLevel, rng: random.Random) -> float:
    return round(max(snap_bots.FLOOR_MS, rng.lognormvariate(lvl.mu, lvl.sigma)), 1)


def _to_bottom(s: SnapState, seat: int, src: str, cards: list[str], ev: list | None) -> None:
    """Turn ``cards`` (a face-up pile, bottom first) over and put them under ``seat``'s pack."""
    flipped = cards[::-1]
    s.down[seat][:0] = flipped
    if ev is not None:
        ev.append({"cards": flipped, "from": src, "to": f"down:{seat}", "at": "bottom"})


def _settle(s: SnapState, events: list[Event] | None) -> None:
    """Settle the open window: pool calls, then snap calls, then mistaken calls' penalties."""
    w = s.window
    s.window = None
    if w is None:
        return
    o = s.options
    if not (w.snap or w.pool or w.bot_calls or w.calls):  # nothing to settle
        if o.max_turns is not None and s.turn >= o.max_turns:
            _check_end(s, events)
        return
    calls = sorted(w.bot_calls + w.calls)
    humans = o.humans
    mistaken: list[tuple[float, int, str]] = []
    for kind, present in (("pool", w.pool), ("snap", w.snap)):
        valid = [c for c in calls if c[2] == kind]
        if not present:
            mistaken += valid
            continue
        if not valid:
            if events is not None:
                events.append(Event("unclaimed", {"kind": kind, "turn": w.turn}))
            continue
        first = valid[0][0]
        together = []
        for c in valid:  # sorted: the calls "together" with the first come first
            if c[0] - first > o.tie_window_ms:
                break
            if c[1] not in [t[1] for t in together]:
                together.append(c)
        order = (
            [{"player": c[1], "reaction_ms": c[0], "human": c[1] in humans} for c in valid]
            if events is not None
            else []
        )
        tied = len(together) > 1
        if kind == "pool":
            if tied:
                if events is not None:
                    events.append(
                        Event(
                            "tie",
                            {
                                "kind": "pool",
                                "turn": w.turn,
                                "calls": order,
                                "players": [t[1] for t in together],
                                "outcome": "pool-stays",
                            },
                        )
                    )
                continue
            _win_pool(s, valid[0][1], order, w.turn, events)
            continue
        if tied and o.pool:
            _form_pool(s, order, [t[1] for t in together], w.turn, events)
            continue
        winner = valid[0][1]
        broken = False
        if tied:
            exact = [t[1] for t in together if t[0] == first]
            if len(exact) > 1:
                winner = s.rng.choice(exact)
                broken = True
        _win_snap(s, winner, order, w.turn, tied, broken, events)
    for ms, p, kind in sorted(mistaken):
        _penalise(s, p, kind, ms, w.turn, events)
    _check_out(s, events)
    if not s.over and s.out[s.current]:
        s.current = _next_active(s, s.current)


def _win_snap(s, winner, order, turn, tied, broken, events) -> None:
    seats = _matches(s)
    moves: list | None = [] if events is not None else None
    central = seats == [-1]
    tops = [s.centre[-1], s.centre[-2]] if central else [s.up[p][-1] for p in seats]
    count = 0
    if central:
        count = len(s.centre)
        _to_bottom(s, winner, "centre", s.centre, moves)
        s.centre = []
    else:
        for p in seats:
            count += len(s.up[p])
            _to_bottom(s, winner, f"up:{p}", s.up[p], moves)
            s.up[p] = []
    s.snaps += 1
    if events is not None:
        events.append(
            Event(
                "snap",
                {
                    "player": winner,
                    "turn": turn,
                    "matches": sorted({s.match[c] for c in tops}),
                    "tops": tops,
                    "from": ["centre"] if central else [f"up:{p}" for p in seats],
                    "won": count,
                    "calls": order,
                    "tie": tied,
                    "tie_broken_by_lot": broken,
                    "moves": moves,
                },
            )
        )


def _form_pool(s, order, players, turn, events) -> None:
    seats = _matches(s)
    moves = []
    tops = [s.up[p][-1] for p in seats]
    keys = sorted({s.match[c] for c in tops})
    for p in seats:
        cards = s.up[p]
        s.pool.extend(cards)
        moves.append({"cards": list(cards), "from": f"up:{p}", "to": "pool", "at": "top"})
        s.up[p] = []
    if events is not None:
        events.append(
            Event(
                "pool-formed",
                {
                    "turn": turn,
                    "players": players,
                    "calls": order,
                    "matches": keys,
                    "tops": tops,
                    "from": [f"up:{p}" for p in seats],
                    "moves": moves,
                },
            )
        )


def _win_pool(s, winner, order, turn, events) -> None:
    moves: list | None = [] if events is not None else None
    top = s.pool[-1]
    count = len(s.pool)
    _to_bottom(s, winner, "pool", s.pool, moves)
    s.pool = []
    s.pools += 1
    if events is not None:
        events.append(
            Event(
                "pool-won",
                {
                    "player": winner,
                    "turn": turn,
                    "match": s.match[top],
                    "pool_top": top,
                    "won": count,
                    "calls": order,
                    "moves": moves,
                },
            )
        )


def _penalise(s, p, kind, ms, turn, events) -> None:
    o = s.options
    rule = o.penalty
    moves: list = []
    if rule != "none":
        s.penalties += 1
    if rule == "card-each":
        for k in range(1, o.players):
            q = (p + k) % o.players
            if s.out[q] or not s.down[p]:
                continue
            card = s.down[p].pop()
            s.down[q].insert(0, card)
            moves.append({"cards": [card], "from": f"down:{p}", "to": f"down:{q}", "at": "bottom"})
    elif rule == "face-up-to-pool" and s.up[p]:
        cards = s.up[p]
        s.pool.extend(cards)
        moves.append({"cards": list(cards), "from": f"up:{p}", "to": "pool", "at": "top"})
        s.up[p] = []
    elif rule == "face-down-to-pool" and s.down[p]:
        cards = s.down[p][::-1]  # picked up and turned face up: the bottom card shows
        s.pool.extend(cards)
        moves.append({"cards": cards, "from": f"down:{p}", "to": "pool", "at": "top"})
        s.down[p] = []
    if events is not None:
        events.append(
            Event(
                "penalty" if rule != "none" else "mistaken-call",
                {
                    "player": p,
                    "turn": turn,
                    "call": kind,
                    "reaction_ms": ms,
                    "human": p in o.humans,
                    "rule": rule,
                    "paid": sum(len(m["cards"]) for m in moves),
                    "moves": moves,
                },
            )
        )


def _held(s: SnapState, p: int) -> int:
    return len(s.down[p]) + len(s.up[p])


def _check_out(s: SnapState, events: list[Event] | None) -> None:
    """After a settled call: everyone it left with no cards is out, then perhaps the end."""
    if s.options.forfeits:
        _check_end(s, events)
        return
    gone = [p for p in range(s.options.players) if not s.out[p] and not _held(s, p)]
    _out_at_once(s, gone, events)


def _out_at_once(s: SnapState, gone: list[int], events: list[Event] | None) -> None:
    """W card rule 6: who has lost all his cards is out at once (docs/rules/snap.md)."""
    for p in gone:
        s.out[p] = True
        if events is not None:
            events.append(Event("out", {"player": p, "why": "no cards"}))
    _check_end(s, events, gone)


def _finish(s: SnapState, winners: list[int], reason: str, events: list[Event] | None) -> None:
    s.over = True
    s.window = None
    s.reason = reason
    s.winners = winners
    if events is not None:
        events.append(
            Event(
                "game-over",
                {
                    "winners": winners,
                    "reason": reason,
                    "turn": s.turn,
                    "cards": [_held(s, p) for p in range(s.options.players)],
                    "counters": list(s.counters) if s.options.forfeits else None,
                },
            )
        )


def _check_end(s: SnapState, events: list[Event] | None, gone: Sequence[int] = ()) -> None:
    """End the game when one player is left (or none: ``gone`` share it), or at the bound."""
    if s.over:
        return
    o = s.options
    active = _active(s)
    if not active and gone and not o.forfeits:  # the last players went out together
        _finish(s, sorted(gone), "out-together", events)
        return
    if o.forfeits:
        if len(active) <= 1:
            _finish(s, active, "last-with-counters", events)
            return
    elif len(active) <= 1:
        if active:
            winner = active[0]
            moves: list = []
            for place, pile in (("centre", s.centre), ("pool", s.pool)):
                if pile:
                    moves.append(
                        {"cards": pile[::-1], "from": place, "to": f"down:{winner}", "at": "bottom"}
                    )
                    s.down[winner][:0] = pile[::-1]
            s.centre, s.pool = [], []
            if moves and events is not None:
                events.append(Event("collect", {"player": winner, "moves": moves}))
        _finish(s, active, "all-cards", events)
        return
    bound = (o.max_turns is not None and s.turn >= o.max_turns and s.window is None) or (
        o.max_snaps is not None and s.snaps >= o.max_snaps
    )
    if bound:
        if o.forfeits:
            score = [s.counters[p] if not s.out[p] else -1 for p in range(o.players)]
        else:
            score = [_held(s, p) for p in range(o.players)]
        best = max(score)
        _finish(s, [p for p in range(o.players) if score[p] == best], "kiosk-bound", events)


def _turn_one(s: SnapState, p: int, events: list[Event] | None) -> None:
    """Player ``p`` turns one card (turning their face-up pile over first if they must)."""
    o = s.options
    down = s.down[p]
    if not down and o.layout == "piles" and s.up[p]:
        flipped = s.up[p][::-1]
        s.down[p] = down = flipped
        s.up[p] = []
        if events is not None:
            events.append(
                Event(
                    "turn-over",
                    {
                        "player": p,
                        "cards": len(flipped),
                        "moves": [
                            {
                                "cards": list(flipped),
                                "from": f"up:{p}",
                                "to": f"down:{p}",
                                "at": "top",
                            }
                        ],
                    },
                )
            )
    card = down.pop()
    if o.layout == "central":
        s.centre.append(card)
        dest = "centre"
    else:
        s.up[p].append(card)
        dest = f"up:{p}"
    if events is not None:
        events.append(
            Event(
                "turn",
                {
                    "player": p,
                    "turn": s.turn,
                    "card": card,
                    "match": s.match[card],
                    "moves": [{"cards": [card], "from": f"down:{p}", "to": dest, "at": "top"}],
                },
            )
        )


def _forfeit(s: SnapState, p: int, events: list[Event] | None) -> None:
    """The forfeits game: a card like the previous player's top snaps them for a counter."""
    prev = s.last_turner
    card = s.up[p][-1]
    if (
        prev is None
        or prev == p
        or s.out[prev]
        or not s.up[prev]
        or (s.match[s.up[prev][-1]] != s.match[card])
    ):
        s.chain = 0
        return
    owed = 1 if s.chain == 0 else s.chain * 2
    s.chain = owed
    paid = min(owed, s.counters[prev])
    s.counters[prev] -= paid
    s.kitty += paid
    s.snaps += 1
    if events is not None:
        events.append(
            Event(
                "forfeit",
                {
                    "player": p,
                    "payer": prev,
                    "turn": s.turn,
                    "match": s.match[card],
                    "cards": [s.up[prev][-1], card],
                    "owed": owed,
                    "paid": paid,
                    "counters": list(s.counters),
                },
            )
        )
    if s.counters[prev] == 0:
        s.out[prev] = True
        if events is not None:
            events.append(Event("out", {"player": prev, "why": "no counters"}))


def _can_turn(s: SnapState) -> bool:
    o = s.options
    return not s.over and not (o.max_turns is not None and s.turn >= o.max_turns)


def _do_turn(s: SnapState, player: int, events: list[Event] | None) -> None:
    o = s.options
    w = s.window
    if w is not None:
        if w.snap or w.pool or w.bot_calls or w.calls:
            _settle(s, events)
            if s.over:
                return
        else:  # nothing to settle (and the bound cannot be reached: a turn was allowed)
            s.window = None
    # a player who cannot turn is out (Easy Snap: an empty pack; else no cards at all)
    while True:
        p = s.current
        if s.down[p] and not s.out[p]:
            break
        if s.out[p]:
            s.current = _next_active(s, p)
            continue
        if o.layout == "central" or not s.up[p]:
            s.out[p] = True
            if events is not None:
                events.append(Event("out", {"player": p, "why": "no cards to turn"}))
            _check_end(s, events)
            if s.over:
                return
            continue
        break
    if not o.speed and player != s.current:
        if events is not None:  # the caller went out as the window settled: no card turned
            events.append(Event("turn-passed", {"from": player, "to": s.current}))
        return
    s.turn += 1
    if o.speed:
        turners = [p for p in _active(s) if s.down[p] or s.up[p]]
        for p in turners:
            _turn_one(s, p, events)
        s.last_turner = turners[-1]
    else:
        p = s.current
        if events is None and s.down[p] and o.layout == "piles":  # the quiet fast path
            s.up[p].append(s.down[p].pop())
        else:
            _turn_one(s, p, events)
        if o.forfeits:
            _forfeit(s, p, events)
        s.last_turner = p
        if s.central and not s.down[p]:  # Easy Snap: the last card played, nothing left
            _out_at_once(s, [p], events)
            if s.over:
                return
    q = s.last_turner + 1
    if q == o.players:
        q = 0
    s.current = q if not s.out[q] else _next_active(s, s.last_turner)
    if o.forfeits:
        _check_end(s, events)
        return
    _open_window(s)


def _reaction(action: dict) -> float:
    """A call's reaction_ms, refused unless finite and 0..MAX_REACTION_MS (NaN fails too)."""
    ms = action.get("reaction_ms")
    if isinstance(ms, bool) or not isinstance(ms, int | float) or not 0 <= ms <= MAX_REACTION_MS:
        raise BadReaction(f"a call needs reaction_ms between 0 and {MAX_REACTION_MS}")
    return float(ms)


def _human_call(s: SnapState, action: dict, events: list[Event] | None) -> None:
    p = action["player"]
    kind = "pool" if action["type"] == "call-pool" else "snap"
    ms = _reaction(action)
    turn = action.get("turn")
    w = s.window
    # a false start answers the card before this one: its window has gone (never a win,
    # never a penalty), and this card's window stays open for a real call
    false_start = ms < FALSE_START_MS
    stale = false_start or w is None or turn != w.turn or any(c[1] == p for c in w.calls)
    if stale:
        if events is not None:
            why = (
                "false start"
                if false_start
                else ("already called" if w is not None and turn == w.turn else "window closed")
            )
            events.append(
                Event(
                    "late-call",
                    {
                        "player": p,
                        "kind": kind,
                        "turn": turn,
                        "current_turn": s.turn,
                        "why": why,
                    },
                )
            )
        return
    w.calls += ((ms, p, kind),)
    if events is not None:
        events.append(Event("call", {"player": p, "kind": kind, "turn": turn, "reaction_ms": ms}))
    waiting = [h for h in s.options.humans if not s.out[h] and all(c[1] != h for c in w.calls)]
    if not waiting:
        _settle(s, events)


ACTION_TYPES = ("turn", "call", "call-pool", "close")


def apply(state: SnapState, action: dict[str, Any]) -> tuple[SnapState, list[Event]]:
    """Apply one action IN PLACE and return (the same state, the events it caused)."""
    events: list[Event] = []
    _apply(state, action, events)
    state.last = events
    return state, events


def apply_quiet(state: SnapState, action: dict[str, Any]) -> SnapState:
    """Apply one action in place without building events: the fast replay path."""
    _apply(state, action, None)
    return state


def _apply(s: SnapState, action: dict[str, Any], events: list[Event] | None) -> None:
    if not isinstance(action, dict):
        raise IllegalAction("an action is a dict with a type and a player")
    kind = action.get("type")
    p = action.get("player")
    if (
        kind == "turn"
        and p == s.current
        and type(p) is int
        and not s.over
        and not s.options.speed
        and (s.options.max_turns is None or s.turn < s.options.max_turns)
    ):  # the common case, checked quickly
        _do_turn(s, p, events)
        s.actions += 1
        return
    if kind not in ACTION_TYPES:
        raise IllegalAction(f"unknown action type {kind!r}: one of {', '.join(ACTION_TYPES)}")
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.options.players:
        raise IllegalAction(f"no player {p!r} at this table")
    if s.over:
        if kind in ("call", "call-pool"):
            _reaction(action)  # a bad reaction is a bad request, over or not
            if events is not None:
                events.append(
                    Event(
                        "late-call",
                        {
                            "player": p,
                            "turn": action.get("turn"),
                            "current_turn": s.turn,
                            "why": "game over",
                        },
                    )
                )
            s.actions += 1
            return
        raise IllegalAction("the game is over")
    if kind == "turn":
        if not _can_turn(s):
            raise IllegalAction("no more turns: the kiosk bound is reached (close the window)")
        if s.out[p]:
            raise IllegalAction(f"player {p} is out of the game")
        if not s.options.speed and p != s.current:
            raise IllegalAction(f"it is player {s.current}'s turn, not player {p}'s")
        _do_turn(s, p, events)
    elif kind == "close":
        if s.window is None:
            raise IllegalAction("no call window is open")
        _settle(s, events)
    else:
        if s.options.forfeits:
            raise IllegalAction("the forfeits game has no calls: a match snaps by itself")
        if p not in s.options.humans:
            raise IllegalAction(f"player {p} is a computer seat: its calls are drawn by the game")
        if s.out[p]:
            raise IllegalAction(f"player {p} is out of the game")
        _human_call(s, action, events)
    s.actions += 1


def legal_actions(state: SnapState, player: int) -> list[dict[str, Any]]:
    """The actions ``player`` may send now (calls carry the current turn; add reaction_ms)."""
    s = state
    if s.over or s.out[player]:
        return []
    out: list[dict[str, Any]] = []
    if _can_turn(s) and (s.options.speed or player == s.current):
        out.append({"type": "turn", "player": player})
    w = s.window
    if w is not None:
        if player in s.options.humans and all(c[1] != player for c in w.calls):
            out.append({"type": "call", "player": player, "turn": w.turn})
            if s.pool or w.pool:
                out.append({"type": "call-pool", "player": player, "turn": w.turn})
        if not _can_turn(s):
            out.append({"type": "close", "player": player})
    return out


def to_move(state: SnapState) -> list[int]:
    """The seat whose turn (or closing of the last window) the game waits for; [] when over."""
    if state.over:
        return []
    if state.options.speed:
        return [_active(state)[0]]
    return [state.current]


def make_bot(level: str, seat: int, seed: int | str | None = None) -> snap_bots.SnapBot:
    """A computer seat that turns its cards (its calls are drawn by the engine)."""
    return snap_bots.SnapBot(level, seat)


def is_over(state: SnapState) -> bool:
    """Whether the game has ended."""
    return state.over


def result(state: SnapState) -> dict[str, Any]:
    """The winners, why the game ended, and each seat's cards (and counters)."""
    o = state.options
    return {
        "over": state.over,
        "winners": list(state.winners),
        "reason": state.reason,
        "turns": state.turn,
        "cards": [_held(state, p) for p in range(o.players)],
        "counters": list(state.counters) if o.forfeits else None,
        "snaps": state.snaps,
        "pools": state.pools,
        "penalties": state.penalties,
    }


def places(state: SnapState) -> dict[str, list[str]]:
    """Every card id in exactly one place, bottom first (empty places included)."""
    s = state
    out = {"stock": [], "aside": list(s.aside), "pool": list(s.pool)}
    if s.options.layout == "central":
        out["centre"] = list(s.centre)
    for p in range(s.options.players):
        out[f"down:{p}"] = list(s.down[p])
        if s.options.layout == "piles":
            out[f"up:{p}"] = list(s.up[p])
    return out


def public_state(state: SnapState) -> dict[str, Any]:
    """Turn counter, whose turn, counters, scores: everything public besides the cards."""
    s = state
    return {
        "turn": s.turn,
        "current": None if s.over else to_move(s)[0],
        "window_open": s.window is not None,
        "out": list(s.out),
        "counters": list(s.counters) if s.options.forfeits else None,
        "kitty": s.kitty if s.options.forfeits else None,
        "snaps": s.snaps,
        "pools": s.pools,
        "penalties": s.penalties,
        "over": s.over,
        "winners": list(s.winners),
    }


def _outcome(s: SnapState, player: int) -> list[dict[str, Any]]:
    """The last action's outcomes, trimmed of hidden cards, ready to be put into words."""
    hidden = {"moves", "card", "tops", "pool_top", "cards"}  # moved cards may now lie face down
    out = []
    for e in s.last:
        if e.type in ("shuffle", "deal"):
            continue
        data = {k: v for k, v in e.data.items() if k not in hidden}
        if e.type == "turn":
            data["card"] = _card_json(s.cards[e.data["card"]])
        data["type"] = e.type
        data["you"] = data.get("player") == player
        out.append(data)
    return out


def view(state: SnapState, player: int) -> dict[str, Any]:
    """What ``player`` may see: counts of face-down piles, face-up tops, pool, turn, outcome."""
    s = state
    o = s.options
    cards = s.cards
    seats = []
    for p in range(o.players):
        up = s.up[p]
        seats.append(
            {
                "seat": p,
                "you": p == player,
                "human": p in o.humans,
                "level": None if p in o.humans else o.seat_level(p),
                "down": len(s.down[p]),
                "up": len(up),
                "top": _card_json(cards[up[-1]]) if up else None,
                "counters": s.counters[p] if o.forfeits else None,
                "out": s.out[p],
            }
        )
    w = s.window
    actions = [a["type"] for a in legal_actions(s, player)] if 0 <= player < o.players else []
    return {
        "game": GAME,
        "variant": o.variant,
        "player": player,
        "players": seats,
        "centre": {
            "count": len(s.centre),
            "top": _card_json(cards[s.centre[-1]]) if s.centre else None,
            "below": _card_json(cards[s.centre[-2]]) if len(s.centre) > 1 else None,
        }
        if o.layout == "central"
        else None,
        "pool": {"count": len(s.pool), "top": _card_json(cards[s.pool[-1]]) if s.pool else None},
        "aside": len(s.aside),
        "turn": s.turn,
        "current": None if s.over else to_move(s)[0],
        "window": None if w is None else {"turn": w.turn, "called": [c[1] for c in w.calls]},
        "actions": actions,
        "kitty": s.kitty if o.forfeits else None,
        "snaps": s.snaps,
        "last": _outcome(s, player),
        "over": s.over,
        "result": result(s) if s.over else None,
    }


# --------------------------------------------------------------------------- checking


def _tops_match(places: dict[str, list[str]], cards: dict[str, dict], central: bool) -> bool:
    """Whether a snap match shows in ``places``."""
    if central:
        c = places.get("centre", [])
        return len(c) >= 2 and cards[c[-1]]["match"] == cards[c[-2]]["match"]
    keys = [cards[v[-1]]["match"] for k, v in places.items() if k.startswith("up:") and v]
    return len(set(keys)) < len(keys)


def _pool_matches(places: dict[str, list[str]], cards: dict[str, dict], central: bool) -> bool:
    pool = places.get("pool", [])
    if not pool:
        return False
    key = cards[pool[-1]]["match"]
    prefix = "centre" if central else "up:"
    return any(
        v and cards[v[-1]]["match"] == key for k, v in places.items() if k.startswith(prefix)
    )


def check_event(
    before: dict[str, list[str]],
    event: dict[str, Any],
    cards: dict[str, dict],
    options: dict[str, Any],
    memo: dict[str, Any],
) -> str | None:
    """Why a trace event breaks Snap's rules (None if it is legal): used by trace checking."""
    t = event["type"]
    central = options.get("layout") == "central"
    if memo.get("last") == "turn" and t not in ("turn", "turn-over"):
        memo["window"] = {k: list(v) for k, v in before.items()}  # the table calls were made on
    memo["last"] = t
    window = memo.get("window", before)
    moves = event.get("moves", [])
    if t == "turn":
        down = before.get(f"down:{event['player']}", [])
        if not down or down[-1] != event["card"]:
            return "the card turned is not the top of the player's face-down pile"
        if event["match"] != cards[event["card"]]["match"]:
            return "the match key is not the card's"
        memo["last"] = "turn"
    elif t in ("snap", "pool-formed"):
        if options.get("forfeits"):
            return "the forfeits game has no calls"
        if not _tops_match(window, cards, central):
            return "no two face-up top cards matched"
        if t == "pool-formed" and not options.get("pool"):
            return "a pool formed in a game without Snap Pool"
        for move in moves:
            pile = before.get(move["from"], [])
            want = pile[::-1] if t == "snap" else pile
            if move["cards"] != want or not pile:
                return f"{move['from']} was not taken whole"
            if cards[pile[-1]]["match"] not in event["matches"]:
                return f"{move['from']}'s top card does not show a match"
        tops = [cards[m["cards"][0 if t == "snap" else -1]]["match"] for m in moves]
        if not central and any(tops.count(k) < 2 for k in event["matches"]):
            return "a match key shows on fewer than two piles taken"
        if len(moves) < (1 if central else 2):
            return "a snap takes the matching piles"
    elif t == "pool-won":
        if not _pool_matches(window, cards, central):
            return "no face-up top matched the pool's top"
        pool = before.get("pool", [])
        if not moves or moves[0]["cards"] != pool[::-1]:
            return "the pool was not taken whole"
    elif t in ("penalty", "mistaken-call"):
        kind = event["call"]
        if kind == "snap" and _tops_match(window, cards, central):
            return "a call on a real match was penalised"
        if kind == "pool" and _pool_matches(window, cards, central):
            return "a Snap Pool call on a real pool match was penalised"
        rule = options.get("penalty", "none")
        if event["rule"] != rule:
            return f"penalty {event['rule']!r} in a game with penalty {rule!r}"
        p = event["player"]
        if rule == "card-each":
            if len(moves) > options["players"] - 1:
                return "more than one card to each other player"
            for move in moves:
                if move["from"] != f"down:{p}" or len(move["cards"]) != 1:
                    return "a card-each penalty moves one face-down card of the caller"
        elif rule in ("face-up-to-pool", "face-down-to-pool"):
            src = f"up:{p}" if rule == "face-up-to-pool" else f"down:{p}"
            for move in moves:
                if move["from"] != src or move["to"] != "pool":
                    return f"the penalty moves {src} to the pool"
                if sorted(move["cards"]) != sorted(before.get(src, [])):
                    return f"the penalty moves all of {src}"
        elif moves:
            return "a mistaken call without a penalty moved cards"
    elif t == "forfeit":
        if not options.get("forfeits"):
            return "a forfeit outside the forfeits game"
        a = before.get(f"up:{event['payer']}", [])
        b = before.get(f"up:{event['player']}", [])
        if not a or not b or [a[-1], b[-1]] != event["cards"]:
            return "the forfeit's cards are not the two players' tops"
        if cards[a[-1]]["match"] != cards[b[-1]]["match"]:
            return "the two cards do not match"
    return None
