"""Stage 4, store: the catalogue as immutable snapshots, re-reading only changed files; whatever
a file or the folder holds is that path's problem, its last good version stays published, and
a request never waits for a refresh once there is a snapshot.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat as stat_mode
import threading
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from kiosk.catalogue.citations import citation_problems
from kiosk.catalogue.crosscheck import (
    Checked,
    collection_problems,
    game_warnings,
    own_rules_problems,
    picture_warnings,
)
from kiosk.catalogue.links import link_problems
from kiosk.catalogue.lint import warnings_of
from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import MAX_FILE_BYTES, SourceFile, claimed_key, read_bytes, too_big
from kiosk.catalogue.render import Audit, RenderProblem, render_bounded
from kiosk.catalogue.scan import OUTSIDE, Scan, StatKey, inside, scan
from kiosk.catalogue.scenario_check import check_scenario
from kiosk.catalogue.scenarios import Run
from kiosk.catalogue.schema import AnyRecord
from kiosk.catalogue.snapshot import Entry, Snapshot, snapshot_of
from kiosk.catalogue.validate import emblem_notes, validate_source
from kiosk.memo import memoized

log = logging.getLogger(__name__)

RACY_NS = 1_000_000_000  # a file changed this recently may change again unseen (same mtime tick)


@dataclass
class _FileState:
    stat: StatKey
    digest: str
    source: SourceFile
    record: AnyRecord | None
    html: str
    problems: list[Problem]
    racy: bool = False
    warnings: tuple[Problem, ...] = ()
    remarks: tuple[Problem, ...] = ()  # notes: choices the kiosk made, for the curator


# Pure in its bytes: each version of a file is read once, whichever app asks (docs "Caches")
@memoized
def _parse(
    path: str, raw: bytes
) -> tuple[SourceFile, AnyRecord | None, tuple[Problem, ...], str, Audit]:
    """Read, validate and render: any exception is the file's problem; unrenderable → no record."""
    try:
        source = read_bytes(path, raw)
        record, problems = validate_source(source)
    except Exception as exc:  # RecursionError, MemoryError, a bug: this file's problem
        log.exception("%s: could not be read", path)
        problem = Problem(path, 1, 1, f"could not be read ({type(exc).__name__}): {exc}")
        return SourceFile(path, None, problems=(problem,)), None, (problem,), "", Audit()
    html, audit, more = _rendered(source) if record is not None else ("", Audit(), [])
    return source, None if more else record, (*problems, *more), html, audit


def _rendered(source: SourceFile) -> tuple[str, Audit, list[Problem]]:
    """A published file's HTML and its ``Audit``, or the problem that keeps it unpublished."""
    try:
        return *render_bounded(source.body), []
    except RenderProblem as exc:
        line = source.body_line + exc.line - 1
        return "", Audit(), [Problem(source.path, line, 1, exc.message)]
    except Exception as exc:  # a bug, or the child process could not be run: this file's
        log.exception("%s: could not be rendered", source.path)
        message = f"could not be rendered ({type(exc).__name__}): {exc}"
        return "", Audit(), [Problem(source.path, source.body_line, 1, message)]


class Refused(OSError):
    """A file the store will not open: a link out of the folder, or not a regular file."""


def open_inside(root: Path, rel: str) -> int:
    """A descriptor of regular file ``rel``, resolved again, no link out, no pipe to block on."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(root, rel))
    if not inside(real_root, real):
        raise Refused(OUTSIDE)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(real, flags)
    if not stat_mode.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Refused("not a regular file: not read")
    return fd


def read_inside(root: Path, rel: str) -> tuple[bytes, int]:
    """A file's bytes, never more than the limit in memory, and its size on disk."""
    with open(open_inside(root, rel), "rb") as file:
        raw = file.read(MAX_FILE_BYTES + 1)
        return raw, max(len(raw), os.fstat(file.fileno()).st_size)


