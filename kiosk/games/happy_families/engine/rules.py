"""Happy Families' rules: the deal, asks and claims, the end (happy_families/rules.md)."""

from __future__ import annotations

import random
import sys
from typing import Any

from kiosk.games.cards import Card, stock_order
from kiosk.games.core import Event, IllegalAction, OptionsError, emit, move_cards, replay_events
from kiosk.games.happy_families.engine.deck import FAMILY_SIZE, check_deck, generic_deck
from kiosk.games.happy_families.engine.options import (
    GAME,
    FamiliesOptions,
    check_options,
    options_for,
)
from kiosk.games.happy_families.engine.state import (
    State,
    family_cards,
    hand_of,
    result,
    trick_counts,
    trick_families,
)
from kiosk.games.happy_families.engine.words import REFUSAL, ask_words, family_words

Action = dict[str, Any]


def _lay_complete(state: State, seat: int, out: list[Event], at_deal: bool) -> None:
    """Lay down every complete family in one hand (rules 3 and 5)."""
    hand = hand_of(state, seat)
    for fam in state.families:
        members = [c for c in hand if state.cards[c].family == fam]  # as they lie in hand
        if len(members) == FAMILY_SIZE:
            move = move_cards(state, members, f"hand:{seat}", f"tricks:{seat}")
            emit(state, out, "trick", player=seat, family=fam, at_deal=at_deal, moves=[move])


def _next_with_cards(state: State, seat: int) -> int | None:
    """The first player to the left of seat (seat itself last) who still holds cards."""
    for step in range(1, state.players + 1):
        s = (seat + step) % state.players
        if hand_of(state, s):
            return s
    return None


def _all_down(state: State) -> bool:
    return sum(trick_counts(state)) == len(state.families)


def new_game(
    deck: list[Card] | None, options: FamiliesOptions | None = None, seed: Any = 0
) -> tuple[State, list[Event]]:
    """Shuffle with the game's own RNG, deal singly, sort, lay down families complete at once."""
    opts = options_for("classic") if options is None else options
    check_options(opts)
    deck = generic_deck() if deck is None else list(deck)
    families = check_deck(deck)
    n = opts.players
    if len(deck) < n:
        raise OptionsError(f"{len(deck)} cards cannot be dealt to {n} players")
    rng = random.Random(f"{GAME}:{seed}")
    order = stock_order(deck, rng, opts.shuffle)
    dealer = opts.dealer if opts.dealer is not None else rng.randrange(n)
    places = {"box": [c.id for c in deck], "stock": []}
    for s in range(n):
        places[f"hand:{s}"] = []
        places[f"tricks:{s}"] = []
    state = State(
        cards={c.id: c for c in deck},
        families=families,
        options=opts,
        seed=seed,
        rng=rng,
        places=places,
        dealer=dealer,
        turn=(dealer + 1) % n,
        phase="ask",
    )
    out: list[Event] = []
    move = move_cards(state, order, "box", "stock")
    emit(state, out, "shuffle", shuffled=opts.shuffle, moves=[move])
    moves = []
    seat = dealer
    stock = state.places["stock"]  # the top of the stock is the end of the list
    while stock:
        seat = (seat + 1) % n
        moves.append(move_cards(state, [stock[-1]], "stock", f"hand:{seat}"))
    emit(state, out, "deal", dealer=dealer, moves=moves)
    rank = {cid: i for i, cid in enumerate(c.id for c in deck)}
    fam_rank = {f: i for i, f in enumerate(families)}
    sorts = []
    for s in range(n):
        hand = hand_of(state, s)
        ordered = sorted(hand, key=lambda c: (fam_rank[state.cards[c].family], rank[c]))
        sorts.append(move_cards(state, ordered, f"hand:{s}", f"hand:{s}"))
    emit(state, out, "sort", moves=sorts)
    for s in range(n):
        _lay_complete(state, s, out, at_deal=True)
    if _all_down(state):
        _finish_main(state, out)
    elif not hand_of(state, state.turn):
        _pass_on(state, out, state.turn)
    else:
        emit(state, out, "turn", player=state.turn)
    return state, out


def _pass_on(state: State, out: list[Event], seat: int) -> None:
    """Skip a player with no cards: the turn goes to the next on the left who holds some."""
    nxt = _next_with_cards(state, seat)
    assert nxt is not None, "cards remain, so someone holds them"
    emit(state, out, "pass", player=seat, to=nxt, reason="no cards left")
    state.turn = nxt
    emit(state, out, "turn", player=nxt)


def _leader(state: State) -> int:
    """Most tricks; on a tie the first such player from the dealer's left."""
    counts = trick_counts(state)
    best = max(counts)
    for step in range(1, state.players + 1):
        s = (state.dealer + step) % state.players
        if counts[s] == best:
            return s
    raise AssertionError("unreachable")


def _finish_main(state: State, out: list[Event]) -> None:
    """Every family is down: the game ends, or the variation begins."""
    counts = trick_counts(state)
    if state.options.variation and max(counts) < len(state.families):
        state.phase = "variation"
        state.turn = _leader(state)
        emit(state, out, "variation", player=state.turn, tricks=counts)
        emit(state, out, "turn", player=state.turn)
        return
    why = "one player holds every trick" if state.options.variation else "every family is down"
    _game_over(state, out, why)


def _game_over(state: State, out: list[Event], why: str) -> None:
    state.phase = "over"
    state.end = why
    res = result(state)
    emit(state, out, "game-over", reason=why, winners=res["winners"], scores=res["scores"])


