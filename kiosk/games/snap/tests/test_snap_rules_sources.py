"""Snap plays what its sources say (issue 13): going out, ties, penalties, the player limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from game_files import shipped_variants

from kiosk.games import registry, simulate
from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction, OptionsError
from kiosk.games.snap import engine as snap

from .snap_table import follow

DOCS = Path(__file__).resolve().parents[4] / "docs"
RULES = Path(__file__).resolve().parents[1] / "rules.md"
TO_POOL = ("face-up-to-pool", "face-down-to-pool")
CALLED = [name for name, v in snap.VARIANTS.items() if not v.options.get("forfeits")]
ON_PILES = [name for name in CALLED if snap.VARIANTS[name].options.get("layout") != "central"]


def deck_for(*piles: str) -> list[Card]:
    """An unshuffled deck that gives seat p the cards of ``piles[p]``, first turned first."""
    seats = [pile.split() for pile in piles]
    deck = []
    for j in range(max(len(s) for s in seats)):  # deal round j: the last turned are dealt first
        for p, pile in enumerate(seats):
            t = len(pile) - 1 - j
            if t >= 0:
                deck.append(Card(id=f"p{p}c{t}", name=f"card {pile[t]}", match=pile[t]))
    return deck


def table(variant: str, *piles: str, **options) -> snap.SnapState:
    """A game of people only (every seat calls by hand), dealt exactly as ``piles`` say."""
    humans = tuple(range(len(piles)))
    opts = snap.options_for(variant, players=len(piles), shuffle=False, humans=humans, **options)
    return snap.new_game(deck_for(*piles), opts, seed=1)[0]


def turn(state: snap.SnapState) -> list[Event]:
    """Whoever is to move turns (in Speed Snap, everyone at once)."""
    return follow(state, {"type": "turn", "player": snap.to_move(state)[0]})


def call(state: snap.SnapState, player: int, ms: float, kind: str = "call") -> list[Event]:
    """A person's call on the current turn."""
    action = {"type": kind, "player": player, "turn": state.turn, "reaction_ms": ms}
    return follow(state, action)


def close(state: snap.SnapState) -> list[Event]:
    """Settle the open window without more calls."""
    return follow(state, {"type": "close", "player": snap.to_move(state)[0]})


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


# ------------------------------------------------------------------- out at once (rule 6)


def test_easy_snap_a_player_who_plays_their_last_card_is_out_at_once() -> None:
    state = table("easy", "A B", "C D", "C")  # seat 2 holds one card
    turn(state), turn(state)
    events = turn(state)  # seat 2 plays its last card, a C on a C
    assert types(events) == ["turn", "out"] and events[1].data["player"] == 2
    assert state.out[2] and state.window.snap
    with pytest.raises(IllegalAction, match="out of the game"):
        call(state, 2, 150.0)  # out, so no call, however quick
    call(state, 0, 400.0), call(state, 1, 500.0)
    assert len(state.down[0]) == 4 and not state.centre  # its own B and the centre's three


def test_easy_snap_an_empty_handed_player_cannot_win_the_centre() -> None:
    state = table("easy", "A B", "A")
    turn(state)
    events = turn(state)  # seat 1's last card matches: seat 1 is out, the game is over
    assert types(events)[-3:] == ["out", "collect", "game-over"]
    assert state.winners == [0] and snap.result(state)["cards"] == [3, 0]
    late = call(state, 1, 120.0)
    assert types(late) == ["late-call"] and late[0].data["why"] == "game over"


@pytest.mark.parametrize("variant", ON_PILES)
def test_a_player_whose_last_cards_are_won_is_out_in_the_same_action(variant: str) -> None:
    state = table(variant, "A B", "C D", "A")  # seats 0 and 2 show an A; seat 2 has no more
    for _ in range(1 if state.options.speed else 3):
        turn(state)
    events = call(state, 0, 300.0) + call(state, 1, 900.0) + close(state)
    assert "snap" in types(events)
    out = [e for e in events if e.type == "out"]
    assert [e.data["player"] for e in out] == [2] and state.out[2]


