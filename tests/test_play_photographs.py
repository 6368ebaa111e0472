"""Photographs in play (issue 25, point 7): a set's photographs of its card fronts are the
faces of its games, its rule step-throughs and its print-and-play sheet.

Always the copies ``kiosk images`` made (320 px across in play: a card is never wider than
about 310 CSS px), never the curator's original under /media/images/, never a covered file
(flagged on its card, on the picture itself, or by another card naming the same file); the
drawn face stays for a card without a photograph. On paper only a photograph whose rights
allow it (The Milk Cart's is "In Copyright": its printed face is the drawing).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from photo_content import (
    CC_BY,
    FLAGGED_FRONT,
    FLAGGED_PACK,
    FRONTS,
    IN_COPYRIGHT,
    SCENARIO,
    SLUG,
    photo_content,
)
from PIL import Image

from kiosk import create_app
from kiosk.catalogue.pictures import picture_id
from kiosk.games.cards import Card
from kiosk.web.cardfaces import face_title, quoted
from kiosk.web.cards import PHOTO_CLASS, PLAY_WIDTH, PRINT_WIDTH, card_face, face_alt, face_src
from kiosk.web.content import entry
from kiosk.web.play.games import card_view

PHOTOGRAPHED = FRONTS
MADE = re.compile(r"^/media/pictures/(?P<pid>[a-z0-9-]+)/w(?P<w>[0-9]+)\.jpg$")
DRAWN = re.compile(r"^/cards/test-photographs/(?P<face>[a-z0-9-]+)\.svg$")
COVERED_PIDS = {picture_id(FLAGGED_FRONT), picture_id(FLAGGED_PACK)}


def slug_of(name: str) -> str:
    return name.lower().replace(" ", "-")


def pid_of(name: str) -> str:
    return picture_id(f"images/{SLUG}/{slug_of(name)}.jpg")


def with_scenario(content: Path) -> Path:
    """The photographed content with a step-through played with its pack."""
    (content / "games" / "snap" / "photographs.md").write_text(SCENARIO, encoding="utf-8")
    return content


def edit_set(content: Path, *changes: tuple[str, str]) -> Path:
    """The photographed set's file with each (old, new) replaced once."""
    path = content / "sets" / f"{SLUG}.md"
    text = path.read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return content


def without_image(content: Path, name: str) -> Path:
    """The photographed set with one card's photograph taken out of its record."""
    slug = slug_of(name)
    path = content / "sets" / f"{SLUG}.md"
    text = path.read_text(encoding="utf-8")
    # its front's lines only: Harbour Light's back photograph stays (a game never shows it)
    block = re.compile(
        rf"(  - name: {re.escape(name)}\n    copies: 4\n)    image:\n(?:      .*\n)+"
    )
    text, n = block.subn(r"\1", text)
    assert n == 1 and f"images/{SLUG}/{slug}.jpg" not in text
    path.write_text(text, encoding="utf-8")
    return content


def app_for(content: Path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "photographs-in-play",
            "CONTENT_DIR": str(content),
            "PLAY_MAX_TURNS": 30,
        }
    )
    # only this set's and this step-through's problems: the rest is the shipped content's
    problems = app.test_client().get("/healthz").get_json()["content"]["problems"]
    mine = [p for p in problems if SLUG in p or "photographs.md" in p]
    assert mine == [], mine
    return app


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return with_scenario(photo_content(tmp_path))


@pytest.fixture
def app(content: Path):
    return app_for(content)


@pytest.fixture
def client(app):
    return app.test_client()


def soup(response) -> BeautifulSoup:
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def start(client) -> BeautifulSoup:
    return soup(
        client.post(f"/sets/{SLUG}/play", data={"bots": "1", "level": "easy", "variant": "classic"})
    )


def token_of(page: BeautifulSoup) -> str:
    return page.find("input", attrs={"name": "token"})["value"]


