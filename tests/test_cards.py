"""The card-picture blueprint: every face and back of the real content, cache headers, 404s."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kiosk import create_app
from kiosk.catalogue import Catalogue
from kiosk.catalogue.decks import deck_for, match_key
from kiosk.config import ROOT
from kiosk.web.cardfaces import STANDARD_IDS
from kiosk.web.cards import card_face

SVG = "{http://www.w3.org/2000/svg}"
CONTENT = ROOT / "content"
SNAPSHOT = Catalogue(CONTENT).current()
SETS = {slug: entry.record for slug, entry in SNAPSHOT.sets.items()}
FACES = [(slug, face) for slug, record in SETS.items() for face in record.cards]
NAMED_SETS = sorted(slug for slug, record in SETS.items() if record.cards)


def svg_root(response) -> ET.Element:
    assert response.status_code == 200
    assert response.content_type.startswith("image/svg+xml")
    root = ET.fromstring(response.data)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    first = root[0]
    assert first.tag == f"{SVG}title" and first.text
    return root


def test_the_real_content_has_the_six_sets():
    assert set(SETS) == {
        "mcloughlin-improved-snap-1889",  # a record alone: its cards are not recorded
        "misc-869-1986",
        "twizzles-happy-families",
        "jaques-happy-families",
        "snitchems-1797",
        "snap-standard-deck",
    }
    assert FACES, "the named sets list their faces"


@pytest.mark.parametrize(("set_slug", "face"), FACES, ids=[f"{s}/{f.key}" for s, f in FACES])
def test_every_face_of_every_set(client, set_slug, face):
    root = svg_root(client.get(f"/cards/{set_slug}/{face.key}.svg"))
    title = root[0].text
    if face.recorded:
        assert face.name in title
    else:
        assert "not recorded" in title
    if face.family:
        assert title.startswith(f"{face.family} family: "), "a family card says its family"


@pytest.mark.parametrize("set_slug", sorted(SETS))
def test_every_back(client, set_slug):
    root = svg_root(client.get(f"/cards/{set_slug}/back.svg"))
    assert SETS[set_slug].title in root[0].text
    assert f'fill="{SETS[set_slug].back.colour}"' in ET.tostring(root, encoding="unicode")


def test_the_woolworths_back_is_dark_blue_with_ws(client):
    root = svg_root(client.get("/cards/misc-869-1986/back.svg"))
    assert SETS["misc-869-1986"].back.pattern == "woolworths-w"
    assert list(root.iter(f"{SVG}pattern")), "a repeating pattern"
    assert 'fill="#1d2c5e"' in client.get("/cards/misc-869-1986/back.svg").get_data(True)


@pytest.mark.parametrize("card_id", STANDARD_IDS)
def test_every_standard_face(client, card_id):
    svg_root(client.get(f"/cards/standard/{card_id}.svg"))


def test_standard_back_and_icon(client):
    svg_root(client.get("/cards/standard/back.svg"))
    svg_root(client.get("/cards/icon.svg"))
    svg_root(client.get("/favicon.ico"))


def test_flagged_face_is_drawn_as_its_title_only(client):
    flagged = [f for f in SETS["misc-869-1986"].cards if f.content_note]
    assert [f.name for f in flagged] == ["Golly Oh Golly!"]
    response = client.get(f"/cards/misc-869-1986/{flagged[0].key}.svg")
    root = svg_root(response)
    drawn = " ".join(" ".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "\u201cGolly" in drawn and "HISTORIC TITLE" in drawn
    assert not list(root.iter(f"{SVG}circle"))
    assert not list(root.iter(f"{SVG}image"))


@pytest.mark.parametrize(
    "url",
    [
        "/cards/standard/ZZ.svg",
        "/cards/standard/AS.png",
        "/cards/no-such-set/back.svg",
        "/cards/no-such-set/road-up.svg",
        "/cards/misc-869-1986/no-such-face.svg",
        "/cards/misc-869-1986/AS.svg",
        "/cards/misc-869-1986/../standard/AS.svg",
        "/cards/",
    ],
)
def test_unknown_cards_are_404(client, url):
    assert client.get(url).status_code == 404


def test_standard_set_serves_standard_faces_under_its_own_slug(client):
    svg_root(client.get("/cards/snap-standard-deck/QH.svg"))


def test_etag_and_304(client):
    first = client.get("/cards/misc-869-1986/road-up.svg")
    assert first.headers["ETag"]
    assert "max-age" in first.headers["Cache-Control"]
    again = client.get(
        "/cards/misc-869-1986/road-up.svg", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    assert again.data == b""
    standard = client.get("/cards/standard/AS.svg")
    assert standard.headers["ETag"] != first.headers["ETag"]


def test_etag_changes_when_the_set_changes(tmp_path: Path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content)})
    client = app.test_client()
    before = client.get("/cards/misc-869-1986/road-up.svg")
    path = content / "sets" / "misc-869-1986.md"
    path.write_text(path.read_text().replace("name: Road Up!", "name: Road Up Again!"))
    assert client.get("/cards/misc-869-1986/road-up.svg").status_code == 404
    after = client.get("/cards/misc-869-1986/road-up-again.svg")
    assert after.status_code == 200
    assert "Road Up Again!" in after.get_data(True)
    assert after.headers["ETag"] != before.headers["ETag"]


def test_svgs_carry_the_security_headers(client):
    response = client.get("/cards/standard/AS.svg")
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_template_globals_point_at_the_pictures(app, client):
    with app.test_request_context():
        assert card_face("standard/AS").src == "/cards/standard/AS.svg"
        assert card_face("misc-869-1986/road-up").src == "/cards/misc-869-1986/road-up.svg"
        assert app.jinja_env.globals["back_src"]() == "/cards/standard/back.svg"
        assert app.jinja_env.globals["standard_name"]("10D") == "10 of Diamonds"


@pytest.mark.parametrize("set_slug", sorted(s for s in SETS if SETS[s].cards_listed))
def test_every_card_of_every_playable_deck_has_a_picture(app, client, set_slug):
    """The game table will draw engine cards by their ``face`` key: each must resolve."""
    deck = deck_for(SETS[set_slug])
    assert deck
    with app.test_request_context():
        urls = {card_face(card.face).src for card in deck}
    for url in urls:
        assert client.get(url).status_code == 200, url


def look_of(client, set_slug: str, face) -> tuple[str, str]:
    """A served face's emblem (the drawing on its medallion) and its ink."""
    root = svg_root(client.get(f"/cards/{set_slug}/{face.key}.svg"))
    medallion = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "medallion")
    ring, _, *drawing = list(medallion)
    return "".join(ET.tostring(part, encoding="unicode") for part in drawing), ring.get("fill")


