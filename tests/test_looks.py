"""The looks chosen for a set's cards: emblems by words, one emblem per picture, a family's
shared look, and inks dark enough for the cream words on them."""

from __future__ import annotations

import pytest

from kiosk.catalogue.looks import CREAM, EMBLEM_ORDER, EMBLEM_WORDS, PALETTE, emblem_for, set_looks
from kiosk.catalogue.schema import SetRecord


@pytest.mark.parametrize(
    ("name", "emblem"),
    [
        ("Jolly Jack Tar", "anchor"),
        ("Our Fishermen", "fish"),
        ("Yeoman of the Guard", "crown"),
        ("The Arm of the Law!", "star"),
        ("Stop Me and Buy One!", "ice"),
        ("Something", "rosette"),
    ],
)
def test_emblems_are_objects_chosen_by_words(name, emblem):
    assert emblem_for(name) == emblem


def test_words_match_at_the_start_of_a_word():
    assert emblem_for("On Guard") == "sword"
    assert emblem_for("Yeoman of the Guard") == "crown"
    assert emblem_for("A Star Turn") == "rosette", "'tar' inside 'Star' is no sailor"


def test_every_word_asks_for_a_named_emblem():
    assert {emblem for _, emblem in EMBLEM_WORDS} <= set(EMBLEM_ORDER)


def record(match: str, cards: list[dict]) -> SetRecord:
    return SetRecord.model_validate(
        {
            "kind": "set",
            "slug": "s",
            "title": "T",
            "summary": "S",
            "match": match,
            "back": {"description": "d"},
            "sources": [{"title": "t"}],
            "cards": cards,
        }
    )


def test_set_looks_never_give_two_pictures_one_emblem():
    guards = record(
        "picture",
        [
            {"name": "Yeoman of the Guard"},
            {"name": "On Guard"},
            {"name": "Royal Guard"},
            {"name": "Something"},
        ],
    )
    looks = set_looks(guards)
    assert looks["yeoman-of-the-guard"].emblem == "crown"
    assert looks["on-guard"].emblem == "sword"
    emblems = [look.emblem for look in looks.values()]
    assert len(set(emblems)) == 4
    assert set_looks(guards) == looks, "the same set always gets the same looks"


def test_set_looks_hand_out_words_before_free_emblems():
    """A picture without words never takes the emblem a later picture's words ask for."""
    looks = set_looks(
        record("picture", [{"name": "Something"}, {"name": "A Fine Day"}, {"name": "The King"}])
    )
    assert EMBLEM_ORDER[0] == "crown", "the first free emblem…"
    assert looks["the-king"].emblem == "crown", "…is kept for the words that ask for it"
    assert len({look.emblem for look in looks.values()}) == 3


def test_more_pictures_than_inks_still_have_their_own_emblems():
    many = record("picture", [{"name": f"Picture {n}"} for n in range(20)])
    looks = set_looks(many)
    assert len({look.emblem for look in looks.values()}) == 20
    assert {look.ink for look in looks.values()} == set(PALETTE)


def test_a_family_shares_one_look_and_flagged_faces_get_none():
    fams = record(
        "family",
        [
            {"name": "Twizzle", "family": "Twizzle", "role": "master"},
            {"name": "Cap", "family": "Twizzle", "role": "article"},
            {"name": "Sally Cross", "family": "Sally Cross", "role": "master"},
            {
                "name": "Sally Cross: second card",
                "slug": "sc-2",
                "family": "Sally Cross",
                "role": "article",
                "recorded": False,
            },
            {
                "name": "Golly",
                "family": "Golly",
                "content_note": {"shows": "x", "note": "golliwog"},
            },
        ],
    )
    looks = set_looks(fams)
    assert looks["twizzle"] == looks["cap"]
    assert looks["sally-cross"] == looks["sc-2"]
    assert looks["twizzle"].emblem != looks["sally-cross"].emblem
    assert looks["twizzle"].ink != looks["sally-cross"].ink
    assert "golly" not in looks


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@pytest.mark.parametrize("ink", PALETTE)
def test_every_ink_carries_cream_text(ink):
    ratio = (luminance(CREAM) + 0.05) / (luminance(ink) + 0.05)
    assert ratio >= 4.5, f"{ink} against cream: {ratio:.2f}"
