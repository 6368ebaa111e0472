"""Happy Families engine: random games checked at every step and replayed, and traces checked."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.games.core import Event, TraceContext, apply_moves
from kiosk.games.happy_families import engine as hf

from .json_strings import strings

# --------------------------------------------------------------------------- random games


def check_step(before: hf.State, action: dict, after: hf.State, events: list) -> None:
    """Every award legal: asks for a held family and a lacking card; answers truthful."""
    hand = before.places[f"hand:{action['player']}"]
    for e in events:
        d = e.data
        if e.type == "ask":
            fam = before.cards[d["card"]].family
            assert d["card"] not in hand
            assert any(before.cards[c].family == fam for c in hand)
            assert before.places[f"hand:{d['target']}"], "asked a player with cards"
        elif e.type == "give":
            assert d["card"] in before.places[f"hand:{d['player']}"]
        elif e.type == "refuse" and "card" in d:
            assert d["card"] not in before.places[f"hand:{d['player']}"]
        elif e.type == "trick":
            cards = d["moves"][0]["cards"]
            assert len(cards) == 4 and {after.cards[c].family for c in cards} == {d["family"]}
        elif e.type == "hand-over":
            assert d["family"] in hf.trick_families(before, d["player"])
        elif e.type == "refuse" and "family" in d:
            assert d["family"] not in hf.trick_families(before, d["player"])


def check_state(state: hf.State, followed: dict[str, list[str]]) -> None:
    """Cards conserved and never duplicated; events followed equal the places; views hide."""
    placed = [c for pile in state.places.values() for c in pile]
    assert sorted(placed) == sorted(state.cards)
    assert {k: v for k, v in followed.items() if v} == {
        k: v for k, v in hf.places(state).items() if v
    }
    for seat in range(state.players):
        v = hf.view(state, seat)
        assert v["hand"] == state.places[f"hand:{seat}"]
        hidden = set(state.places["stock"])
        for other in range(state.players):
            if other != seat:
                hidden |= set(state.places[f"hand:{other}"])
                if state.options.tricks_face_down:
                    hidden |= set(state.places[f"tricks:{other}"])
        shown = dict(v)
        shown.pop("deck")
        legal = shown.pop("legal")
        # asks and answers name cards aloud: public; nothing else may name a hidden card
        shown["log"] = [
            {
                k: x
                for k, x in e.items()
                if not (k == "card" and e["type"] in ("ask", "give", "refuse"))
            }
            for e in v["log"]
        ]
        assert strings(shown) & hidden == set()
        # what one may ask for does not depend on where the cards are
        per_target: dict[int, set[str]] = {}
        for a in legal:
            if a["type"] == "ask":
                per_target.setdefault(a["target"], set()).add(a["card"])
        assert len({frozenset(x) for x in per_target.values()}) <= 1


def play_random(
    seed: int,
    players: int,
    families: int,
    variant: str,
    face_down: bool,
    levels: list[str | None],
    chooser: random.Random,
):
    opts = hf.options_for(variant, players=players, tricks_face_down=face_down)
    deck = hf.generic_deck(families)
    state, events = hf.new_game(deck, opts, seed)
    followed = {"box": [c.id for c in deck]}
    apply_moves(followed, events)
    check_state(state, followed)
    bots = [hf.make_bot(lv, s, seed) if lv else None for s, lv in enumerate(levels)]
    steps = 0
    while not hf.is_over(state):
        (seat,) = hf.to_move(state)
        legal = hf.legal_actions(state, seat)
        assert legal, "the player to move always has a legal action"
        bot = bots[seat]
        action = bot.act(hf.view(state, seat)) if bot else chooser.choice(legal)
        after, new = hf.apply(state, action)
        check_step(state, action, after, new)
        apply_moves(followed, new)
        state = after
        steps += 1
        if steps % 7 == 0 or hf.is_over(state):
            check_state(state, followed)
        assert steps <= opts.max_asks + opts.max_claims
    return state, opts, deck


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 6),
    families=st.integers(2, 7),
    variant=st.sampled_from(list(hf.VARIANTS)),
    face_down=st.booleans(),
    levels=st.lists(st.sampled_from([None, "forgetful", "remembering"]), min_size=6, max_size=6),
    chooser=st.randoms(use_true_random=False),
)
def test_random_games_are_legal_end_and_replay(
    seed, players, families, variant, face_down, levels, chooser
):
    state, opts, deck = play_random(
        seed, players, families, variant, face_down, levels[:players], chooser
    )
    assert hf.is_over(state) and state.end
    res = hf.result(state)
    assert res["winners"] and all(res["scores"][w] == max(res["scores"]) for w in res["winners"])
    again = hf.replay(deck, opts, seed, state.record)
    assert again == state
    assert again.rng.getstate() == state.rng.getstate()


@pytest.mark.parametrize("seed", [0, 1, "museum"])
def test_same_seed_same_game_even_with_global_random_disturbed(seed):
    def run() -> hf.State:
        opts = hf.options_for("variation", players=4)
        state, _ = hf.new_game(hf.generic_deck(5), opts, seed)
        bots = [hf.make_bot(lv, s, seed) for s, lv in enumerate(["forgetful", "remembering"] * 2)]
        while not hf.is_over(state):
            random.random()
            (seat,) = hf.to_move(state)
            state, _ = hf.apply(state, bots[seat].act(hf.view(state, seat)))
        return state

    random.seed(1)
    first = run()
    random.seed(99)
    random.shuffle(list(range(50)))
    second = run()
    assert first == second and first.record == second.record


# --------------------------------------------------------------------------- trace checking


@pytest.mark.parametrize("variant", list(hf.VARIANTS))
def test_trace_of_a_game_checks_and_tampering_is_caught(variant):
    from kiosk.games import trace

    deck = hf.generic_deck(4)
    options = hf.options_for(variant, players=3)
    lines = list(trace.trace_game(hf, deck, options, 2, trace.bot_chooser(hf, 3, "remembering", 2)))
    assert trace.check_lines(lines, hf) == len(lines) - 1
    i = next(i for i, x in enumerate(lines) if x.get("event", {}).get("type") == "give")
    ask_line = lines[i - 1]
    assert ask_line["event"]["type"] == "ask"
    bad = list(lines)
    # turn the ask into an ask for a card the asker already holds
    own = ask_line["state"]["places"][f"hand:{ask_line['event']['player']}"][0]
    bad[i - 1] = {**ask_line, "event": {**ask_line["event"], "card": own}}
    with pytest.raises(trace.TraceError, match="already holds"):
        trace.check_lines(bad, hf)


@pytest.mark.parametrize(
    ("before", "event", "problem"),
    [
        (
            {"hand:0": ["A1"], "hand:1": ["B1"]},
            {"type": "ask", "player": 0, "target": 1, "card": "B2"},
            "does not hold",
        ),
        (
            {"hand:0": ["A1"], "hand:1": []},
            {"type": "ask", "player": 0, "target": 1, "card": "A2"},
            "holds no cards",
        ),
        (
            {"hand:1": ["A2"]},
            {"type": "refuse", "player": 1, "asker": 0, "card": "A2"},
            "while holding",
        ),
        ({"hand:1": ["A3"]}, {"type": "give", "player": 1, "to": 0, "card": "A2"}, "does not hold"),
        (
            {},
            {
                "type": "trick",
                "player": 0,
                "family": "Family A",
                "moves": [{"cards": ["A1", "A2", "A3", "B1"]}],
            },
            "one whole family",
        ),
    ],
)
def test_check_event_catches_illegal_awards(before, event, problem):
    cards = {c.id: c.header() for c in hf.generic_deck(2)}
    context = TraceContext(cards, hf.options_for(players=3).to_json())
    found = hf.check_event(context, before, Event(event["type"], event))
    assert found is not None and problem in found


def test_options_from_a_token_made_before_the_options_were_a_dataclass_still_read():
    old = {
        "players": 3,
        "variation": True,
        "tricks_face_down": True,
        "dealer": None,
        "shuffle": True,
        "max_asks": 400,
        "max_claims": 60,
        "names": ["You", "Dreamy Dora", "Dreamy Dan"],
    }
    options = hf.options_from_json(old)
    assert options == hf.options_for("variation", players=3, names=old["names"])
    assert {k: v for k, v in options.to_json().items() if k in old} == old