def play_through(client, actions: int = 40) -> list[BeautifulSoup]:
    """A Snap game's tables, from the first, turning the visitor's card when it may and
    letting the computer move otherwise, until the game is over."""
    page = start(client)
    tables = [page]
    for _ in range(actions):
        game = page.select_one("#snap-game")
        if game is not None and game.get("data-over") == "1":
            break
        turn = page.select_one("#turn-button")
        what = "turn" if turn is not None and not turn.has_attr("disabled") else "next"
        page = soup(
            client.post(f"/sets/{SLUG}/play/act", data={"token": token_of(page), "act": what})
        )
        tables.append(page)
    return tables


def face_imgs(page: BeautifulSoup) -> list:
    """The card faces a table shows (its backs left out)."""
    return [img for img in page.select("img.play-card")]


def faces_of(step: BeautifulSoup) -> list:
    """The face-up cards of a rule step (a face-down one shows the set's back)."""
    return [img for img in step.select("#rules-table img") if not img["src"].endswith("/back.svg")]


def assert_never_an_original_or_covered(html: str) -> None:
    assert "/media/images/" not in html
    for pid in COVERED_PIDS:
        assert pid not in html
    assert "/media/covered/" not in html


# ----------------------------------------------------------------- Snap


def test_the_snap_table_preloads_the_made_copies_of_every_photographed_face(client):
    page = start(client)
    faces = page.select_one("#snap-game")["data-faces"].split()
    found = {MADE.match(src)["pid"]: int(MADE.match(src)["w"]) for src in faces}
    assert found == {pid_of(name): PLAY_WIDTH for name in PHOTOGRAPHED}
    for src in faces:
        with client.get(src) as response:
            assert response.status_code == 200, src
            assert response.mimetype == "image/jpeg"
            assert Image.open(io.BytesIO(response.data)).width == PLAY_WIDTH  # never more
    assert_never_an_original_or_covered(str(page))


def test_a_whole_snap_game_shows_the_photographs_as_its_faces_named_as_cards(client):
    seen: dict[str, str] = {}
    tables = play_through(client)
    assert tables[-1].select_one("#snap-game")["data-over"] == "1", "the game never ended"
    for page in tables:
        for img in face_imgs(page):
            made = MADE.match(img["src"])
            assert made, img
            assert PHOTO_CLASS in img["class"]
            assert img["width"] == "250" and img["height"] == "350"
            # the card's name, as a visitor needs it to play (not the photograph's description)
            seen[made["pid"]] = img["alt"]
        assert_never_an_original_or_covered(str(page))
    assert len(seen) >= 4, seen
    names = {pid_of(name): quoted(name) for name in PHOTOGRAPHED}
    assert {pid: names[pid] for pid in seen} == seen


def test_a_card_without_a_photograph_keeps_its_drawn_face(tmp_path):
    content = without_image(with_scenario(photo_content(tmp_path)), "Harbour Light")
    client = app_for(content).test_client()
    faces = start(client).select_one("#snap-game")["data-faces"].split()
    assert "/cards/test-photographs/harbour-light.svg" in faces
    photographed = {MADE.match(s)["pid"] for s in faces if MADE.match(s)}
    assert photographed == {pid_of(n) for n in PHOTOGRAPHED if n != "Harbour Light"}
    for page in play_through(client):
        for img in face_imgs(page):
            drawn = DRAWN.match(img["src"])
            assert (drawn is not None) == (img["alt"] == quoted("Harbour Light")), img
            assert (PHOTO_CLASS in img["class"]) == (drawn is None), img


