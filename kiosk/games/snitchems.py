"""Snitch'ems, the two-player English fishing game of 1797: an event-sourced engine.

Seed: a modern description of the 1797 game. Decisions (``docs/rules/snitchems.md``):

* the dealer is drawn from the game's RNG (or fixed by ``dealer``); cards are dealt singly,
  the non-dealer first, three each; the first deal also lays four cards face up as a 2×2
  layout; later deals go to the players only; 4 + 8 × 6 = 52, so eight deals;
* one game is one hand: "the deal moves to the other player" is for the next game, which
  :func:`result` names as ``next_dealer``;
* the non-dealer starts and the players alternate, one card a turn;
* captures (one a turn, the player chooses which): **pairing** takes every table card of the
  played card's rank (option ``pairing_takes_all``); **making 8 or 10**: the played number
  card plus one or more table number cards adding up to 8 or 10 (option
  ``making_several``); **pairing 8s or 10s**: a made 8 or 10 together with the table's 8s
  or 10s (option ``pairing_made_takes_all``);
* a pair-royal (three or four of a kind) is a pairing capture of two or three table cards:
  it scores only its cards, and the capture event says ``"pair_royal": true``;
* capture is compulsory: a card may be laid only when no card in hand can capture;
* a sweep (the table emptied) is marked by a ``sweep`` event; the opponent then simply lays;
* at the end the last capturer takes what is left on the table; most cards wins, a tie is
  a draw.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import Event, IllegalAction, OptionsError, Variant, replay_events

GAME = "snitchems"
HAND_SIZE = 3
LAYOUT_SIZE = 4
TARGETS = (8, 10)
KINDS = ("pairing", "making-8", "making-10", "pairing-8", "pairing-10")

_SEED = "snitchems-rules.txt"
VARIANTS: dict[str, Variant] = {
    "classic": Variant(
        name="classic",
        title="Snitch'ems",
        description=(
            "Two players capture by pairing, by making 8s or 10s, or by pairing a made 8 or 10; "
            "most cards wins."
        ),
        source=(
            f'{_SEED}, The Capturing: "Capture by Pairing", "Capture by Making 8s or 10s", '
            '"Capture by Pairing 8s or 10s"; "You are obliged to capture if you can do so."'
        ),
        options={},
    ),
}
LEVELS: tuple[str, ...] = ("beginner", "careful")

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "dealer": None,
    "shuffle": True,  # False: deal the deck as given, its first card first (for scenarios)
    "pairing_takes_all": True,  # "a 6 in hand will capture any and all 6s on the layout"
    "making_several": True,  # "create a set of three with, for example, a 5 and a 2"
    "pairing_made_takes_all": True,  # same reading as pairing: the rank's cards go together
}

Options = dict[str, Any]
Action = dict[str, Any]


def options_for(variant: str = "classic", **overrides: Any) -> Options:
    """Options for a named variant with overrides, checked so a bad choice fails early."""
    if variant not in VARIANTS:
        raise OptionsError(f"unknown Snitch'ems variant {variant!r} (known: {', '.join(VARIANTS)})")
    unknown = sorted(set(overrides) - set(DEFAULTS))
    if unknown:
        raise OptionsError(f"unknown Snitch'ems option(s): {', '.join(unknown)}")
    opts = {**DEFAULTS, **VARIANTS[variant].options, **overrides}
    _check_options(opts)
    return opts


def _check_options(opts: Options) -> None:
    if opts["players"] != 2:
        raise OptionsError("Snitch'ems is a game for two players")
    for key in ("pairing_takes_all", "making_several", "pairing_made_takes_all", "shuffle"):
        if not isinstance(opts[key], bool):
            raise OptionsError(f"{key} must be true or false")
    dealer = opts["dealer"]
    if dealer is not None and dealer not in (0, 1):
        raise OptionsError("dealer must be seat 0 or 1")


def _check_deck(deck: list[Card]) -> None:
    ids = [c.id for c in deck]
    if len(set(ids)) != len(ids):
        raise OptionsError("every card in a Snitch'ems deck needs its own id")
    if len(deck) < LAYOUT_SIZE + 2 * HAND_SIZE:
        raise OptionsError("a Snitch'ems deck needs at least ten cards")
    for card in deck:
        if card.value is not None and not 1 <= card.value <= 10:
            raise OptionsError(f"card {card.id} has value {card.value}; number cards are 1-10")


def rank_of(card: Card) -> str:
    """What pairing compares: the rank, or the Snap match key for a deck without ranks."""
    return card.rank or card.match


# --------------------------------------------------------------------------- captures


@dataclass(frozen=True, slots=True)
class Capture:
    """One legal capture: the played card, the table cards it takes and why."""

    card: str
    kind: str
    take: tuple[str, ...]
    pair_royal: bool = False

    def action(self, player: int) -> Action:
        """The capture as an action dict, as legal_actions lists it."""
        return {
            "type": "capture",
            "player": player,
            "card": self.card,
            "kind": self.kind,
            "take": list(self.take),
        }


def _subsets(items: list[Card], want: int, several: bool) -> list[list[Card]]:
    """Every set of table number cards whose values add up to ``want``, in table order."""
    if not several:
        return [[c] for c in items if c.value == want]
    found: list[list[Card]] = []

    def walk(start: int, left: int, chosen: list[Card]) -> None:
        for i in range(start, len(items)):
            v = items[i].value
            assert v is not None
            if v == left:
                found.append([*chosen, items[i]])
            elif v < left:
                walk(i + 1, left - v, [*chosen, items[i]])

    walk(0, want, [])
    return found


def _nonempty_subsets(items: list[Card]) -> list[list[Card]]:
    out = []
    for mask in range(1, 1 << len(items)):
        out.append([c for i, c in enumerate(items) if mask >> i & 1])
    return out


def captures_for(card: Card, table: list[Card], opts: Options) -> list[Capture]:
    """Every capture the card can make from this table, pairing first, no two alike."""
    found: list[Capture] = []
    seen: set[frozenset[str]] = set()

    def add(kind: str, take: list[Card], pair_royal: bool = False) -> None:
        key = frozenset(c.id for c in take)
        if key in seen:
            return
        seen.add(key)
        order = {c.id: i for i, c in enumerate(table)}
        ids = tuple(sorted(key, key=order.__getitem__))
        found.append(Capture(card.id, kind, ids, pair_royal))

    same = [c for c in table if rank_of(c) == rank_of(card)]
    if same:
        groups = [same] if opts["pairing_takes_all"] else _nonempty_subsets(same)
        for group in groups:
            add("pairing", group, pair_royal=len(group) >= 2)
    if card.value is None:
        return found
    numbers = [c for c in table if c.value is not None]
    made: dict[int, list[list[Card]]] = {}
    for target in TARGETS:
        want = target - card.value
        made[target] = _subsets(numbers, want, opts["making_several"]) if want >= 1 else []
        for group in made[target]:
            add(f"making-{target}", group)
    for target in TARGETS:
        for group in made[target]:
            pairs = [c for c in numbers if c.value == target and c not in group]
            if not pairs:
                continue
            extra = [pairs] if opts["pairing_made_takes_all"] else _nonempty_subsets(pairs)
            for more in extra:
                add(f"pairing-{target}", group + more)
    return found


def describe(capture: Capture, cards: dict[str, Card]) -> str:
    """A capture in plain words: "the 6 of Hearts pairs the 6 of Clubs"."""
    played = cards[capture.card].name
    taken = _and([cards[c].name for c in capture.take])
    if capture.kind == "pairing":
        what = "a pair-royal with" if capture.pair_royal else "a pair with"
        return f"the {played} makes {what} the {taken}"
    target = capture.kind.split("-")[1]
    if capture.kind.startswith("making"):
        return f"the {played} makes {target} with the {taken}"
    return f"the {played} makes {target} and pairs it: it takes the {taken}"


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", the ".join(words[:-1]) + " and the " + words[-1]


# --------------------------------------------------------------------------- state


@dataclass
class State:
    """One moment of a game: where every card is, whose turn, the record so far."""

    cards: dict[str, Card]
    options: Options
    seed: Any
    rng: random.Random = field(compare=False, repr=False)
    places: dict[str, list[str]]
    dealer: int
    turn: int
    deals: int = 0
    last_capturer: int | None = None
    over: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    record: list[Action] = field(default_factory=list)

    def clone(self) -> State:
        """A copy safe to change; cards are shared."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            cards=self.cards,
            options=self.options,
            seed=self.seed,
            rng=rng,
            places={k: list(v) for k, v in self.places.items()},
            dealer=self.dealer,
            turn=self.turn,
            deals=self.deals,
            last_capturer=self.last_capturer,
            over=self.over,
            events=list(self.events),
            record=list(self.record),
        )


