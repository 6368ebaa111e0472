"""The browser's events, checked word by word against the catalogue or a closed list, so no
visitor's free text ever reaches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kiosk.catalogue.store import Snapshot
from kiosk.games import registry
from kiosk.games.core import OptionsError
from kiosk.insights.schema import GAME_EVENTS, IDLE_RESETS, OUTCOMES, length_band

MAX_BOTS = 7  # the kiosk's largest table is eight players: the visitor and seven computers
MAX_MOVES = 100_000  # far beyond any game; a bigger number is not a count of moves


@dataclass(frozen=True)
class Count:
    """One count to add: the table and its dimensions (``mode`` is added by the caller)."""

    table: str
    dimensions: dict[str, Any]


def _small_int(raw: str | None, lowest: int, highest: int) -> int | None:
    """A whole number written plainly (digits only) within [lowest, highest], else None."""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > 6:
        return None
    value = int(raw)
    return value if lowest <= value <= highest else None


def _flagged_card(snapshot: Snapshot, set_slug: str, card: str) -> bool:
    entry = snapshot.sets.get(set_slug)
    cards = getattr(entry.record, "cards", ()) if entry else ()
    return any(face.key == card and face.content_note is not None for face in cards)


def game_settings(
    snapshot: Snapshot, set_slug: str, game: str, variant: str, level: str, bots: int | None
) -> dict[str, Any] | None:
    """A game's dimensions if the set plays it and its engine knows them, else None."""
    entry = snapshot.sets.get(set_slug)
    game_entry = snapshot.games.get(game)
    if entry is None or game_entry is None or game not in getattr(entry.record, "games", ()):
        return None
    try:
        engine = registry.engine(getattr(game_entry.record, "engine", game))
    except OptionsError:
        return None
    if variant and variant not in engine.VARIANTS:
        return None
    if level and level not in engine.LEVELS:
        return None
    if bots is None or not 0 <= bots <= MAX_BOTS:
        return None
    return {"set_slug": set_slug, "game": game, "variant": variant, "level": level, "bots": bots}


def game_count(
    event: str,
    settings: Mapping[str, Any],
    outcome: str = "",
    moves: int | None = None,
) -> Count:
    """The count of a game event; ValueError for one outside the vocabulary (a caller's bug)."""
    if event not in GAME_EVENTS:
        raise ValueError(f"game event {event!r}: one of {', '.join(GAME_EVENTS)}")
    if event == "finished" and outcome not in OUTCOMES:
        raise ValueError(f"a finished game's outcome {outcome!r}: one of {', '.join(OUTCOMES)}")
    if event != "finished" and outcome:
        raise ValueError(f"only a finished game has an outcome, not a game {event}")
    band = "" if event == "started" or moves is None else length_band(max(0, moves))
    return Count("games", {**settings, "event": event, "outcome": outcome, "length_band": band})


def _reveal(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    set_slug, card = form.get("set", ""), form.get("card", "")
    if not _flagged_card(snapshot, set_slug, card):
        return None
    return Count("visitor_events", {"event": "reveal", "subject": set_slug, "detail": card})


def _note_read(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    note = form.get("note", "")
    if note not in snapshot.notes:
        return None
    return Count("visitor_events", {"event": "note-read", "subject": note, "detail": ""})


def _rule(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    game, scenario = form.get("game", ""), form.get("scenario", "")
    run = snapshot.runs.get(f"{game}/{scenario}")
    if run is None or f"{game}/{scenario}" not in snapshot.scenarios:
        return None
    total = len(run.steps)
    furthest = _small_int(form.get("step"), 1, total)
    if furthest is None:
        return None
    dimensions = {"game": game, "scenario": scenario, "furthest": furthest, "total": total}
    return Count("rule_watches", dimensions)


def _idle_reset(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    how = form.get("how", "")
    if not kiosk or how not in IDLE_RESETS:
        return None
    return Count("visitor_events", {"event": "idle-reset", "subject": "", "detail": how})


def _attract_tap(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    if not kiosk:
        return None
    return Count("visitor_events", {"event": "attract-tap", "subject": "", "detail": ""})


def _abandon(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    bots = _small_int(form.get("bots") or "0", 0, MAX_BOTS)
    moves = _small_int(form.get("moves") or "0", 0, MAX_MOVES)
    settings = game_settings(
        snapshot,
        form.get("set", ""),
        form.get("game", ""),
        form.get("variant", ""),
        form.get("level", ""),
        bots,
    )
    if settings is None or moves is None:
        return None
    return game_count("abandoned", settings, moves=moves)


BROWSER_EVENTS = {
    "reveal": _reveal,
    "note-read": _note_read,
    "rule": _rule,
    "idle-reset": _idle_reset,
    "attract-tap": _attract_tap,
    "abandon": _abandon,
}


def browser_event(form: Mapping[str, str], snapshot: Snapshot, kiosk: bool) -> Count | None:
    """The count a browser's report stands for, or None if any part of it is not known."""
    parse = BROWSER_EVENTS.get(form.get("e", ""))
    return parse(form, snapshot, kiosk) if parse else None