def test_forfeits_a_player_is_out_the_moment_their_counters_are_gone() -> None:
    state = table("forfeits", "A B", "A C", counters=1)
    turn(state)
    events = turn(state)
    assert types(events)[-3:] == ["forfeit", "out", "game-over"]
    assert state.winners == [1] and state.reason == "last-with-counters"


# ------------------------------------------------------------------- everyone out at once


def test_the_last_two_calling_together_into_the_pool_share_the_win() -> None:
    state = table("snap-pool", "A", "A")
    turn(state), turn(state)
    events = call(state, 0, 500.0) + call(state, 1, 520.0)
    assert types(events)[-4:] == ["pool-formed", "out", "out", "game-over"]
    assert state.over and state.winners == [0, 1] and state.reason == "out-together"
    assert snap.result(state)["cards"] == [0, 0] and len(state.pool) == 2


def test_the_last_two_both_paying_their_last_cards_share_the_win() -> None:
    state = table("woolworths", "A", "B")
    turn(state), turn(state)
    events = call(state, 0, 500.0) + call(state, 1, 700.0)  # no match: both in error
    assert types(events)[-4:] == ["penalty", "out", "out", "game-over"]
    assert state.winners == [0, 1] and state.reason == "out-together"


# ------------------------------------------------------------------- ties without a pool


def test_without_a_pool_the_quicker_of_two_tied_calls_wins() -> None:
    state = table("classic", "A B", "A C")
    turn(state), turn(state)
    events = call(state, 1, 500.0) + call(state, 0, 530.0)  # 30 ms apart: "together"
    won = next(e for e in events if e.type == "snap")
    assert won.data["player"] == 1 and won.data["tie"] and not won.data["tie_broken_by_lot"]
    assert not state.pool


def test_without_a_pool_an_exactly_equal_call_is_settled_by_lot() -> None:
    state = table("speed", "A B", "A C")
    turn(state)
    events = call(state, 0, 500.0) + call(state, 1, 500.0)
    won = next(e for e in events if e.type == "snap")
    assert won.data["tie_broken_by_lot"] and won.data["player"] in (0, 1)


# ------------------------------------------------------------------- penalties


# The seeds' words for each penalty: a variant's source must quote the one it plays.
PENALTY_SEED_WORDS = {
    "card-each": "one card to each of the others|one card from his face down pile to each",
    "face-up-to-pool": "upturned cards in the pool|face-up cards into the pool",
    "face-down-to-pool": "face down pile is put into the central pool",
}
# No penalty only where a source or a child-friendly reason says so (kiosk/games/snap/rules.md).
FORGIVING = {"snap-pool": '"often penalised"', "easy": "very young children"}


@pytest.mark.parametrize("variant", CALLED)
def test_every_variant_with_calls_penalises_as_its_source_does(variant: str) -> None:
    v = snap.VARIANTS[variant]
    penalty = snap.options_for(variant).penalty
    if penalty == "none":
        assert FORGIVING[variant] in v.source
    else:
        assert re.search(PENALTY_SEED_WORDS[penalty], v.source), (variant, penalty)


def test_the_default_variants_penalise_a_wrong_call() -> None:
    assert snap.SnapOptions().penalty == snap.options_for("classic").penalty == "card-each"
    assert snap.options_for("woolworths").penalty == "face-up-to-pool"


@pytest.mark.parametrize("variant", ["classic", "speed"])
def test_a_wrong_call_costs_a_card_to_each_other_player(variant: str) -> None:
    state = table(variant, "A B C", "D E F", "G H I")
    turn(state)
    events = call(state, 0, 600.0) + close(state)
    paid = next(e for e in events if e.type == "penalty")
    assert paid.data["rule"] == "card-each" and paid.data["paid"] == 2


