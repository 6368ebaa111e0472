"""Traces: the writer follows every card, the checker catches a broken trace, the schema holds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kiosk.games import registry, trace
from kiosk.games.cards import standard_deck
from kiosk.games.core import Event
from kiosk.games.snap import engine as snap

DOC = Path(__file__).parents[1] / "docs" / "trace.md"
TYPES = {"object": dict, "array": list, "string": str, "null": type(None)}


def schemas() -> dict[str, dict]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    found = {}
    for block in blocks:
        schema = json.loads(block)
        found[schema["$id"]] = schema
    return found


def validate(value, schema: dict, where: str = "$") -> list[str]:
    """A small JSON Schema validator: type, required, properties, items, enum, minimum."""
    problems = []
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        ok = any(
            (k == "integer" and isinstance(value, int) and not isinstance(value, bool))
            or (k == "number" and isinstance(value, int | float) and not isinstance(value, bool))
            or (k in TYPES and isinstance(value, TYPES[k]))
            for k in kinds
        )
        if not ok:
            return [f"{where}: {value!r} is not {kinds}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r} not in {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(f"{where}: {value} < {schema['minimum']}")
    if isinstance(value, dict):
        problems += [f"{where}: no {k!r}" for k in schema.get("required", []) if k not in value]
        props = schema.get("properties", {})
        for key, item in value.items():
            sub = props.get(key, schema.get("additionalProperties"))
            if isinstance(sub, dict):
                problems += validate(item, sub, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += validate(item, schema["items"], f"{where}[{i}]")
    return problems


def snap_trace(variant="woolworths", players=3, seed=4):
    options = snap.options_for(variant, players=players, max_turns=80, level="easy")
    choose = trace.bot_chooser(snap, players, "easy", seed)
    return list(trace.trace_game(snap, standard_deck(), options, seed, choose))


def test_the_documented_schema_rejects_a_broken_line() -> None:
    line = schemas()["line"]
    assert validate({"seq": 0, "event": {}, "state": {"places": {"a": [1]}}}, line) == [
        "$.seq: 0 < 1",
        "$.event: no 'type'",
        "$.state.places.a[0]: 1 is not ['string']",
    ]


@pytest.mark.parametrize("variant", list(snap.VARIANTS))
def test_real_snap_lines_validate_against_the_documented_schema(variant) -> None:
    found = schemas()
    lines = snap_trace(variant)
    assert validate(lines[0], found["header"]) == []
    for line in lines[1:]:
        assert validate(json.loads(trace.dumps(line)), found["line"]) == []


@pytest.mark.parametrize("game", registry.names())
def test_every_installed_engine_traces_and_checks(game) -> None:
    from kiosk.games import simulate as sim

    module = registry.engine(game)
    options = sim.make_options(module, next(iter(module.VARIANTS)), None, None)
    level = sim.default_level(module)
    choose = trace.bot_chooser(module, options.players, level, 5)
    lines = list(trace.trace_game(module, sim.default_deck(module), options, 5, choose))
    assert trace.check_lines(lines, module) == len(lines) - 1 > 0
    found = schemas()
    assert validate(lines[0], found["header"]) == []
    assert all(validate(line, found["line"]) == [] for line in lines[1:])


def test_every_card_is_in_exactly_one_place_on_every_line() -> None:
    lines = snap_trace()
    deck = {c["id"] for c in lines[0]["deck"]}
    for line in lines[1:]:
        ids = [c for cards in line["state"]["places"].values() for c in cards]
        assert len(ids) == len(set(ids)) and set(ids) == deck


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda ls: ls[5]["state"]["places"].__setitem__("pool", ["AS"]), "is in both"),
        (lambda ls: ls[6].__setitem__("seq", 99), "expected"),
        (lambda ls: ls[0].pop("deck"), "no 'deck'"),
        (lambda ls: ls[4]["event"]["moves"][0].__setitem__("from", "up:2"), "is not in up:2"),
    ],
)
def test_the_checker_catches_damage(damage, words) -> None:
    lines = json.loads(json.dumps(snap_trace()))
    damage(lines)
    with pytest.raises(trace.TraceError, match=words):
        trace.check_lines(lines, snap)


def test_the_writer_refuses_events_that_disagree_with_the_engine() -> None:
    state, events = snap.new_game(standard_deck(), snap.options_for(), 1)
    follower = trace.Follower(snap, state, events, [c.id for c in standard_deck()])
    follower.lines(state, events, None)
    state, events = snap.apply(state, {"type": "turn", "player": 0})
    with pytest.raises(trace.TraceError, match="engine has"):
        follower.lines(state, [Event("turn", {})], None)  # the turn's move left out


def test_undo_moves_finds_the_start() -> None:
    after = {"a": [], "b": ["x", "y"]}
    events = [Event("m", {"moves": [{"cards": ["x", "y"], "from": "a", "to": "b"}]})]
    assert trace.undo_moves(after, events) == {"a": ["x", "y"], "b": []}
