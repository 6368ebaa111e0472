"""Stage 2, validate: the schema (pydantic) per file, then checks across the whole collection.

Each pydantic error is mapped back to the line and column of the offending field; every
problem is collected, none stops the run. Collection checks: references between files,
duplicate slugs and accession numbers, contested imagery flags, images on disk.
"""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import KeyPath, SourceFile
from kiosk.catalogue.schema import (
    GameRecord,
    Image,
    NoteRecord,
    PageRecord,
    Record,
    ScenarioRecord,
    SetRecord,
    TermsRecord,
    WordsRecord,
)
from kiosk.catalogue.terms import DEFAULT_TERMS, find_term, is_vague

RECORD = TypeAdapter(Record)
MODELS: dict[str, type[BaseModel]] = {
    "set": SetRecord,
    "game": GameRecord,
    "note": NoteRecord,
    "page": PageRecord,
    "scenario": ScenarioRecord,
    "terms": TermsRecord,
    "words": WordsRecord,
}
AnyRecord = (
    SetRecord | GameRecord | NoteRecord | PageRecord | ScenarioRecord | TermsRecord | WordsRecord
)


def dotted(loc: Iterable[str | int]) -> str:
    """``("cards", 3, "content_note")`` → ``cards[3].content_note``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


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
        if name == "alt" and parent and (parent[-1] == "image" or parent[:1] == ("images",)):
            return f"{dotted(parent)}: an image needs alt text: add 'alt: <what it shows>'"
        owner = f"{dotted(parent)}: " if parent else ""
        return f"{owner}missing required field '{name}'"
    if kind_type == "extra_forbidden":
        name = str(loc[-1])
        model = _model_at(MODELS.get(kind), loc[:-1])
        hint = ""
        if model is not None:
            close = difflib.get_close_matches(name, list(model.model_fields), n=1, cutoff=0.6)
            if close:
                hint = f" (did you mean '{close[0]}'?)"
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
        line, col = source.position(())
        problems.append(
            Problem(source.path, line, col, "missing 'kind:' (one of: set, game, note, page)")
        )
        return None, problems
    if not isinstance(kind, str) or kind not in MODELS:
        line, col = source.position(("kind",))
        problems.append(
            Problem(
                source.path,
                line,
                col,
                f"unknown kind {kind!r}: use one of: {', '.join(MODELS)}",
            )
        )
        return None, problems
    try:
        record = RECORD.validate_python(data)
    except ValidationError as exc:
        for error in exc.errors():
            loc = tuple(error["loc"])
            if loc[:1] == (kind,):
                loc = loc[1:]
            if error["type"] == "missing":
                parent = loc[:-1]
                line, col = (
                    source.key_position(parent) if parent else source.key_position(("kind",))
                )
            elif error["type"] == "extra_forbidden":
                line, col = source.key_position(loc)
            elif not loc:
                line, col = source.key_position(("kind",))
            else:
                line, col = source.position(loc)
            problems.append(Problem(source.path, line, col, _message(kind, loc, error)))
        return None, problems
    problems += record_problems(source, record)
    return (None if problems else record), problems


def record_problems(source: SourceFile, record: AnyRecord) -> list[Problem]:
    """Checks within one record that the schema cannot express with a position."""
    problems: list[Problem] = []
    if isinstance(record, WordsRecord):
        return _words_problems(source, record)
    if not isinstance(record, SetRecord):
        return problems

    def at(loc: KeyPath, message: str, key: bool = False) -> None:
        line, col = source.key_position(loc) if key else source.position(loc)
        problems.append(Problem(source.path, line, col, message))

    seen: dict[str, int] = {}
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


def _words_problems(source: SourceFile, record: WordsRecord) -> list[Problem]:
    """A key under ``words:`` that the kiosk does not use (a misspelling shows nothing)."""
    from kiosk.catalogue.words import DEFAULTS

    found = []
    for key in record.words:
        if key not in DEFAULTS:
            close = difflib.get_close_matches(key, list(DEFAULTS), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            found.append(
                Problem(
                    source.path,
                    *source.key_position(("words", key)),
                    f"words: unknown key '{key}'{hint}: the kiosk uses " + ", ".join(DEFAULTS),
                )
            )
    return found


def _look_problems(source: SourceFile, i: int, face: Any) -> list[Problem]:
    """A card's ``emblem:`` that is not on the list, or a ``colour:`` the face cannot use."""
    from kiosk.catalogue.looks import EMBLEM_ORDER, colour_problem

    found = []
    if face.emblem is not None and face.emblem not in EMBLEM_ORDER:
        close = difflib.get_close_matches(face.emblem, EMBLEM_ORDER, n=1, cutoff=0.6)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        found.append(
            Problem(
                source.path,
                *source.position(("cards", i, "emblem")),
                f"cards[{i}].emblem: unknown emblem '{face.emblem}'{hint}: choose"
                " one from the list in docs/curators.md (or /curators/emblems)",
            )
        )
    why = colour_problem(face.colour) if face.colour is not None else None
    if why:
        found.append(
            Problem(
                source.path, *source.position(("cards", i, "colour")), f"cards[{i}].colour: {why}"
            )
        )
    return found


