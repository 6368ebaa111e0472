"""The pages state what their sources say, and no more (issue 13's facts), so slips stay fixed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.catalogue.read import read_text

CONTENT = Path(__file__).resolve().parent.parent / "content"
FILES = sorted(CONTENT.rglob("*.md"))
NEWSPAPERS = ("Falkirk Herald", "Edinburgh Evening News", "The Voice", "The Independent")


def text(path: Path) -> str:
    """A content file's words, front matter included, with line breaks as spaces."""
    return re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))


def paragraphs(path: Path) -> list[str]:
    """A content file's body paragraphs, each on one line."""
    body = read_text(str(path), path.read_text(encoding="utf-8")).body
    return [re.sub(r"\s+", " ", p) for p in re.split(r"\n\s*\n", body)]


def front(path: Path) -> dict:
    """A content file's front matter, read as the catalogue reads it."""
    return read_text(str(path), path.read_text(encoding="utf-8")).data or {}


def sources() -> list[tuple[str, dict]]:
    """Every work in the curators' sources file (content/sources.md), with its key."""
    return [(s["key"], s) for s in front(CONTENT / "sources.md")["sources"]]


# Phrases that said more, or other, than the sources (issue 13), and why each is wrong.
UNSOURCED = {
    r"make eights, tens": "the 1797 words are 'to make either eights, tens, ...'",
    r"kept with the (museum's|V&A) record|kept with the Woolworths": "the basic rules are a "
    "general text, not tied to MISC.869-1986",
    r"MISC\.869-1986\), the basic rules": "the basic rules are not that pack's rules",
    r"(game|card game)[^.]{0,30} from (1797|the 1790s)": "1797 is when it was described",
    r"small printed cards": "the cards' size is not recorded",
    r"keeps this pack whole": "no recorded motive, and a card is missing",
    r"every Christmas|each Christmas": "the Upton books did not come out every year",
    r"shortened forms": "not in the sources",
    r"choose to look at it": "the View card button shows a title card, not the picture",
    r"pays? you a counter|pay(s)? you": "forfeits are given up, not paid to the snapper",
    r"six rules": "the Twizzles rules are five rules and a variation (the sixth paragraph)",
    r"by default": "no visitor can put a flagged card back into a game",
    r"(?<!to be )(?<!it is )based on (a|the) (children's )?television series": "the Twizzles"
    " rules never mention"
    " television: the link is our inference and must say so",
    r"later famous for": "say what a source gives, and cite it",
    r"in Yorkshire": "no source of ours gives it",
}

# The visitor-facing templates issue 27 found saying more than the sources.
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TEMPLATE_SLIPS = {
    "base.html": (r"from the museum's records", "the emblems are ours; two sets have no record"),
    "pages/set.html": (r"by default", "no visitor can put a flagged card back"),
}


@pytest.mark.parametrize("name", sorted(TEMPLATE_SLIPS))
def test_no_template_says_what_no_source_says(name: str) -> None:
    pattern, why = TEMPLATE_SLIPS[name]
    assert not re.search(pattern, (TEMPLATES / name).read_text(encoding="utf-8")), why


def test_the_woolworths_summary_counts_the_missing_card() -> None:
    summary = " ".join(front(CONTENT / "sets" / "misc-869-1986.md")["summary"].split())
    assert "47" in summary and "missing" in summary and "Our Fishermen" in summary


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(CONTENT)))
def test_no_page_says_what_no_source_says(path: Path) -> None:
    words = text(path)
    for pattern, why in UNSOURCED.items():
        assert not re.search(pattern, words), f"{path.name}: {why}"


def test_the_1797_aim_is_quoted_whole() -> None:
    quoted = [p for p in FILES if "pair-royals" in text(p) and "eights" in text(p)]
    assert quoted
    for path in quoted:
        assert '"to make either eights, tens, pairs or pair-royals"' in text(path), path.name


def test_chawky_is_only_ever_described_with_its_sources() -> None:
    for path in FILES:
        for para in paragraphs(path):
            if "Chawky" in para and "golliwog" in para:
                assert "described" in para and re.search(r"Toonhound|secondary", para), para


def test_the_twizzles_date_says_it_is_inferred() -> None:
    record = front(CONTENT / "sets" / "twizzles-happy-families.md")
    assert "1957–58" in record["date"] and "our inference" in record["date"]
    for path in FILES:
        for para in paragraphs(path):
            if re.search(r"Twizzles[^.]*pack[^.]*1950s", para):
                assert re.search(r"infer|probably|1957", para), (path.name, para)


def test_every_promise_of_the_view_card_button_says_what_it_shows() -> None:
    mentions = [(p, para) for p in FILES for para in paragraphs(p) if "View card" in para]
    assert len(mentions) >= 3
    for path, para in mentions:
        assert "title" in para and "picture" in para, (path.name, para)


def test_the_books_carry_publisher_and_year() -> None:
    books = [
        (f, s)
        for f, s in sources()
        if s["title"].startswith(("The Way to Play", "The Games We Played"))
    ]
    assert len(books) == 2
    for name, source in books:
        assert source.get("publisher", "").endswith("Press, New York"), name
        assert source.get("date") in ("1975", "2003"), name


@pytest.mark.parametrize("paper", NEWSPAPERS)
def test_a_newspaper_without_headline_and_date_says_so(paper: str) -> None:
    cited = [(f, s) for f, s in sources() if s.get("site") == paper]
    assert cited
    for name, source in cited:
        assert source.get("date") or "headline and date" in source.get("note", "").lower(), name
