"""``kiosk check`` on pictures (issue 25): each curator's mistake with a photograph gets one
message at its own ``path:line:col``: contested words in an unflagged picture's alt text or
caption, a flagged file placed in any page's text, a picture's flag without a note, a missing
file, alt, credit or rights, a rights value that is no address, two names for one folder of
copies; and a warning for a picture ``kiosk images`` has not made (or made before a change).

Each case is a fixture folder (``tests/fixtures/checks/<case>/``, a set ``test-photos``)
laid over the good fixture tree, as in test_check_mistakes.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import PIL.Image
import pytest
from click.testing import CliRunner
from fixture_content import GOOD

from kiosk.catalogue.crosscheck import (
    Checked,
    body_images,
    body_picture_problems,
    picture_file,
    picture_warnings,
)
from kiosk.catalogue.read import read_text
from kiosk.catalogue.store import Catalogue
from kiosk.catalogue.validate import validate_source
from kiosk.commands.check import check
from kiosk.images import derive

FIXTURES = Path(__file__).parent / "fixtures" / "checks"
AT = "content/sets/test-photos.md"
CONTESTED = (
    "names contested imagery: flag the picture with content_note (shows, note), or reword it"
)

# case → the one problem, in full (path:line:col: message)
CASES = {
    "picture-alt-contested": f"{AT}:17:10: images[0].alt: 'golliwog' {CONTESTED}",
    "picture-caption-contested": f"{AT}:18:14: images[0].caption: 'Golly' {CONTESTED}",
    "front-alt-contested": (
        f"{AT}:12:12: cards[0].image.alt: 'golliwog' names contested imagery: flag the card"
        " (or its picture) with content_note (shows, note), or reword it"
    ),
    # the card's flag covers its front, never its back: the back's alt is looked at
    "back-alt-contested": f"{AT}:20:12: cards[0].back_image.alt: 'golliwogs' {CONTESTED}",
    "body-image-flagged": (
        f"{AT}:29:18: the picture 'images/box.png' is flagged ({AT}, images[0]): a page's"
        " text would show it without its cover, so remove it here (link to the set's page,"
        " where it is covered, instead)"
    ),
    "picture-note-unknown": (
        f"{AT}:23:13: images[0].content_note.note: unknown note 'golliwogg' (a flagged"
        " picture needs a note file in notes/ with this slug)"
    ),
    "picture-note-vague": (
        f"{AT}:22:14: images[0].content_note.shows: 'offensive content' does not say what the"
        " picture shows: name it, e.g. 'the pack laid out, with a golliwog card among them'"
    ),
    # the schema's own messages, at the picture's first line (what kiosk check says today)
    "picture-credit-missing": (
        f"{AT}:16:5: images[0]: a picture needs a credit:"
        " add 'credit: <who took or holds the photograph>'"
    ),
    "picture-rights-missing": (
        f"{AT}:16:5: images[0]: a picture needs its rights: add 'rights: <a"
        " rightsstatements.org or creativecommons.org address>',"
        " e.g. https://creativecommons.org/licenses/by/4.0/"
    ),
    "back-alt-missing": (
        f"{AT}:15:5: cards[0].back_image: an image needs alt text: add 'alt: <what it shows>'"
    ),
    "picture-rights-bad": (
        f"{AT}:20:13: images[0].rights: 'CC BY 4.0' is not a rights statement: give a"
        " rightsstatements.org or creativecommons.org address, e.g."
        " http://rightsstatements.org/vocab/InC/1.0/ or"
        " https://creativecommons.org/licenses/by/4.0/"
    ),
    "back-image-missing": (
        f"{AT}:16:12: cards[0].back_image.src: image file 'images/nope.png' not found"
    ),
}


def laid_over_good(tmp_path: Path, *cases: str) -> Path:
    """The good tree with each case's files written over it."""
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    for case in cases:
        shutil.copytree(FIXTURES / case, content, dirs_exist_ok=True)
    return content


def errors(content: Path) -> list[str]:
    return [str(p) for p in Catalogue(content).current().problems]


def test_the_good_pictures_pass(tmp_path):
    """Flagged and unflagged pictures of every kind, a flagged card's words, a body picture
    that is not flagged and flagged ones inside code (shown as text): nothing to say."""
    snapshot = Catalogue(laid_over_good(tmp_path, "pictures-good")).current()
    assert snapshot.problems == ()
    assert "test-photos" in snapshot.sets


@pytest.mark.parametrize("case", CASES)
def test_each_picture_mistake_gets_one_message_at_its_place(case, tmp_path):
    said = errors(laid_over_good(tmp_path, case))
    assert said == [CASES[case]]


