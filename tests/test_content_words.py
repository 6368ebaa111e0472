"""Visitor-facing words in content (issue 15, first pieces): the warning at the top of a set
with a flagged card comes from the card's own content_note, and "In the collection" from a
``kind: words`` file; each with a default."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from kiosk import create_app
from kiosk.catalogue.store import Catalogue
from kiosk.catalogue.terms import find_term
from kiosk.commands.check import check
from kiosk.config import ROOT

BANNER = "One card in this set shows a racist caricature."


def banner_on(content: Path) -> str:
    client = create_app({"TESTING": True, "CONTENT_DIR": str(content)}).test_client()
    html = client.get("/sets/misc-869-1986").get_data(as_text=True)
    return BeautifulSoup(html, "html.parser").select_one(".notice--warning strong").get_text()


def test_the_flagged_banner_is_in_the_curators_words(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    path = content / "sets" / "misc-869-1986.md"
    path.write_text(
        path.read_text().replace(
            "      note: golliwog\n", f"      note: golliwog\n      banner: {BANNER}\n", 1
        )
    )
    assert banner_on(content) == BANNER


def test_the_flagged_banner_has_a_default():
    assert banner_on(ROOT / "content") == "This set contains a racist image."


WORDS = "---\nkind: words\nslug: words\ntitle: Words\nwords:\n{words}---\n"


def content_with_words(tmp_path: Path, words: str) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "words.md").write_text(WORDS.format(words=words), encoding="utf-8")
    return content


def kicker(content: Path) -> str:
    client = create_app({"TESTING": True, "KIOSK_MODE": True, "CONTENT_DIR": str(content)})
    html = client.test_client().get("/attract/1").get_data(as_text=True)
    return html


def test_in_the_collection_has_a_default():
    assert "In the collection" in kicker(ROOT / "content")


def test_in_the_collection_in_the_curators_words(tmp_path):
    content = content_with_words(tmp_path, "  in-the-collection: In the museum's collection\n")
    html = kicker(content)
    assert "In the museum&#39;s collection" in html or "In the museum's collection" in html
    assert "In the collection<" not in html


def test_check_refuses_a_word_the_kiosk_does_not_use(tmp_path):
    content = content_with_words(tmp_path, "  in-the-colection: In the museum\n")
    result = CliRunner().invoke(check, [str(content)])
    assert result.exit_code == 1
    assert (
        f"{content}/words.md:6:3: words: unknown key 'in-the-colection' (did you mean"
        " 'in-the-collection'?)"
    ) in result.stdout


def test_a_good_words_file_passes(tmp_path):
    content = content_with_words(tmp_path, "  in-the-collection: In the museum's collection\n")
    assert CliRunner().invoke(check, [str(content), "--fatal"]).exit_code == 0


def reworded_game(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped content with one line of Snap's game file reworded."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    path = content / "games" / "snap.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return content


def test_a_variants_words_come_from_the_game_file(tmp_path):
    content = reworded_game(tmp_path, 'title: "Speed Snap"', 'title: "Snap at full tilt"')
    client = create_app({"TESTING": True, "CONTENT_DIR": str(content)}).test_client()
    page = BeautifulSoup(client.get("/rules/").get_data(as_text=True), "html.parser")
    titles = [h.get_text(strip=True) for h in page.select(".rules-variant__title")]
    assert "Snap at full tilt" in titles
    assert "Speed Snap" not in titles


def test_kiosk_check_refuses_a_variant_without_its_description(tmp_path):
    content = reworded_game(
        tmp_path,
        '    description: "Everybody turns a card at the same moment.',
        '    # description: "Everybody turns a card at the same moment.',
    )
    result = CliRunner().invoke(check, ["--fatal", str(content)])
    assert result.exit_code != 0
    speed = (content / "games" / "snap.md").read_text().splitlines().index("  speed:") + 1
    assert f"games/snap.md:{speed}:3: variants.speed: missing required field 'description'" in (
        result.output
    )
    # said once: the sets and rule examples that use the game are held back without a word
    files = len(list(content.rglob("*.md")))
    assert result.output.rstrip().endswith(f"{files} files, 1 problem")


def shipped_terms() -> tuple[str, ...]:
    """The terms of content/contested-terms.md, as kiosk check reads them."""
    lists = Catalogue(ROOT / "content").current().terms.values()
    return tuple(term for entry in lists for term in entry.record.terms)


@pytest.mark.parametrize(
    "written",
    [
        "Golliwogs",
        "GOLLYWOGG",
        "Gollie",
        "a wog",
        "Golly Oh Golly!",
        "Piccaninnies",
        "Negroes",
        "a Kaffir lily",
        "Chinamen",
        "Mulattoes",
    ],
)
def test_the_shipped_terms_catch_common_spellings_and_slurs(written):
    assert find_term(shipped_terms(), [written])


@pytest.mark.parametrize(
    "everyday",
    ["Wogan's card", "a woggle", "Jolly Jack Tar", "Montenegro", "Negroni", "China man-of-war"],
)
def test_the_shipped_terms_leave_everyday_words_alone(everyday):
    assert find_term(shipped_terms(), [everyday]) is None
