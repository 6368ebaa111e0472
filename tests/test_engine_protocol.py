"""Every registered game against the engine protocol (kiosk.games.core.Engine).

In the spirit of OpenSpiel's API test: random legal play with a checker at every state, then
the record replayed; ``apply`` never changes its input; a player's view never shows another
player's hand; options survive JSON.
"""

from __future__ import annotations

import json
import pickle
import random
from types import ModuleType
from typing import Any

import pytest

from kiosk.games import registry
from kiosk.games.core import Hearer, missing_from

GAMES = registry.names()
RANDOM_GAMES = 60  # per game, spread over its variants
PICKLED_EVERY = 7  # a whole-state snapshot every few moves (the costliest check)


def engine(game: str) -> ModuleType:
    return registry.engine(game)


def card_places(places: dict[str, list[str]]) -> dict[str, str]:
    """Each card's place, failing if a card lies in two places."""
    where: dict[str, str] = {}
    for place, cards in places.items():
        for card in cards:
            assert card not in where, f"{card} is in both {where[card]} and {place}"
            where[card] = place
    return where


def card_lists(data: Any, found: list[frozenset[str]]) -> list[frozenset[str]]:
    """Every list of two or more strings inside a JSON-ready value, as a set."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(v for v in item.values() if isinstance(v, dict | list | tuple))
        elif isinstance(item, list | tuple):
            if len(item) >= 2 and all(isinstance(x, str) for x in item):
                found.append(frozenset(item))
            else:
                stack.extend(v for v in item if isinstance(v, dict | list | tuple))
    return found


def check_view_hides_other_hands(
    module: ModuleType, state: Any, places: dict, players: int
) -> None:
    """No list in a player's view holds exactly another player's hand (two cards or more)."""
    for seat in range(players):
        seen = module.view(state, seat)
        json.dumps(seen)  # JSON-ready
        hidden = {
            frozenset(cards)
            for place, cards in places.items()
            if place.startswith("hand:") and place != f"hand:{seat}" and len(cards) >= 2
        }
        shown = hidden.intersection(card_lists(seen, []))
        assert not shown, f"seat {seat} sees another player's hand: {sorted(shown)}"


def face(module: ModuleType, state: Any) -> str:
    """What the table shows, as text: places, public state, result, every seat's legal moves."""
    seats = module.to_move(state)
    return json.dumps(
        {
            "places": module.places(state),
            "public": module.public_state(state),
            "result": module.result(state),
            "legal": {s: module.legal_actions(state, s) for s in seats},
        },
        sort_keys=True,
    )


def random_game(module: ModuleType, seed: int) -> None:
    """Play one game at random, checking every state, then replay its record."""
    rng = random.Random(seed)
    variants = list(module.VARIANTS)
    variant = variants[seed % len(variants)]
    options = module.options_for(variant, **module.kiosk_bound())
    deck = module.default_deck()
    state, _ = module.new_game(deck, options, seed)
    cards = set(card_places(module.places(state)))
    assert len(cards) >= len(deck), "the deal lost cards"
    actions: list[dict[str, Any]] = []
    for moves in range(100_000):
        places = module.places(state)
        assert set(card_places(places)) == cards, "a card was lost or made"
        if moves % PICKLED_EVERY == 0:
            check_view_hides_other_hands(module, state, places, options.players)
        if module.is_over(state):
            assert module.to_move(state) == []
            break
        seats = module.to_move(state)
        assert seats, "the game is not over but waits for nobody"
        legal = {s: module.legal_actions(state, s) for s in seats}
        assert all(legal.values()), f"a seat the game waits for has no move: {legal}"
        seat = rng.choice(seats)
        action = rng.choice(legal[seat])
        before = face(module, state)
        snapshot = pickle.dumps(state) if moves % PICKLED_EVERY == 0 else None
        state_after, events = module.apply(state, action)
        assert face(module, state) == before, f"apply changed its input state ({action})"
        if snapshot is not None:
            assert pickle.dumps(state) == snapshot, f"apply changed its input state ({action})"
        assert all(isinstance(e.to_json(), dict) for e in events)
        actions.append(action)
        state = state_after
    else:  # pragma: no cover - a game that never ends
        pytest.fail(f"{module.GAME} seed {seed} did not end")
    again = module.replay(deck, options, seed, actions)
    for part in ("places", "public_state", "result"):
        assert getattr(module, part)(again) == getattr(module, part)(state), part


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_has_every_name_of_the_protocol(game: str) -> None:
    module = engine(game)
    assert missing_from(module) == []
    assert game == module.GAME
    assert module.LEVELS and module.VARIANTS
    assert set(module.ACTION_FIELDS) and all(
        isinstance(fields, tuple) for fields in module.ACTION_FIELDS.values()
    )


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_play_keeps_every_card_and_replays(game: str) -> None:
    module = engine(game)
    for seed in range(RANDOM_GAMES):
        random_game(module, seed)


@pytest.mark.parametrize("game", GAMES)
def test_options_round_trip_through_json(game: str) -> None:
    module = engine(game)
    for variant in module.VARIANTS:
        for extra in ({}, module.kiosk_bound()):
            options = module.options_for(variant, **extra)
            data = json.loads(json.dumps(options.to_json()))
            assert module.options_from_json(data) == options
            with pytest.raises(AttributeError):
                options.players = 99  # frozen
            level = getattr(options, module.LEVEL_OPTION)
            assert level in module.LEVELS


@pytest.mark.parametrize("game", GAMES)
def test_sentences_speak_to_an_onlooker(game: str) -> None:
    module = engine(game)
    options = module.options_for(next(iter(module.VARIANTS)))
    state, events = module.new_game(module.default_deck(), options, 1)
    for _ in range(40):
        if module.is_over(state):
            break
        seat = module.to_move(state)[0]
        state, more = module.apply(state, module.legal_actions(state, seat)[0])
        events.extend(more)
    onlooker = Hearer([f"Player {s + 1}" for s in range(options.players)])
    said = module.sentences(events, onlooker)
    assert said and all(isinstance(s, str) and s for s in said)
    assert not any(s.startswith("You ") for s in said), "an onlooker is nobody's 'you'"