def _move(state: State, cards: list[str], src: str, dst: str) -> dict[str, Any]:
    pile = state.places[src]
    for card in cards:
        pile.remove(card)
    state.places[dst].extend(cards)
    return {"cards": list(cards), "from": src, "to": dst, "at": "top"}


def _emit(state: State, out: list[Event], type_: str, **data: Any) -> None:
    event = Event(type_, data)
    out.append(event)
    state.events.append(event.to_json())


def _deal(state: State, out: list[Event]) -> None:
    """Three each, singly, the non-dealer first; on the first deal four more to the table."""
    stock = state.places["stock"]
    first = 1 - state.dealer
    moves = []
    for i in range(2 * HAND_SIZE):
        if not stock:
            break
        seat = (first + i) % 2
        moves.append(_move(state, [stock[-1]], "stock", f"hand:{seat}"))
    if state.deals == 0:
        for _ in range(LAYOUT_SIZE):
            if stock:
                moves.append(_move(state, [stock[-1]], "stock", "table"))
    state.deals += 1
    _emit(
        state,
        out,
        "deal",
        dealer=state.dealer,
        number=state.deals,
        moves=moves,
        layout=state.deals == 1,
    )


def new_game(
    deck: list[Card] | None, options: Options | None = None, seed: Any = 0
) -> tuple[State, list[Event]]:
    """Shuffle with the game's RNG, choose the dealer, make the first deal and the layout."""
    opts = options_for("classic") if options is None else dict(options)
    _check_options(opts)
    deck = standard_deck() if deck is None else list(deck)
    _check_deck(deck)
    rng = random.Random(f"{GAME}:{seed}")
    order = [c.id for c in deck]
    if opts["shuffle"]:
        rng.shuffle(order)
    else:
        order.reverse()  # the stock's top is the end of the list: the first card comes first
    dealer = opts["dealer"] if opts["dealer"] is not None else rng.randrange(2)
    state = State(
        cards={c.id: c for c in deck},
        options=opts,
        seed=seed,
        rng=rng,
        places={
            "box": [c.id for c in deck],
            "stock": [],  # the top of the stock is the end of the list
            "hand:0": [],
            "hand:1": [],
            "table": [],
            "captured:0": [],
            "captured:1": [],
        },
        dealer=dealer,
        turn=1 - dealer,
    )
    out: list[Event] = []
    move = _move(state, order, "box", "stock")
    _emit(state, out, "shuffle", shuffled=opts["shuffle"], moves=[move])
    _deal(state, out)
    _emit(state, out, "turn", player=state.turn)
    return state, out


