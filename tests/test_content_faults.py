"""Faults that still reached visitors (the red team's list): each attack, reproduced.

1. a symbolic link loop in ``content/``; 2. files that vanish while the folder is walked (under
load, on a real server); 3. links out of the content folder; permissions; 8. hostile HTML in a
body, and over-long fields. Each must give no 5xx, be named (``path:1:1: what`` in
``kiosk check`` and ``/healthz``), leave the last good content serving and let edits
elsewhere through. The load tests run a bounded number of requests against waitress on a free
port of 127.0.0.1, and wait for states, never for a time.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from browser.harness import LiveServer
from click.testing import CliRunner
from test_catalogue_render import NASTY

from kiosk import create_app
from kiosk.catalogue import scan as scan_module
from kiosk.catalogue import store
from kiosk.catalogue.lint import MAX_REMOVALS_SAID, MAX_TEXT, MAX_TITLE
from kiosk.catalogue.render import render_audited
from kiosk.catalogue.scan import DANGLING, LOOP, OUTSIDE
from kiosk.catalogue.store import Catalogue
from kiosk.commands.check import check

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["/", "/sets/misc-869-1986", "/notes/golliwog", "/games/snap", "/healthz"]
WAIT_SECONDS = 60  # the longest any state may take to come, on a busy two-core machine


def note(slug: str, title: str = "A note", body: str = "Body.\n") -> str:
    return (
        f"---\nkind: note\nslug: {slug}\ntitle: {title}\nsummary: A test note.\n"
        f"sources:\n  - title: tests\n---\n{body}"
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the kiosk's own content."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def messages(snapshot, path: str) -> list[str]:
    return [p.message for p in snapshot.problems if p.path == path]


def wait_for(what, message: str):
    """Poll ``what()`` until it is truthy (its value), failing after WAIT_SECONDS."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(message)


def make_loop(folder: Path) -> None:
    os.symlink("loop-b.md", folder / "loop-a.md")
    os.symlink("loop-a.md", folder / "loop-b.md")


# ----------------------------------------------------------------- 1. a symbolic link loop


def test_a_link_loop_is_named_and_the_rest_still_refreshes(folder):
    catalogue = Catalogue(folder)
    before = catalogue.current()
    make_loop(folder)
    snapshot = catalogue.current()  # the old walk raised OSError (ELOOP) out of here
    assert messages(snapshot, "content/loop-a.md") == [LOOP]
    assert messages(snapshot, "content/loop-b.md") == [LOOP]
    assert set(snapshot.sets) == set(before.sets) and set(snapshot.notes) == set(before.notes)
    (folder / "notes" / "new-note.md").write_text(note("new-note"), encoding="utf-8")
    assert "new-note" in catalogue.current().notes  # an edit elsewhere is picked up


def test_a_good_file_turned_into_a_loop_keeps_its_last_good_version(folder):
    catalogue = Catalogue(folder)
    title = catalogue.current().notes["golliwog"].record.title
    target = folder / "notes" / "golliwog.md"
    target.unlink()
    os.symlink("golliwog.md", target)  # a link to itself
    snapshot = catalogue.current()
    assert messages(snapshot, "content/notes/golliwog.md") == [LOOP]
    assert snapshot.notes["golliwog"].record.title == title
    assert "misc-869-1986" in snapshot.sets  # the set whose card needs the note stays up
    for _ in range(3):  # nothing changed: the same snapshot, not a re-read every time
        assert catalogue.current() is snapshot
    target.unlink()
    assert "golliwog" not in catalogue.current().notes  # deleted now: an edit like any other


def test_kiosk_check_names_a_loop(folder):
    make_loop(folder)
    done = CliRunner().invoke(check, [str(folder)])
    assert done.exit_code == 1, done.output
    assert f"{folder}/loop-a.md:1:1: {LOOP}" in done.stdout.splitlines()
    assert f"{folder}/loop-b.md:1:1: {LOOP}" in done.stdout.splitlines()
    assert done.stdout.splitlines()[-1].endswith(", 2 problems")


# ----------------------------------------------------------------- 2. files that vanish


class _Vanishing:
    """``os.scandir`` whose listing is taken, and then a file deleted before it is looked at:
    the moment the red team hit by chance, made certain."""

    def __init__(self, real, folder: str, victim: Path) -> None:
        self._entries = list(real(folder))
        self._victim = victim

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __iter__(self):
        if self._victim.exists():
            self._victim.unlink()
        return iter(self._entries)


