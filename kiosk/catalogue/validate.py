"""Stage 2, validate: one file against the schema (pydantic), each error at its field's
line and column, every problem collected; the checks across files are in ``crosscheck``.
"""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from kiosk.catalogue.citations import claim_problems
from kiosk.catalogue.decks import match_key
from kiosk.catalogue.looks import EMBLEM_ORDER, colour_problem, emblem_picks
from kiosk.catalogue.problems import Problem, did_you_mean
from kiosk.catalogue.read import KeyPath, SourceFile
from kiosk.catalogue.schema import (
    AnyRecord,
    GameRecord,
    NoteRecord,
    PageRecord,
    Record,
    ScenarioRecord,
    SetRecord,
    SourcesRecord,
    TermsRecord,
    WordsRecord,
    dotted,
)
from kiosk.catalogue.terms import is_vague
from kiosk.catalogue.words import DEFAULTS
from kiosk.games import registry

RECORD = TypeAdapter(Record)
MODELS: dict[str, type[BaseModel]] = {
    "set": SetRecord,
    "game": GameRecord,
    "note": NoteRecord,
    "page": PageRecord,
    "scenario": ScenarioRecord,
    "terms": TermsRecord,
    "words": WordsRecord,
    "sources": SourcesRecord,
}


def _model_at(model: type[BaseModel] | None, loc: KeyPath) -> type[BaseModel] | None:
    """The pydantic model that validates the mapping at ``loc`` (for 'did you mean')."""
    for part in loc:
        if model is None:
            return None
        if isinstance(part, int):
            continue
        info = model.model_fields.get(part)
        if info is None:
            return None
        model = _find_model(info.annotation)
    return model


def _find_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType, list, typing.Annotated):
        for arg in typing.get_args(annotation):
            found = _find_model(arg)
            if found is not None:
                return found
    return None


# What a picture without one of its required fields is told to add
PICTURE_NEEDS = {
    "alt": "an image needs alt text: add 'alt: <what it shows>'",
    "credit": "a picture needs a credit: add 'credit: <who took or holds the photograph>'",
    "rights": (
        "a picture needs its rights: add 'rights: <a rightsstatements.org or"
        " creativecommons.org address>', e.g. https://creativecommons.org/licenses/by/4.0/"
    ),
}


def _message(kind: str, loc: KeyPath, error: dict[str, Any]) -> str:
    """A curator's wording for one pydantic error (the field path first)."""
    kind_type, where = error["type"], dotted(loc)
    if kind_type == "missing":
        parent, name = loc[:-1], loc[-1]
        if name == "note" and parent and parent[-1] == "content_note":
            return (
                f"{dotted(parent)}: a flagged card needs a contextual note: "
                "add 'note: <slug of a file in notes/>'"
            )
        picture = bool(parent) and (
            parent[-1] in ("image", "back_image") or parent[:1] == ("images",)
        )
        if picture and name in PICTURE_NEEDS:
            return f"{dotted(parent)}: {PICTURE_NEEDS[name]}"
        owner = f"{dotted(parent)}: " if parent else ""
        return f"{owner}missing required field '{name}'"
    if kind_type == "extra_forbidden":
        name = str(loc[-1])
        model = _model_at(MODELS.get(kind), loc[:-1])
        hint = did_you_mean(name, model.model_fields) if model is not None else ""
        if name == "licence" and model is not None and "rights" in model.model_fields:
            hint = " (a picture's rights are now 'rights:', a rightsstatements.org or"
            hint += " creativecommons.org address, with 'credit:' for who holds them)"
        owner = f"{dotted(loc[:-1])}: " if loc[:-1] else ""
        return f"{owner}unknown field '{name}'{hint}"
    if kind_type == "string_pattern_mismatch":
        return (
            f"{where}: {error.get('input')!r} is not a slug: "
            "use lower-case letters, digits and single hyphens"
        )
    if kind_type == "string_too_short":
        return f"{where}: must not be empty"
    wrong = _wrong_type(loc, error)
    if wrong:
        return f"{where}: {wrong}"
    msg = error["msg"].removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def _wrong_type(loc: KeyPath, error: dict[str, Any]) -> str | None:
    """A value YAML read as the wrong type, said as what to write (``date: 1935``)."""
    name, value = str(loc[-1]) if loc else "", error.get("input")
    if error["type"] != "string_type" or isinstance(value, (dict, list)):
        if error["type"] in ("int_parsing", "int_type", "int_from_float"):
            return f"write a whole number, without quotes, e.g. {name}: 4"
        return None
    if value is None and name == "colour":
        return 'a colour must be quoted, e.g. colour: "#8a2b1d" (a bare # starts a comment)'
    if value is None:
        return f"is empty: write a value after '{name}:', or leave the line out"
    shown = str(value).lower() if isinstance(value, bool) else value
    if name == "date":
        return f'write dates in quotes: date: "{shown}"'
    return f'write it in quotes: {name}: "{shown}"'