def _at_bound(state: State, out: list[Event], what: str) -> bool:
    """Whether the kiosk's bound on ``what`` ("asks" or "claims") is reached: then the game ends."""
    limit = getattr(state.options, f"max_{what}")
    if getattr(state, what) < limit:
        return False
    emit(state, out, "bound", what=what, limit=limit, historic=False)
    _game_over(state, out, f"the kiosk's limit of {limit} {what} was reached")
    return True


def _refused(state: State, out: list[Event], target: int, what: str) -> None:
    """After a "no" the turn passes to the player who said it, unless the bound ends the game."""
    if not _at_bound(state, out, what):
        state.turn = target
        emit(state, out, "turn", player=target)


def _families_held(state: State, seat: int) -> list[str]:
    held = {state.cards[c].family for c in hand_of(state, seat)}
    return [f for f in state.families if f in held]


def legal_actions(state: State, player: int) -> list[Action]:
    """Every ask (or, in the variation, every claim) the player may make now."""
    if state.phase == "over" or player != state.turn:
        return []
    actions: list[Action] = []
    if state.phase == "ask":
        hand = set(hand_of(state, player))
        wanted = [
            c
            for fam in _families_held(state, player)
            for c in family_cards(state, fam)
            if c not in hand
        ]
        for target in range(state.players):
            if target == player or not hand_of(state, target):
                continue
            for cid in wanted:
                actions.append({"type": "ask", "player": player, "target": target, "card": cid})
        return actions
    mine = set(trick_families(state, player))
    for target in range(state.players):
        if target == player or not state.places[f"tricks:{target}"]:
            continue
        for fam in state.families:
            if fam not in mine:
                actions.append({"type": "claim", "player": player, "target": target, "family": fam})
    return actions


def _seat(state: State, value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.players:
        raise IllegalAction(f"{what} must be a seat from 0 to {state.players - 1}")
    return value


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Play one ask or claim; the state given is left untouched."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a mapping with a type")
    if state.phase == "over":
        raise IllegalAction("the game is over")
    player = _seat(state, action.get("player"), "player")
    if player != state.turn:
        raise IllegalAction(f"it is not your turn: the turn is player {state.turn + 1}'s")
    target = _seat(state, action.get("target"), "target")
    if target == player:
        raise IllegalAction("ask another player, not yourself")
    kind = action.get("type")
    s = state.clone()
    out: list[Event] = []
    if kind == "ask":
        if s.phase != "ask":
            raise IllegalAction("every family is down: now you ask for whole families")
        _ask(s, out, player, target, action.get("card"))
    elif kind == "claim":
        if s.phase != "variation":
            raise IllegalAction("whole families are asked for only in the variation, at the end")
        _claim(s, out, player, target, action.get("family"))
    else:
        raise IllegalAction(f"unknown action type {kind!r}: Happy Families has ask and claim")
    s.record.append(dict(action))
    return s, out


def _ask(s: State, out: list[Event], player: int, target: int, cid: Any) -> None:
    card = s.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise IllegalAction(f"there is no card {cid!r} in this pack")
    hand = hand_of(s, player)
    if cid in hand:
        raise IllegalAction(f"you already hold {card.name}")
    if card.family not in _families_held(s, player):
        raise IllegalAction(
            f"you may ask only for a card of a family you already hold: you hold no card of "
            f"{card.family}"
        )
    if not hand_of(s, target):
        raise IllegalAction(f"player {target + 1} has no cards left to ask for")
    s.asks += 1
    emit(
        s,
        out,
        "ask",
        player=player,
        target=target,
        card=cid,
        family=card.family,
        words=ask_words(card.name),
    )
    if cid in hand_of(s, target):
        move = move_cards(s, [cid], f"hand:{target}", f"hand:{player}")
        emit(s, out, "give", player=target, to=player, card=cid, moves=[move])
        _lay_complete(s, player, out, at_deal=False)
        if _all_down(s):
            _finish_main(s, out)
            return
        if _at_bound(s, out, "asks"):
            return
        if not hand:
            _pass_on(s, out, player)
        else:
            emit(s, out, "turn", player=player)
        return
    emit(s, out, "refuse", player=target, asker=player, card=cid, words=REFUSAL)
    _refused(s, out, target, "asks")


def _claim(s: State, out: list[Event], player: int, target: int, fam: Any) -> None:
    if fam not in s.families:
        raise IllegalAction(f"there is no family {fam!r} in this pack")
    if fam in trick_families(s, player):
        raise IllegalAction(f"you hold the {fam} trick yourself")
    if not s.places[f"tricks:{target}"]:
        raise IllegalAction(f"player {target + 1} has no tricks to ask for")
    s.claims += 1
    emit(
        s,
        out,
        "claim",
        player=player,
        target=target,
        family=fam,
        words=ask_words(family_words(fam)),
    )
    if fam in trick_families(s, target):
        move = move_cards(s, family_cards(s, fam), f"tricks:{target}", f"tricks:{player}")
        emit(s, out, "hand-over", player=target, to=player, family=fam, moves=[move])
        if trick_counts(s)[player] == len(s.families):
            _game_over(s, out, "one player holds every trick")
            return
        if _at_bound(s, out, "claims"):
            return
        emit(s, out, "turn", player=player)
        return
    emit(s, out, "refuse", player=target, asker=player, family=fam, words=REFUSAL)
    _refused(s, out, target, "claims")


def replay(
    deck: list[Card] | None, options: FamiliesOptions, seed: Any, actions: list[Action]
) -> State:
    """Rebuild a game from its record: the state the live game reached."""
    return replay_events(sys.modules[__name__], deck, options, seed, actions)[0]
