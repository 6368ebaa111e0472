"""Card names a child can say: a card the record does not name is "Sally Cross's second card",
and wherever it is shown or said it is also said to be what it is: "(article not recorded)".

The name is made once (the record's ``name``); the drawing's title, every picture's alt text,
the game table and the rule step-throughs all follow it, and a family card says its family.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

from kiosk.catalogue import Catalogue
from kiosk.catalogue.decks import card_name, game_deck
from kiosk.catalogue.schema import CardFace
from kiosk.config import ROOT
from kiosk.web.cardfaces import face_title

SNAPSHOT = Catalogue(ROOT / "content").current()
TWIZZLES = SNAPSHOT.sets["twizzles-happy-families"].record
UNRECORDED = [face for face in TWIZZLES.cards if not face.recorded]
PLACEHOLDER = re.compile(r"not recorded|\(\d+\)", re.I)
NUMBERED = re.compile(r"\(\d+\)")
HONEST = "(article not recorded)"
ORDINALS = ("first", "second", "third", "fourth")
SVG = "{http://www.w3.org/2000/svg}"


def soup(response) -> BeautifulSoup:
    assert response.status_code == 200
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.mark.parametrize(
    ("face", "name"),
    [
        (
            CardFace(name="Sally Cross: second card", family="Sally Cross", recorded=False),
            "Sally Cross's second card",
        ),
        (CardFace(name="Cap", family="Twizzle", role="article"), "Cap"),
        (CardFace(name="Twizzle", family="Twizzle", role="master"), "Twizzle"),
        (CardFace(name="Road Up!"), "Road Up!"),
        # a printed name is historic text: never rewritten, even with a colon in it
        (CardFace(name="Sally Cross: At Home", family="Sally Cross"), "Sally Cross: At Home"),
        (CardFace(name="A card", recorded=False), "A card"),
    ],
)
def test_card_name(face, name):
    assert card_name(face) == name


def test_the_twizzles_pack_has_cards_not_recorded():
    assert len(UNRECORDED) == 5


@pytest.mark.parametrize("face", UNRECORDED, ids=[f.key for f in UNRECORDED])
def test_an_unrecorded_card_has_a_plain_name_a_child_can_say(face):
    name = card_name(face)
    assert not PLACEHOLDER.search(name), name
    assert re.fullmatch(rf"{re.escape(face.family)}'s ({'|'.join(ORDINALS)}) card", name), name


def test_the_unrecorded_cards_of_a_family_have_different_names():
    names = [card_name(face) for face in UNRECORDED]
    assert len(set(names)) == len(names)
    assert "Sally Cross's second card" in names


@pytest.mark.parametrize("face", UNRECORDED, ids=[f.key for f in UNRECORDED])
def test_the_accessible_name_says_the_family_and_the_plain_name(face):
    assert face_title(face) == f"{face.family} family: {card_name(face)} {HONEST}"


def test_the_set_page_alt_says_the_family_and_the_plain_name(client):
    page = soup(client.get("/sets/twizzles-happy-families"))
    alt = page.select_one("#card-sally-cross-article-not-recorded-1 img")["alt"]
    assert alt == f"Sally Cross family: Sally Cross's second card {HONEST}"
    for face in TWIZZLES.cards:
        img = page.select_one(f"#card-{face.key} img")
        assert img["alt"].startswith(f"{face.family} family: "), face.key
        assert not re.search(r"\(\d+\)", img["alt"]), img["alt"]


def test_the_drawing_says_the_plain_name(client):
    response = client.get("/cards/twizzles-happy-families/sally-cross-article-not-recorded-1.svg")
    root = ET.fromstring(response.data)
    assert root[0].text == (
        f"Sally Cross family: Sally Cross's second card {HONEST} (Twizzles Happy Families)"
    )
    drawn = " ".join(" ".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "Sally Cross's second card" in drawn and "SALLY CROSS" in drawn
    assert "article not recorded" in drawn


def test_the_happy_families_table_asks_for_the_plain_name():
    names = [card.name for card in game_deck(TWIZZLES, "happy-families")]
    assert f"Sally Cross's second card {HONEST}" in names
    assert f"Broomstick Man's fourth card {HONEST}" in names
    assert not [name for name in names if NUMBERED.search(name)]
    assert sum(HONEST in name for name in names) == len(UNRECORDED)


def said_honestly(text: str) -> bool:
    """Every unrecorded card named in ``text`` is said to be not recorded, right after it."""
    return all(
        text.count(name) == text.count(f"{name} {HONEST}")
        for name in (card_name(face) for face in UNRECORDED)
    )


HF_STEPS = [
    (key, n)
    for key, run in SNAPSHOT.runs.items()
    if key.startswith("happy-families/")
    for n in range(1, len(run.steps) + 1)
]


def test_rule_steps_never_name_a_placeholder(client):
    assert HF_STEPS, "the Happy Families step-throughs use the Twizzles pack"
    for key, n in HF_STEPS:
        page = soup(client.get(f"/rules/{key}/{n}"))
        alts = " ".join(img.get("alt", "") for img in page.find_all("img"))
        words = page.get_text(" ")
        assert not NUMBERED.search(alts), (key, n, alts)
        assert said_honestly(alts) and said_honestly(words), (key, n)
