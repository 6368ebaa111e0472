"""The store: snapshots, live reload, last good versions, cheap refreshes, threads."""

from __future__ import annotations

import os
import shutil
import threading
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from fixture_content import GOOD

from kiosk.catalogue import store
from kiosk.catalogue.store import Catalogue, Entry, Snapshot

OLD_NS = 1_600_000_000 * 10**9  # well in the past: not "racy"


def copy_good(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for path in content.rglob("*"):
        os.utime(path, ns=(OLD_NS, OLD_NS))
    return content


def write(path: Path, text: str, tick: int) -> None:
    """Write a file and give it a distinct, old mtime (so only stat changes are seen)."""
    path.write_text(text, encoding="utf-8")
    stamp = OLD_NS + tick * 10**9
    os.utime(path, ns=(stamp, stamp))


def retitle(path: Path, title: str, tick: int) -> None:
    text = path.read_text(encoding="utf-8")
    lines = [f"title: {title}" if line.startswith("title:") else line for line in text.splitlines()]
    write(path, "\n".join(lines) + "\n", tick)


@pytest.fixture
def content(tmp_path):
    return copy_good(tmp_path)


@pytest.fixture
def reads(monkeypatch):
    """Count the files the store reads."""
    seen: list[str] = []
    real = Catalogue._read

    def counting(self, rel, stat):
        seen.append(rel)
        return real(self, rel, stat)

    monkeypatch.setattr(Catalogue, "_read", counting)
    return seen


def test_snapshot_holds_entries(content):
    snapshot = Catalogue(content).current()
    entry = snapshot.sets["test-1-2000"]
    assert isinstance(entry, Entry)
    assert entry.path == "content/sets/test-snap.md"
    assert entry.record.accession == "TEST.1-2000"
    assert '<a href="/notes/golliwog" rel="noopener noreferrer">' in entry.html
    assert snapshot.of_kind("game") is snapshot.games
    assert snapshot.files == 4
    assert snapshot.ok
    assert len(snapshot.version) == 12


def test_snapshot_is_immutable(content):
    snapshot = Catalogue(content).current()
    with pytest.raises(FrozenInstanceError):
        snapshot.version = "x"
    with pytest.raises(TypeError):
        snapshot.sets["new"] = snapshot.sets["test-1-2000"]
    assert isinstance(snapshot.problems, tuple)


def test_label_is_how_paths_are_shown(content):
    assert (
        Catalogue(content, label="somewhere/else").current().sets["test-1-2000"].path
        == "somewhere/else/sets/test-snap.md"
    )


def test_entries_ordered_by_order_then_title(content):
    for slug, title, order in [("c", "Cribbage", 5), ("b", "Beggar", 5), ("a", "Zulu", 1)]:
        write(
            content / "pages" / f"{slug}.md",
            f"---\nkind: page\nslug: {slug}\ntitle: {title}\norder: {order}\n---\n",
            1,
        )
    assert list(Catalogue(content).current().pages) == ["a", "b", "c", "about"]


def test_nothing_changed_reads_nothing(content, reads):
    catalogue = Catalogue(content)
    first = catalogue.current()
    assert len(reads) == 4
    assert catalogue.current() is first
    assert len(reads) == 4


def test_one_change_reads_one_file(content, reads):
    catalogue = Catalogue(content)
    first = catalogue.current()
    retitle(content / "games" / "snap.md", "Snap!", 1)
    second = catalogue.current()
    assert reads[4:] == ["games/snap.md"]
    assert second.games["snap"].record.title == "Snap!"
    assert first.games["snap"].record.title == "Snap"  # the old snapshot never changes
    assert second.version != first.version


def test_live_reload_keeps_last_good_version(content):
    catalogue = Catalogue(content)
    game = content / "games" / "snap.md"
    retitle(game, "Snap, edited", 1)
    assert catalogue.current().games["snap"].record.title == "Snap, edited"

    retitle(game, "[unclosed", 2)  # a curator's typo
    broken = catalogue.current()
    assert broken.games["snap"].record.title == "Snap, edited"  # last good stays
    assert [str(p) for p in broken.problems] == [
        "content/games/snap.md:5:7: YAML: expected ',' or ']', but got ':'"
        " (while parsing a flow sequence started at 4:8)"
    ]
    assert "test-1-2000" in broken.sets  # the set that links to it stays too
    assert not broken.ok

    retitle(game, "Snap, fixed", 3)
    fixed = catalogue.current()
    assert fixed.problems == ()
    assert fixed.games["snap"].record.title == "Snap, fixed"


def test_new_broken_file_without_last_good_is_skipped(content):
    catalogue = Catalogue(content)
    write(content / "notes" / "new.md", "---\nkind: note\nslug: new\n---\n", 1)
    snapshot = catalogue.current()
    assert "new" not in snapshot.notes
    assert {p.path for p in snapshot.problems} == {"content/notes/new.md"}


def test_broken_reference_falls_back_to_last_good(content):
    catalogue = Catalogue(content)
    assert catalogue.current().sets["test-1-2000"].record.order == 1
    path = content / "sets" / "test-snap.md"
    text = path.read_text(encoding="utf-8")
    write(path, text.replace("  - snap\n", "  - snapp\n").replace("order: 1", "order: 2"), 1)
    snapshot = catalogue.current()
    assert snapshot.sets["test-1-2000"].record.order == 1  # the last good version
    assert [p.message for p in snapshot.problems] == [
        "games[0]: unknown game 'snapp' (no file in games/ has this slug)"
    ]


def test_deleting_a_note_unpublishes_cards_that_need_it(content):
    catalogue = Catalogue(content)
    assert "test-1-2000" in catalogue.current().sets
    (content / "notes" / "golliwog.md").unlink()
    snapshot = catalogue.current()
    assert "golliwog" not in snapshot.notes
    # A flagged card must never be shown without its note, not even from a last good version.
    assert "test-1-2000" not in snapshot.sets
    assert "unknown note 'golliwog'" in snapshot.problems[0].message


def test_missing_image_and_its_arrival(content):
    catalogue = Catalogue(content)
    (content / "images" / "box.png").rename(content / "box.png")
    assert "images[0].src: image file 'images/box.png' not found" in [
        p.message for p in catalogue.current().problems
    ]
    (content / "box.png").rename(content / "images" / "box.png")
    assert catalogue.current().problems == ()


def test_same_size_edit_in_the_same_tick_is_seen(content):
    """A file written twice within the clock's tick, same size: the content hash tells."""
    catalogue = Catalogue(content)
    game = content / "games" / "snap.md"
    game.write_text(game.read_text(encoding="utf-8").replace("Snap\n", "Snip\n", 1))
    stat = game.stat()
    assert catalogue.current().games["snap"].record.title == "Snip"
    game.write_text(game.read_text(encoding="utf-8").replace("Snip\n", "Snop\n", 1))
    os.utime(game, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert game.stat().st_size == stat.st_size
    assert catalogue.current().games["snap"].record.title == "Snop"


def test_missing_content_folder(tmp_path):
    snapshot = Catalogue(tmp_path / "nowhere").current()
    assert [str(p) for p in snapshot.problems] == ["nowhere:1:1: content folder not found"]
    assert snapshot.sets == {}


def test_skips_non_content_files(content):
    for name in ["README.md", ".hidden.md", "_draft.md", "#autosave.md#", "notes.txt"]:
        write(content / name, "not front matter", 1)
    write(content / "sets" / ".swap.md", "not front matter", 1)
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert snapshot.files == 4


def test_threads_share_one_catalogue(content):
    catalogue = Catalogue(content)
    seen: list[Snapshot] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(50):
                seen.append(catalogue.current())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for tick in range(1, 6):
        retitle(content / "games" / "snap.md", f"Snap {tick}", tick)
    for t in threads:
        t.join()
    assert errors == []
    assert len(seen) == 400
    assert all("snap" in s.games for s in seen)  # a half-written file: last good stays
    assert catalogue.current().games["snap"].record.title == "Snap 5"


def test_odd_trees(content):
    (content / "games" / "folder.md").mkdir()
    (content / "loop").symlink_to(content, target_is_directory=True)
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert snapshot.files == 4


def test_a_fresh_file_turned_into_a_loop_is_kept_and_not_read_again(content, reads):
    catalogue = Catalogue(content)
    catalogue.current()
    snap = content / "games" / "snap.md"
    snap.write_text(snap.read_text(encoding="utf-8").replace("title: Snap", "title: Snap!"))
    assert catalogue.current().games["snap"].record.title == "Snap!"  # fresh: "racy"
    snap.unlink()
    snap.symlink_to("snap.md")  # a loop where the file was
    looped = catalogue.current()
    assert [str(p) for p in looped.problems] == [
        "content/games/snap.md:1:1: a symbolic link that leads round in a loop: not read"
        " (delete it, or put the file here)"
    ]
    assert looped.games["snap"].record.title == "Snap!"  # its last good version
    read = len(reads)
    for _ in range(3):  # a fault that stays is not a change: nothing re-read, no new snapshot
        assert catalogue.current() is looped
    assert len(reads) == read


def test_a_link_to_a_file_inside_the_folder_is_read_as_that_file(content):
    (content / "notes" / "golliwog.md").rename(content / "golliwog.txt")
    (content / "notes" / "golliwog.md").symlink_to("../golliwog.txt")
    snapshot = Catalogue(content).current()
    assert snapshot.problems == ()
    assert "golliwog" in snapshot.notes


def test_a_bug_keeps_the_last_snapshot(content, monkeypatch, caplog):
    catalogue = Catalogue(content)
    first = catalogue.current()

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(store, "collection_problems", broken)
    retitle(content / "games" / "snap.md", "Snap!", 1)
    assert catalogue.current() is first
    assert "could not refresh the catalogue" in caplog.text
    monkeypatch.undo()
    assert catalogue.current().games["snap"].record.title == "Snap!"


def test_a_bug_on_first_read_is_a_problem(content, monkeypatch, caplog):
    monkeypatch.setattr(store, "collection_problems", lambda *a: 1 / 0)
    snapshot = Catalogue(content).current()
    assert snapshot.sets == {}
    assert str(snapshot.problems[0]).startswith("content:1:1: could not read the content:")


def test_problems_are_logged_once(content, caplog):
    catalogue = Catalogue(content)
    catalogue.current()
    write(
        content / "sets" / "test-snap.md",
        (content / "sets" / "test-snap.md").read_text().replace("note: golliwog", "note: x"),
        1,
    )
    with caplog.at_level("WARNING", logger="kiosk.catalogue"):
        catalogue.current()
        retitle(content / "games" / "snap.md", "Snap!", 2)
        catalogue.current()
    problems = [r.getMessage() for r in caplog.records if "content problem" in r.getMessage()]
    assert problems == [
        "content problem: content/sets/test-snap.md:29:13: cards[2].content_note.note:"
        " unknown note 'x' (a flagged card needs a note file in notes/ with this slug)"
    ]
    assert "content/sets/test-snap.md: serving its last good version" in caplog.text


def test_parsing_is_shared_between_catalogues(content, tmp_path):
    store._parse.cache_clear()
    Catalogue(content).current()
    misses = store._parse.memo.misses
    again = Catalogue(content).current()
    assert store._parse.memo.misses == misses  # the second app parses nothing
    assert again.games["snap"].record.title == "Snap"


class Clock:
    """A stand-in for ``time.monotonic`` in the store, moved on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(store.time, "monotonic", fake)
    return fake


def test_rescan_interval_walks_at_most_that_often(content, clock, monkeypatch):
    walks: list[str] = []
    real = store.scan
    monkeypatch.setattr(store, "scan", lambda root: walks.append(root) or real(root))
    catalogue = Catalogue(content, rescan_s=1.0)
    first = catalogue.current()
    retitle(content / "games" / "snap.md", "Snap, edited", 1)
    clock.now += 0.5
    assert catalogue.current() is first  # within the interval: not walked again
    assert len(walks) == 1
    clock.now += 0.6
    assert catalogue.current().games["snap"].record.title == "Snap, edited"  # then seen
    assert len(walks) == 2


def test_rescan_interval_still_walks_while_a_file_is_racy(content, clock):
    catalogue = Catalogue(content, rescan_s=60.0)
    catalogue.current()
    game = content / "games" / "snap.md"
    game.write_text(game.read_text(encoding="utf-8").replace("Snap\n", "Snip\n", 1))
    clock.now += 61
    assert catalogue.current().games["snap"].record.title == "Snip"  # fresh mtime: racy
    game.write_text(game.read_text(encoding="utf-8").replace("Snip\n", "Snop\n", 1))
    assert catalogue.current().games["snap"].record.title == "Snop"  # no wait while racy


def test_no_rescan_interval_by_default(content, clock):
    catalogue = Catalogue(content)
    assert catalogue.rescan_s == 0.0
    catalogue.current()
    retitle(content / "games" / "snap.md", "Snap, edited", 1)
    assert catalogue.current().games["snap"].record.title == "Snap, edited"  # same instant
