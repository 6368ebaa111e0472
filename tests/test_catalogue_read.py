"""Reading: bytes → text → front matter and body, with every key's position in the file."""

from __future__ import annotations

import pytest

from kiosk.catalogue.read import read_bytes, read_text

TEXT = """---
kind: set
title: "A pack"
date: 1950-01-01
cards:
  - name: Road Up!
  - name: Golly Oh Golly!
    content_note:
      shows: something
      note: golliwog
games: [snap, happy-families]
---
# Body

Text.
"""


def test_positions_are_file_lines_and_columns():
    source = read_text("x.md", TEXT)
    assert source.problems == ()
    assert source.positions[("kind",)] == (2, 7)
    assert source.positions[("cards", 1, "content_note", "note")] == (10, 13)
    assert source.key_positions[("cards", 1, "content_note", "note")] == (10, 7)
    assert source.key_positions[("cards", 1, "content_note")] == (8, 5)
    assert source.positions[("cards", 1)] == (7, 5)
    assert source.positions[("games", 1)] == (11, 15)
    assert source.position(("cards", 1, "content_note", "nothing")) == (9, 7)


def test_body_and_its_first_line():
    source = read_text("x.md", TEXT)
    assert source.body.startswith("# Body")
    assert source.body_line == 13
    assert TEXT.splitlines()[source.body_line - 1] == "# Body"


def test_dates_stay_text():
    assert read_text("x.md", TEXT).data["date"] == "1950-01-01"


def test_crlf_and_byte_order_mark():
    raw = ("\ufeff" + TEXT).replace("\n", "\r\n").encode("utf-8")
    source = read_bytes("x.md", raw)
    assert source.problems == ()
    assert source.data["title"] == "A pack"
    assert source.positions[("cards", 1, "content_note", "note")] == (10, 13)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "x.md:1:1: empty file"),
        (b"  \n\n", "x.md:1:1: empty file"),
        (b"---\nkind: page\x00\n---\n", "x.md:2:11: binary file"),
        (b"---\ntitle: caf\xe9\n---\n", "x.md:2:11: not UTF-8 (byte 0xe9)"),
        (b"kind: page\n", "x.md:1:1: no front matter"),
        (b"---kind: page\n---\n", "x.md:1:1: no front matter"),
        (b"---\nkind: page\n", "x.md:1:1: front matter is not closed"),
        (b"---\n---\nbody\n", "x.md:2:1: front matter must be a mapping"),
        (b"---\njust text\n---\n", "x.md:2:1: front matter must be a mapping"),
        (b"---\nkind: page\ntitle: a: b\n---\n", "x.md:3:9: YAML: mapping values are not"),
        (b"---\nkind: page\n\ttitle: x\n---\n", "x.md:3:1: YAML: found character '\\t'"),
        (b"---\nkind: page\ntitle: [a, b\n---\n", "x.md:4:1: YAML: expected ',' or ']'"),
        (
            b"---\nkind: page\nx: !!python/object/apply:os.system [ls]\n---\n",
            "x.md:3:4: YAML: could not determine a constructor",
        ),
        (b"---\nkind: page\nkind: note\n---\n", "x.md:3:1: duplicate key 'kind'"),
    ],
)
def test_unreadable_files(raw, expected):
    problems = [str(p) for p in read_bytes("x.md", raw).problems]
    assert len(problems) == 1
    assert problems[0].startswith(expected)
