"""For teachers (issue 18): the "Embed this" panel, the teachers' page, print and play."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.catalogue.decks import deck_for
from kiosk.config import ROOT
from kiosk.web import content

BASE = "http://localhost"
PANEL_PAGES = ["/sets/misc-869-1986", "/games/snap", "/rules/", "/rules/snap/classic/2"]
SETS = ["misc-869-1986", "twizzles-happy-families", "snitchems-1797", "snap-standard-deck"]
GOLLY = "/cards/misc-869-1986/golly-oh-golly"


def soup_of(response) -> BeautifulSoup:
    assert response.status_code == 200, response.status_code
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


@pytest.mark.parametrize("path", PANEL_PAGES)
def test_set_game_and_rule_pages_offer_the_embed_code(client, path):
    soup = soup_of(client.get(path))
    panel = soup.select_one("#embed-this")
    assert panel is not None
    code = BeautifulSoup(panel.select_one("textarea").get_text(), "html.parser")
    frame = code.iframe
    assert frame["src"].startswith(BASE + "/embed/")
    assert frame["title"]
    assert code.script["src"] == BASE + "/static/js/embed.js"
    assert panel.select_one("button[data-copy]")["data-copy"] == panel.select_one("textarea")["id"]
    assert panel.select_one("a[href='/pages/teachers']")
    assert "embed.js" in panel.get_text()
    scripts = [s for s in soup.find_all("script") if not s.get("src")]
    assert not scripts  # the CSP allows no inline script: Copy is static/js/kiosk.js


def test_the_code_frames_the_page_it_is_on(client):
    code = soup_of(client.get("/sets/snitchems-1797")).select_one("#embed-this textarea")
    assert f'src="{BASE}/embed/sets/snitchems-1797"' in code.get_text()
    step = soup_of(client.get("/rules/snap/classic/4")).select_one("#embed-this textarea")
    assert f'src="{BASE}/embed/rules/snap/classic/1"' in step.get_text()  # from its start


@pytest.mark.parametrize("path", PANEL_PAGES)
def test_no_panel_in_kiosk_mode_or_inside_an_embed(client, path):
    kiosk = create_app({"TESTING": True, "SECRET_KEY": "t", "KIOSK_MODE": True}).test_client()
    for soup in (soup_of(kiosk.get(path)), soup_of(client.get("/embed" + path))):
        assert soup.select_one("#embed-this, .teach, .teach__open") is None


def test_the_teachers_page_has_the_discussion_questions(client):
    soup = soup_of(client.get("/pages/teachers"))
    assert soup.select_one("a[href='/notes/golliwog']")
    questions = [li.get_text() for li in soup.select(".prose li") if li.get_text().endswith("?")]
    assert len(questions) >= 4


# ------------------------------------------------------------------ print and play


@pytest.mark.parametrize("slug", SETS)
def test_print_page_prints_the_playable_deck_and_the_rules(app, client, slug):
    soup = soup_of(client.get(f"/sets/{slug}/print"))
    with app.test_request_context():
        record = content.current().sets[slug].record
    cards = soup.select(".card-sheet__img")
    assert len(cards) == len(deck_for(record))
    assert soup.select_one(".print-rules .prose h2, .print-rules .prose h3")
    headings = [h.get_text().lower() for h in soup.select(".print-rules .prose h2")]
    assert not [h for h in headings if "on this kiosk" in h]  # how the screen plays: not paper
    assert len(soup.select(".strip__step")) >= 3
    assert soup.select_one("link[href^='/static/css/print.css']")


def test_a_flagged_card_is_never_printed_and_the_sheet_says_why(client):
    page = client.get("/sets/misc-869-1986/print").get_data(as_text=True)
    soup = BeautifulSoup(page, "html.parser")
    assert GOLLY not in page
    assert all(GOLLY not in img["src"] for img in soup.find_all("img"))
    left_out = soup.select_one(".print-cards__left-out").get_text(" ", strip=True)
    assert "Golly Oh Golly!" in left_out and "4" in left_out
    assert "golliwog" in left_out  # what it shows
    assert f"{BASE}/notes/golliwog" in left_out  # the note's address, readable on paper
    assert len(soup.select(".card-sheet__img")) == 43


def test_sets_without_flagged_cards_leave_nothing_out(client):
    soup = soup_of(client.get("/sets/twizzles-happy-families/print"))
    assert soup.select_one(".print-cards__left-out") is None


def test_the_print_stylesheet_lays_out_for_a4():
    css = (ROOT / "kiosk/static/css/print.css").read_text(encoding="utf-8")
    assert "@media print" in css
    assert re.search(r"@page\s*{[^}]*size:\s*A4", css)
    assert "63mm" in css and "88mm" in css  # a playing card's size


def test_the_set_page_links_to_print_and_play(client):
    soup = soup_of(client.get("/sets/misc-869-1986"))
    assert soup.select_one("a[href='/sets/misc-869-1986/print']")


def test_an_unknown_set_has_no_print_page(client):
    assert client.get("/sets/no-such-set/print").status_code == 404
