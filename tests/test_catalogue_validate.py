"""Validation: one broken fixture per kind of error, each reported at its exact path:line:col."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from fixture_content import BROKEN, GOOD
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.catalogue.crosscheck import image_problem
from kiosk.catalogue.read import read_text
from kiosk.catalogue.schema import dotted
from kiosk.catalogue.store import Catalogue
from kiosk.catalogue.validate import validate_source


def content_with(case: str | None, tmp_path: Path) -> Path:
    """The good tree copied to tmp_path/content, with one broken case laid over it."""
    target = tmp_path / "content"
    shutil.copytree(GOOD, target)
    if case is not None:
        shutil.copytree(BROKEN / case, target, dirs_exist_ok=True)
    return target


# case → (the one problem's "path:line:col", words its message must contain)
CASES = {
    "yaml-syntax": ("content/games/broken-yaml.md:4:12", "mapping values are not allowed"),
    "schema-nested": (
        "content/sets/nested-error.md:12:13",
        "cards[1].copies: write a whole number",
    ),
    "missing-field": ("content/games/no-title.md:2:1", "missing required field 'title'"),
    "unknown-game": ("content/sets/unknown-game.md:13:5", "unknown game 'snapp'"),
    "unknown-note": ("content/sets/unknown-note.md:15:13", "unknown note 'golliwogg'"),
    "duplicate-slug": ("content/games/snap2.md:3:7", "duplicate game slug 'snap'"),
    "duplicate-accession": (
        "content/sets/z-duplicate-accession.md:4:12",
        "duplicate accession number 'TEST.1-2000' (also in content/sets/test-snap.md)",
    ),
    "flagged-without-note": ("content/sets/flag-no-note.md:11:5", "needs a contextual note"),
    "image-no-alt": ("content/sets/image-no-alt.md:11:5", "images[0]: an image needs alt text"),
    "image-missing": (
        "content/sets/image-missing.md:11:12",
        "cards[0].image.src: image file 'images/road-up.png' not found",
    ),
    "image-escape": ("content/sets/image-escape.md:11:10", "must be a path inside the content"),
    "empty-file": ("content/notes/empty.md:1:1", "empty file"),
    "non-utf8": ("content/pages/latin-1.md:5:13", "not UTF-8 (byte 0xe9)"),
    "binary": ("content/pages/binary.md:6:5", "binary file"),
    "not-a-mapping": ("content/pages/a-list.md:2:1", "must be a mapping"),
    "unknown-kind": ("content/pages/unknown-kind.md:2:7", "unknown kind 'pages'"),
    "misspelt-field": ("content/games/misspelt.md:6:1", "unknown field 'sumary' (did you mean"),
    "unflagged-contested": ("content/sets/unflagged.md:10:5", "'Golly' names contested imagery"),
    "no-front-matter": ("content/pages/no-front-matter.md:1:1", "no front matter"),
    "duplicate-key": ("content/pages/duplicate-key.md:5:1", "duplicate key 'title'"),
}


def test_every_broken_fixture_has_a_row():
    assert {p.name for p in BROKEN.iterdir() if p.is_dir()} == set(CASES)


def test_the_good_tree_has_no_problems():
    snapshot = Catalogue(GOOD).current()
    assert snapshot.problems == ()
    assert list(snapshot.sets) == ["test-1-2000"]
    assert list(snapshot.games) == ["snap"]
    assert list(snapshot.notes) == ["golliwog"]
    assert list(snapshot.pages) == ["about"]


@pytest.mark.parametrize(("case", "where", "words"), [(k, *v) for k, v in CASES.items()])
def test_broken_fixture_reports_exact_position(case, where, words, tmp_path):
    snapshot = Catalogue(content_with(case, tmp_path)).current()
    assert [f"{p.path}:{p.line}:{p.col}" for p in snapshot.problems] == [where]
    assert words in snapshot.problems[0].message
    # The bad file is skipped; everything else is still published.
    assert "test-1-2000" in snapshot.sets
    assert snapshot.games["snap"].record.title == "Snap"
    assert "golliwog" in snapshot.notes and "about" in snapshot.pages


def test_all_problems_at_once(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for case in CASES:
        shutil.copytree(BROKEN / case, content, dirs_exist_ok=True)
    snapshot = Catalogue(content).current()
    assert sorted(f"{p.path}:{p.line}:{p.col}" for p in snapshot.problems) == sorted(
        where for where, _ in CASES.values()
    )


def source(text: str):
    return read_text("x.md", text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a set with neither accession nor slug: reported at the kind line
        (
            "---\nkind: set\ntitle: T\nsummary: S\nback: {description: d}\n"
            "cards: [{name: A}]\nsources: [{title: s}]\n---\n",
            "x.md:2:1: a set needs an accession number or a slug",
        ),
        # missing inside a list item: the item's line
        (
            "---\nkind: page\nslug: p\ntitle: T\nsources:\n  - author: someone\n---\n",
            "x.md:6:5: sources[0]: missing required field 'title'",
        ),
        # a model rule inside a card: the card's line
        (
            "---\nkind: set\nslug: s\ntitle: T\nsummary: S\nback: {description: d}\n"
            "cards:\n  - name: A\n    copies: 1\n    missing: 2\nsources: [{title: s}]\n---\n",
            "x.md:8:5: cards[0]: missing (2) is more than copies (1)",
        ),
        # not a slug
        (
            "---\nkind: note\nslug: Golliwog\ntitle: T\nsummary: S\nsources: [{title: s}]\n---\n",
            "x.md:3:7: slug: 'Golliwog' is not a slug: use lower-case letters, digits and single"
            " hyphens",
        ),
        # an empty required text
        (
            "---\nkind: page\nslug: p\ntitle: '   '\n---\n",
            "x.md:4:8: title: must not be empty",
        ),
        # no kind at all
        (
            "---\nslug: p\ntitle: T\n---\n",
            "x.md:2:1: missing 'kind:' (one of: set, game, note, page)",
        ),
        # misspelt nested field, with a suggestion from the nested model
        (
            "---\nkind: page\nslug: p\ntitle: T\nsources:\n  - title: s\n    autor: A\n---\n",
            "x.md:7:5: sources[0]: unknown field 'autor' (did you mean 'author'?)",
        ),
        # duplicate card slugs within a set
        (
            "---\nkind: set\nslug: s\ntitle: T\nsummary: S\nback: {description: d}\n"
            "cards:\n  - name: A\n  - name: a\nsources: [{title: s}]\n---\n",
            "x.md:9:5: cards[1]: card slug 'a' is already used by cards[0] (give one a 'slug:')",
        ),
        # family matching needs families
        (
            "---\nkind: set\nslug: s\ntitle: T\nsummary: S\nback: {description: d}\n"
            "match: family\ncards:\n  - name: A\nsources: [{title: s}]\n---\n",
            "x.md:9:5: cards[0]: the set matches by family, but this card has none",
        ),
    ],
)
def test_schema_errors_point_at_the_field(text, expected):
    record, problems = validate_source(source(text))
    assert record is None
    assert [str(p) for p in problems] == [expected]


def test_every_problem_in_a_file_is_listed():
    text = "---\nkind: game\nslug: Bad Slug\nengine: chess\nsumary: x\n---\n"
    _, problems = validate_source(source(text))
    assert [(p.line, p.col) for p in sorted(problems)] == [
        (2, 1),
        (2, 1),
        (3, 7),
        (4, 9),
        (5, 1),
    ]


@pytest.mark.parametrize(
    ("src", "ok"),
    [
        ("images/box.png", True),
        ("images/nope.png", False),
        ("/etc/passwd", False),
        ("../secret.png", False),
        ("images/../../secret.png", False),
        ("sets/test-snap.md", False),
        ("C:\\images\\box.png", False),
        ("https://example.org/x.png", False),
    ],
)
def test_image_paths(src, ok):
    assert (image_problem(GOOD, src) is None) is ok
    assert (image_problem(GOOD, src, frozenset({"images/box.png"})) is None) is ok


def test_dotted():
    assert dotted(("cards", 3, "content_note", "note")) == "cards[3].content_note.note"
    assert dotted(()) == ""


SCALARS = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
KEYS = st.sampled_from(
    [
        "kind",
        "slug",
        "title",
        "summary",
        "sources",
        "cards",
        "back",
        "games",
        "images",
        "content_note",
        "note",
        "shows",
        "name",
        "copies",
        "src",
        "alt",
        "x",
    ]
)


def nested(inner: st.SearchStrategy) -> st.SearchStrategy:
    """Lists and mappings of ``inner``: front matter nests both."""
    return st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=4)


VALUES = st.recursive(
    SCALARS | st.sampled_from(["set", "game", "note", "page", "snap"]),
    nested,
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=6) | VALUES)
def test_any_front_matter_gives_problems_not_exceptions(data):
    text = "---\n" + yaml.safe_dump(data, sort_keys=False) + "---\nBody.\n"
    record, problems = validate_source(source(text))
    assert (record is None) == bool(problems)
    lines = text.count("\n")
    assert all(1 <= p.line <= lines and p.col >= 1 for p in problems)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: ("---\n" + t).encode()))
def test_any_bytes_give_problems_not_exceptions(raw):
    from kiosk.catalogue.read import read_bytes

    record, problems = validate_source(read_bytes("x.md", raw))
    assert record is None or not problems
    assert all(p.line >= 1 and p.col >= 1 for p in problems)


def test_the_example_in_the_format_guide_is_valid():
    guide = (Path(__file__).parent.parent / "docs" / "content-format.md").read_text("utf-8")
    example = guide.split("```markdown\n", 1)[1].split("```", 1)[0]
    record, problems = validate_source(read_text("docs/example.md", example))
    assert problems == []
    assert record.kind == "note" and record.key == "golliwog"
