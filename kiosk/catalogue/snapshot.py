"""Stage 4, store (its product): the catalogue at one moment, made once and never changed, so
a request never sees half an update.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from kiosk.catalogue.problems import Problem
from kiosk.catalogue.scenarios import Run
from kiosk.catalogue.schema import AnyRecord

KINDS = ("set", "game", "note", "page", "scenario", "terms", "words", "sources")
FIELDS = {kind: kind if kind.endswith("s") else f"{kind}s" for kind in KINDS}  # Snapshot's
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Entry:
    """One published record with its rendered, sanitised body and the file it came from."""

    record: AnyRecord
    html: str
    path: str  # as shown to curators, e.g. content/sets/misc-869-1986.md


@dataclass(frozen=True)
class Snapshot:
    """The whole catalogue at one moment, never changed (shared across threads)."""

    sets: Mapping[str, Entry]
    games: Mapping[str, Entry]
    notes: Mapping[str, Entry]
    pages: Mapping[str, Entry]
    problems: tuple[Problem, ...]
    version: str
    files: int = 0
    scenarios: Mapping[str, Entry] = field(default_factory=dict)  # "game/slug" → Entry
    runs: Mapping[str, Run] = field(default_factory=dict)  # "game/slug" → the engine's run
    terms: Mapping[str, Entry] = field(default_factory=dict)  # the contested-terms lists
    words: Mapping[str, Entry] = field(default_factory=dict)  # curators' visitor-facing words
    sources: Mapping[str, Entry] = field(default_factory=dict)  # the curators' sources files
    # Files with ``draft: true`` by kind, then slug: checked like any, shown only in preview.
    drafts: Mapping[str, Mapping[str, Entry]] = field(default_factory=dict)
    warnings: tuple[Problem, ...] = ()  # what a visitor will not see; never keeps a file back
    remarks: tuple[Problem, ...] = ()  # choices the kiosk made (emblems), for curators to confirm
    # What is worked out from this content, dying with it (docs/architecture.md, "Caches")
    _kept: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)
    _kept_lock: Any = field(default_factory=threading.Lock, compare=False, repr=False)

    def kept(self, key: Hashable, make: Callable[[], V]) -> V:
        """``make()``, worked out once for this snapshot (``key`` names what it is)."""
        try:
            return self._kept[key]
        except KeyError:
            pass
        value = make()  # outside the lock: two threads may both make it, and one is kept
        with self._kept_lock:
            return self._kept.setdefault(key, value)

    @property
    def ok(self) -> bool:
        """True when no file has a problem."""
        return not self.problems

    def of_kind(self, kind: str) -> Mapping[str, Entry]:
        """The entries of one kind ("set", "game", "note", "page")."""
        return getattr(self, FIELDS[kind])


def _sort_key(entry: Entry) -> tuple[int, str, str]:
    record = entry.record
    return (getattr(record, "order", 100), record.title.casefold(), record.key)


def snapshot_of(
    published: Iterable[tuple[Entry, Run | None]],
    problems: Iterable[Problem],
    digests: Mapping[str, str],
    images: Mapping[str, int],
    warnings: Iterable[Problem] = (),
    remarks: Iterable[Problem] = (),
) -> Snapshot:
    """The snapshot of ``published`` (first of a slug wins); files and pictures make the version."""
    by_kind: dict[str, dict[str, Entry]] = {kind: {} for kind in KINDS}
    drafts: dict[str, dict[str, Entry]] = {kind: {} for kind in KINDS}
    runs: dict[str, Run] = {}
    for entry, run in published:
        record = entry.record
        if getattr(record, "draft", False):
            drafts[record.kind].setdefault(record.key, entry)
            continue
        by_kind[record.kind].setdefault(record.key, entry)
        if run is not None:
            runs.setdefault(record.key, run)

    ordered = {
        FIELDS[kind]: MappingProxyType(dict(sorted(table.items(), key=lambda kv: _sort_key(kv[1]))))
        for kind, table in by_kind.items()
    }
    digest = hashlib.sha1()
    for rel, file_digest in sorted(digests.items()):
        digest.update(f"{rel}\0{file_digest}\n".encode())
    for rel, size in sorted(images.items()):
        digest.update(f"{rel}\0{size}\n".encode())
    unique = sorted(set(problems), key=lambda p: (p.path, p.line, p.col, p.message))
    return Snapshot(
        **ordered,
        problems=tuple(unique),
        version=digest.hexdigest()[:12],
        files=len(digests),
        runs=MappingProxyType(runs),
        drafts=MappingProxyType(
            {kind: MappingProxyType(table) for kind, table in drafts.items() if table}
        ),
        warnings=tuple(sorted(set(warnings))),
        remarks=tuple(sorted(remarks)),
    )