def test_a_covered_file_is_never_a_face_wherever_it_is_flagged(tmp_path):
    """Top Hat's front names the pack photograph (flagged on the picture itself), Kite Day's
    the golliwog card's (flagged by that card), Fire Engine's own picture is flagged: all three
    are drawn, in the game, the step-through and on paper."""
    content = edit_set(
        with_scenario(photo_content(tmp_path)),
        (f"src: images/{SLUG}/top-hat.jpg", f"src: {FLAGGED_PACK}"),
        (f"src: images/{SLUG}/kite-day.jpg", f"src: {FLAGGED_FRONT}"),
        (
            "alt: The Fire Engine card, a coloured picture on cream card.\n"
            "      credit: Photograph made up for the kiosk's tests\n"
            f"      rights: {CC_BY}\n",
            "alt: The Fire Engine card, a coloured picture on cream card.\n"
            "      credit: Photograph made up for the kiosk's tests\n"
            f"      rights: {CC_BY}\n"
            "      content_note:\n        shows: a picture a curator has covered\n"
            "        note: golliwog\n",
        ),
    )
    client = app_for(content).test_client()
    covered = {"top-hat", "kite-day", "fire-engine"}
    faces = start(client).select_one("#snap-game")["data-faces"].split()
    assert {DRAWN.match(s)["face"] for s in faces if DRAWN.match(s)} == covered
    assert {MADE.match(s)["pid"] for s in faces if MADE.match(s)} == {
        pid_of(n) for n in PHOTOGRAPHED if slug_of(n) not in covered
    }
    assert pid_of("Fire Engine") not in " ".join(faces)
    pages = [p.decode() for p in play_through(client)]
    pages += [soup(client.get(f"/rules/snap/photographs/{n}")).decode() for n in range(1, 11)]
    pages.append(soup(client.get(f"/sets/{SLUG}/print")).decode())
    for html in pages:
        assert_never_an_original_or_covered(html)
        assert pid_of("Fire Engine") not in html
    steps = [soup(client.get(f"/rules/snap/photographs/{n}")) for n in range(1, 11)]
    drawn = {m["face"] for step in steps for i in faces_of(step) if (m := DRAWN.match(i["src"]))}
    assert {"top-hat", "kite-day", "fire-engine"} <= drawn


def test_before_kiosk_images_has_made_the_copies_every_face_is_drawn(tmp_path):
    """Never the original: without its made copies a photograph is not placed at all."""
    client = app_for(with_scenario(photo_content(tmp_path, make=False))).test_client()
    faces = start(client).select_one("#snap-game")["data-faces"].split()
    assert {DRAWN.match(s)["face"] for s in faces} == {slug_of(n) for n in PHOTOGRAPHED}
    page = soup(client.get("/rules/snap/photographs/10"))
    assert page.select("#rules-table img") and not page.select(f".{PHOTO_CLASS}")
    assert_never_an_original_or_covered(page.decode())


# ----------------------------------------------------------------- rule step-throughs


def test_a_rule_step_shows_the_photographs_named_as_cards(client):
    page = soup(client.get("/rules/snap/photographs/4"))
    faces = faces_of(page)
    # named as the play table names them: a printed name is historic text, quoted
    assert [(MADE.match(i["src"])["pid"], i["alt"]) for i in faces] == [
        (pid_of("Harbour Light"), "“Harbour Light”")
    ] * 2
    assert all(PHOTO_CLASS in i["class"] and MADE.match(i["src"])["w"] == "320" for i in faces)
    late = soup(client.get("/rules/snap/photographs/10"))
    shown = {MADE.match(i["src"])["pid"] for i in late.select(f"#rules-table img.{PHOTO_CLASS}")}
    # on the screen The Milk Cart is photographed: its rights hold back only paper
    assert pid_of("The Milk Cart") in shown
    assert_never_an_original_or_covered(late.decode())


def test_a_rule_step_draws_a_card_without_a_photograph(tmp_path):
    content = without_image(with_scenario(photo_content(tmp_path)), "Harbour Light")
    page = soup(app_for(content).test_client().get("/rules/snap/photographs/4"))
    faces = faces_of(page)
    assert [(i["src"], i["alt"], i["class"]) for i in faces] == [
        ("/cards/test-photographs/harbour-light.svg", "“Harbour Light”", ["card-img", "play-card"])
    ] * 2


# ----------------------------------------------------------------- print and play