def validate_source(source: SourceFile) -> tuple[AnyRecord | None, list[Problem]]:
    """Check one read file against the schema; the record is None when anything is wrong."""
    problems = list(source.problems)
    data = source.data
    if data is None:
        return None, problems
    kind = data.get("kind")
    if "kind" not in data:
        problems.append(source.problem((), "missing 'kind:' (one of: set, game, note, page)"))
        return None, problems
    if not isinstance(kind, str) or kind not in MODELS:
        message = f"unknown kind {kind!r}: use one of: {', '.join(MODELS)}"
        problems.append(source.problem(("kind",), message))
        return None, problems
    try:
        record = RECORD.validate_python(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            if loc[:1] == (kind,):
                loc = loc[1:]
            at, key = loc, True
            if error["type"] == "missing":
                at = loc[:-1]
            elif error["type"] != "extra_forbidden":
                key = not loc
            problems.append(source.problem(at or ("kind",), _message(kind, loc, error), key))
        return None, problems
    problems += record_problems(source, record)
    return (None if problems else record), problems


def record_problems(source: SourceFile, record: AnyRecord) -> list[Problem]:
    """Checks within one record that the schema cannot express with a position."""
    problems: list[Problem] = claim_problems(source, record)
    if isinstance(record, WordsRecord):
        return problems + _words_problems(source, record)
    if isinstance(record, GameRecord):
        return problems + game_words_problems(source, record)
    if not isinstance(record, SetRecord):
        return problems

    def at(loc: KeyPath, message: str) -> None:
        problems.append(source.problem(loc, message))

    seen: dict[str, int] = {}
    for loc, message in _emblem_clashes(record):
        at(loc, message)
    for i, face in enumerate(record.cards):
        if face.key in seen:
            at(
                ("cards", i),
                f"cards[{i}]: card slug '{face.key}' is already used by cards[{seen[face.key]}]"
                " (give one a 'slug:')",
            )
        seen.setdefault(face.key, i)
        if record.deck == "cards" and record.match == "family" and not face.family:
            at(("cards", i), f"cards[{i}]: the set matches by family, but this card has none")
        if record.deck == "cards" and record.match == "rank" and not face.rank:
            at(("cards", i), f"cards[{i}]: the set matches by rank, but this card has none")
        problems += _look_problems(source, i, face)
        if face.content_note is not None and is_vague(face.content_note.shows):
            at(
                ("cards", i, "content_note", "shows"),
                f"cards[{i}].content_note.shows: '{face.content_note.shows}' does not say what"
                " the card shows: name it, e.g. 'a golliwog: a racist caricature of a Black"
                " person'",
            )
    counted = _cards_recorded(record)
    if record.card_count is not None and counted is not None and counted != record.card_count:
        at(
            ("card_count",),
            f"card_count: {record.card_count}, but the cards listed add up to {counted}"
            " (copies less missing): correct card_count, or the cards' copies and missing",
        )
    return problems


def _emblem_clashes(record: SetRecord) -> list[tuple[KeyPath, str]]:
    """One emblem on pictures that do not match, or two on cards that match: one would be lost."""
    found: list[tuple[KeyPath, str]] = []
    owner: dict[str, tuple[int, str]] = {}  # emblem -> (first card, its picture or family)
    group_emblem: dict[str, tuple[int, str]] = {}  # picture or family -> (first card, emblem)
    for i, face in enumerate(record.cards):
        if face.emblem not in EMBLEM_ORDER or face.content_note is not None:
            continue
        group = match_key(record, face)
        first, name = owner.get(face.emblem, (i, group))
        if name != group:
            found.append(
                (
                    ("cards", i, "emblem"),
                    f"cards[{i}].emblem: '{face.emblem}' is already the emblem of cards[{first}]"
                    f" '{record.cards[first].name}': cards that do not match must not share an"
                    " emblem (the kiosk would draw one of them with another): choose another",
                )
            )
            continue
        owner.setdefault(face.emblem, (i, group))
        earlier, emblem = group_emblem.setdefault(group, (i, face.emblem))
        if emblem != face.emblem:
            found.append(
                (
                    ("cards", i, "emblem"),
                    f"cards[{i}].emblem: '{face.emblem}', but cards[{earlier}], which it matches,"
                    f" has '{emblem}': cards that match share one emblem: give both the same",
                )
            )
    return found


def game_words_problems(source: SourceFile, record: GameRecord) -> list[Problem]:
    """Every rule variant and computer level of the game's engine needs its visitor words."""
    engine = registry.engine(record.engine)
    found = []
    for field, names, what in (
        ("variants", tuple(engine.VARIANTS), "rule variant"),
        ("levels", engine.LEVELS, "computer level"),
    ):
        written = getattr(record, field)
        meant = set()  # names a misspelt key was taken for: said once, as the misspelling
        for name in written:
            if name not in names:
                close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
                meant.update(close)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                found.append(
                    source.problem(
                        (field, name),
                        f"{field}: '{name}' is not a {what} of {record.engine}{hint}: the"
                        f" {what}s are " + ", ".join(names),
                        key=True,
                    )
                )
        for name in names:
            if name not in written and name not in meant:
                found.append(
                    source.problem(
                        (field,) if written else ("engine",),
                        f"{field}: the {what} '{name}' has no words for visitors: add it under"
                        f" {field}: with a title: and a one-line description:",
                        key=True,
                    )
                )
    return found


def _words_problems(source: SourceFile, record: WordsRecord) -> list[Problem]:
    """A key under ``words:`` that the kiosk does not use (a misspelling shows nothing)."""
    return [
        source.problem(
            ("words", key),
            f"words: unknown key '{key}'{did_you_mean(key, DEFAULTS)}: the kiosk uses "
            + ", ".join(DEFAULTS),
            key=True,
        )
        for key in record.words
        if key not in DEFAULTS
    ]


def _look_problems(source: SourceFile, i: int, face: Any) -> list[Problem]:
    """A card's ``emblem:`` that is not on the list, or a ``colour:`` the face cannot use."""
    found = []
    if face.emblem is not None and face.emblem not in EMBLEM_ORDER:
        hint = did_you_mean(face.emblem, EMBLEM_ORDER)
        found.append(
            source.problem(
                ("cards", i, "emblem"),
                f"cards[{i}].emblem: unknown emblem '{face.emblem}'{hint}: choose"
                " one from the list in docs/curators.md (or /curators/emblems)",
            )
        )
    why = colour_problem(face.colour) if face.colour is not None else None
    if why:
        found.append(source.problem(("cards", i, "colour"), f"cards[{i}].colour: {why}"))
    return found


def emblem_notes(source: SourceFile, record: AnyRecord) -> list[Problem]:
    """Which emblem the kiosk picked for each picture without ``emblem:``, to confirm."""
    if not isinstance(record, SetRecord) or record.deck != "cards":
        return []
    return [
        source.problem(
            ("cards", i),
            f"cards[{i}] '{record.cards[i].name}' is drawn with the {emblem} emblem: write"
            f" 'emblem: {emblem}' to keep it, or choose another",
            key=True,
            level="note",
        )
        for i, emblem in emblem_picks(record)
    ]


def _cards_recorded(record: SetRecord) -> int | None:
    """How many cards the record lists: copies less missing (52 for a standard pack)."""
    if record.deck == "standard-52":
        return 52
    return sum(face.copies - face.missing for face in record.cards) if record.cards else None