# --------------------------------------------------------------------------- the rules


def _table(state: State) -> list[Card]:
    return [state.cards[c] for c in state.places["table"]]


def all_captures(state: State, player: int) -> list[Capture]:
    """Every capture any card in the player's hand can make, hand order then table order."""
    table = _table(state)
    out: list[Capture] = []
    for cid in state.places[f"hand:{player}"]:
        out.extend(captures_for(state.cards[cid], table, state.options))
    return out


def to_move(state: State) -> list[int]:
    """The seat the game waits for, or [] when it is over."""
    return [] if state.over else [state.turn]


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.over


def legal_actions(state: State, player: int) -> list[Action]:
    """Every capture the player may make; only when there is none, every card they may lay."""
    if state.over or player != state.turn:
        return []
    caps = all_captures(state, player)
    if caps:
        return [c.action(player) for c in caps]
    return [{"type": "play", "player": player, "card": c} for c in state.places[f"hand:{player}"]]


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Lay or capture with one card; the state given is left untouched."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a mapping with a type")
    if state.over:
        raise IllegalAction("the game is over")
    player = action.get("player")
    if player not in (0, 1) or isinstance(player, bool):
        raise IllegalAction("player must be seat 0 or 1")
    if player != state.turn:
        raise IllegalAction("it is not your turn")
    cid = action.get("card")
    hand = state.places[f"hand:{player}"]
    if not isinstance(cid, str) or cid not in hand:
        raise IllegalAction(f"{cid!r} is not a card in your hand")
    card = state.cards[cid]
    kind = action.get("type")
    s = state.clone()
    out: list[Event] = []
    if kind == "play":
        caps = all_captures(state, player)
        if caps:
            own = [c for c in caps if c.card == cid]
            example = (own or caps)[0]
            raise IllegalAction(
                "You must capture when you can, and you can: "
                f"{describe(example, state.cards)}. A card may be laid only when no card in "
                "your hand can capture."
            )
        move = _move(s, [cid], f"hand:{player}", "table")
        _emit(s, out, "play", player=player, card=cid, moves=[move])
    elif kind == "capture":
        take = action.get("take")
        if not isinstance(take, list) or not all(isinstance(t, str) for t in take):
            raise IllegalAction("a capture names the table cards it takes")
        wanted = frozenset(take)
        options = captures_for(card, _table(state), state.options)
        chosen = [c for c in options if frozenset(c.take) == wanted]
        if action.get("kind") is not None:
            chosen = [c for c in chosen if c.kind == action["kind"]] or _same_cards_other_kind(
                card, wanted, action["kind"], state
            )
        if not chosen or len(take) != len(wanted):
            if options:
                ways = "; ".join(describe(c, state.cards) for c in options[:3])
                raise IllegalAction(
                    f"That is not a capture the {card.name} can make. It can: {ways}."
                )
            raise IllegalAction(f"The {card.name} can capture nothing on this table.")
        cap = chosen[0]
        move = _move(s, [cid], f"hand:{player}", "table")
        _emit(s, out, "play", player=player, card=cid, moves=[move])
        taken = [s.cards[c] for c in cap.take]
        data: dict[str, Any] = {
            "player": player,
            "kind": cap.kind,
            "card": cid,
            "take": list(cap.take),
            "pair_royal": cap.pair_royal,
        }
        if cap.kind == "pairing":
            data["rank"] = rank_of(card)
        else:
            target = int(cap.kind.split("-")[1])
            made = [c for c in taken if not (cap.kind.startswith("pairing") and c.value == target)]
            data["made"] = [cid, *(c.id for c in made)]
            data["sum"] = card.value + sum(c.value or 0 for c in made)
            if cap.kind.startswith("pairing"):
                data["paired"] = [c.id for c in taken if c not in made]
        move = _move(s, [*cap.take, cid], "table", f"captured:{player}")
        _emit(s, out, "capture", **data, moves=[move])
        s.last_capturer = player
        if not s.places["table"]:
            _emit(s, out, "sweep", player=player)
    else:
        raise IllegalAction(f"unknown action type {kind!r}: Snitch'ems has play and capture")
    s.record.append(dict(action))
    _advance(s, out, player)
    return s, out


