"""Decks: a set record → the engines' cards; flagged faces stay out unless asked for."""

from __future__ import annotations

from collections import Counter

import pytest
from fixture_content import GOOD

from kiosk.catalogue.decks import deck_for, flagged_faces, match_key
from kiosk.catalogue.schema import SetRecord
from kiosk.catalogue.store import Catalogue
from kiosk.games.cards import standard_deck


@pytest.fixture(scope="module")
def pack() -> SetRecord:
    return Catalogue(GOOD).current().sets["test-1-2000"].record


def make(**fields) -> SetRecord:
    base = {
        "kind": "set",
        "slug": "s",
        "title": "T",
        "summary": "S",
        "back": {"description": "d"},
        "sources": [{"title": "t"}],
    }
    return SetRecord.model_validate(base | fields)


def test_flagged_faces_left_out_by_default(pack):
    deck = deck_for(pack)
    assert Counter(card.name for card in deck) == {"Road Up!": 4, "Our Fishermen": 3}
    assert all("golly" not in card.id for card in deck)


def test_flagged_faces_in_only_when_asked(pack):
    deck = deck_for(pack, include_flagged=True)
    assert len(deck) == 11
    assert [c.id for c in deck if c.name == "Golly Oh Golly!"] == [
        "golly-oh-golly-1",
        "golly-oh-golly-2",
        "golly-oh-golly-3",
        "golly-oh-golly-4",
    ]


def test_ids_unique_and_stable(pack):
    deck = deck_for(pack, include_flagged=True)
    assert len({card.id for card in deck}) == len(deck)
    assert [c.id for c in deck] == [c.id for c in deck_for(pack, include_flagged=True)]
    assert deck[0].id == "road-up-1"
    assert deck[0].face == "test-1-2000/road-up"


def test_missing_copies_are_not_dealt(pack):
    fishermen = [c for c in deck_for(pack) if c.name == "Our Fishermen"]
    assert [c.id for c in fishermen] == ["our-fishermen-1", "our-fishermen-2", "our-fishermen-3"]


def test_picture_match_pairs_same_faces(pack):
    deck = deck_for(pack)
    assert {c.match for c in deck} == {"road-up", "our-fishermen"}


def test_flagged_faces(pack):
    assert [face.name for face in flagged_faces(pack)] == ["Golly Oh Golly!"]
    assert flagged_faces(make(deck="standard-52")) == []


def test_standard_52():
    deck = deck_for(make(deck="standard-52"))
    assert deck == standard_deck()
    assert len(deck) == 52


def test_family_match():
    record = make(
        match="family",
        cards=[
            {"name": "Mr Twizzle", "family": "Twizzle", "role": "master"},
            {"name": "Twizzle's cap", "family": "Twizzle", "role": "article"},
            {"name": "Broomstick Man", "family": "Broomstick Man", "role": "master"},
        ],
    )
    deck = deck_for(record)
    assert [c.match for c in deck] == ["Twizzle", "Twizzle", "Broomstick Man"]
    assert [c.family for c in deck] == ["Twizzle", "Twizzle", "Broomstick Man"]


def test_rank_match():
    record = make(match="rank", cards=[{"name": "Seven", "rank": "7", "copies": 2}])
    assert [c.match for c in deck_for(record)] == ["7", "7"]
    assert match_key(record, record.cards[0]) == "7"


def test_explicit_face_slug():
    record = make(cards=[{"name": "Any Coal To-day?", "slug": "coalman", "copies": 2}])
    assert [c.id for c in deck_for(record)] == ["coalman-1", "coalman-2"]
