"""One game of Snap as data: the piles, the call window and the deal. ``apply`` works on a copy, so
a state handed to a caller is never changed again."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kiosk.games.cards import Card, stock_order
from kiosk.games.core import Event, OptionsError, copy_rng
from kiosk.games.snap.engine.bots import LEVEL_INFO, BotLevel
from kiosk.games.snap.engine.options import SnapOptions, check_options


def add_event(events: list[Event] | None, type_: str, data: dict[str, Any]) -> None:
    """One event, for a caller that keeps them (``replay`` passes None: it keeps none)."""
    if events is not None:
        events.append(Event(type_, data))


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

    def copy(self) -> Window:
        """The same window, to be changed apart from this one."""
        other = Window(self.turn, self.snap, self.pool)
        other.bot_calls, other.calls = self.bot_calls, self.calls
        return other

    def has_to_settle(self) -> bool:
        """Whether settling it does anything: a match shows, or somebody called."""
        return bool(self.snap or self.pool or self.bot_calls or self.calls)


class SnapState:
    """One game of Snap in progress (see the module docstring for who may change it)."""

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
    # what never changes after the deal, shared by copies
    SHARED = ("bots", "cards", "central", "false_slices", "false_total", "match", "options")
    SHARED += ("order", "seed")

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

    def copy(self) -> SnapState:
        """A state equal to this one that can be changed without changing this one."""
        s = SnapState()
        for name in self.SHARED:
            setattr(s, name, getattr(self, name))
        s.down = [list(pile) for pile in self.down]
        s.up = [list(pile) for pile in self.up]
        s.centre, s.pool, s.aside = list(self.centre), list(self.pool), list(self.aside)
        s.counters, s.out, s.winners = list(self.counters), list(self.out), list(self.winners)
        s.kitty, s.current, s.turn, s.chain = self.kitty, self.current, self.turn, self.chain
        s.last_turner, s.actions = self.last_turner, self.actions
        s.snaps, s.pools, s.penalties = self.snaps, self.pools, self.penalties
        s.over, s.reason, s.last = self.over, self.reason, self.last
        s.window = self.window.copy() if self.window is not None else None
        s.rng = copy_rng(self.rng)
        return s


def card_json(card: Card | None) -> dict[str, Any] | None:
    """A card as the views show it: id, name, match key and face."""
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


def _bot_seats(options: SnapOptions) -> tuple[tuple[int, BotLevel], ...]:
    """The computer seats and their levels, worked out once a game."""
    return tuple(
        (p, LEVEL_INFO[options.seat_level(p)])
        for p in range(options.players)
        if p not in options.humans
    )


def deal(
    deck: Sequence[Card], options: SnapOptions, seed: int | str, events: list[Event] | None
) -> SnapState:
    """Shuffle with the game's own RNG and deal, adding the deal's events unless None."""
    check_options(options)
    cards = expand_deck(deck, options.decks)
    s = SnapState()
    s.options = options
    s.seed = seed
    s.rng = random.Random(seed)
    s.cards = {c.id: c for c in cards}
    s.match = {c.id: c.match for c in cards}
    order = stock_order(cards, s.rng, options.shuffle)
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
    s.bots = _bot_seats(options)
    # at most one false call a turn: each computer seat owns a slice of [0, 1) as wide as
    # its false-call rate, so one draw decides who (if anyone) calls in error
    edge = 0.0
    slices = []
    for p, level in s.bots:
        edge += level.false_call
        slices.append((edge, p, level))
    s.false_slices = tuple(slices)
    s.false_total = edge
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
        box = [{"cards": list(order), "from": "box", "to": "stock", "at": "top"}]
        events.append(Event("shuffle", {"cards": len(order), "moves": box}))
        hands = [len(d) for d in s.down]
        events.append(Event("deal", {"hands": hands, "aside": len(s.aside), "moves": moves}))
    return s
