"""Stage 2, validate (across files): what no single file can say about itself (references,
duplicate slugs, unflagged contested words, images on disk, flagged pictures in text, decks a
game cannot play), run by the store over every file that passed its own checks.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from kiosk.catalogue.citations import blank_code
from kiosk.catalogue.decks import unplayable
from kiosk.catalogue.pictures import (
    Use,
    flagged_files,
    picture_id,
    read_made,
    shared_folders,
    state,
    uses_in,
)
from kiosk.catalogue.problems import Problem, a_draft
from kiosk.catalogue.read import KeyPath, SourceFile
from kiosk.catalogue.schema import AnyRecord, ContentNote, SetRecord, dotted
from kiosk.catalogue.terms import contested, find_term, is_vague
from kiosk.games import registry


@dataclass(frozen=True)
class Checked:
    """A file that passed its own checks, ready for the collection checks."""

    rel: str  # path relative to the content folder, posix
    source: SourceFile
    record: AnyRecord


LINKED = "is a link to another file: put the picture itself in images/"


def image_problem(
    content_dir: Path,
    src: str,
    files: frozenset[str] | None = None,
    links: frozenset[str] = frozenset(),
) -> str | None:
    """Why an image path names no regular file under images/ (``files``: as scanned), or None."""
    pure = PurePosixPath(src)
    if pure.is_absolute() or "\\" in src or ".." in pure.parts or ":" in src:
        return f"image '{src}' must be a path inside the content folder, e.g. images/box.jpg"
    if pure.parts[:1] != ("images",):
        return f"image '{src}' must be under images/, e.g. images/box.jpg"
    if pure.as_posix() != src:  # one file, one name: the cover is looked up by it
        return f"image '{src}' must be written as '{pure.as_posix()}'"
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
    """Checks across files in order (a slug's first owner keeps it); ``broken`` ones hold back."""
    found: dict[str, list[Problem]] = {}
    terms = contested(c.record for c in checked)
    drafts = {(c.record.kind, c.record.key) for c in checked if getattr(c.record, "draft", False)}

    def add(item: Checked, loc: KeyPath, message: str, key: bool = False) -> None:
        found.setdefault(item.rel, []).append(item.source.problem(loc, message, key))

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
                    add(item, ("games", i), a_draft(f"games[{i}]", "game", slug))
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
                elif flag is not None:
                    why = _note_problem(
                        f"cards[{i}]", flag.note, "card", notes, drafts, record.draft
                    )
                    if why:
                        add(item, ("cards", i, "content_note", "note"), why)
        for use in uses_in(record):
            why = image_problem(content_dir, use.image.src, files, links)
            if why:
                add(item, (*use.where, "src"), f"{dotted(use.where)}.src: {why}")
        for loc, message in picture_problems(record, terms, notes, drafts, broken):
            add(item, loc, message)
    flagged = flagged_where(checked)
    shared = shared_names(checked)
    for item in checked:
        for loc, message in shared.get(item.rel, []):
            add(item, loc, message)
        for line, col, message in body_picture_problems(item.source, flagged, content_dir):
            found.setdefault(item.rel, []).append(Problem(item.source.path, line, col, message))
    return found


def _flag_words(use: Use) -> str:
    """What to flag for a use left unflagged: a card's front is covered by its card's flag."""
    return "the card (or its picture)" if use.side == "front" else "the picture"


def picture_problems(
    record: AnyRecord,
    terms: tuple[str, ...],
    notes: set[str],
    drafts: set[tuple[str, str]],
    broken: frozenset[tuple[str, str]],
) -> Iterator[tuple[KeyPath, str]]:
    """Contested words in an unflagged picture's alt or caption; a vague or noteless flag."""
    draft = getattr(record, "draft", False)
    for use in uses_in(record):
        where = dotted(use.where)
        if use.flag is None:
            for name in ("alt", "caption"):
                term = find_term(terms, (getattr(use.image, name),))
                if term:
                    yield (
                        (*use.where, name),
                        f"{where}.{name}: '{term}' names contested imagery: flag"
                        f" {_flag_words(use)} with content_note (shows, note), or reword it",
                    )
        own: ContentNote | None = use.image.content_note
        if own is None:
            continue
        if is_vague(own.shows):
            yield (
                (*use.where, "content_note", "shows"),
                f"{where}.content_note.shows: '{own.shows}' does not say what the picture"
                " shows: name it, e.g. 'the pack laid out, with a golliwog card among them'",
            )
        if ("note", own.note) in broken and own.note not in notes:
            continue  # the note cannot be read now: its own problem says so
        why = _note_problem(where, own.note, "picture", notes, drafts, draft)
        if why:
            yield (*use.where, "content_note", "note"), why


def _note_problem(
    where: str, note: str, what: str, notes: set[str], drafts: set[tuple[str, str]], draft: bool
) -> str | None:
    """Why a flag's note cannot be shown with it (a draft, or no such note), or None."""
    if ("note", note) in drafts and not draft:
        return a_draft(f"{where}.content_note.note", "note", note)
    if note not in notes:
        return (
            f"{where}.content_note.note: unknown note '{note}' (a flagged {what} needs a note"
            " file in notes/ with this slug)"
        )
    return None


def flagged_where(checked: list[Checked]) -> dict[str, str]:
    """Where each flagged picture file is flagged, by its case-folded name (some disks fold it)."""
    found: dict[str, str] = {}
    for item in checked:
        for use in uses_in(item.record):
            if use.flag is not None:
                said = f"{item.source.path}, {dotted(use.where)}"
                found.setdefault(use.image.src.casefold(), said)
    return found


def shared_names(checked: list[Checked]) -> dict[str, list[tuple[KeyPath, str]]]:
    """Originals whose copies would share a folder under derived/: one would show the other's."""
    named = [(item, use) for item in checked for use in uses_in(item.record)]
    shared = shared_folders(use.image.src for _, use in named)
    found: dict[str, list[tuple[KeyPath, str]]] = {}
    for item, use in named:
        names = shared.get(picture_id(use.image.src))
        if names is None:
            continue
        others = ", ".join(f"'{n}'" for n in names if n != use.image.src)
        found.setdefault(item.rel, []).append(
            (
                (*use.where, "src"),
                f"{dotted(use.where)}.src: '{use.image.src}' and {others} make the same name"
                f" ('{picture_id(use.image.src)}') for the copies `kiosk images` keeps, so one"
                " would be shown with the other's: rename one file",
            )
        )
    return found


# Where a body names a file ((address), [ref]: address, <img src>), each linear in the body
_INLINE = re.compile(r"\]\([ \t]*\n?[ \t]*(<[^>\n]*>|[^\s)]+)")
_DEFINITION = re.compile(r"^[ ]{0,3}\[[^\]\n]{1,999}\]:[ \t]*(<[^>\n]*>|\S+)", re.M)
_IMG_TAG = re.compile(r"<img\b[^<>]{0,4000}>", re.I)
_SRC = re.compile(r"""\bsrc[ \t\n]*=[ \t\n]*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)


def body_images(body: str) -> Iterator[tuple[int, str]]:
    """(offset, address) of every picture or link a body places outside code (shown as text)."""
    masked = blank_code(body)
    for pattern in (_INLINE, _DEFINITION):
        for found in pattern.finditer(masked):
            written = found.group(1)
            yield found.start(1) + written.startswith("<"), written.strip("<>")
    for tag in _IMG_TAG.finditer(masked):
        src = _SRC.search(tag.group())
        if src is not None:
            group = next(g for g in (1, 2, 3) if src.group(g) is not None)
            yield tag.start() + src.start(group), src.group(group)


def picture_file(address: str) -> str | None:
    """The file under images/ an address names, resolved as a browser would, or None."""
    path = unquote(html.unescape(address.strip())).split("#", 1)[0].split("?", 1)[0]
    if not path or ":" in path.split("/", 1)[0] or path.startswith(("/", "\\")):
        return None
    clean = posixpath.normpath(path)
    return clean if clean.startswith("images/") else None


def body_picture_problems(
    source: SourceFile, flagged: dict[str, str], content_dir: Path | None = None
) -> Iterator[tuple[int, int, str]]:
    """(line, col, message) for each flagged picture a file's text places: text has no cover."""
    if not flagged and content_dir is None:
        return
    body = source.body
    for offset, address in body_images(body):
        name = picture_file(address)
        if name is None:
            continue
        if name.casefold() not in flagged:
            made = read_made(content_dir, name) if content_dir else None
            if made is None or not made.covered:
                continue
            flagged = {**flagged, name.casefold(): "covered when `kiosk images` last ran"}
        yield (
            *source.body_position(offset),
            f"the picture '{name}' is flagged ({flagged[name.casefold()]}): a page's text"
            " would show it without its cover, so remove it here (link to the set's page,"
            " where it is covered, instead)",
        )


def picture_warnings(checked: list[Checked], content_dir: Path) -> list[Problem]:
    """Pictures whose copies are missing or stale (a visitor sees only copies), once a file."""
    covered = flagged_files(c.record for c in checked)
    found: list[Problem] = []
    said: set[str] = set()
    for item in checked:
        for use in uses_in(item.record):
            src = use.image.src
            if src in said or image_problem(content_dir, src) is not None:
                continue
            said.add(src)
            now = state(content_dir, src, src in covered)
            if now == "made":
                continue
            why = (
                "not made yet: run `kiosk images` (until then pages send the whole original: no"
                " smaller sizes, no zoom)"
                if now == "missing"
                else "its copies are out of date (the file, or its flag, changed since they"
                " were made): run `kiosk images`"
            )
            message = f"{dotted(use.where)}.src: {why}"
            found.append(item.source.problem((*use.where, "src"), message, level="warning"))
    return found


def game_warnings(checked: list[Checked], engines: dict[str, str]) -> list[Problem]:
    """A game listed for a deck that cannot play it: the kiosk leaves it out, and says so."""
    found: list[Problem] = []
    for item in checked:
        record = item.record
        if not isinstance(record, SetRecord):
            continue
        for i, slug in enumerate(record.games):
            engine = engines.get(slug)
            why = unplayable(record, engine) if engine in registry.names() else None
            if why:
                message = f"games[{i}]: {slug} {why}"
                found.append(item.source.problem(("games", i), message, level="warning"))
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
            if game in record.games and engine not in registry.names():
                continue  # the game's file cannot be read: its own problem says so
            if game not in record.games:
                listed = ", ".join(record.games) or "none"
                why = f"own_rules.{game}: '{game}' is not one of this set's games ({listed})"
            elif variant not in registry.engine(engine).VARIANTS:
                known = ", ".join(registry.engine(engine).VARIANTS)
                why = f"own_rules.{game}: '{variant}' is not a rule variant of {game}"
                why += f" (known: {known})"
            else:
                continue
            found.setdefault(item.rel, []).append(item.source.problem(("own_rules", game), why))
    return found