def test_a_file_deleted_while_its_folder_is_walked_is_simply_gone(folder, monkeypatch):
    catalogue = Catalogue(folder)
    catalogue.current()
    victim = folder / "notes" / "going.md"
    victim.write_text(note("going"), encoding="utf-8")
    real = os.scandir
    notes = str(folder / "notes")

    def scandir(path):
        return _Vanishing(real, path, victim) if str(path) == notes else real(path)

    monkeypatch.setattr(scan_module.os, "scandir", scandir)
    snapshot = catalogue.current()  # the old walk raised FileNotFoundError from entry.stat()
    monkeypatch.undo()
    assert snapshot.problems == ()
    assert "going" not in snapshot.notes and "golliwog" in snapshot.notes


def _get(conn: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    conn.request("GET", path)
    response = conn.getresponse()
    return response.status, response.read()


def _hammer(port: int, rounds: int, statuses: Counter, errors: list[str]) -> None:
    """GET every page, ``rounds`` times over, on one kept-alive connection (``statuses`` and
    ``errors`` are this thread's own)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        for i in range(rounds):
            for path in PAGES:
                status, body = _get(conn, path)
                statuses[status] += 1
                if status >= 500:
                    errors.append(f"{path} (round {i}): {status} {body[:200]!r}")
    finally:
        conn.close()


def _health(port: int) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        status, body = _get(conn, "/healthz")
    finally:
        conn.close()
    assert status == 200, body
    return json.loads(body)


def _status(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        return _get(conn, path)[0]
    finally:
        conn.close()


def hammered(port: int, requesters: int, rounds: int) -> tuple[Counter, list[str]]:
    """``requesters`` threads at once, each ``_hammer``-ing; their statuses and 5xx added up."""
    tallies = [(Counter(), []) for _ in range(requesters)]
    threads = [threading.Thread(target=_hammer, args=(port, rounds, *tally)) for tally in tallies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum((c for c, _ in tallies), Counter()), [e for _, errors in tallies for e in errors]


@pytest.fixture
def server(folder):
    """The kiosk under waitress on a free port, walking its content on every request."""
    with LiveServer({"CONTENT_DIR": str(folder), "CONTENT_RESCAN_MS": 0}) as live:
        assert _health(live.port)["status"] == "ok"
        yield live


REQUESTERS = 2
ROUNDS = 100  # each requester: 100 rounds of the five pages, 1,000 requests in all
CHURN = 5  # files written, renamed into place and deleted on each turn of the writer
MAX_TURNS = 200_000  # the writer stops by itself after this many, whatever happens

# The writer: another process, as a curator's editor or a sync tool is (so it races the
# server's walk instead of waiting for the server's threads to give it a turn).
WRITER = """
import os, sys
notes, stop, churn, most, text = sys.argv[1:]
turns = 0
while turns < int(most) and not os.path.exists(stop):
    for k in range(int(churn)):
        scratch = os.path.join(notes, f".churn-{k}.tmp")  # hidden: never read
        with open(scratch, "w") as file:
            file.write(text.replace("{k}", str(k)))
        os.replace(scratch, os.path.join(notes, f"churn-{k}.md"))
    for k in range(int(churn)):
        os.unlink(os.path.join(notes, f"churn-{k}.md"))
    turns += 1
    if turns == 1:
        print("turning", flush=True)
print(turns, flush=True)
"""


def test_files_written_renamed_and_deleted_under_load_never_give_a_5xx(folder, server, tmp_path):
    stop = tmp_path / "stop"
    args = [str(folder / "notes"), str(stop), str(CHURN), str(MAX_TURNS), note("churn-{k}")]
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "turning\n"  # files are coming and going now
        statuses, errors = hammered(server.port, REQUESTERS, ROUNDS)
    finally:
        stop.touch()
        turns = int(writer.communicate(timeout=WAIT_SECONDS)[0].strip() or 0)
    assert errors == [], f"{len(errors)} of {sum(statuses.values())}: {errors[:5]}"
    assert sum(statuses.values()) == REQUESTERS * ROUNDS * len(PAGES)
    assert turns > 1  # files really came and went while the pages were asked for
    # the churn over, the kiosk settles on the content as it is, every page there
    wait_for(lambda: _health(server.port)["status"] == "ok", "never settled")
    assert all(_status(server.port, path) == 200 for path in PAGES)


def test_a_link_loop_under_load_is_named_and_new_files_are_published(folder, server):
    make_loop(folder)
    added = threading.Event()

    def add() -> None:
        for k in range(50):  # new files elsewhere, while the loop is there
            (folder / "notes" / f"new-{k}.md").write_text(note(f"new-{k}"), encoding="utf-8")
        added.set()

    writer = threading.Thread(target=add)
    writer.start()
    statuses, errors = hammered(server.port, REQUESTERS, ROUNDS)
    writer.join()
    assert errors == [], f"{len(errors)} of {sum(statuses.values())}: {errors[:5]}"
    assert sum(statuses.values()) == REQUESTERS * ROUNDS * len(PAGES)
    assert added.is_set()

    def named() -> list[str] | None:
        health = _health(server.port)
        found = health["content"]["problems"]
        return found if health["content"]["notes"] == 51 else None

    problems = wait_for(named, "the 50 new notes were never published")
    assert problems == [f"content/loop-a.md:1:1: {LOOP}", f"content/loop-b.md:1:1: {LOOP}"]
    assert _status(server.port, "/notes/new-49") == 200
    assert _status(server.port, "/notes/golliwog") == 200


# ----------------------------------------------------------------- 3. links out of the folder


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A valid note outside the content folder, which a link would otherwise publish."""
    away = tmp_path / "away"
    away.mkdir()
    (away / "secret.md").write_text(note("secret", "Not for visitors"), encoding="utf-8")
    return away


def test_a_link_out_of_the_folder_is_refused_by_name(folder, outside):
    os.symlink(outside / "secret.md", folder / "notes" / "secret.md")
    os.symlink("/etc/passwd", folder / "notes" / "passwd.md")
    os.symlink(outside, folder / "elsewhere")  # a folder, too
    snapshot = Catalogue(folder).current()
    assert "secret" not in snapshot.notes  # the old walk followed it and published it
    assert messages(snapshot, "content/notes/secret.md") == [OUTSIDE]
    assert messages(snapshot, "content/notes/passwd.md") == [OUTSIDE]  # not read, so no
    assert messages(snapshot, "content/elsewhere") == [OUTSIDE]  # "no front matter"
    assert len(snapshot.problems) == 3


def test_a_link_inside_the_folder_is_followed_and_a_dangling_one_named(folder):
    (folder / "drafts").mkdir()
    (folder / "drafts" / "kept.txt").write_text(note("kept"), encoding="utf-8")
    os.symlink("../drafts/kept.txt", folder / "notes" / "kept.md")
    os.symlink("nowhere.md", folder / "notes" / "gone.md")
    snapshot = Catalogue(folder).current()
    assert "kept" in snapshot.notes
    assert [str(p) for p in snapshot.problems] == [f"content/notes/gone.md:1:1: {DANGLING}"]


def test_a_file_swapped_for_a_link_out_after_the_walk_is_not_read(folder, outside):
    catalogue = Catalogue(folder)
    catalogue.current()
    path = folder / "notes" / "swapped.md"
    path.write_text(note("swapped"), encoding="utf-8")
    found = scan_module.scan(str(folder))  # the walk sees a plain file
    path.unlink()
    os.symlink(outside / "secret.md", path)  # and then it is a link out
    state = catalogue._read("notes/swapped.md", found.markdown["notes/swapped.md"])
    assert state.record is None
    assert [p.message for p in state.problems] == [OUTSIDE]


def test_a_named_pipe_is_named_and_never_blocks_the_refresh(folder):
    os.mkfifo(folder / "notes" / "pipe.md")
    snapshot = Catalogue(folder).current()  # opening it would block this thread for good
    assert messages(snapshot, "content/notes/pipe.md") == [
        "not a regular file (a named pipe): not read"
    ]


def test_links_and_loops_are_named_in_healthz_and_pages_still_serve(folder, outside):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "CONTENT_DIR": str(folder)})
    client = app.test_client()
    assert client.get("/healthz").get_json()["status"] == "ok"
    make_loop(folder)
    os.symlink(outside / "secret.md", folder / "notes" / "secret.md")
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.get_json()["status"] == "degraded"
    assert health.get_json()["content"]["problems"] == [
        f"content/loop-a.md:1:1: {LOOP}",
        f"content/loop-b.md:1:1: {LOOP}",
        f"content/notes/secret.md:1:1: {OUTSIDE}",
    ]
    assert client.get("/notes/secret").status_code == 404
    for path in PAGES:
        assert client.get(path).status_code == 200, path


