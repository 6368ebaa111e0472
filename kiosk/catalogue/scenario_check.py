"""Stage 2, validate (rule examples): each example played through its engine, and checked to
show what it says it shows (docs/scenarios.md).
"""

from __future__ import annotations

import logging

from kiosk.catalogue import scenarios
from kiosk.catalogue.crosscheck import Checked
from kiosk.catalogue.decks import deck_for
from kiosk.catalogue.problems import Problem, a_draft
from kiosk.catalogue.read import KeyPath
from kiosk.catalogue.schema import ScenarioRecord, SetRecord
from kiosk.games import registry

log = logging.getLogger(__name__)


def check_scenario(
    item: Checked, items: list[Checked], sets: dict[str, SetRecord], engines: dict[str, str]
) -> tuple[scenarios.Run | None, list[Problem]]:
    """Run one example through its engine: (the run, or None, and its problems)."""
    try:
        return _check(item, items, sets, engines)
    except Exception as exc:  # an engine that trips over this example: its problem
        log.exception("%s: could not be run", item.source.path)
        message = f"the example could not be run ({type(exc).__name__}): {exc}"
        return None, [item.source.problem(("kind",), message, key=True)]


def _check(
    item: Checked, items: list[Checked], sets: dict[str, SetRecord], engines: dict[str, str]
) -> tuple[scenarios.Run | None, list[Problem]]:
    record = item.record
    assert isinstance(record, ScenarioRecord)
    source = item.source
    problems: list[Problem] = []

    def add(loc: KeyPath, message: str, key: bool = False) -> None:
        problems.append(source.problem(loc, message, key))

    if not record.draft:  # a published example may not use a draft: visitors would meet it
        drafts = {(c.record.kind, c.record.key) for c in items if getattr(c.record, "draft", False)}
        for field_name, kind in (("game", "game"), ("deck", "set")):
            slug = getattr(record, field_name)
            if (kind, slug) in drafts:
                add((field_name,), a_draft(field_name, kind, slug))
        if problems:
            return None, problems
    engine_name = engines.get(record.game)
    if engine_name is None:
        add(("game",), f"unknown game '{record.game}' (no file in games/ has this slug)")
        return None, problems
    module = registry.engine(engine_name)
    if record.variant not in module.VARIANTS:
        add(
            ("variant",),
            f"unknown variant '{record.variant}' of {record.game}: choose from "
            + ", ".join(module.VARIANTS),
        )
        return None, problems
    set_record = sets.get(record.deck)
    if set_record is None:
        add(("deck",), f"unknown set '{record.deck}' (no file in sets/ has this slug)")
        return None, problems
    points = scenarios.points(engine_name)
    for i, point in enumerate(record.shows):
        if point not in points:
            add(
                ("shows", i),
                f"shows[{i}]: unknown point '{point}': choose from " + ", ".join(points),
            )
    if problems:
        return None, problems
    run = scenarios.run(
        engine_name,
        record.variant,
        deck_for(set_record),
        record.cards,
        record.players,
        dict(record.options),
        record.actions,
        record.seed,
    )
    for loc, message in run.problems:
        add(loc, message)
    if run.problems:
        return None, problems
    required = scenarios.required(engine_name, record.variant)
    if record.shows and record.variant == next(iter(module.VARIANTS)):
        required = ()  # an example of the plain game may be about one detail of it
    if not required and not record.shows:
        add(("kind",), "say in 'shows:' what this example shows, e.g. shows: [sweep]", key=True)
    for point in required:
        if not scenarios.shown(run, point):
            add(
                ("variant",),
                f"a {record.variant} example must show "
                f"{points[point].words}, and no step does: change the cards or the actions",
            )
    for i, point in enumerate(record.shows):
        if point not in required and not scenarios.shown(run, point):
            add(("shows", i), f"shows[{i}]: no step shows {points[point].words}")
    for n in record.steps:
        if not 1 <= n <= len(run.steps):
            where = ("steps", str(n)) if ("steps", str(n)) in source.key_positions else ("steps", n)
            add(
                where,
                f"steps: a caption for step {n}, but the example has {len(run.steps)} steps",
                key=True,
            )
    return (None if problems else run), problems