def test_the_named_sets_are_the_three_with_faces():
    assert NAMED_SETS == ["jaques-happy-families", "misc-869-1986", "twizzles-happy-families"]


@pytest.mark.parametrize("set_slug", NAMED_SETS)
def test_no_two_non_matching_cards_share_an_emblem(client, set_slug):
    """Cards Snap does not pair never share an emblem; cards it pairs share emblem and ink."""
    record = SETS[set_slug]
    drawn = [face for face in record.cards if face.content_note is None]
    looks = {face.key: look_of(client, set_slug, face) for face in drawn}
    for i, one in enumerate(drawn):
        for other in drawn[i + 1 :]:
            pair = f"{one.key} / {other.key}"
            if match_key(record, one) == match_key(record, other):
                assert looks[one.key] == looks[other.key], pair
            else:
                assert looks[one.key][0] != looks[other.key][0], pair


@pytest.mark.parametrize("set_slug", NAMED_SETS)
def test_each_family_has_its_own_emblem_and_colour(client, set_slug):
    record = SETS[set_slug]
    families: dict[str, set[tuple[str, str]]] = {}
    for face in record.cards:
        if face.family and face.content_note is None:
            families.setdefault(face.family, set()).add(look_of(client, set_slug, face))
    if record.match != "family":
        assert not families
        return
    assert all(len(looks) == 1 for looks in families.values()), "a family shares one look"
    emblems = [next(iter(looks))[0] for looks in families.values()]
    inks = [next(iter(looks))[1] for looks in families.values()]
    assert len(set(emblems)) == len(families)
    assert len(set(inks)) == len(families)


def test_flagged_faces_are_still_drawn_without_an_emblem(client):
    for set_slug in NAMED_SETS:
        for face in SETS[set_slug].cards:
            if face.content_note is not None:
                svg = client.get(f"/cards/{set_slug}/{face.key}.svg").get_data(True)
                assert 'class="medallion"' not in svg
