"""Citations in prose, Pandoc's way (``[@key]``, ``[@a; @b]``, ``[@key, p. 304]``): the one place
that knows the syntax. ``mark`` turns each into a token markdown and nh3 leave alone, for the
pages' notes (``kiosk.web.citing``); the checks of keys and claim fields are here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kiosk.catalogue.problems import Problem, did_you_mean
from kiosk.catalogue.read import KeyPath, Position, SourceFile
from kiosk.catalogue.schema import AnyRecord, SourcesRecord

# A citation: brackets holding one or more "@key" items separated by ";", each with an
# optional prefix ("see @key") and locator ("@key, p. 304"). Not a link's text ("](").
CITATION = re.compile(
    r"\[(?P<inner>[^\[\]]{0,400}?(?<![\w@])@[A-Za-z0-9_][^\[\]]{0,400}?)\](?![(\[])"
)
ITEM = re.compile(
    r"^\s*(?P<prefix>[^@;]*?)\s*(?<![\w])@(?P<key>[A-Za-z0-9_](?:[\w-]|[.:/](?=\w))*)"
    r"\s*(?:,\s*(?P<locator>[^;]*?))?\s*$",
    re.S,
)
# Where a body's markdown is code (shown as written): never searched for citations
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.S)

OPEN, CLOSE = "\ufff9", "\ufffb"  # interlinear annotation marks: no text of ours has them
TOKEN = re.compile(f"{OPEN}([0-9a-f]*){CLOSE}")

# What a claim field may say instead of citing: the words a visitor reads as "no source"
UNCITED_OK = re.compile(r"not recorded|our inference", re.I)
SOURCES_FILE = "sources.md"  # the curators' sources file, at the top of the content folder


@dataclass(frozen=True)
class Cited:
    """One source named in a citation: its key, what follows it (a page), what precedes it."""

    key: str
    locator: str = ""
    prefix: str = ""
    offset: int = 0  # where its '@' is in the text searched


@dataclass(frozen=True)
class Citation:
    """A citation found in a text: where it starts and ends, and the sources it names."""

    start: int
    end: int
    items: tuple[Cited, ...]


def blank(found: re.Match[str]) -> str:
    """A match as spaces, its line breaks kept: offsets and lines stay as they were."""
    return re.sub(r"[^\n]", " ", found.group())


def blank_code(body: str) -> str:
    """A markdown body with its code blanked: what is in code is shown as text, never read."""
    return CODE_SPAN.sub(blank, FENCE.sub(blank, body))


def find(text: str, markdown: bool = False) -> list[Citation]:
    """Every citation in ``text`` in order; in markdown, none inside code."""
    searched = blank_code(text) if markdown else text
    found = []
    for match in CITATION.finditer(searched):
        items, at = [], match.start("inner")
        for part in text[match.start("inner") : match.end("inner")].split(";"):
            item = ITEM.match(part)
            if item is None:
                break
            items.append(
                Cited(
                    item.group("key"),
                    " ".join((item.group("locator") or "").split()),
                    " ".join(item.group("prefix").split()),
                    at + item.start("key") - 1,
                )
            )
            at += len(part) + 1
        else:
            found.append(Citation(match.start(), match.end(), tuple(items)))
    return found


def _encode(items: Iterable[Cited]) -> str:
    text = "\x1e".join(f"{c.key}\x1f{c.locator}\x1f{c.prefix}" for c in items)
    return OPEN + text.encode().hex() + CLOSE


def decode(hexed: str) -> tuple[Cited, ...]:
    """A token's hex digits → the sources it names (nothing for a token that is not ours)."""
    try:
        text = bytes.fromhex(hexed).decode()
    except ValueError:
        return ()
    out = []
    for part in text.split("\x1e"):
        key, _, rest = part.partition("\x1f")
        locator, _, prefix = rest.partition("\x1f")
        if key:
            out.append(Cited(key, locator, prefix))
    return tuple(out)


def mark(body: str) -> str:
    """A body with each citation replaced by its token, ready for the markdown renderer."""
    body = body.replace(OPEN, "").replace(CLOSE, "")
    out, last = [], 0
    for citation in find(body, markdown=True):
        out += [body[last : citation.start].rstrip(" \t"), _encode(citation.items)]
        last = citation.end
    return "".join(out) + body[last:]


def unmark(html: str) -> str:
    """HTML with its tokens taken out (where no notes are shown)."""
    return TOKEN.sub("", html)


def plain(text: str) -> str:
    """A field's text with its citations taken out (a title, a summary in a list)."""
    out, last = [], 0
    for citation in find(text):
        out.append(text[last : citation.start].rstrip(" "))
        last = citation.end
    return "".join(out) + text[last:]


