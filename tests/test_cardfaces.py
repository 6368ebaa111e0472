"""The SVG drawings: well-formed, titled, typographic; a flagged card is never more than type."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from kiosk.catalogue.looks import EMBLEM_ORDER, PALETTE, look_for, palette_colour
from kiosk.catalogue.schema import Back, CardFace, ContentNote
from kiosk.games.cards import standard_deck
from kiosk.web import cardfaces
from kiosk.web.cardfaces.emblems import EMBLEM_DRAWINGS
from kiosk.web.cardfaces.standard import SUIT_PATHS
from kiosk.web.cardfaces.svg import fit_lines

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def title_of(root: ET.Element) -> str:
    first = root[0]
    assert first.tag == f"{SVG}title", "the title must be the svg's first child"
    return first.text or ""


def texts(root: ET.Element) -> str:
    return " ".join(" ".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def flagged(name: str = "Golly Oh Golly!") -> CardFace:
    return CardFace(
        name=name,
        content_note=ContentNote(shows="a racist caricature", note="golliwog"),
    )


def test_every_standard_id_is_the_engine_deck():
    assert [card.id for card in standard_deck()] == list(cardfaces.STANDARD_IDS)
    assert len(set(cardfaces.STANDARD_IDS)) == 52


@pytest.mark.parametrize("card_id", cardfaces.STANDARD_IDS)
def test_standard_face_parses_with_its_name_as_title(card_id):
    root = parse(cardfaces.standard_svg(card_id))
    assert root.get("role") == "img"
    assert title_of(root) == cardfaces.standard_name(card_id)
    assert title_of(root) == next(c.name for c in standard_deck() if c.id == card_id)


@pytest.mark.parametrize("rank", ["2", "3", "4", "5", "6", "7", "8", "9", "10"])
def test_number_cards_have_as_many_pips_as_their_rank(rank):
    root = parse(cardfaces.standard_svg(f"{rank}C"))
    club = SUIT_PATHS["C"]
    pips = [p for p in root.iter(f"{SVG}path") if p.get("d") == club]
    assert len(pips) == int(rank) + 2  # plus the two corner indices


@pytest.mark.parametrize(("card_id", "word"), [("JS", "JACK"), ("QH", "QUEEN"), ("KD", "KING")])
def test_court_cards_are_typographic(card_id, word):
    root = parse(cardfaces.standard_svg(card_id))
    assert word in texts(root)
    assert card_id[0] in texts(root)


@pytest.mark.parametrize(("card_id", "ink"), [("AH", "#b3261e"), ("AS", "#1a1a1a")])
def test_red_and_black_suits(card_id, ink):
    assert f'fill="{ink}"' in cardfaces.standard_svg(card_id)


@pytest.mark.parametrize(
    ("card_id", "ok"),
    [
        ("AS", True),
        ("10H", True),
        ("QD", True),
        ("1S", False),
        ("11H", False),
        ("KX", False),
        ("as", False),
        ("", False),
        ("AS.svg", False),
    ],
)
def test_is_standard_id(card_id, ok):
    assert cardfaces.is_standard_id(card_id) is ok


def test_standard_name_rejects_unknown_ids():
    assert cardfaces.standard_name("QH") == "Queen of Hearts"
    with pytest.raises(ValueError):
        cardfaces.standard_name("ZZ")


def test_named_face_has_its_printed_title_and_an_emblem():
    face = CardFace(name="Jolly Jack Tar", copies=4)
    root = parse(cardfaces.face_svg(face, "Woolworths Snap"))
    assert title_of(root) == "Card \u201cJolly Jack Tar\u201d (Woolworths Snap)"
    assert "Jolly Jack Tar" in texts(root)
    assert list(root.iter(f"{SVG}circle")), "a medallion with an emblem"


def test_flagged_face_is_its_quoted_historic_title_and_nothing_else():
    root = parse(cardfaces.face_svg(flagged()))
    drawn = texts(root)
    assert "\u201cGolly" in drawn and "Golly!\u201d" in drawn
    assert "HISTORIC TITLE" in drawn
    assert "historic title only" in title_of(root)
    # no medallion, emblem or picture of any kind: frame, two rules and type only
    assert not list(root.iter(f"{SVG}circle"))
    assert not list(root.iter(f"{SVG}ellipse"))
    assert not list(root.iter(f"{SVG}image"))
    assert len(list(root.iter(f"{SVG}path"))) == 1


def unrecorded(family: str, which: str) -> CardFace:
    return CardFace(name=f"{family}: {which} card", family=family, role="article", recorded=False)


def test_unrecorded_face_has_a_plain_name_and_says_not_recorded():
    root = parse(cardfaces.face_svg(unrecorded("Sally Cross", "second")))
    assert "Sally Cross's second card" in texts(root)
    assert "article not recorded" in texts(root)
    assert "SALLY CROSS" in texts(root), "the family is shown at a glance"
    assert title_of(root) == "Sally Cross family: Sally Cross's second card (article not recorded)"
    assert "does not say what this card shows" in root.find(f"{SVG}desc").text


def test_unrecorded_faces_of_two_families_do_not_look_alike():
    looks = [look_for(unrecorded(f, "second")) for f in ("Sally Cross", "Twizzle")]
    assert looks[0].emblem != looks[1].emblem
    svgs = [cardfaces.face_svg(unrecorded(f, "second")) for f in ("Sally Cross", "Twizzle")]
    assert svgs[0] != svgs[1]


@pytest.mark.parametrize(
    ("face", "title"),
    [
        (
            CardFace(name="Twizzle", family="Twizzle", role="master"),
            "Twizzle family: \u201cTwizzle\u201d, the master card",
        ),
        (CardFace(name="Cap", family="Twizzle", role="article"), "Twizzle family: \u201cCap\u201d"),
        (
            unrecorded("Broomstick Man", "fourth"),
            "Broomstick Man family: Broomstick Man's fourth card (article not recorded)",
        ),
        (CardFace(name="Road Up!"), "Card \u201cRoad Up!\u201d"),
    ],
)
def test_the_accessible_name_says_the_family_first(face, title):
    assert cardfaces.face_title(face) == title
    assert cardfaces.face_title(face, "A set") == f"{title} (A set)"


def test_text_is_escaped_for_xml():
    root = parse(cardfaces.face_svg(CardFace(name='Fish & Chips <b>"hot"</b>')))
    assert "Fish & Chips" in title_of(root)
    assert '<b>"hot"</b>' in title_of(root)


def test_family_cards_share_a_colour():
    master = CardFace(name="Twizzle", family="Twizzle", role="master")
    article = CardFace(name="Cap", family="Twizzle", role="article")
    ink = palette_colour("Twizzle")
    assert ink in PALETTE
    assert f'stroke="{ink}"' in cardfaces.face_svg(master)
    assert f'stroke="{ink}"' in cardfaces.face_svg(article)
    assert "TWIZZLE" in texts(parse(cardfaces.face_svg(article)))
    assert "MASTER CARD" in texts(parse(cardfaces.face_svg(master)))


def test_every_emblem_name_has_a_drawing_and_every_drawing_a_name():
    names, drawn = set(EMBLEM_ORDER), set(EMBLEM_DRAWINGS)
    assert len(names) == len(EMBLEM_ORDER), "each emblem named once"
    assert names - drawn == set(), "names in kiosk.catalogue.looks without a drawing"
    assert drawn - names == set(), "drawings without a name in kiosk.catalogue.looks"


def test_every_emblem_is_a_different_drawing():
    drawings = [EMBLEM_DRAWINGS[e] for e in EMBLEM_ORDER]
    assert len(set(drawings)) == len(drawings) >= 24


@pytest.mark.parametrize(
    "text",
    [
        "Road Up!",
        "Yeoman of the Guard",
        "Stop Me and Buy One!",
        "A" * 60,
        "Broomstick Man's fourth card",
    ],
)
def test_fit_lines_fits_the_width(text):
    lines, size = fit_lines(text, width=172, height=68, max_size=28)
    assert " ".join(lines).replace(" ", "") == text.replace(" ", "")
    assert 12 <= size <= 28
    assert len(lines) * size * 1.15 <= 68 + 1 or size == 12


@pytest.mark.parametrize("pattern", ["woolworths-w", "lattice", "plain"])
def test_backs(pattern):
    back = Back(pattern=pattern, colour="#1d2c5e", description="Dark blue.")
    root = parse(cardfaces.back_svg(back, "A set"))
    assert title_of(root) == "Card back (A set)"
    assert 'fill="#1d2c5e"' in cardfaces.back_svg(back)
    patterns = list(root.iter(f"{SVG}pattern"))
    assert bool(patterns) is (pattern != "plain")


def test_woolworths_back_is_a_pattern_of_ws():
    svg = cardfaces.back_svg(Back(pattern="woolworths-w", description="Ws."))
    tile = re.search(r"<pattern.*?</pattern>", svg, re.S).group(0)
    d = re.search(r'\sd="([^"]+)"', tile).group(1)
    assert d.count("L") == 4, "a W is a zigzag of four strokes"


def test_a_bad_colour_falls_back_to_dark_blue():
    svg = cardfaces.back_svg(Back(pattern="plain", colour='red" onload="x', description="x"))
    assert "onload" not in svg
    assert 'fill="#1d2c5e"' in svg


def all_drawings():
    yield cardfaces.icon_svg()
    yield cardfaces.face_svg(flagged())
    yield cardfaces.face_svg(CardFace(name="Road Up!"))
    yield cardfaces.back_svg(cardfaces.DEFAULT_BACK)
    yield from (cardfaces.standard_svg(i) for i in ("AS", "10H", "KC"))


@pytest.mark.parametrize("svg", list(all_drawings()))
def test_no_script_style_or_external_reference(svg):
    root = parse(svg)
    assert root.get("role") == "img" and title_of(root)
    assert "<script" not in svg and "<style" not in svg and "style=" not in svg
    assert "http:" not in svg.replace("http://www.w3.org/2000/svg", "")
    assert "https:" not in svg


def test_quoted():
    assert cardfaces.quoted(" Road Up! ") == "\u201cRoad Up!\u201d"
