"""One macro writes every card picture: no template hand-writes a card <img> (issue 14, part 5).

A card picture is an <img> with the class card-img or the cards' size (width="250"). Only
``picture`` in templates/cards/_card.html writes one; every other template calls it, so the
size, decoding, lazy loading and data-* attributes are decided in one place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from jinja2 import Environment, FileSystemLoader

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
CARD_MACROS = TEMPLATES / "cards" / "_card.html"
IMG_TAG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
CARD_MARKS = ("card-img", 'width="250"')


def card_img_tags(text: str) -> list[str]:
    """The <img> tags of a template's source that draw a card."""
    return [tag for tag in IMG_TAG.findall(text) if any(mark in tag for mark in CARD_MARKS)]


def render(call: str) -> BeautifulSoup:
    """One call of the card macros, rendered with autoescape as the app renders it."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True)
    source = '{% import "cards/_card.html" as cards %}' + call
    return BeautifulSoup(env.from_string(source).render(), "html.parser")


def test_the_scan_finds_a_hand_written_card_picture() -> None:
    tag = '<img class="card-img sn-card" src="{{ card.src }}" alt="" width="250" height="350">'
    assert card_img_tags(f"<li>{tag}</li>") == [tag]
    assert card_img_tags('<img class="strip__card" src="x" width="250" height="350">')
    assert not card_img_tags('<img class="gallery__img" src="x" alt="" loading="lazy">')


@pytest.mark.parametrize(
    "template",
    sorted(p for p in TEMPLATES.rglob("*.html") if p != CARD_MACROS),
    ids=lambda p: str(p.relative_to(TEMPLATES)),
)
def test_no_template_writes_a_card_img_itself(template: Path) -> None:
    assert card_img_tags(template.read_text(encoding="utf-8")) == []


def test_the_card_macros_write_the_img_tag_once() -> None:
    assert len(IMG_TAG.findall(CARD_MACROS.read_text(encoding="utf-8"))) == 1


def test_picture_writes_id_and_data_but_leaves_out_none() -> None:
    img = render(
        '{{ cards.picture("/c/QH.svg", "Queen of Hearts", "play-card", lazy=False, id="top-1",'
        ' data={"vt": "card-QH", "vt-turned": none}) }}'
    ).img
    assert img["class"] == ["card-img", "play-card"]
    assert (img["id"], img["alt"], img["width"], img["height"]) == (
        "top-1",
        "Queen of Hearts",
        "250",
        "350",
    )
    assert img["data-vt"] == "card-QH" and not img.has_attr("data-vt-turned")
    assert img["decoding"] == "async" and not img.has_attr("loading")


def test_backs_stacks_and_print_pictures_share_the_macro() -> None:
    back = render('{{ cards.back("/b.svg", "", "pile__ghost", lazy=False, data={"vt": "x"}) }}').img
    assert back["class"] == ["card-img", "card-img--back", "pile__ghost"]
    assert back["data-vt"] == "x" and back["alt"] == ""
    stack = render('{{ cards.stack({"src": "/f.svg", "alt": "F"}, "/b.svg", class="big") }}')
    assert stack.span["class"] == ["card-stack", "big"]
    assert [img["class"][-1] for img in stack.find_all("img")] == [
        "card-stack__back",
        "card-stack__front",
    ]
    assert all(img["loading"] == "lazy" for img in stack.find_all("img"))
    printed = render('{{ cards.picture("/f.svg", "F", "card-sheet__img", base=none) }}').img
    assert printed["class"] == ["card-sheet__img"]