# ----------------------------------------------------------------- permissions


def test_a_folder_that_cannot_be_read_keeps_its_last_good_files(folder, monkeypatch):
    """Run as root here, so the refusal is made by hand: scandir raising as it would."""
    catalogue = Catalogue(folder)
    before = catalogue.current()
    real = os.scandir
    sets = str(folder / "sets")

    def scandir(path):
        if str(path) == sets:
            raise PermissionError(13, "Permission denied", sets)
        return real(path)

    monkeypatch.setattr(scan_module.os, "scandir", scandir)
    snapshot = catalogue.current()  # the old walk let PermissionError out
    assert messages(snapshot, "content/sets") == [
        "the folder cannot be read (Permission denied): what it holds is not updated"
    ]
    assert set(snapshot.sets) == set(before.sets)  # the last good versions, still shown
    (folder / "notes" / "new-note.md").write_text(note("new-note"), encoding="utf-8")
    assert "new-note" in catalogue.current().notes  # edits elsewhere still come through
    monkeypatch.undo()
    assert catalogue.current().problems == ()


def test_a_content_folder_that_goes_away_leaves_the_last_good_content(folder):
    catalogue = Catalogue(folder)
    before = catalogue.current()
    folder.rename(folder.with_name("unplugged"))
    snapshot = catalogue.current()
    assert [str(p) for p in snapshot.problems] == ["content:1:1: content folder not found"]
    assert set(snapshot.sets) == set(before.sets)
    folder.with_name("unplugged").rename(folder)
    assert catalogue.current().problems == ()


