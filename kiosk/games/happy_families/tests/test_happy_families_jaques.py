"""Jaques' Happy Families: a pack long enough to be a game, every family it lists cited.

The record is content/sets/jaques-happy-families.md; its families come from the sources it
lists, and its record page shows those sources. It deals and plays in the one Happy Families
engine, its cards asked for by their printed names.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from kiosk.catalogue import Catalogue
from kiosk.catalogue.decks import game_deck
from kiosk.config import ROOT
from kiosk.games.happy_families import engine as hf
from kiosk.games.happy_families.engine.game import GAME_TYPE

SLUG = "jaques-happy-families"
SNAPSHOT = Catalogue(ROOT / "content").current()
RECORD = SNAPSHOT.sets[SLUG].record
FAMILIES = list(dict.fromkeys(face.family for face in RECORD.cards))
MEMBERS = ("Mr {0} the {1}", "Mrs {0} the {1}'s Wife", "Master {0} the {1}'s Son")


def page(client, url: str) -> BeautifulSoup:
    response = client.get(url)
    assert response.status_code == 200, url
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def test_the_record_lists_ten_whole_families_of_four_all_recorded():
    assert len(FAMILIES) == 10
    for family in FAMILIES:
        cards = [face for face in RECORD.cards if face.family == family]
        assert len(cards) == 4, family
        assert all(face.recorded and face.content_note is None for face in cards), family
        trade = cards[0].name.split(" the ")[1]
        names = [face.name for face in cards[:3]]
        assert names == [m.format(family, trade) for m in MEMBERS], family
        assert cards[3].name == f"Miss {family} the {trade}'s Daughter"


def test_what_the_sources_do_not_give_is_said_to_be_not_recorded():
    note = RECORD.families_recorded_note
    assert "eleventh" in note and "not recorded" in note
    assert "not recorded" in RECORD.back.description
    assert "not recorded" in RECORD.physical_description
    # the sources disagree on when the game began: both dates, or neither
    assert "1851" in RECORD.date and "1861" in RECORD.date


def test_kiosk_check_passes():
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "check", "--fatal", "content"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_record_page_cites_a_source_for_every_family_it_lists(client):
    soup = page(client, f"/sets/{SLUG}")
    shown = [h.get_text(" ", strip=True) for h in soup.select("#cards h3")]
    assert shown == [f"The {family} family" for family in FAMILIES]
    listing = next(p for p in soup.select("p") if "families are named" in p.get_text())
    for family in FAMILIES:
        assert re.search(rf"\b{family}\b", listing.get_text(" ")), family
    # the paragraph's note leads to the sources that list the families, each with its address
    note_ids = [a["href"].lstrip("#") for a in listing.select("a.cite__link")]
    assert note_ids
    cited = {a["href"] for n in note_ids for a in soup.find(id=n).select("a.note__title")}
    assert any("northoneartist-happy-families" in href for href in cited)
    sources = page(client, "/pages/sources").get_text(" ")
    assert "https://mrspottsthepainterswife.com/2012/08/29/happy-families-card-game/" in sources
    assert len(soup.select("li.card-tile")) == len(RECORD.cards)


def test_the_deck_deals_forty_cards_asked_for_by_their_printed_names():
    deck = game_deck(RECORD, hf.GAME)
    assert len(deck) == 40 and len({c.family for c in deck}) == 10
    assert {c.name for c in deck} == {face.name for face in RECORD.cards}
    state, _ = hf.new_game(deck, hf.options_for(players=3, dealer=2), seed=3)
    card = next(c for c in deck if c.name == "Mrs Bun the Baker's Wife")
    legal = [a for a in hf.legal_actions(state, state.turn) if a["card"] == card.id]
    if legal:
        _, events = hf.apply(state, legal[0])
        assert events[0].data["words"] == "Please may I have Mrs Bun the Baker's Wife?"


@pytest.mark.parametrize("seed", range(5))
def test_a_whole_game_plays_to_its_end(seed):
    deck = game_deck(RECORD, hf.GAME)
    state, _ = hf.new_game(deck, hf.options_for(players=3), seed=seed)
    moves = 0
    while not hf.is_over(state):
        moment = f"{seed}:{moves}"  # as the play page seeds a computer player's move
        action = GAME_TYPE.next_move(state, (), lambda s, m=moment: hf.make_bot("forgetful", s, m))
        state, _ = hf.apply(state, {k: v for k, v in action.items() if k != "why"})
        moves += 1
    assert state.end == "every family is down"
    assert sum(hf.trick_counts(state)) == 10 and moves > 20


def test_the_setup_page_offers_the_pack(client):
    soup = page(client, f"/sets/{SLUG}/play/happy-families")
    assert soup.select_one("form button[type=submit]") is not None