def strings(value: Any, loc: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    """Every string of a front matter (or a record's dump), with its key path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from strings(item, (*loc, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from strings(item, (*loc, i))
    elif isinstance(value, str):
        yield loc, value


def keys_cited(record: AnyRecord, html: str) -> set[str]:
    """The keys a published record cites, in its fields and its rendered body."""
    if isinstance(record, SourcesRecord):
        return set()
    keys = {c.key for token in TOKEN.findall(html) for c in decode(token)}
    for _, text in strings(record.model_dump()):
        keys.update(c.key for citation in find(text) for c in citation.items)
    return keys


def registry(records: Iterable[AnyRecord]) -> dict[str, Any]:
    """Key → CitedSource over every sources file (the first of a key wins)."""
    out: dict[str, Any] = {}
    for record in records:
        if isinstance(record, SourcesRecord):
            for source in record.sources:
                out.setdefault(source.key, source)
    return out


def _front_position(source: SourceFile, loc: KeyPath, needle: str, after: Position) -> Position:
    """Where ``needle`` is written in the front matter, at or after ``after`` (line, col)."""
    lines = source.front.splitlines()
    line, col = after
    for n in range(max(line - 2, 0), len(lines)):
        at = lines[n].find(needle, col - 1 if n == line - 2 else 0)
        if at >= 0:
            return n + 2, at + 1
    return source.position(loc)


def cited_at(source: SourceFile) -> Iterator[tuple[str, int, int]]:
    """(key, line, col) of every source a file cites, in its body and its front matter."""
    data = source.data or {}
    if data.get("kind") == "sources":
        return
    for citation in find(source.body, markdown=True):
        for item in citation.items:
            yield item.key, *source.body_position(item.offset)
    for loc, text in strings(data):
        cursor = source.position(loc)
        for citation in find(text):
            for item in citation.items:
                cursor = _front_position(source, loc, "@" + item.key, cursor)
                yield item.key, *cursor
                cursor = (cursor[0], cursor[1] + 1)


def citation_problems(
    checked: Iterable[Any], sources_broken: bool = False
) -> tuple[dict[str, list[Problem]], list[Problem]]:
    """Unknown keys (errors, by file) and unused sources (warnings); none if sources are broken."""
    items = list(checked)
    known = registry(item.record for item in items)
    found: dict[str, list[Problem]] = {}
    used: set[str] = set()
    where = next(
        (i.source.path for i in items if isinstance(i.record, SourcesRecord)), SOURCES_FILE
    )
    for item in items:
        for key, line, col in cited_at(item.source):
            used.add(key)
            if key in known or sources_broken:
                continue
            message = (
                f"unknown source '@{key}'{did_you_mean(key, known, '@')}: add it to {where},"
                " or correct the key"
                if known
                else f"'@{key}' cites a source, but there is no sources file: add {where}"
                " (docs/curators.md, 'Citing a source')"
            )
            found.setdefault(item.rel, []).append(Problem(item.source.path, line, col, message))
    unused = []
    for item in items:
        if not isinstance(item.record, SourcesRecord):
            continue
        for i, source in enumerate(item.record.sources):
            if source.key not in used:
                unused.append(
                    item.source.problem(
                        ("sources", i, "key"),
                        f"source '{source.key}' is cited nowhere: cite it as"
                        f" [@{source.key}] where it is used, or remove it",
                        level="warning",
                    )
                )
    return found, unused


def claim_problems(source: SourceFile, record: AnyRecord) -> list[Problem]:
    """A claim field that neither cites nor says "not recorded" or "our inference"; a key twice."""
    found = []
    if isinstance(record, SourcesRecord):
        seen: dict[str, int] = {}
        for i, cited in enumerate(record.sources):
            if cited.key in seen:
                found.append(
                    source.problem(
                        ("sources", i, "key"),
                        f"sources[{i}].key: '{cited.key}' is already the key of"
                        f" sources[{seen[cited.key]}]: give each source its own key",
                    )
                )
            seen.setdefault(cited.key, i)
        return found
    for name, info in type(record).model_fields.items():
        extra = info.json_schema_extra
        value = getattr(record, name)
        if not (isinstance(extra, dict) and extra.get("claim")) or not isinstance(value, str):
            continue
        if find(value) or UNCITED_OK.search(value):
            continue
        found.append(
            source.problem(
                (name,),
                f"{name}: '{value[:60]}' states a fact with no source: cite one at its end,"
                ' e.g. "... [@key]", or write "not recorded" or "(our inference)" in it',
            )
        )
    return found