def _same_cards_other_kind(
    card: Card, wanted: frozenset[str], kind: Any, state: State
) -> list[Capture]:
    """A making capture listed as a pairing: a 4 on a 4 also makes 8, a 5 on a 5 makes 10."""
    if kind not in ("making-8", "making-10"):
        return []  # only "4 on a 4" is listed once (as pairing) and also makes 8
    table = {c.id: c for c in _table(state)}
    if not wanted <= set(table):
        return []
    taken = [table[c] for c in wanted]
    if card.value is not None:
        ok = all(c.value is not None for c in taken) and card.value + sum(
            c.value or 0 for c in taken
        ) == int(kind.split("-")[1])
    else:
        ok = False
    if not ok:
        return []
    same = captures_for(card, list(table.values()), state.options)
    return [
        Capture(card.id, kind, c.take, c.pair_royal) for c in same if frozenset(c.take) == wanted
    ]


def _advance(s: State, out: list[Event], player: int) -> None:
    """Next turn; a new deal when both hands are empty; the end when the stock is gone too."""
    other = 1 - player
    if s.places[f"hand:{other}"]:
        s.turn = other
    elif s.places[f"hand:{player}"]:
        s.turn = player
    elif s.places["stock"]:
        _deal(s, out)
        s.turn = 1 - s.dealer
        if not s.places[f"hand:{s.turn}"]:
            s.turn = s.dealer
    else:
        _finish(s, out)
        return
    _emit(s, out, "turn", player=s.turn)


