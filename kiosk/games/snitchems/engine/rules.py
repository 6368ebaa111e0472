"""Snitch'ems' rules: the deals, laying and capturing, the end (snitchems/rules.md)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.games.cards import Card, standard_deck, stock_order
from kiosk.games.core import (
    CardTable,
    Event,
    IllegalAction,
    emit,
    move_cards,
    replay_events,
)
from kiosk.games.snitchems.engine.captures import Capture, captures_for, rank_of
from kiosk.games.snitchems.engine.options import (
    GAME,
    HAND_SIZE,
    LAYOUT_SIZE,
    SnitchemsOptions,
    check_deck,
    check_options,
    options_for,
)
from kiosk.games.snitchems.engine.words import card_words, describe

Action = dict[str, Any]


@dataclass(kw_only=True)
class State(CardTable):
    """One moment of a game: where every card is, whose turn, the record so far."""

    options: SnitchemsOptions
    deals: int = 0
    last_capturer: int | None = None
    over: bool = False


def _deal(state: State, out: list[Event]) -> None:
    """Three each, singly, the non-dealer first; on the first deal four more to the table."""
    stock = state.places["stock"]
    first = 1 - state.dealer
    moves = []
    for i in range(2 * HAND_SIZE):
        if not stock:
            break
        seat = (first + i) % 2
        moves.append(move_cards(state, [stock[-1]], "stock", f"hand:{seat}"))
    if state.deals == 0:
        for _ in range(LAYOUT_SIZE):
            if stock:
                moves.append(move_cards(state, [stock[-1]], "stock", "table"))
    state.deals += 1
    emit(
        state,
        out,
        "deal",
        dealer=state.dealer,
        number=state.deals,
        moves=moves,
        layout=state.deals == 1,
    )


def new_game(
    deck: list[Card] | None, options: SnitchemsOptions | None = None, seed: Any = 0
) -> tuple[State, list[Event]]:
    """Shuffle with the game's RNG, choose the dealer, make the first deal and the layout."""
    opts = options_for("classic") if options is None else options
    check_options(opts)
    deck = standard_deck() if deck is None else list(deck)
    check_deck(deck)
    rng = random.Random(f"{GAME}:{seed}")
    order = stock_order(deck, rng, opts.shuffle)
    dealer = opts.dealer if opts.dealer is not None else rng.randrange(2)
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
    move = move_cards(state, order, "box", "stock")
    emit(state, out, "shuffle", shuffled=opts.shuffle, moves=[move])
    _deal(state, out)
    emit(state, out, "turn", player=state.turn)
    return state, out


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
                f"{describe(example, _name(state))}. A card may be laid only when no card in "
                "your hand can capture."
            )
        move = move_cards(s, [cid], f"hand:{player}", "table")
        emit(s, out, "play", player=player, card=cid, moves=[move])
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
                ways = "; ".join(describe(c, _name(state)) for c in options[:3])
                raise IllegalAction(
                    f"That is not a capture the {card.name} can make. It can: {ways}."
                )
            raise IllegalAction(f"The {card.name} can capture nothing on this table.")
        cap = chosen[0]
        move = move_cards(s, [cid], f"hand:{player}", "table")
        emit(s, out, "play", player=player, card=cid, moves=[move])
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
        move = move_cards(s, [*cap.take, cid], "table", f"captured:{player}")
        emit(s, out, "capture", **data, moves=[move])
        s.last_capturer = player
        if not s.places["table"]:
            emit(s, out, "sweep", player=player)
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
    values = [c.value for c in (card, *taken)]
    if None in values or sum(v or 0 for v in values) != int(kind.split("-")[1]):
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
    emit(s, out, "turn", player=s.turn)


def _finish(s: State, out: list[Event]) -> None:
    if s.places["table"] and s.last_capturer is not None:
        who = s.last_capturer
        move = move_cards(s, list(s.places["table"]), "table", f"captured:{who}")
        emit(s, out, "last-capture", player=who, take=move["cards"], moves=[move])
    s.over = True
    res = result(s)
    emit(s, out, "game-over", winners=res["winners"], scores=res["scores"])


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


def _name(state: State) -> Callable[[str], str]:
    """How the rules' refusals name a card: "the 6 of Hearts"."""
    return lambda cid: card_words(state.cards[cid])


def replay(
    deck: list[Card] | None, options: SnitchemsOptions, seed: Any, actions: list[Action]
) -> State:
    """Rebuild a game from its record: the state the live game reached."""
    return replay_events(sys.modules[__name__], deck, options, seed, actions)[0]