def test_two_names_for_one_folder_of_copies_are_both_refused(tmp_path):
    said = errors(laid_over_good(tmp_path, "picture-names-clash"))
    assert said == [
        f"{AT}:16:10: images[0].src: 'images/a.b.png' and 'images/a-b.png' make the same name"
        " ('a-b-png') for the copies `kiosk images` keeps, so one would be shown with the"
        " other's: rename one file",
        f"{AT}:21:10: images[1].src: 'images/a-b.png' and 'images/a.b.png' make the same name"
        " ('a-b-png') for the copies `kiosk images` keeps, so one would be shown with the"
        " other's: rename one file",
    ]


def test_kiosk_check_says_it_as_path_line_col(tmp_path):
    content = laid_over_good(tmp_path, "picture-alt-contested")
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == CASES["picture-alt-contested"].replace(
        "content/", f"{content}/", 1
    )


def page(slug: str, body: str, kind: str = "note") -> str:
    extra = "summary: A page made up for the tests.\n" if kind == "note" else ""
    return f"---\nkind: {kind}\nslug: {slug}\ntitle: A {kind}\n{extra}---\n{body}"


@pytest.mark.parametrize(
    ("folder", "kind", "body", "flagged_by"),
    [
        # a flagged card's front, placed in a note's text
        ("notes", "note", "See it:\n\n![The card](images/golly.png)\n", "cards[1].image"),
        # the pack shot (flagged on the picture), in a page's HTML
        ("pages", "page", 'A picture: <img alt="x" src="images/pack.png">\n', "images[1]"),
        # written another way that names the same file, in a note
        ("notes", "note", "![A](./images/../images/Pack.png)\n", "images[1]"),
        ("notes", "note", "![A](images/pack%2Epng)\n", "images[1]"),
        ("notes", "note", "![A][pack]\n\n[pack]: <images/pack.png>\n", "images[1]"),
    ],
)
def test_a_flagged_file_in_any_files_text_is_refused(tmp_path, folder, kind, body, flagged_by):
    content = laid_over_good(tmp_path, "pictures-good")
    (content / folder / "extra.md").write_text(page("extra", body, kind), encoding="utf-8")
    said = errors(content)
    assert len(said) == 1, said
    assert said[0].startswith(f"content/{folder}/extra.md:"), said
    assert f"is flagged ({AT}, {flagged_by}): a page's text would show it" in said[0]


def test_the_message_is_at_the_line_and_column_of_the_address(tmp_path):
    content = laid_over_good(tmp_path, "pictures-good")
    body = "First line.\n\nSecond, with ![it](images/golly.png) inside.\n"
    (content / "notes" / "extra.md").write_text(page("extra", body), encoding="utf-8")
    text = (content / "notes" / "extra.md").read_text().splitlines()
    line = next(n for n, t in enumerate(text, 1) if "golly" in t)
    col = text[line - 1].index("images/golly.png") + 1
    assert errors(content)[0].startswith(f"content/notes/extra.md:{line}:{col}: ")


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("![a](images/x.jpg)", ["images/x.jpg"]),
        ('![a](images/x.jpg "a title")', ["images/x.jpg"]),
        ("![a [b] c](<images/x y.jpg>)", ["images/x y.jpg"]),
        ("![a](\n  images/x.jpg)", ["images/x.jpg"]),
        ("[a link](images/x.jpg)", ["images/x.jpg"]),
        ("![a][r]\n\n[r]: images/x.jpg", ["images/x.jpg"]),
        ("<img src='images/x.jpg'>", ["images/x.jpg"]),
        ('<IMG alt="a" SRC = "images/x.jpg" />', ["images/x.jpg"]),
        ("<img src=images/x.jpg>", ["images/x.jpg"]),
        ("`![a](images/x.jpg)`", []),
        ("```\n![a](images/x.jpg)\n```", []),
        ("images/x.jpg written as words", []),
    ],
)
def test_body_images_finds_every_way_of_placing_a_picture(body, found):
    assert [src for _, src in body_images(body)] == found


@pytest.mark.parametrize(
    ("address", "file"),
    [
        ("images/x.jpg", "images/x.jpg"),
        ("./images/x.jpg", "images/x.jpg"),
        ("images/a/../x.jpg", "images/x.jpg"),
        ("images/x%20y.jpg", "images/x y.jpg"),
        ("images/x&#46;jpg", "images/x.jpg"),
        ("images/x.jpg?v=2#top", "images/x.jpg"),
        ("/media/images/x.jpg", None),  # not served from a body (the renderer drops it)
        ("https://example.org/images/x.jpg", None),
        ("../images/x.jpg", None),
        ("notes/x.jpg", None),
        ("", None),
    ],
)
def test_picture_file_is_the_file_a_browser_would_fetch(address, file):
    assert picture_file(address) == file