def _finish(s: State, out: list[Event]) -> None:
    if s.places["table"] and s.last_capturer is not None:
        who = s.last_capturer
        move = _move(s, list(s.places["table"]), "table", f"captured:{who}")
        _emit(s, out, "last-capture", player=who, take=move["cards"], moves=[move])
    s.over = True
    res = result(s)
    _emit(s, out, "game-over", winners=res["winners"], scores=res["scores"])


# --------------------------------------------------------------------------- faces


def places(state: State) -> dict[str, list[str]]:
    """Every card id in exactly one place, bottom first (the stock's top is its end)."""
    return {k: list(v) for k, v in state.places.items()}


def result(state: State) -> dict[str, Any]:
    """Cards captured per seat; most cards wins, a tie is a draw (both seats listed)."""
    scores = [len(state.places["captured:0"]), len(state.places["captured:1"])]
    best = max(scores)
    return {
        "over": state.over,
        "scores": scores,
        "winners": [s for s in (0, 1) if scores[s] == best] if state.over else [],
        "next_dealer": 1 - state.dealer,
        "reason": "every card has been played" if state.over else None,
    }


def public_state(state: State) -> dict[str, Any]:
    """What anyone at the table knows: counts, turn, deal number, scores."""
    return {
        "dealer": state.dealer,
        "current": None if state.over else state.turn,
        "deal": state.deals,
        "deals": state.deals + -(-len(state.places["stock"]) // (2 * HAND_SIZE)),
        "stock": len(state.places["stock"]),
        "hand_counts": [len(state.places["hand:0"]), len(state.places["hand:1"])],
        "scores": [len(state.places["captured:0"]), len(state.places["captured:1"])],
        "last_capturer": state.last_capturer,
        "over": state.over,
    }


def _redact(event: dict[str, Any], player: int) -> dict[str, Any]:
    """An event as one player saw it: the other hand's cards are dealt face down."""
    if event["type"] != "deal":
        return {k: v for k, v in event.items() if k != "moves"}
    mine = f"hand:{player}"
    counts = [0, 0]
    own: list[str] = []
    table: list[str] = []
    for move in event["moves"]:
        if move["to"] == "table":
            table.extend(move["cards"])
        else:
            counts[int(move["to"].split(":")[1])] += len(move["cards"])
            if move["to"] == mine:
                own.extend(move["cards"])
    return {
        "type": "deal",
        "dealer": event["dealer"],
        "number": event["number"],
        "counts": counts,
        "mine": own,
        "table": table,
    }


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: own hand, the table, every captured card (all were shown)."""
    return {
        "game": GAME,
        "me": player,
        "deck": [
            {"id": c.id, "name": c.name, "rank": rank_of(c), "value": c.value}
            for c in state.cards.values()
        ],
        "options": {k: v for k, v in state.options.items() if k != "dealer"},
        "hand": list(state.places[f"hand:{player}"]),
        "table": list(state.places["table"]),
        "captured": [list(state.places["captured:0"]), list(state.places["captured:1"])],
        "log": [_redact(e, player) for e in state.events],
        "legal": legal_actions(state, player),
        **public_state(state),
    }


def replay(
    deck: list[Card] | None, options: Options, seed: Any, actions: list[Action]
) -> tuple[State, list[Event]]:
    """Rebuild a game from its record: the same state the live game reached."""
    return replay_events(sys.modules[__name__], deck, options, seed, actions)


def make_bot(level: str, seat: int, seed: Any = 0) -> Any:
    """A computer player at a level from LEVELS."""
    from kiosk.games.snitchems_bots import make_bot as _make

    return _make(level, seat, seed)


# --------------------------------------------------------------------------- trace checking


def _header_card(entry: dict[str, Any]) -> Card:
    return Card(id=entry["id"], name=entry["name"], match=entry["match"], value=entry["value"])


def _could_capture(hand: list[Card], table: list[Card], several: bool) -> bool:
    """Brute force, independent of :func:`captures_for`: can any card in hand capture?"""
    from itertools import combinations

    numbers = [c for c in table if c.value is not None]
    for card in hand:
        if any(c.match == card.match for c in table):
            return True
        if card.value is None:
            continue
        for k in range(1, (len(numbers) if several else 1) + 1):
            for combo in combinations(numbers, k):
                if card.value + sum(c.value or 0 for c in combo) in TARGETS:
                    return True
    return False


def check_event(
    before: dict[str, list[str]],
    event: dict[str, Any],
    cards: dict[str, dict[str, Any]],
    options: dict[str, Any],
    memo: dict[str, Any],
) -> str | None:
    """For trace checkers: what is wrong with one event given the places before it, or None."""
    kind = event["type"]
    pending = memo.pop("play", None)
    if kind == "play":
        memo["play"] = (before, event)
        return None
    if kind == "capture":
        if pending is None or pending[1]["card"] != event["card"]:
            return "a capture must follow the play of its card"
        return _check_capture_event(before, event, cards, options)
    if pending is not None:
        old, play = pending
        hand = [_header_card(cards[c]) for c in old[f"hand:{play['player']}"]]
        table = [_header_card(cards[c]) for c in old.get("table", [])]
        if _could_capture(hand, table, options.get("making_several", True)):
            return f"player {play['player']} laid {play['card']} when a capture was compulsory"
    if kind == "last-capture" and sorted(event["take"]) != sorted(before.get("table", [])):
        return "the last capturer takes every card left on the table"
    return None


def _check_capture_event(
    before: dict[str, list[str]],
    event: dict[str, Any],
    cards: dict[str, dict[str, Any]],
    options: dict[str, Any],
) -> str | None:
    table_ids = [c for c in before.get("table", []) if c != event["card"]]
    if not set(event["take"]) <= set(table_ids) or not event["take"]:
        return "a capture takes one or more cards from the table"
    played = _header_card(cards[event["card"]])
    taken = [_header_card(cards[c]) for c in event["take"]]
    table = [_header_card(cards[c]) for c in table_ids]
    if event["kind"] == "pairing":
        if any(c.match != played.match for c in taken):
            return "pairing takes only cards of the played card's rank"
        if options.get("pairing_takes_all", True) and len(taken) != sum(
            c.match == played.match for c in table
        ):
            return "pairing takes every table card of the rank"
        return None
    if event["kind"] not in KINDS:
        return f"unknown capture kind {event['kind']!r}"
    target = int(event["kind"].split("-")[1])
    made = [_header_card(cards[c]) for c in event["made"][1:]]
    if any(c.value is None for c in [played, *made]):
        return "court cards cannot make 8 or 10"
    if played.value + sum(c.value or 0 for c in made) != target:
        return f"the made cards do not add up to {target}"
    if not options.get("making_several", True) and len(made) != 1:
        return "making 8 or 10 uses one table card in this game"
    if event["kind"].startswith("making"):
        return None if {c.id for c in made} == set(event["take"]) else "takes more than made"
    paired = [c for c in taken if c.id not in {m.id for m in made}]
    if not paired or any(c.value != target for c in paired):
        return f"pairing {target}s pairs the made {target} with table {target}s"
    if options.get("pairing_made_takes_all", True) and len(paired) != sum(
        c.value == target for c in table if c.id not in {m.id for m in made}
    ):
        return f"pairing {target}s takes every {target} on the table"
    return None
