"""Photographs on a set's page (issue 25): every picture a visitor may see, with its credit and
its rights as a link; the made copies in ``<picture>`` (webp and jpg srcsets, sizes, width and
height, lazy loading); "Look closely" for deep zoom (a link to the largest copy without
JavaScript); covered pictures never placed, their cover instead; and the set that lets View
card show a covered card's photograph (off by default, never in an embed).

The content is tests/photo_content.py's: generated photographs, never a real object's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from photo_content import CC_BY, FLAGGED_FRONT, FLAGGED_PACK, IN_COPYRIGHT, SLUG, photo_content

from kiosk import create_app
from kiosk.catalogue.pictures import picture_id, read_made, rights_name
from kiosk.web.cardfaces import quoted

PAGE = f"/sets/{SLUG}"
FLAGGED_KEY = "golly-oh-golly"
FRONTS = {
    "Harbour Light": "harbour-light",
    "The Milk Cart": "the-milk-cart",
    "Top Hat": "top-hat",
    "Kite Day": "kite-day",
    "Post Early": "post-early",
    "Ice Cream": "ice-cream",
    "Ship Ahoy": "ship-ahoy",
    "Fire Engine": "fire-engine",
}
GALLERY = {  # what each set picture shows, and its file
    "The case": f"images/{SLUG}/case.jpg",
    "The box": f"images/{SLUG}/box.jpg",
    "The instruction card": f"images/{SLUG}/instructions.jpg",
}
BACK = f"images/{SLUG}/back.jpg"
VISIBLE = [*GALLERY.values(), *(f"images/{SLUG}/{slug}.jpg" for slug in FRONTS.values()), BACK]
COVERED = {
    FLAGGED_PACK: "The whole pack laid out in rows.",
    FLAGGED_FRONT: "The flagged card, photographed.",
}
MADE_COPY = re.compile(r"^/media/pictures/(?P<pid>[a-z0-9-]+)/w(?P<w>[0-9]+)\.(?P<fmt>webp|jpg)$")


@pytest.fixture(scope="module")
def content(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return photo_content(tmp_path_factory.mktemp("photos"))


def client_for(content: Path, **config: object):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "CONTENT_DIR": str(content), **config})
    return app.test_client()


@pytest.fixture(scope="module")
def client(content: Path):
    return client_for(content)


@pytest.fixture(scope="module")
def opted_in(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The photographed set with ``view_flagged_photographs: true``."""
    content = photo_content(tmp_path_factory.mktemp("opted-in"))
    path = content / "sets" / f"{SLUG}.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("order: 90\n", "order: 90\nview_flagged_photographs: true\n"))
    return content


