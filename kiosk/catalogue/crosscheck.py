"""Stage 2, validate (across files): what no single file can say about itself.

References between files (a set's games, a flagged card's note, drafts named by published
files), duplicate slugs and accession numbers, contested terms left unflagged, images on disk,
and games a set's deck cannot play. Run by the store over every file that passed its own checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kiosk.catalogue.decks import unplayable
from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import KeyPath, SourceFile
from kiosk.catalogue.schema import AnyRecord, Image, SetRecord, TermsRecord, dotted
from kiosk.catalogue.terms import DEFAULT_TERMS, find_term
from kiosk.games import registry


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
            if record.attract_summary is None and any(f.content_note for f in record.cards):
                term = find_term(terms, (record.summary,))
                if term:
                    add(
                        item,
                        ("summary",),
                        f"summary: '{term}' names the contested image, and the attract loop"
                        " shows the summary without the note: add 'attract_summary:' in"
                        " words that do not name it",
                        key=True,
                    )
            elif record.attract_summary and find_term(terms, (record.attract_summary,)):
                add(
                    item,
                    ("attract_summary",),
                    "attract_summary: names contested imagery, which the attract loop shows"
                    " out of its context: reword it",
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
            engine = engines.get(slug)
            why = unplayable(record, engine) if engine in registry.games() else None
            if why:
                line, col = item.source.position(("games", i))
                found.append(
                    Problem(
                        item.source.path, line, col, f"games[{i}]: {slug} {why}", level="warning"
                    )
                )
    return found


def own_rules_problems(checked: list[Checked], engines: dict[str, str]) -> dict[str, list[Problem]]:
    """A set's ``own_rules`` must name a game it lists and a rule variant of that game."""
    found: dict[str, list[Problem]] = {}
    for item in checked:
        record = item.record
        if not isinstance(record, SetRecord):
            continue
        for game, variant in record.own_rules.items():
            engine = engines.get(game)
            if game in record.games and engine not in registry.games():
                continue  # the game's file cannot be read: its own problem says so
            if game not in record.games:
                listed = ", ".join(record.games) or "none"
                why = f"own_rules.{game}: '{game}' is not one of this set's games ({listed})"
                loc: KeyPath = ("own_rules", game)
            elif variant not in registry.engine(engine).VARIANTS:
                known = ", ".join(registry.engine(engine).VARIANTS)
                why = f"own_rules.{game}: '{variant}' is not a rule variant of {game}"
                why += f" (known: {known})"
                loc = ("own_rules", game)
            else:
                continue
            line, col = item.source.position(loc)
            found.setdefault(item.rel, []).append(Problem(item.source.path, line, col, why))
    return found