def test_print_and_play_prints_photographs_only_where_the_rights_allow(client):
    page = soup(client.get(f"/sets/{SLUG}/print"))
    sheet = page.select(".card-sheet img")
    assert len(sheet) == 4 * len(PHOTOGRAPHED)  # the flagged card's four never printed
    by_name: dict[str, set[str]] = {}
    for img in sheet:
        by_name.setdefault(img["alt"], set()).add(img["src"])
        assert (PHOTO_CLASS in img["class"]) == bool(MADE.match(img["src"]))
    assert by_name.pop("The Milk Cart") == {"/cards/test-photographs/the-milk-cart.svg"}
    for name, srcs in by_name.items():
        assert srcs == {f"/media/pictures/{pid_of(name)}/w{PRINT_WIDTH}.jpg"}, name
    strip = {img["src"] for img in page.select(".strip img")}
    assert "/cards/test-photographs/the-milk-cart.svg" in strip
    assert f"/media/pictures/{pid_of('The Milk Cart')}/w320.jpg" not in strip
    assert f"/media/pictures/{pid_of('Harbour Light')}/w320.jpg" in strip
    credits = page.select_one(".print-cards__credits").get_text()
    assert (
        credits == "Photographs of the cards: Photograph made up for the kiosk's tests (CC BY 4.0)."
    )
    drawn = [p.get_text() for p in page.select(".print-cards__drawn")]
    assert drawn == [
        f"{quoted('The Milk Cart')} is printed as a drawing: its photograph is In Copyright,"
        " so the kiosk may show it but not print it."
    ]
    assert_never_an_original_or_covered(page.decode())


def test_an_open_licence_on_the_milk_cart_prints_its_photograph(tmp_path):
    content = edit_set(photo_content(tmp_path), (f"rights: {IN_COPYRIGHT}", f"rights: {CC_BY}"))
    page = soup(app_for(content).test_client().get(f"/sets/{SLUG}/print"))
    milk = {i["src"] for i in page.select(".card-sheet img") if i["alt"] == "The Milk Cart"}
    assert milk == {f"/media/pictures/{pid_of('The Milk Cart')}/w{PRINT_WIDTH}.jpg"}
    assert page.select(".print-cards__drawn") == []


# ----------------------------------------------------------------- the URLs


def test_the_face_urls_for_every_table(app):
    with app.test_request_context():
        record = entry("set", SLUG).record
        harbour = next(f for f in record.cards if f.name == "Harbour Light")
        milk = next(f for f in record.cards if f.name == "The Milk Cart")
        golly = next(f for f in record.cards if f.content_note is not None)
        face = card_face(f"{SLUG}/harbour-light")
        assert face.photo and face.css == PHOTO_CLASS
        assert face.src == f"/media/pictures/{pid_of('Harbour Light')}/w{PLAY_WIDTH}.jpg"
        assert card_face(f"{SLUG}/harbour-light", 1024).src.endswith("/w1024.jpg")
        assert card_face(f"{SLUG}/the-milk-cart").photo
        on_paper = card_face(f"{SLUG}/the-milk-cart", PRINT_WIDTH, printable_only=True)
        assert (on_paper.src, on_paper.css) == ("/cards/test-photographs/the-milk-cart.svg", "")
        golly_face = card_face(f"{SLUG}/golly-oh-golly")
        assert (golly_face.src, golly_face.photo) == (f"/cards/{SLUG}/golly-oh-golly.svg", False)
        assert card_face("standard/QH").src == "/cards/standard/QH.svg"
        # the turn-based games' cards (Happy Families, Snitch'ems) carry the same
        card = Card(id="top-hat-1", name="Top Hat", match="top-hat", face=f"{SLUG}/top-hat")
        view = card_view(card)
        assert MADE.match(view["src"]) and view["css"] == PHOTO_CLASS and view["name"] == "Top Hat"
        # the record pages' face: a bigger copy, with the photograph's own alt
        assert face_src(record, harbour) == f"/media/pictures/{pid_of('Harbour Light')}/w640.jpg"
        assert face_alt(record, harbour) == harbour.image.alt
        assert face_src(record, milk).endswith("/w640.jpg")
        assert face_src(record, golly) == "/cards/test-photographs/golly-oh-golly.svg"
        assert face_alt(record, golly) == f"{face_title(golly)}: its title only"