@pytest.mark.parametrize("src", ["images/./pack.png", "images//pack.png"])
def test_a_picture_is_named_one_way_only(tmp_path, src):
    """The cover is looked up by the file's name: ``images/./pack.png`` would be another."""
    content = laid_over_good(tmp_path, "pictures-good")
    path = content / "sets" / "test-photos.md"
    path.write_text(path.read_text().replace("src: images/pack.png", f"src: {src}"))
    assert errors(content) == [
        f"{AT}:37:10: images[1].src: image '{src}' must be written as 'images/pack.png'"
    ]


def test_contested_words_in_a_flagged_pictures_alt_are_its_own_business(tmp_path):
    """A picture flagged on itself, or a flagged card's front, may say what it shows."""
    content = laid_over_good(tmp_path, "pictures-good")
    text = (content / "sets" / "test-photos.md").read_text()
    assert "golliwog card among them" in text  # the pack's alt: flagged, so allowed
    assert errors(content) == []


def test_a_hostile_body_is_searched_quickly():
    """Linear in the body, whatever it piles up (a file is at most 256 KB)."""
    flagged = {"images/x.jpg": "somewhere"}
    for body in ("![" * 120_000, "](" * 120_000, "<img " * 50_000, "\n[a]: " * 40_000):
        source = read_text("x.md", "---\nkind: note\n---\n" + body)
        start = time.perf_counter()
        assert list(body_picture_problems(source, flagged)) == []
        assert time.perf_counter() - start < 2


def checked_of(content: Path) -> list[Checked]:
    """Every set file of the folder, read and validated as the store does."""
    found = []
    for path in sorted((content / "sets").glob("*.md")):
        rel = path.relative_to(content).as_posix()
        source = read_text(f"content/{rel}", path.read_text(encoding="utf-8"))
        record, problems = validate_source(source)
        assert record is not None, problems
        found.append(Checked(rel, source, record))
    return found


def test_a_picture_not_made_or_changed_since_is_a_warning(tmp_path):
    content = laid_over_good(tmp_path, "pictures-good")
    shutil.rmtree(content / "derived")  # as a curator has it before `kiosk images`
    checked = checked_of(content)
    said = [str(w) for w in picture_warnings(checked, content)]
    not_made = (
        "not made yet: run `kiosk images` (until then pages send the whole original: no"
        " smaller sizes, no zoom)"
    )
    # in the order the set names them (its own pictures, then each card's), each file once:
    # the back (box.png) is the set's box picture, said at images[0]
    assert said == [
        f"{AT}:31:10: warning: images[0].src: {not_made}",
        f"{AT}:37:10: warning: images[1].src: {not_made}",
        f"{AT}:11:12: warning: cards[0].image.src: {not_made}",
        f"{AT}:25:12: warning: cards[1].image.src: {not_made}",
    ]
    srcs = ["images/fishermen.png", "images/box.png", "images/golly.png", "images/pack.png"]
    derive.run(content, srcs, frozenset({"images/golly.png", "images/pack.png"}))
    assert picture_warnings(checked, content) == []
    PIL.Image.new("RGB", (3, 2), (200, 30, 30)).save(content / "images" / "golly.png")
    changed = [str(w) for w in picture_warnings(checked, content)]
    assert changed == [
        f"{AT}:25:12: warning: cards[1].image.src: its copies are out of date (the file, or"
        " its flag, changed since they were made): run `kiosk images`"
    ]
    assert all(w.level == "warning" for w in picture_warnings(checked, content))


def test_a_flag_taken_off_makes_its_copies_out_of_date(tmp_path):
    """Copies made covered stay covered until made again: the curator is told to."""
    content = laid_over_good(tmp_path, "pictures-good")
    srcs = ["images/fishermen.png", "images/box.png", "images/golly.png", "images/pack.png"]
    derive.run(content, srcs, frozenset({"images/golly.png", "images/pack.png"}))
    path = content / "sets" / "test-photos.md"
    text = path.read_text()
    pack_flag = (
        "    content_note:\n      shows: the pack laid out, a golliwog card among them\n"
        "      note: golliwog\n"
    )
    assert pack_flag in text
    path.write_text(text.replace(pack_flag, ""))
    said = [str(w) for w in picture_warnings(checked_of(content), content)]
    assert len(said) == 1 and "images[1].src: its copies are out of date" in said[0], said


def test_a_missing_file_is_a_problem_not_a_warning(tmp_path):
    """A file that is not there is said once, by the check for files (an error)."""
    content = laid_over_good(tmp_path, "pictures-good")
    (content / "images" / "pack.png").unlink()
    assert [
        w for w in picture_warnings(checked_of(content), content) if "images[1]" in str(w)
    ] == []
    assert errors(content) == [f"{AT}:37:10: images[1].src: image file 'images/pack.png' not found"]