def emblem_notes(source: SourceFile, record: AnyRecord) -> list[Problem]:
    """Which emblem the kiosk picked for each picture without ``emblem:``, to confirm."""
    from kiosk.catalogue.looks import emblem_picks

    if not isinstance(record, SetRecord) or record.deck != "cards":
        return []
    return [
        Problem(
            source.path,
            *source.key_position(("cards", i)),
            f"cards[{i}] '{record.cards[i].name}' is drawn with the {emblem} emblem: write"
            f" 'emblem: {emblem}' to keep it, or choose another",
            level="note",
        )
        for i, emblem in emblem_picks(record)
    ]


def _cards_recorded(record: SetRecord) -> int | None:
    """How many cards the record lists: copies less missing (52 for a standard pack)."""
    if record.deck == "standard-52":
        return 52
    return sum(face.copies - face.missing for face in record.cards) if record.cards else None


@dataclass(frozen=True)
class Checked:
    """A file that passed its own checks, ready for the collection checks."""

    rel: str  # path relative to the content folder, posix
    source: SourceFile
    record: AnyRecord


def images_of(record: AnyRecord) -> Iterator[tuple[KeyPath, Image]]:
    """Every image a record names, with its key path."""
    if isinstance(record, SetRecord):
        for i, image in enumerate(record.images):
            yield ("images", i), image
        for i, face in enumerate(record.cards):
            if face.image is not None:
                yield ("cards", i, "image"), face.image


LINKED = "is a link to another file: put the picture itself in images/"


def image_problem(
    content_dir: Path,
    src: str,
    files: frozenset[str] | None = None,
    links: frozenset[str] = frozenset(),
) -> str | None:
    """Why an image path is unusable, or None: it must name a regular file under images/.

    ``files`` is the set of known image paths (``images/...``, regular files) when the caller
    has scanned them already, ``links`` the paths there that are not regular files (symbolic
    links could lead out of the content folder); otherwise the disk is asked.
    """
    pure = PurePosixPath(src)
    if pure.is_absolute() or "\\" in src or ".." in pure.parts or ":" in src:
        return f"image '{src}' must be a path inside the content folder, e.g. images/box.jpg"
    if pure.parts[:1] != ("images",):
        return f"image '{src}' must be under images/, e.g. images/box.jpg"
    if files is not None:
        if pure.as_posix() in links:
            return f"image '{src}' {LINKED}"
        return None if pure.as_posix() in files else f"image file '{src}' not found"
    root = content_dir.resolve()
    target = (root / pure).resolve()
    if not target.is_relative_to(root):
        return f"image '{src}' leads outside the content folder"
    if target != root / pure:
        return f"image '{src}' {LINKED}"
    if not target.is_file():
        return f"image file '{src}' not found"
    return None


def collection_problems(
    checked: list[Checked],
    content_dir: Path,
    games: set[str],
    notes: set[str],
    files: frozenset[str] | None = None,
    links: frozenset[str] = frozenset(),
    broken: frozenset[tuple[str, str]] = frozenset(),
) -> dict[str, list[Problem]]:
    """Checks across files, in the order given (the first owner of a slug keeps it).

    ``games``/``notes`` are the slugs that will be published; ``files`` the known image paths
    and ``links`` the paths under images/ that are not regular files; ``broken`` the
    (kind, slug) of files that cannot be read now: a reference to one holds the file back
    without a message, the broken file's own problem says it all.
    """
    found: dict[str, list[Problem]] = {}
    terms = contested_terms(checked)
    drafts = {(c.record.kind, c.record.key) for c in checked if getattr(c.record, "draft", False)}

    def add(item: Checked, loc: KeyPath, message: str, key: bool = False) -> None:
        pos = item.source.key_position(loc) if key else item.source.position(loc)
        found.setdefault(item.rel, []).append(Problem(item.source.path, *pos, message))

    owners: dict[tuple[str, str], Checked] = {}
    accessions: dict[str, Checked] = {}
    for item in checked:
        record = item.record
        kind = record.kind
        where: KeyPath = (
            ("slug",) if item.source.data and "slug" in item.source.data else ("accession",)
        )
        if (kind, record.key) in owners:
            other = owners[(kind, record.key)].source.path
            add(item, where, f"duplicate {kind} slug '{record.key}' (also in {other})")
        else:
            owners[(kind, record.key)] = item
        if isinstance(record, SetRecord) and record.accession:
            acc = record.accession.strip().upper()
            if acc in accessions:
                other = accessions[acc].source.path
                add(
                    item,
                    ("accession",),
                    f"duplicate accession number '{record.accession}' (also in {other})",
                )
            else:
                accessions[acc] = item
        if isinstance(record, SetRecord):
            for i, slug in enumerate(record.games):
                if ("game", slug) in broken and slug not in games:
                    found.setdefault(item.rel, [])
                elif slug not in games:
                    add(
                        item,
                        ("games", i),
                        f"games[{i}]: unknown game '{slug}' (no file in games/ has this slug)",
                    )
                elif ("game", slug) in drafts and not record.draft:
                    add(
                        item,
                        ("games", i),
                        f"games[{i}]: the game '{slug}' is a draft, never"
                        " shown to visitors: publish it first (delete its 'draft: true')",
                    )
            for i, face in enumerate(record.cards):
                flag = face.content_note
                term = find_term(terms, (face.name, face.family, face.caption))
                if flag is None and term:
                    add(
                        item,
                        ("cards", i),
                        f"cards[{i}]: '{term}' names contested imagery:"
                        " flag the card with content_note (shows, note), or reword it",
                    )
                if flag is not None and ("note", flag.note) in broken and flag.note not in notes:
                    found.setdefault(item.rel, [])
                elif flag is not None and ("note", flag.note) in drafts and not record.draft:
                    add(
                        item,
                        ("cards", i, "content_note", "note"),
                        f"cards[{i}].content_note.note: the note '{flag.note}' is a draft, never"
                        " shown to visitors: publish it first (delete its 'draft: true')",
                    )
                elif flag is not None and flag.note not in notes:
                    add(
                        item,
                        ("cards", i, "content_note", "note"),
                        f"cards[{i}].content_note.note: unknown note '{flag.note}'"
                        " (a flagged card needs a note file in notes/ with this slug)",
                    )
        for loc, image in images_of(record):
            why = image_problem(content_dir, image.src, files, links)
            if why:
                add(item, (*loc, "src"), f"{dotted(loc)}.src: {why}")
    return found