def soup(client, url: str) -> BeautifulSoup:
    """The page as a visitor moving about the site gets it (from our own page: Fetch Metadata)."""
    response = client.get(url, headers={"Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 200, url
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def status_of(client, url: str) -> int:
    """The status of a GET, its (file) response closed."""
    with client.get(url) as response:
        return response.status_code


def pictures_on(page: BeautifulSoup) -> dict[str, BeautifulSoup]:
    """Each <picture> on the page by the original it was made from (from its copies' ids)."""
    found = {}
    for element in page.select("picture.photo"):
        pid = MADE_COPY.match(element.img["src"])["pid"]
        src = next(s for s in [*VISIBLE, *COVERED] if picture_id(s) == pid)
        found[src] = element
    return found


def test_the_content_is_valid(client):
    assert client.get("/healthz").get_json()["content"]["problems"] == []


def test_every_uncovered_picture_is_on_the_set_page(client):
    placed = pictures_on(soup(client, PAGE))
    # the header's card (the first front, once more over the set's back) is one of them
    assert sorted(placed) == sorted(VISIBLE)


@pytest.mark.parametrize("shows,src", GALLERY.items())
def test_a_set_picture_shows_what_it_is_its_caption_credit_and_rights(client, shows, src):
    page = soup(client, PAGE)
    item = next(
        li
        for li in page.select("#pictures .photo-gallery__item")
        if li.select_one(".photo-figure__shows").get_text() == shows
    )
    assert (
        item.img["alt"]
        == {
            "The case": "The case, a card box with a picture on its lid.",
            "The box": "The box seen from its side, with the maker's name.",
            "The instruction card": "The instruction card, printed in black on white.",
        }[shows]
    )
    assert item.select_one(".photo-figure__text").get_text() == shows + "."
    credit = item.select_one(".photo-credit")
    assert credit.get_text() == "Photograph: Photograph made up for the kiosk's tests (CC BY 4.0)"
    link = credit.select_one("a")
    assert link["href"] == CC_BY and link["rel"] == ["license"]
    assert MADE_COPY.match(item.img["src"])["pid"] == picture_id(src)


@pytest.mark.parametrize("name,slug", FRONTS.items())
def test_each_cards_photograph_is_its_face_with_its_credit_and_rights(client, name, slug):
    tile = soup(client, PAGE).select_one(f"#card-{slug}")
    img = tile.select_one("picture.photo img")
    assert MADE_COPY.match(img["src"])["pid"] == picture_id(f"images/{SLUG}/{slug}.jpg")
    assert img["alt"] == f"The {name} card, a coloured picture on cream card."
    rights = IN_COPYRIGHT if name == "The Milk Cart" else CC_BY
    link = tile.select_one(".photo-credit a")
    assert link["href"] == rights
    assert link.get_text() == rights_name(rights)
    assert tile.select_one(".photo-credit").get_text().startswith("Photograph: Photograph made up")
    assert tile.select_one("[data-zoom-open]") is not None


def test_the_cards_back_photograph_is_shown_with_its_credit(client):
    back = soup(client, PAGE).select_one("#back")
    img = back.select_one("picture.photo img")
    assert MADE_COPY.match(img["src"])["pid"] == picture_id(BACK)
    assert img["alt"] == "The back of a card, dark blue."
    assert back.select_one(".photo-figure__shows").get_text() == "The back of “Harbour Light”"
    assert back.select_one(".photo-credit a")["href"] == CC_BY


def test_the_in_copyright_picture_says_so(client):
    tile = soup(client, PAGE).select_one("#card-the-milk-cart")
    assert "(In Copyright)" in tile.select_one(".photo-credit").get_text()


def test_a_picture_is_made_copies_in_webp_and_jpg_with_sizes_and_its_size(client, content):
    placed = pictures_on(soup(client, PAGE))
    for src, element in placed.items():
        made = read_made(content, src)
        source, img = element.select_one("source"), element.img
        assert source["type"] == "image/webp"
        for srcset, fmt in ((source["srcset"], "webp"), (img["srcset"], "jpg")):
            candidates = [c.strip().split(" ") for c in srcset.split(",")]
            assert [int(w.removesuffix("w")) for _, w in candidates] == list(made.widths), src
            for url, width in candidates:
                found = MADE_COPY.match(url)
                assert found and found["fmt"] == fmt and found["pid"] == picture_id(src)
                assert width == f"{found['w']}w"
        assert source["sizes"] == img["sizes"] and "px" in img["sizes"]
        assert (img["width"], img["height"]) == (str(made.width), str(made.height))
        assert img["decoding"] == "async"
        assert img["src"].endswith("/w640.jpg")


def test_pictures_load_lazily_but_the_one_at_the_top(client):
    page = soup(client, PAGE)
    lead = page.select_one(".record__picture picture img")
    assert lead.get("loading") is None and lead["fetchpriority"] == "high"
    rest = [p.img for p in page.select("picture.photo") if p.img is not lead]
    assert len(rest) == 12
    assert all(img["loading"] == "lazy" for img in rest)


def test_a_phone_is_told_the_picture_is_half_its_width(client):
    """Two to a row on a phone (zoom.css): a copy of about 170 px is what it fetches."""
    page = soup(client, PAGE)
    for img in page.select("#pictures picture img, #cards picture img"):
        assert img["sizes"].startswith("(max-width: 704px) calc(50vw - 27px), ")
    assert page.select_one("#cards .card-grid--photos") is not None


@pytest.mark.parametrize(
    "url",
    [
        PAGE,
        f"{PAGE}?view={FLAGGED_KEY}",
        f"/embed{PAGE}",
        f"/embed{PAGE}?view={FLAGGED_KEY}",
        "/sets/",
        "/",
        "/patterns",
        f"{PAGE}/print",
    ],
)
def test_a_covered_picture_is_never_placed(client, url):
    html = client.get(url).get_data(as_text=True)
    for src, alt in COVERED.items():
        assert src.rsplit("/", 1)[1] not in html, (url, src)
        assert picture_id(src) not in html, (url, src)
        assert alt not in html, (url, alt)
    assert "/media/covered/" not in html


def test_a_covered_set_picture_shows_its_cover(client):
    page = soup(client, PAGE)
    covered = page.select_one("#pictures .photo-figure--covered")
    assert covered.select_one(".photo-figure__shows").get_text() == "The pack laid out"
    assert "This picture shows a golliwog" in covered.get_text()
    assert covered.select_one("a.flagged__note")["href"] == "/notes/golliwog"
    assert covered.select_one("img, picture, [data-zoom-open]") is None
    notice = page.select_one(".notice--warning").get_text(" ", strip=True)
    assert "The picture of the pack laid out shows a golliwog" in notice


def test_look_closely_opens_the_pictures_tiles_or_without_script_its_largest_copy(client):
    page = soup(client, PAGE)
    buttons = page.select("[data-zoom-open]")
    assert len(buttons) == 12  # three set pictures, eight fronts, one back
    for button in buttons:
        assert button.name == "button" and button["type"] == "button"
        assert button.has_attr("hidden")  # zoom.js shows it
        assert button.get_text(" ", strip=True).startswith("Look closely at ")
        info = client.get(button["data-zoom-info"])
        assert info.status_code == 200 and info.get_json()["profile"] == "level0"
        assert button["data-zoom-credit"].startswith("Photograph: ")
        assert button["data-zoom-rights"] in (CC_BY, IN_COPYRIGHT)
        assert button["data-zoom-rights-name"] in ("CC BY 4.0", "In Copyright")
        assert button["data-zoom-alt"] and button["data-zoom-title"]
        link = button.parent.select_one("a[data-zoom-fallback]")
        largest = MADE_COPY.match(link["href"])
        assert largest and largest["fmt"] == "jpg" and int(largest["w"]) >= 1200
        assert status_of(client, link["href"]) == 200


def test_the_zoom_dialog_is_on_the_page_and_openseadragon_only_when_asked(client):
    page = soup(client, PAGE)
    dialog = page.select_one("dialog#zoom-dialog")
    assert dialog["aria-labelledby"] == "zoom-title"
    for part in ("data-zoom-close", "data-zoom-in", "data-zoom-out", "data-zoom-reset"):
        button = dialog.select_one(f"button[{part}]")
        assert button["aria-label"] and button["type"] == "button"
    osd = dialog["data-zoom-osd"]
    assert osd.split("?")[0] == "/static/vendor/openseadragon-6.1.1.min.js"
    assert status_of(client, osd) == 200
    scripts = [s["src"] for s in page.select("script[src]")]
    assert any(s.split("?")[0].endswith("/js/zoom.js") for s in scripts)
    assert not any("openseadragon" in s for s in scripts)  # fetched on the first "Look closely"
    assert any("/css/zoom.css" in link["href"] for link in page.select("link[href]"))


@pytest.mark.parametrize("url", ["/", "/sets/misc-869-1986", "/games/snap"])
def test_pages_without_photographs_load_nothing_for_them(client, url):
    html = client.get(url).get_data(as_text=True)
    assert "zoom.js" not in html and "zoom.css" not in html and "openseadragon" not in html


def test_on_the_kiosk_the_rights_are_words_not_a_way_out(content):
    page = soup(client_for(content, KIOSK_MODE=True), PAGE)
    credits = page.select(".photo-credit")
    assert len(credits) == 12
    assert all(c.select_one("a") is None for c in credits)
    assert all(b["data-zoom-rights"] == "" for b in page.select("[data-zoom-open]"))
    assert "(CC BY 4.0)" in credits[0].get_text()


def test_a_picture_not_made_yet_is_its_original_and_a_covered_one_still_is_not(tmp_path):
    page = soup(client_for(photo_content(tmp_path, make=False)), PAGE)
    srcs = [p.img["src"] for p in page.select("#pictures picture.photo, #cards picture.photo")]
    assert f"/media/images/{SLUG}/case.jpg" in srcs
    assert all(s.startswith(f"/media/images/{SLUG}/") for s in srcs)
    html = str(page)
    assert "pack.jpg" not in html and "golly.jpg" not in html
    assert page.select("[data-zoom-open]") == []  # no tiles yet: nothing to zoom


# --------------------------------------------------------------------------- View card


def flagged_tile(page: BeautifulSoup) -> BeautifulSoup:
    return page.select_one(f"#card-{FLAGGED_KEY}")


def test_by_default_view_card_shows_only_the_printed_title(client):
    tile = flagged_tile(soup(client, f"{PAGE}?view={FLAGGED_KEY}"))
    face = tile.select_one("[data-face]")
    assert face.img["src"] == f"/cards/{SLUG}/{FLAGGED_KEY}.svg"
    assert face.img["alt"].endswith(": its title only")
    assert tile.select_one("form[data-reveal]") is not None  # uncovered in place by kiosk.js
    assert "only its printed title" in soup(client, PAGE).select_one(".notice--warning").text


def test_a_set_that_allows_it_shows_the_photograph_behind_the_cover(opted_in):
    client = client_for(opted_in)
    covered_page = soup(client, PAGE)
    tile = flagged_tile(covered_page)
    assert tile.select_one("[data-face]") is None  # no address of the photograph at all
    assert tile.select_one("form")["action"] == f"{PAGE}#card-{FLAGGED_KEY}"
    assert tile.select_one("form[data-reveal]") is None  # View card asks the server
    assert "/media/covered/" not in str(covered_page)
    notice = covered_page.select_one(".notice--warning").get_text(" ", strip=True)
    assert "shows its photograph, only if you choose to see it" in notice

    face = flagged_tile(soup(client, f"{PAGE}?view={FLAGGED_KEY}")).select_one("[data-face]")
    assert face.img["src"].startswith("/media/covered/")
    assert face.img["alt"] == COVERED[FLAGGED_FRONT]
    assert "card-img--photo" in face.img["class"]
    with client.get(face.img["src"]) as photo:
        assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
        assert "no-store" in photo.headers["Cache-Control"]
    assert face.select_one("[data-cover-again]")["href"] == f"{PAGE}#card-{FLAGGED_KEY}"


def test_an_embed_never_shows_the_photograph_even_where_the_set_allows_it(opted_in):
    client = client_for(opted_in)
    inside = {"Sec-Fetch-Site": "same-origin"}  # View card pressed inside the embed
    for url in (f"/embed{PAGE}", f"/embed{PAGE}?view={FLAGGED_KEY}"):
        response = client.get(url, headers=inside)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        assert "/media/covered/" not in html and COVERED[FLAGGED_FRONT] not in html
    page = BeautifulSoup(
        client.get(f"/embed{PAGE}?view={FLAGGED_KEY}", headers=inside).text, "html.parser"
    )
    face = flagged_tile(page).select_one("[data-face]")
    assert not face.has_attr("hidden")  # uncovered: its printed title only
    assert face.img["src"].endswith(f"/cards/{SLUG}/{FLAGGED_KEY}.svg")


def test_the_card_tiles_name_their_look_closely(client):
    button = soup(client, PAGE).select_one("#card-top-hat [data-zoom-open]")
    assert button.get_text(" ", strip=True) == f"Look closely at the card {quoted('Top Hat')}"
    assert button["data-zoom-title"] == quoted("Top Hat")
