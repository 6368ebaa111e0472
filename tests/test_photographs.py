"""Photographs with credits (issue 15): ``credit:`` and ``licence:`` shown with an image; a
card's photograph replaces its drawn face, and a flagged card's photograph is never shown."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fixture_content import GOOD

from kiosk import create_app
from kiosk.config import ROOT

PNG = GOOD / "images" / "box.png"
ROAD_UP = (
    "    caption: A man drilling the road.\n"
    "    image:\n      src: images/road-up.png\n      alt: The Road Up! card, photographed.\n"
    "      credit: Jane Smith\n      licence: CC BY 4.0\n"
)
GOLLY = "      note: golliwog\n    image:\n      src: images/golly.png\n      alt: THE PHOTO\n"
BOX = (
    "images:\n  - src: images/box.png\n    alt: The closed case.\n"
    "    credit: Victoria and Albert Museum, London\n"
)


def content_with_photographs(tmp_path: Path) -> Path:
    """The real content, the Woolworths set with a photographed card, a photographed flagged
    card and a photograph of its case with a credit."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    (content / "images").mkdir()
    for name in ("road-up.png", "golly.png", "box.png"):
        shutil.copy(PNG, content / "images" / name)
    path = content / "sets" / "misc-869-1986.md"
    text = path.read_text()
    text = text.replace("    caption: A man drilling the road.\n", ROAD_UP)
    text = text.replace("      note: golliwog\n", GOLLY, 1)
    text = text.replace("games: [snap]\n", "games: [snap]\n" + BOX)
    path.write_text(text)
    return content


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content_with_photographs(tmp_path))})
    return app.test_client()


def soup(client, url: str) -> BeautifulSoup:
    response = client.get(url)
    assert response.status_code == 200, url
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_the_content_is_valid(client):
    assert client.get("/healthz").get_json()["content"]["problems"] == []


def test_a_cards_photograph_replaces_its_face_with_its_credit(client):
    tile = soup(client, "/sets/misc-869-1986").select_one("#card-road-up")
    img = tile.select_one("img")
    assert img["src"].startswith("/media/images/road-up.png")
    assert img["alt"] == "The Road Up! card, photographed."
    assert tile.select_one(".image-credit").get_text() == "Photograph: Jane Smith (CC BY 4.0)"


def test_a_photograph_of_the_object_shows_its_credit(client):
    figure = soup(client, "/sets/misc-869-1986").select_one("#images-title ~ ul figure")
    assert figure.select_one("img")["src"].startswith("/media/images/box.png")
    assert figure.figcaption.get_text() == "Photograph: Victoria and Albert Museum, London"


@pytest.mark.parametrize(
    "url",
    [
        "/sets/misc-869-1986",
        "/sets/misc-869-1986?view=golly-oh-golly",
        "/sets/",
        "/",
        "/embed/sets/misc-869-1986",
        "/embed/sets/misc-869-1986?view=golly-oh-golly",
        "/sets/misc-869-1986/print",
        "/notes/golliwog",
        "/patterns",
    ],
)
def test_a_flagged_cards_photograph_is_never_shown(client, url):
    html = client.get(url).get_data(as_text=True)
    assert "golly.png" not in html and "THE PHOTO" not in html


def test_a_flagged_photographed_card_is_still_covered(client):
    tile = soup(client, "/sets/misc-869-1986").select_one("#card-golly-oh-golly")
    assert tile.select_one("[data-cover]") is not None
    assert "This card shows a golliwog" in tile.get_text()
    assert tile.select_one(".image-credit") is None


def test_the_attract_loop_never_shows_it(tmp_path):
    content = content_with_photographs(tmp_path)
    client = create_app({"TESTING": True, "KIOSK_MODE": True, "CONTENT_DIR": str(content)})
    client = client.test_client()
    for n in range(1, 30):
        response = client.get(f"/attract/{n}")
        if response.status_code == 404:
            break
        assert "golly.png" not in response.get_data(as_text=True)