def contested_terms(checked: list[Checked]) -> tuple[str, ...]:
    """The curators' contested terms (every ``kind: terms`` file), or the defaults if none."""
    lists = [c.record.terms for c in checked if isinstance(c.record, TermsRecord)]
    return tuple(t for terms in lists for t in terms) if lists else DEFAULT_TERMS


def game_warnings(checked: list[Checked], engines: dict[str, str]) -> list[Problem]:
    """A game listed for a deck that cannot play it: the kiosk leaves it out, and says so."""
    found: list[Problem] = []
    for item in checked:
        record = item.record
        if not isinstance(record, SetRecord):
            continue
        for i, slug in enumerate(record.games):
            why = unplayable(record, engines.get(slug, ""))
            if why:
                line, col = item.source.position(("games", i))
                found.append(
                    Problem(
                        item.source.path, line, col, f"games[{i}]: {slug} {why}", level="warning"
                    )
                )
    return found


def unplayable(record: SetRecord, engine: str) -> str | None:
    """Why ``engine`` cannot play this set's deck (a dead end for a visitor), or None."""
    if engine == "snitchems" and record.deck != "standard-52":
        return (
            "needs a standard pack of 52, so the kiosk does not offer it: write"
            " deck: standard-52, or remove the game"
        )
    if engine == "happy-families":
        from kiosk.catalogue.decks import deck_for
        from kiosk.games.happy_families import playable_deck

        families = {c.family for c in playable_deck(deck_for(record))}
        if len(families) < 2:
            return (
                "needs at least two complete families of four cards (each card with"
                " family:, none flagged or missing), so the kiosk does not offer it: remove"
                " the game, or record the families"
            )
    return None


__all__ = [
    "AnyRecord",
    "Checked",
    "collection_problems",
    "contested_terms",
    "dotted",
    "emblem_notes",
    "game_warnings",
    "image_problem",
    "images_of",
    "record_problems",
    "validate_source",
]


def check_scenario(
    item: Checked, sets: dict[str, SetRecord], engines: dict[str, str]
) -> tuple[Any, list[Problem]]:
    """Run one scenario through its engine: (the run, or None, and the problems found).

    ``sets`` are the published sets by slug, ``engines`` the published games' engines.
    """
    from kiosk.catalogue import scenarios
    from kiosk.catalogue.decks import deck_for
    from kiosk.games import registry

    record = item.record
    assert isinstance(record, ScenarioRecord)
    source = item.source
    problems: list[Problem] = []

    def add(loc: KeyPath, message: str, key: bool = False) -> None:
        pos = source.key_position(loc) if key else source.position(loc)
        problems.append(Problem(source.path, *pos, message))

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
    points = scenarios.POINTS[engine_name]
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
    required = scenarios.REQUIRED.get((engine_name, record.variant), ())
    if record.shows and record.variant == next(iter(module.VARIANTS)):
        required = ()  # an example of the plain game may be about one detail of it
    if not required and not record.shows:
        add(("kind",), "say in 'shows:' what this example shows, e.g. shows: [sweep]", key=True)
    for point in required:
        if not scenarios.shown(run, point):
            add(
                ("variant",),
                f"a {record.variant} example must show "
                f"{points[point][1]}, and no step does: change the cards or the actions",
            )
    for i, point in enumerate(record.shows):
        if point not in required and not scenarios.shown(run, point):
            add(("shows", i), f"shows[{i}]: no step shows {points[point][1]}")
    for n in record.steps:
        if not 1 <= n <= len(run.steps):
            where = ("steps", str(n)) if ("steps", str(n)) in source.key_positions else ("steps", n)
            add(
                where,
                f"steps: a caption for step {n}, but the example has {len(run.steps)} steps",
                key=True,
            )
    return (None if problems else run), problems