def test_the_forgiving_variants_only_record_a_wrong_call() -> None:
    state = table("easy", "A B", "C D")
    turn(state), turn(state)
    events = call(state, 0, 600.0) + call(state, 1, 700.0)
    assert types(events)[-2:] == ["mistaken-call", "mistaken-call"]


# ------------------------------------------------------------------- players


def test_up_to_the_kiosk_limit_of_players() -> None:
    assert snap.options_for("classic", players=snap.MAX_PLAYERS).players == 8
    with pytest.raises(OptionsError, match="at most 8 players"):
        snap.options_for("classic", players=snap.MAX_PLAYERS + 1)
    assert f"{snap.MAX_PLAYERS} players" in RULES.read_text()


# ------------------------------------------------------------------- words agree with rules


def claims(description: str) -> dict[str, bool]:
    """What a one-line description says about the rules."""
    text = description.lower()
    return {
        "pool": "pool" in text,
        "central": "central pile" in text,
        "speed": "same moment" in text,
        "forfeits": "counter" in text,
    }


def rules(options: snap.SnapOptions) -> dict[str, bool]:
    """What the same options make the engine do."""
    return {
        "pool": options.pool or options.penalty in TO_POOL,
        "central": options.layout == "central",
        "speed": options.speed,
        "forfeits": options.forfeits,
    }


@pytest.mark.parametrize("variant", list(snap.VARIANTS))
def test_every_description_agrees_with_the_engines_options(variant: str) -> None:
    description = shipped_variants("snap")[variant].description  # the curators' words
    options = snap.options_for(variant)
    assert claims(description) == rules(options)
    if options.forfeits:  # counters are given up to nobody (docs: a kitty), never paid to you
        assert "give up" in description and not re.search(r"pay(s)? you", description)
    else:
        assert description.endswith(snap.MISTAKE_WORDS[options.penalty])


def doc_table() -> dict[str, dict[str, str]]:
    """kiosk/games/snap/rules.md's variants table: name -> {pool, penalty}."""
    rows = {}
    for line in RULES.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0].strip("`") in snap.VARIANTS:
            rows[cells[0].strip("`")] = {"pool": cells[1], "penalty": cells[2].strip("`")}
    return rows


def test_the_rules_doc_lists_every_variants_pool_and_penalty() -> None:
    rows = doc_table()
    assert set(rows) == set(snap.VARIANTS)
    for name, row in rows.items():
        options = snap.options_for(name)
        assert row == {"pool": "yes" if options.pool else "no", "penalty": options.penalty}


# ------------------------------------------------------------------- the trace format


def trace_section(game: str) -> str:
    """The part of docs/trace.md about one game's events."""
    text = (DOCS / "trace.md").read_text()
    titles = {
        "snap": "Snap's events",
        "happy-families": "Happy Families' events",
        "snitchems": "Snitch'ems' events",
    }
    start = text.index(f"## {titles[game]}")
    end = text.find("\n## ", start + 1)
    return text[start:end]


@pytest.mark.parametrize("game", registry.names())
def test_every_event_an_engine_emits_is_in_the_trace_doc(game: str) -> None:
    module = registry.engine(game)
    seen: set[str] = set()
    for variant in module.VARIANTS:
        options = simulate.make_options(module, variant, None, None)
        if module is snap:
            options = snap.options_for(variant, players=3, max_turns=120, level="easy")
        for seed in range(4):
            run = simulate.play(
                module, simulate.default_deck(module), options, seed, simulate.default_level(module)
            )
            seen |= set(run.counts)
    section = trace_section(game)
    missing = sorted(t for t in seen if f"| `{t}` |" not in section)
    assert not missing, f"docs/trace.md does not document {game} events {missing}"


def test_the_trace_doc_names_every_way_a_snap_game_ends() -> None:
    section = trace_section("snap")
    for reason in ("all-cards", "out-together", "last-with-counters", "kiosk-bound"):
        assert f"`{reason}`" in section
