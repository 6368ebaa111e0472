"""A set known only as a record (issue 27): McLoughlin's 1889 "Improved Game of Snap", whose
cards no source lists. It is catalogued, cited and shown; nothing of it is drawn or played."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

SLUG = "mcloughlin-improved-snap-1889"


def text_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    page = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    return " ".join(page.select_one("main").get_text(" ", strip=True).split())


def test_it_is_catalogued_with_its_sources(client):
    text = text_of(client, f"/sets/{SLUG}")
    assert "The Improved Game of Snap" in text
    assert "1889" in text and "McLoughlin Brothers" in text and "New York" in text
    assert "Margaret K. Hofer" in text  # the cited source, at the foot of the page
    assert "not recorded" in text


def test_it_offers_nothing_to_play_or_print(client):
    page = BeautifulSoup(client.get(f"/sets/{SLUG}").get_data(as_text=True), "html.parser")
    links = {a["href"] for a in page.select("main a[href]")}
    assert not any(h.startswith(f"/sets/{SLUG}/") for h in links), links
    assert page.select(f"main img[src^='/cards/{SLUG}/']") == []  # no card is drawn
    text = " ".join(page.select_one("main").get_text(" ", strip=True).split())
    assert "Its cards are not recorded" in text
    assert "Two cards match" not in text


@pytest.mark.parametrize("tail", ["play", "play/snap", "print"])
def test_its_game_and_print_pages_are_not_there(client, tail):
    assert client.get(f"/sets/{SLUG}/{tail}").status_code == 404


def test_a_set_without_cards_cannot_list_games(tmp_path):
    from kiosk.catalogue.schema import SetRecord

    fields = {
        "kind": "set",
        "title": "T",
        "slug": "t",
        "summary": "S",
        "back": {"description": "B"},
    }
    SetRecord.model_validate(fields)
    with pytest.raises(ValueError, match="cannot be played"):
        SetRecord.model_validate({**fields, "games": ["snap"]})
