"""The shared engine protocol: events, apply_moves, errors, variants."""

from __future__ import annotations

import pytest

from kiosk.games.core import (
    Event,
    GameError,
    Hearer,
    IllegalAction,
    OptionsError,
    Phrasebook,
    Variant,
    apply_moves,
    variants_by_name,
)


def test_apply_moves_follows_top_and_bottom_moves_in_order() -> None:
    places = {"stock": ["a", "b", "c"], "down:0": ["x"]}
    apply_moves(
        places,
        [
            Event("deal", {"moves": [{"cards": ["c"], "from": "stock", "to": "down:0"}]}),
            Event(
                "give",
                {"moves": [{"cards": ["a", "b"], "from": "stock", "to": "down:0", "at": "bottom"}]},
            ),
        ],
    )
    assert places == {"stock": [], "down:0": ["a", "b", "x", "c"]}


def test_apply_moves_refuses_a_card_that_is_not_there() -> None:
    with pytest.raises(GameError, match="turn: q is not in down:0"):
        apply_moves(
            {"down:0": ["a"]},
            [Event("turn", {"moves": [{"cards": ["q"], "from": "down:0", "to": "up:0"}]})],
        )


def test_event_json_puts_the_type_first() -> None:
    assert Event("snap", {"player": 1}).to_json() == {"type": "snap", "player": 1}


@pytest.mark.parametrize("error", [OptionsError, IllegalAction])
def test_engine_errors_are_game_errors_and_value_errors(error) -> None:
    assert issubclass(error, GameError) and issubclass(error, ValueError)


def test_variants_are_frozen_and_historic_by_default() -> None:
    v = Variant("x", "seed.txt")
    assert v.historic and v.options == {}
    with pytest.raises(AttributeError):
        v.name = "y"  # type: ignore[misc]


def test_variants_are_keyed_by_their_own_names_in_order_and_a_name_is_not_shared() -> None:
    classic, pool = Variant("classic", "a.txt"), Variant("pool", "b.txt")
    assert list(variants_by_name(classic, pool).items()) == [("classic", classic), ("pool", pool)]
    with pytest.raises(ValueError, match="share a name"):
        variants_by_name(classic, Variant("classic", "c.txt"))


def test_a_phrasebook_says_each_event_with_its_phrase_and_skips_the_unsaid() -> None:
    phrases = Phrasebook()

    @phrases.says("ask", "claim")
    def _ask(e: Event, h: Hearer) -> str:
        return f"{h.does(e.data['player'], 'ask', 'asks')} for {e.data['card']}."

    hearer = Hearer(["Ann", "Bob"], me=0)
    events = [
        Event("ask", {"player": 1, "card": "A1"}),
        Event("shuffle"),
        Event("claim", {"player": 0, "card": "B"}),
    ]
    assert phrases.words(events[1], hearer) == ""
    assert phrases.sentences(events, hearer) == ["Bob asks for A1.", "You ask for B."]
    with pytest.raises(ValueError, match="two phrases for 'claim' events"):
        phrases.says("claim")(_ask)