def test_a_file_that_cannot_be_opened_keeps_its_last_good_version(folder, monkeypatch):
    catalogue = Catalogue(folder)
    title = catalogue.current().notes["golliwog"].record.title
    real = store.open_inside

    def refusing(root, rel):
        if rel == "notes/golliwog.md":
            raise PermissionError(13, "Permission denied")
        return real(root, rel)

    monkeypatch.setattr(store, "open_inside", refusing)
    path = folder / "notes" / "golliwog.md"
    path.write_text(path.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    snapshot = catalogue.current()
    assert messages(snapshot, "content/notes/golliwog.md") == [
        "cannot read file: Permission denied"
    ]
    assert snapshot.notes["golliwog"].record.title == title


# ----------------------------------------------------------------- 8. hostile HTML, long fields

# What a body holds → the start of the warning for it (every one removed by the sanitiser)
HOSTILE = {
    "<script>alert(1)</script>": "a <script> is removed",
    '<form action="https://x.example"><input name="a"></form>': "a <form> is removed",
    '<meta http-equiv="refresh" content="0;url=https://x.example">': "a <meta> is removed",
    '<base href="https://x.example/">': "a <base> is removed",
    '<link rel="stylesheet" href="https://x.example/a.css">': "a <link> is removed",
    "<svg onload=alert(1)><circle/></svg>": "'onload=' is removed",
    '<img src="images/a.png" onerror="alert(1)">': "'onerror=' is removed",
    '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>': "a link to 'data:text/html",
    '<a href="vbscript:msgbox(1)">x</a>': "a link to 'vbscript:msgbox(1)' is removed",
    '<a href="&#106;avascript:alert(1)">x</a>': "a javascript: link is removed",
    "[x](//evil.example)": "a link to '//evil.example' is removed",
    "![x](https://evil.example/p.png)": "the picture 'https://evil.example/p.png' is not shown",
    '<p class="big" id="top">x</p>': "'class=' is removed",
    '<div\n  onclick="alert(1)">x</div>': "'onclick=' is removed",
}


@pytest.mark.parametrize("nasty", NASTY)
def test_nothing_the_sanitiser_removes_goes_unsaid(nasty):
    """The render's own corpus of attacks: each one's removal is in the audit (so, a warning),
    a comment aside (a comment is the curator's note to themselves, never shown)."""
    html, audit = render_audited(f"Before.\n\n{nasty}\n\nAfter.")
    assert bool(audit.removed) is not nasty.startswith("<!--"), (nasty, html)


@pytest.mark.parametrize(
    "markdown",
    [
        "*em*, **strong**, `code`, [a](https://example.org/x), [b](/notes/golliwog)",
        "# Title\n\n> quoted\n\n1. one\n2. two\n\n- a\n- b",
        "![A box](images/box.png)\n\n<figure><figcaption>Cap</figcaption></figure>",
        '<blockquote cite="https://example.org/src">q</blockquote> <q cite="/sources">q</q>',
        "*[V&A]: Victoria and Albert Museum\n\nThe V&A.",
        "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
        "```yaml\n<script>alert(1)</script>\n```",
        '<p lang="fr" title="t">Bonjour</p>',
    ],
)
def test_wanted_markup_is_no_warning(markdown):
    assert render_audited(markdown)[1].removed == ()


@pytest.mark.parametrize("html", sorted(HOSTILE))
def test_what_the_sanitiser_removes_is_a_warning_at_its_line(folder, html):
    body = f"First line.\n\nBefore `<script>` in code.\n\n{html}\n\nAfter.\n"
    path = folder / "notes" / "hostile.md"
    path.write_text(note("hostile", body=body), encoding="utf-8")
    snapshot = Catalogue(folder).current()
    assert snapshot.problems == ()
    assert "hostile" in snapshot.notes  # a warning, the file still shown (made safe)
    found = [w for w in snapshot.warnings if w.path == "content/notes/hostile.md"]
    assert found and found[0].message.startswith(HOSTILE[html]), found
    body_line = note("hostile").splitlines().index("---", 1) + 2
    assert {w.line for w in found} <= {body_line + 4, body_line + 5}  # its line, not the code's
    assert all(w.level == "warning" for w in found)


def test_a_removed_attribute_is_pointed_at_by_its_column(folder):
    body = 'Tap <b onclick="go()">here</b>.\n'
    (folder / "notes" / "tap.md").write_text(note("tap", body=body), encoding="utf-8")
    warnings = [str(w) for w in Catalogue(folder).current().warnings]
    text = note("tap", body=body).splitlines()
    line = text.index(body.rstrip("\n")) + 1
    assert warnings == [
        f"content/notes/tap.md:{line}:8: warning: 'onclick=' is removed before the page is"
        " shown (the kiosk runs no scripts from content): delete it"
    ]


def test_a_thousand_removals_are_twenty_warnings_and_a_count(folder):
    body = "".join(f'<span onclick="x{i}()">{i}</span>\n' for i in range(1000))
    (folder / "notes" / "many.md").write_text(note("many", body=body), encoding="utf-8")
    warnings = [w for w in Catalogue(folder).current().warnings if "many.md" in w.path]
    assert len(warnings) == MAX_REMOVALS_SAID + 1
    assert warnings[-1].message.startswith(f"and {1000 - MAX_REMOVALS_SAID} more removed")


def test_a_200000_character_title_is_a_warning_at_the_title(folder):
    title = "T" * 200_000
    (folder / "notes" / "long.md").write_text(note("long", title), encoding="utf-8")
    snapshot = Catalogue(folder).current()
    assert snapshot.problems == ()
    assert "long" in snapshot.notes
    assert [str(w) for w in snapshot.warnings] == [
        f"content/notes/long.md:4:8: warning: title: 200,000 characters, more than the"
        f" {MAX_TITLE} a title may have: shorten it (the kiosk shows it whole, and a page"
        " cannot hold it)"
    ]


def test_an_over_long_text_field_is_a_warning_and_the_limits_hold_for_real_content(folder):
    summary = ("word " * (MAX_TEXT // 5 + 1)).strip()
    text = note("wordy").replace("summary: A test note.", f"summary: {summary}")
    (folder / "notes" / "wordy.md").write_text(text, encoding="utf-8")
    warnings = [str(w) for w in Catalogue(folder).current().warnings]
    assert len(warnings) == 1 and warnings[0].startswith("content/notes/wordy.md:5:10: warning:")
    assert f"more than the {MAX_TEXT:,} a value may have" in warnings[0]
    assert f"summary: {len(summary):,} characters" in warnings[0]
    assert Catalogue(ROOT / "content").current().warnings == ()  # real content: far within


def test_kiosk_check_and_healthz_say_the_warnings_and_stay_ok(folder):
    body = "<script>alert(1)</script>\n"
    (folder / "notes" / "bad.md").write_text(note("bad", "T" * 300, body), encoding="utf-8")
    done = CliRunner().invoke(check, [str(folder)])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-1].endswith("0 problems, 2 warnings")
    assert CliRunner().invoke(check, [str(folder), "--fatal"]).exit_code == 1
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "CONTENT_DIR": str(folder)})
    health = app.test_client().get("/healthz").get_json()
    assert health["status"] == "ok"
    assert [w.split(": warning: ")[1][:20] for w in health["content"]["warnings"]] == [
        "title: 300 character",
        "a <script> is remove",
    ]