class Catalogue:
    """The content folder, read lazily and kept current: ask ``current()`` on every request."""

    def __init__(
        self,
        content_dir: str | os.PathLike[str],
        label: str | None = None,
        rescan_s: float = 0.0,
    ) -> None:
        """``label``: how paths are shown; ``rescan_s``: walk the folder at most this often."""
        self.content_dir = Path(content_dir)
        self.rescan_s = rescan_s  # a busy kiosk need not stat every file on every request
        self._scanned_at = float("-inf")  # time.monotonic() of the last walk
        if label is None:
            label = self.content_dir.name or str(self.content_dir)
        self.label = label.rstrip("/\\") or label
        self._lock = threading.Lock()  # held by the one thread refreshing
        self._scan_result: Scan | None = None
        self._files: dict[str, _FileState] = {}
        self._last_good: dict[str, Checked] = {}
        self._html: dict[str, str] = {}  # rel → html of the last good version
        self._snapshot: Snapshot | None = None
        self._run_of: dict[str, Run] = {}  # rel → run, for the current check
        self._published: dict[str, int] = {}  # rel → order of first publication (slug owners)
        self._warnings: list[Problem] = []  # the last collection check's warnings

    def display(self, rel: str) -> str:
        """The path shown for a file: the label joined with its path inside the folder."""
        return f"{self.label}/{rel}" if self.label else rel

    def current(self) -> Snapshot:
        """The catalogue as on disk now; while another thread refreshes, the one before at once."""
        if not self._lock.acquire(blocking=self._snapshot is None):
            return self._snapshot  # type: ignore[return-value]  # not None: it was not blocking
        try:
            return self._refresh()
        finally:
            self._lock.release()

    def _refresh(self) -> Snapshot:
        """``current``'s work, under the lock."""
        now = time.monotonic()
        if (
            self._snapshot is not None
            and self._scan_result is not None
            and now - self._scanned_at < self.rescan_s
            and not any(state.racy for state in self._files.values())
        ):  # walked a moment ago, and no file was too fresh to trust its stat
            return self._snapshot
        self._scanned_at = now
        try:
            found = scan(str(self.content_dir))  # never raises for what the folder holds
            if self._snapshot is not None and not self._differs(found):
                return self._snapshot
            fresh = self._rebuild(found)
        except Exception as exc:  # a bug here must not take every page down with it
            log.exception("could not refresh the catalogue")
            self._scan_result = None  # try again on the next request
            if self._snapshot is None:
                problem = Problem(self.label, 1, 1, f"could not read the content: {exc!r}")
                self._snapshot = Snapshot({}, {}, {}, {}, (problem,), "error")
            return self._snapshot
        known = set(self._snapshot.problems) if self._snapshot is not None else set()
        for problem in fresh.problems:
            if problem not in known:  # each problem logged once, when it appears
                log.warning("content problem: %s", problem)
        self._snapshot = fresh
        return fresh

    def _differs(self, found: Scan) -> bool:
        old = self._scan_result
        if old is None or found.markdown != old.markdown or found.images != old.images:
            return True
        if found.missing != old.missing or found.links != old.links or found.faults != old.faults:
            return True
        for rel, state in self._files.items():
            if state.racy:
                digest = self._digest_of(rel)
                if digest != state.digest:
                    return True
                state.racy = self._is_racy(state.stat)
        return False

    def _digest_of(self, rel: str) -> str | None:
        try:
            return hashlib.sha1(read_inside(self.content_dir, rel)[0]).hexdigest()
        except OSError:
            return None

    @staticmethod
    def _is_racy(stat: StatKey) -> bool:
        return time.time_ns() - stat[0] < RACY_NS

    def _read(self, rel: str, stat: StatKey) -> _FileState:
        path = self.display(rel)
        try:
            raw, size = read_inside(self.content_dir, rel)
        except OSError as exc:
            why = exc if isinstance(exc, Refused) else f"cannot read file: {exc.strerror or exc}"
            problem = Problem(path, 1, 1, str(why))
            source = SourceFile(path, None, problems=(problem,))
            return _FileState(stat, "", source, None, "", [problem])
        digest = hashlib.sha1(raw).hexdigest()
        big = too_big(path, size)
        if big is not None:
            source = SourceFile(path, None, problems=(big,))
            return _FileState(stat, digest, source, None, "", [big], self._is_racy(stat))
        source, record, problems, html, audit = _parse(path, raw)
        racy = self._is_racy(stat)
        warnings = tuple(warnings_of(source, audit))
        remarks = tuple(emblem_notes(source, record)) if record is not None else ()
        return _FileState(
            stat, digest, source, record, html, list(problems), racy, warnings, remarks
        )

    def _rebuild(self, scan: Scan) -> Snapshot:
        """Re-read what changed, re-run the collection checks, publish a new snapshot."""
        for rel in list(self._files):
            if rel in scan.markdown:
                continue
            if scan.hides(rel):  # a loop, a folder that cannot be read: it may still be there
                self._files[rel].racy = False  # keep it as last read; nothing to re-read now
                continue
            del self._files[rel]
            self._last_good.pop(rel, None)
            self._html.pop(rel, None)
            self._published.pop(rel, None)
        for rel, stat in scan.markdown.items():
            state = self._files.get(rel)
            if state is None or state.stat != stat or state.racy:
                self._files[rel] = self._read(rel, stat)
        self._scan_result = scan

        current = sorted(
            (
                Checked(rel, state.source, state.record)
                for rel, state in self._files.items()
                if state.record is not None
            ),
            key=self._owner_order,
        )
        current_rels = {c.rel for c in current}
        fallbacks = [
            good for rel, good in sorted(self._last_good.items()) if rel not in current_rels
        ]
        images = (frozenset(scan.images), frozenset(scan.links))

        # Pass 1: current good files, then last good versions of broken ones (which yield)
        found = self._check(current + fallbacks, images)
        problems = [p for state in self._files.values() for p in state.problems]
        published: list[Checked] = []
        retry: list[Checked] = []
        for item in current:
            if item.rel in found:
                problems += found[item.rel]
                if item.rel in self._last_good:
                    retry.append(self._last_good[item.rel])
            else:
                self._last_good[item.rel] = item
                self._html[item.rel] = self._files[item.rel].html
                self._published.setdefault(item.rel, len(self._published))
                published.append(item)
        published += [good for good in fallbacks if good.rel not in found]
        # Pass 2: a file whose new version broke a reference falls back to its last good one.
        if retry:
            again = self._check(published + retry, images)
            published += [good for good in retry if good.rel not in again]
        shown = {id(item) for item in published}
        for item in fallbacks + retry:
            if id(item) in shown:
                log.warning("%s: serving its last good version", item.source.path)
        if scan.missing:
            problems.append(Problem(self.label, 1, 1, "content folder not found"))
        for rel, what in scan.faults.items():
            problems.append(Problem(self.display(rel) if rel else self.label, 1, 1, what))
        return self._snapshot_of(published, problems, scan)

    def _owner_order(self, item: Checked) -> tuple[int, bool, str]:
        """A claimed slug's keeper: first published, then the file named after it, then by path."""
        first = self._published.get(item.rel, len(self._published))
        named = PurePosixPath(item.rel).stem == item.record.key
        return first, not named, item.rel

    def _check(
        self, items: list[Checked], images: tuple[frozenset[str], frozenset[str]]
    ) -> dict[str, list[Problem]]:
        """The collection checks; ``images`` are the regular files and the links in images/."""
        games = {c.record.key for c in items if c.record.kind == "game"}
        notes = {c.record.key for c in items if c.record.kind == "note"}
        engines = {c.record.key: c.record.engine for c in items if c.record.kind == "game"}
        unread = [state.source for state in self._files.values() if state.record is None]
        broken = frozenset(key for key in map(claimed_key, unread) if key is not None)
        found = collection_problems(items, self.content_dir, games, notes, *images, broken=broken)
        cited, unused = citation_problems(items, any(kind == "sources" for kind, _ in broken))
        linked, unreached = link_problems(items, complete=not unread)
        for more in (own_rules_problems(items, engines), cited, linked):
            for rel, problems in more.items():
                found.setdefault(rel, []).extend(problems)
        self._warnings = game_warnings([c for c in items if c.rel not in found], engines)
        self._warnings += unused + unreached
        self._warnings += picture_warnings(
            [c for c in items if c.rel not in found], self.content_dir
        )
        # a set held back holds back its examples quietly: one mistake, one message
        broken |= {
            ("set", c.record.key) for c in items if c.record.kind == "set" and c.rel in found
        }
        sets = {
            c.record.key: c.record for c in items if c.record.kind == "set" and c.rel not in found
        }
        for item in items:
            if item.record.kind != "scenario" or item.rel in found:
                continue
            record: Any = item.record
            if {("game", record.game), ("set", record.deck)} & broken and not (
                record.game in engines and record.deck in sets
            ):  # its game or deck cannot be read now: that file's problem says so
                found.setdefault(item.rel, [])
                continue
            run, problems = check_scenario(item, items, sets, engines)
            if problems:
                found.setdefault(item.rel, []).extend(problems)
            elif run is not None:
                self._run_of[item.rel] = run
        return found

    def _snapshot_of(
        self, published: list[Checked], problems: list[Problem], scan: Scan
    ) -> Snapshot:
        """The snapshot of what is published now, with every file's warnings and remarks."""
        entries = [
            (
                Entry(item.record, self._html.get(item.rel, ""), item.source.path),
                self._run_of.get(item.rel) if item.record.kind == "scenario" else None,
            )
            for item in published
        ]
        states = self._files.values()
        return snapshot_of(
            entries,
            problems,
            {rel: state.digest for rel, state in self._files.items()},
            scan.images,
            warnings=[*(w for state in states for w in state.warnings), *self._warnings],
            remarks=[r for state in states for r in state.remarks],
        )
