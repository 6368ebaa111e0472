"""Catalogue pages on the real content (what visitors see), as full pages and htmx fragments."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import soupsieve
from bs4 import BeautifulSoup
from flask import Flask

from kiosk import create_app
from kiosk.catalogue import Catalogue
from kiosk.catalogue.citations import plain, unmark
from kiosk.catalogue.decks import card_name
from kiosk.config import ROOT
from kiosk.web.pages import FACT_FIELDS, MUSEUM_FIELDS, is_museum_object

CONTENT = ROOT / "content"
CSS = (ROOT / "kiosk" / "static" / "css" / "kiosk.css").read_text()
SNAPSHOT = Catalogue(CONTENT).current()
SET_SLUGS = [
    "misc-869-1986",
    "twizzles-happy-families",
    "jaques-happy-families",
    "snitchems-1797",
    "snap-standard-deck",
    "mcloughlin-improved-snap-1889",
]
# the sets with cards to play (a record of the object alone lists none: issue 27)
PLAYED_SLUGS = [slug for slug in SET_SLUGS if SNAPSHOT.sets[slug].record.cards_listed]
# A visitor moving about the site: the browser says the request comes from our own page
# (a "View card" address from anywhere else is covered again: test_requests_hostile.py).
OWN = {"Sec-Fetch-Site": "same-origin"}
FRAGMENT = {"HX-Request": "true", **OWN}

# route → text the <title> must contain
ROUTES: dict[str, str] = {
    "/": "Snap & Happy Families",
    "/sets/": "The sets",
    **{f"/sets/{slug}": SNAPSHOT.sets[slug].record.title for slug in SET_SLUGS},
    "/sets/misc-869-1986?view=golly-oh-golly": "Card game of Snap",
    "/games/": "The games",
    **{f"/games/{slug}": e.record.title for slug, e in SNAPSHOT.games.items()},
    "/notes/golliwog": SNAPSHOT.notes["golliwog"].record.title,
    "/pages/about": SNAPSHOT.pages["about"].record.title,
    "/pages/sources": SNAPSHOT.pages["sources"].record.title,
    "/patterns": "Pattern library",
}
MISSING = ["/sets/nope", "/notes/nope", "/pages/nope", "/games/nope", "/nope", "/sets/x/y"]


def soup_of(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def get_page(client, url: str, **headers) -> BeautifulSoup:
    response = client.get(url, headers={**OWN, **headers})
    assert response.status_code == 200, url
    assert response.mimetype == "text/html"
    return soup_of(response)


def text(node) -> str:
    return " ".join(node.get_text(" ").split())


def words(node) -> str:
    """A node's text as a reader has it: no space before punctuation (a note number's
    tag boundary would otherwise put one there)."""
    return re.sub(r" ([,.;:!?])", r"\1", text(node))


def without_notes(node):
    """The node with its citations' note numbers taken out (the words a field holds)."""
    for number in node.select("sup.cite"):
        number.decompose()
    return node


def flagged_urls() -> set[str]:
    return {
        f"/cards/{slug}/{face.key}.svg"
        for slug, entry in SNAPSHOT.sets.items()
        for face in entry.record.cards
        if face.content_note
    }


# ----------------------------------------------------------------- every route


def test_the_real_content_is_what_the_tests_expect():
    assert SNAPSHOT.ok, [str(p) for p in SNAPSHOT.problems]
    assert list(SNAPSHOT.sets) == sorted(SNAPSHOT.sets, key=SET_SLUGS.index)
    assert len(SNAPSHOT.games) == 3
    assert flagged_urls() == {"/cards/misc-869-1986/golly-oh-golly.svg"}


@pytest.mark.parametrize(("url", "title"), ROUTES.items())
def test_full_page(client, url, title):
    soup = get_page(client, url)
    assert soup.find("html")["lang"] == "en-GB"
    assert title in soup.title.get_text()
    assert soup.title.get_text().endswith("Snap & Happy Families")
    main = soup.select_one("main#main")
    assert main is not None
    assert len(main.find_all("h1")) == 1
    assert soup.select_one("a.skip-link[href='#main']")
    assert soup.select_one("header.site-header nav[aria-label='Main']")
    footer = [a.get_text(strip=True) for a in soup.select("footer.site-footer a")]
    assert footer == ["Home", "About this kiosk", "Sources"]
    assert soup.select_one("script[src*='htmx-4.0.1.min.js']")


@pytest.mark.parametrize(("url", "title"), ROUTES.items())
def test_htmx_fragment(client, url, title):
    response = client.get(url, headers=FRAGMENT)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert not re.search(r"<(html|head|body)[\s>]", body)
    soup = soup_of(response)
    assert title in soup.title.get_text(), "htmx sets document.title from the fragment"
    assert len(soup.find_all("h1")) == 1
    assert not soup.select("header.site-header, footer.site-footer, nav[aria-label='Main']")
    mains = soup.find_all("main")
    assert len(mains) == 1 and mains[0]["id"] == "main", "boosted links swap #main whole"
    assert mains[0].find("h1")
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize(
    "headers",
    [
        {"HX-Request": "true", "HX-Request-Type": "full"},
        {"HX-Request": "true", "HX-History-Restore-Request": "true"},
        {"HX-Request": "false"},
    ],
)
def test_requests_for_the_whole_body_get_the_whole_page(client, headers):
    soup = get_page(client, "/sets/misc-869-1986", **headers)
    assert soup.find("html") and soup.select_one("main#main h1")


def test_fragment_has_the_same_main_content_as_the_page(client):
    page = get_page(client, "/sets/twizzles-happy-families").select_one("main#main")
    fragment = get_page(client, "/sets/twizzles-happy-families", **FRAGMENT)
    assert text(page) == text(fragment.find("main"))
    assert page["class"] == fragment.find("main")["class"]


def test_boosted_links_swap_main(client):
    soup = get_page(client, "/")
    assert soup.body["data-hx-boost"] == "target:#main swap:outerHTML"
    config = json.loads(soup.select_one("meta[name='htmx-config']")["content"])
    assert config["includeIndicatorCSS"] is False  # htmx would inject a stylesheet (CSP)
    # htmx 4 inherits only `:inherited` attributes, a name no data attribute may have (Nu
    # checker): implicit inheritance lets <body>'s data-hx-boost reach every link and form
    assert config["implicitInheritance"] is True


def test_htmx_attributes_are_data_attributes(client):
    """Valid HTML: htmx reads data-hx-*; a bare hx-* attribute is no HTML attribute."""
    for url in ("/", "/sets/misc-869-1986", "/rules/snap/classic/1"):
        for tag in get_page(client, url).find_all(True):
            assert not [a for a in tag.attrs if str(a).startswith("hx-")], (url, tag.name)


ALL_PAGES = [*ROUTES, *MISSING]


@pytest.mark.parametrize("url", ALL_PAGES)
@pytest.mark.parametrize("headers", [{}, FRAGMENT], ids=["page", "fragment"])
def test_no_inline_style_script_or_handler(client, url, headers):
    response = client.get(url, headers=headers)
    soup = soup_of(response)
    for tag in soup.find_all(True):
        assert "style" not in tag.attrs, (url, tag.name)
        names = [str(a).lower() for a in tag.attrs]
        assert not [a for a in names if a.startswith("on")], (url, tag.name)
        assert not [a for a in names if a.startswith(("hx-on", "data-hx-on"))], (url, tag.name)
        for value in tag.attrs.values():
            joined = " ".join(value) if isinstance(value, list) else str(value)
            assert not joined.strip().lower().startswith(("javascript:", "js:")), (url, tag)
    assert not soup.find_all("style")
    for script in soup.find_all("script"):
        assert script.get("src", "").startswith("/static/"), (url, script)
        assert not script.get_text(strip=True)


@pytest.mark.parametrize("url", list(ROUTES))
def test_nothing_is_loaded_from_outside(client, url):
    soup = get_page(client, url)
    for tag in soup.select("[src], link[href]"):
        ref = tag.get("src") or tag.get("href")
        if tag.get("type") == "application/json+oembed":  # absolute for consumers (oembed.py)
            ref = ref.removeprefix("http://localhost")
        assert ref.startswith("/"), (url, ref)
    for a in soup.select("a[href]"):
        href = a["href"]
        assert not href.startswith(("http:", "https:", "//")), (url, href)


@pytest.mark.parametrize("url", list(ROUTES))
def test_ids_are_unique_and_labels_point_at_them(client, url):
    soup = get_page(client, url)
    ids = [tag["id"] for tag in soup.select("[id]")]
    assert len(ids) == len(set(ids)), url
    for tag in soup.select("[aria-labelledby], [aria-describedby]"):
        for attr in ("aria-labelledby", "aria-describedby"):
            for ref in (tag.get(attr) or "").split():
                assert ref in ids, (url, attr, ref)


@pytest.mark.parametrize("url", list(ROUTES))
def test_images_have_alt_and_size(client, url):
    for img in get_page(client, url).find_all("img"):
        assert img.has_attr("alt"), (url, img)
        assert img.get("width") and img.get("height"), "no layout shift while cards load"


# ----------------------------------------------------------------- home and lists


def test_home_shows_sets_games_and_the_way_in(client):
    soup = get_page(client, "/")
    for slug in SET_SLUGS:
        record = SNAPSHOT.sets[slug].record
        link = soup.select_one(f"#sets a.tile-link[href='/sets/{slug}']")
        assert link is not None and link.get_text(strip=True) == record.title
        tile = link.find_parent("li")
        assert record.summary in text(tile)
        if record.date:
            assert plain(record.date) in text(tile)
        assert tile.select("img.card-img"), "each set has a picture"
    for slug, entry in SNAPSHOT.games.items():
        assert soup.select_one(f"#games a[href='/games/{slug}']").get_text(strip=True) == (
            entry.record.title
        )
    assert soup.select_one("a.button[href='#sets']").get_text(strip=True) == "Look at a set"
    assert soup.select_one("a[href='/pages/about']")
    assert soup.select_one("a[href='/notes/golliwog']")


def test_home_links_to_play():
    app = create_app({"TESTING": True})
    soup = get_page(app.test_client(), "/")
    hero = soup.select_one(".hero a[href='/sets/misc-869-1986/play']")
    assert hero is not None and hero.get_text(strip=True) == "Play Snap"
    assert len(soup.select("#sets a[href$='/play']")) == len(PLAYED_SLUGS)
    record = get_page(app.test_client(), "/sets/twizzles-happy-families")
    assert record.select_one("a[href='/sets/twizzles-happy-families/play']")


# Each set's own games, as its tile and its record offer them: (label, address), in its order.
OWN_GAMES: dict[str, list[tuple[str, str]]] = {
    "mcloughlin-improved-snap-1889": [],  # its cards are not recorded
    "misc-869-1986": [("Play Snap", "/sets/misc-869-1986/play")],
    "twizzles-happy-families": [
        ("Play Happy Families", "/sets/twizzles-happy-families/play/happy-families"),
        ("Play Snap", "/sets/twizzles-happy-families/play"),
    ],
    "jaques-happy-families": [
        ("Play Happy Families", "/sets/jaques-happy-families/play/happy-families"),
        ("Play Snap", "/sets/jaques-happy-families/play"),
    ],
    "snitchems-1797": [
        ("Play Snitch'ems", "/sets/snitchems-1797/play/snitchems"),
        ("Play Snap", "/sets/snitchems-1797/play"),
    ],
    "snap-standard-deck": [("Play Snap", "/sets/snap-standard-deck/play")],
}


def visible(node) -> str:
    """A button's words as a sighted visitor reads them (its visually hidden words left out)."""
    for hidden in node.select(".visually-hidden"):
        hidden.extract()
    return text(node)


def tile_buttons(soup: BeautifulSoup, slug: str) -> list[tuple[str, str]]:
    tile = soup.select_one(f"#sets a.tile-link[href='/sets/{slug}']").find_parent("li")
    return [(visible(a), a["href"]) for a in tile.select("a.tile__play")]


@pytest.mark.parametrize("slug", SET_SLUGS)
def test_home_tiles_offer_each_sets_own_games(client, slug):
    buttons = tile_buttons(get_page(client, "/"), slug)
    assert buttons == OWN_GAMES[slug]
    titles = [SNAPSHOT.games[g].record.title for g in SNAPSHOT.sets[slug].record.games]
    assert [label for label, _ in buttons] == [f"Play {t}" for t in titles]
    for _, href in buttons:  # no dead ends: every game offered deals
        assert client.get(href).status_code == 200, href
        assert client.post(href, data={"bots": "2"}).status_code == 200, href


@pytest.mark.parametrize("slug", SET_SLUGS)
def test_the_set_record_offers_the_same_games_as_its_tile(client, slug):
    record = get_page(client, f"/sets/{slug}")
    plays = [(text(a), a["href"]) for a in record.select(".record__actions a.button--primary")]
    assert plays == OWN_GAMES[slug]


def test_a_game_the_deck_cannot_play_is_never_offered(tmp_path):
    content, app = copy_content(tmp_path)
    for slug in ("misc-869-1986", "snap-standard-deck"):  # no families of four
        path = content / "sets" / f"{slug}.md"
        listed = path.read_text().replace("games: [snap]", "games: [happy-families, snap]")
        assert "games: [happy-families, snap]" in listed
        path.write_text(listed)
    client = app.test_client()
    home = get_page(client, "/")
    for slug in ("misc-869-1986", "snap-standard-deck"):
        assert tile_buttons(home, slug) == OWN_GAMES[slug]
        record = get_page(client, f"/sets/{slug}")
        assert [a["href"] for a in record.select(".record__actions a.button--primary")] == [
            href for _, href in OWN_GAMES[slug]
        ]
        assert record.select_one("a[href='/games/happy-families']")  # still read about it


def test_sets_list(client):
    soup = get_page(client, "/sets/")
    links = [a["href"] for a in soup.select("a.tile-link")]
    assert links == [f"/sets/{slug}" for slug in SET_SLUGS]
    assert soup.select_one("nav.breadcrumbs a[href='/']")


@pytest.mark.parametrize(
    "url", ["/", "/sets/", "/games/", "/games/snap", "/notes/golliwog", "/pages/about", "/patterns"]
)
def test_flagged_faces_never_appear_uncovered(client, url):
    soup = get_page(client, url)
    for img in soup.find_all("img"):
        if img["src"] in flagged_urls():
            assert img.find_parent(attrs={"hidden": True}) is not None, (url, img)
            assert img.find_parent(attrs={"data-flagged": True}) is not None


def test_set_pictures_in_lists_are_never_flagged(client):
    for url in ("/", "/sets/", "/games/snap"):
        pictures = {img["src"] for img in get_page(client, url).select(".tile img")}
        assert pictures and not pictures & flagged_urls()


# ----------------------------------------------------------------- the record


@pytest.mark.parametrize("slug", SET_SLUGS)
def test_every_schema_field_is_shown_or_not_recorded(client, slug):
    record = SNAPSHOT.sets[slug].record
    soup = get_page(client, f"/sets/{slug}")
    rows = {
        text(row.find("dt")): text(without_notes(row.find("dd")))
        for row in soup.select("dl.facts .facts__row")
    }
    shown = [
        (name, label)
        for name, label in FACT_FIELDS
        if is_museum_object(record) or name not in MUSEUM_FIELDS or getattr(record, name)
    ]
    assert list(rows) == [label for _, label in shown]
    for name, label in shown:
        value = getattr(record, name)
        if value is None or value == "":
            assert rows[label] == "not recorded", label
        elif name == "historic_title":
            assert rows[label] == f"\u201c{value}\u201d"
        else:
            assert rows[label] == " ".join(plain(str(value)).split()), label


@pytest.mark.parametrize("slug", SET_SLUGS)
def test_record_head_summary_story_sources_and_games(client, slug):
    entry = SNAPSHOT.sets[slug]
    record = entry.record
    soup = get_page(client, f"/sets/{slug}")
    assert text(soup.h1) == record.title
    assert record.summary in text(soup.select_one(".record__summary"))
    if record.accession:
        assert record.accession in text(soup.select_one(".record__kicker"))
    story = BeautifulSoup(unmark(entry.html), "html.parser")
    assert words(story)[:200] in words(without_notes(soup.select_one(".prose")))
    assert soup.select("section.notes li.note"), "every record cites its sources"
    for game in record.games:
        assert soup.select_one(f"a[href='/games/{game}']"), game
    if record.cards_listed:
        assert soup.select_one(f"img[src='/cards/{slug}/back.svg']")
    assert record.back.description.split()[0] in text(soup.select_one("#back"))


def fact_rows_of(soup: BeautifulSoup) -> dict[str, str]:
    rows = soup.select("dl.facts .facts__row")
    return {text(r.find("dt")): text(without_notes(r.find("dd"))) for r in rows}


@pytest.mark.parametrize("slug", ["snitchems-1797", "snap-standard-deck"])
def test_an_ordinary_pack_has_no_museum_fields(client, slug):
    rows = fact_rows_of(get_page(client, f"/sets/{slug}"))
    museum = [label for name, label in FACT_FIELDS if name in MUSEUM_FIELDS]
    assert {"Accession number", "Credit line"} <= set(museum)
    assert not [label for label in museum if label in rows]
    assert rows["Number of cards"] == "52"


def test_a_museum_object_keeps_every_museum_field(client):
    rows = fact_rows_of(get_page(client, "/sets/misc-869-1986"))
    assert rows["Accession number"] == "MISC.869-1986"
    assert rows["Credit line"] == "Mrs. M. Tomalin"
    assert rows["Object history"] == "not recorded"  # it applies: the museum has not said


@pytest.mark.parametrize(
    ("slug", "kicker"),
    [
        ("misc-869-1986", "Catalogue record · MISC.869-1986"),
        ("snap-standard-deck", "Playing cards (a standard 52-card pack)"),
        ("twizzles-happy-families", "Card game (Happy Families)"),
    ],
)
def test_only_a_museum_object_is_called_a_catalogue_record(client, slug, kicker):
    assert text(get_page(client, f"/sets/{slug}").select_one(".record__kicker")) == kicker


def test_woolworths_cards_grid(client):
    record = SNAPSHOT.sets["misc-869-1986"].record
    soup = get_page(client, "/sets/misc-869-1986")
    tiles = soup.select("#cards li.card-tile")
    assert len(tiles) == len(record.cards) == 12
    for tile, face in zip(tiles, record.cards, strict=True):
        assert tile["id"] == f"card-{face.key}"
        assert text(tile.select_one(".card-caption__name")) == f"\u201c{face.name}\u201d"
        if face.caption:
            assert " ".join(face.caption.split()) in text(tile)
    fishermen = soup.select_one("#card-our-fishermen")
    assert "1 of 4 missing" in text(fishermen)
    assert soup.select_one("#card-road-up img")["src"] == "/cards/misc-869-1986/road-up.svg"
    assert "Road Up!" in soup.select_one("#card-road-up img")["alt"]


def test_the_flagged_card_is_covered_named_viewable_and_explained(client):
    face = next(f for f in SNAPSHOT.sets["misc-869-1986"].record.cards if f.content_note)
    shows = " ".join(face.content_note.shows.split())
    soup = get_page(client, "/sets/misc-869-1986")
    tile = soup.select_one(f"#card-{face.key}")
    assert "card-tile--flagged" in tile["class"]
    cover = tile.select_one("[data-cover]")
    assert not cover.has_attr("hidden")
    assert text(cover.select_one(".flagged__shows")) == f"This card shows {shows}."
    assert "golliwog" in shows and "blackface" in shows  # specific, not a generic label
    # "View card" works without JavaScript: a GET form back to this page with ?view=
    form = cover.select_one("form[data-reveal]")
    assert form["method"] == "get"
    assert form["action"] == f"/sets/misc-869-1986#card-{face.key}"
    assert form.select_one("input[type=hidden][name=view]")["value"] == face.key
    button = form.select_one("button[type=submit]")
    assert text(button) == "View card"
    assert button["aria-describedby"] == f"card-{face.key}-shows"
    note = cover.select_one("a.flagged__note")
    assert note["href"] == "/notes/golliwog"
    assert SNAPSHOT.notes["golliwog"].record.title in text(note)
    # the face is in the page, but hidden until asked for
    image = tile.select_one("img")
    assert image["src"] == f"/cards/misc-869-1986/{face.key}.svg"
    assert image.find_parent("div", attrs={"data-face": True}).has_attr("hidden")
    assert "Left out of every game." in text(tile)
    warning = soup.select_one(".notice--warning")
    assert shows in text(warning) and "left out of every game" in text(warning)
    assert warning.select_one("a[href='/notes/golliwog']")


def test_view_card_without_javascript_uncovers_only_that_card(client):
    soup = get_page(client, "/sets/misc-869-1986?view=golly-oh-golly")
    tile = soup.select_one("#card-golly-oh-golly")
    assert tile.select_one("[data-cover]").has_attr("hidden")
    assert not tile.select_one("[data-face]").has_attr("hidden")
    again = tile.select_one("a[data-cover-again]")
    assert again["href"] == "/sets/misc-869-1986#card-golly-oh-golly"
    assert text(again) == "Cover card again"


@pytest.mark.parametrize("view", ["road-up", "nope", "", "<script>", "golly-oh-golly/../x"])
def test_view_of_anything_else_changes_nothing(client, view):
    soup = get_page(client, f"/sets/misc-869-1986?view={view}")
    assert not soup.select_one("#card-golly-oh-golly [data-cover]").has_attr("hidden")
    assert len(soup.select("[data-face]:not([hidden])")) == 0


def test_twizzles_families_and_unrecorded_cards(client):
    record = SNAPSHOT.sets["twizzles-happy-families"].record
    soup = get_page(client, "/sets/twizzles-happy-families")
    families = [text(h) for h in soup.select("#cards h3")]
    assert families == [f"The {f} family" for f in dict.fromkeys(c.family for c in record.cards)]
    unrecorded = soup.select("li.card-tile--unrecorded")
    assert len(unrecorded) == sum(1 for c in record.cards if not c.recorded) > 0
    names = [text(tile.select_one(".card-caption__name")) for tile in unrecorded]
    assert names == [card_name(c) for c in record.cards if not c.recorded]
    assert "Sally Cross's second card" in names and not [n for n in names if "not recorded" in n]
    assert record.families_recorded_note.split(".")[0] in text(soup.select_one("#cards .notice"))
    assert "\u201cTWIZZLES HAPPY FAMILIES\u201d" in text(soup.select_one(".record__historic"))
    assert not soup.select(".card-tile--flagged")


@pytest.mark.parametrize("slug", ["snitchems-1797", "snap-standard-deck"])
def test_standard_sets_show_all_52_cards(client, slug):
    soup = get_page(client, f"/sets/{slug}")
    images = soup.select("#cards img")
    assert len(images) == 52
    assert {img["alt"] for img in images} >= {"Ace of Spades", "10 of Hearts", "King of Clubs"}
    assert [text(h) for h in soup.select("#cards h3")] == ["Spades", "Hearts", "Diamonds", "Clubs"]


# ----------------------------------------------------------------- games, notes, pages


@pytest.mark.parametrize("slug", sorted(SNAPSHOT.games))
def test_game_page(client, slug):
    entry = SNAPSHOT.games[slug]
    soup = get_page(client, f"/games/{slug}")
    assert text(soup.h1) == entry.record.title
    assert entry.record.summary in text(soup.select_one(".lead"))
    playing = [s for s, e in SNAPSHOT.sets.items() if slug in e.record.games]
    assert [a["href"] for a in soup.select("a.tile-link")] == [f"/sets/{s}" for s in playing]
    assert [text(c) for c in soup.select(".source__title")] == [
        s.title for s in entry.record.sources
    ]


def test_the_note(client):
    note = SNAPSHOT.notes["golliwog"]
    soup = get_page(client, "/notes/golliwog")
    assert text(soup.h1) == note.record.title
    assert note.record.summary in text(soup.select_one(".lead"))
    story = words(BeautifulSoup(unmark(note.html), "html.parser"))
    assert story[:200] in words(without_notes(soup.select_one(".prose")))
    assert soup.select_one("a[href='/sets/misc-869-1986#cards']")
    assert len(soup.select(".source")) == len(note.record.sources)
    for url in soup.select(".source__url"):
        assert url.name == "span", "addresses are text on an offline kiosk, not links"


@pytest.mark.parametrize("slug", ["about", "sources"])
def test_plain_pages(client, slug):
    entry = SNAPSHOT.pages[slug]
    soup = get_page(client, f"/pages/{slug}")
    assert text(soup.h1) == entry.record.title
    listed = SNAPSHOT.sources["sources"].record.sources if slug == "sources" else []
    assert [s["id"] for s in soup.select(".sources--all .source")] == [
        f"source-{s.key}" for s in listed
    ]


def test_pattern_library_shows_every_component(client):
    soup = get_page(client, "/patterns")
    for selector in (
        ".button--primary",
        ".button--quiet",
        ".button--light",
        "button.button",
        ".notice--warning",
        ".notice:not(.notice--warning)",
        "dl.facts",
        ".not-recorded",
        ".card-tile--flagged [data-cover] button",
        ".card-img--back",
        ".tile--set",
        "nav.breadcrumbs",
        ".prose a",
        ".notes li.note",
    ):
        assert soup.select(selector), selector


# ----------------------------------------------------------------- 404s


@pytest.mark.parametrize("url", MISSING)
@pytest.mark.parametrize("headers", [{}, FRAGMENT], ids=["page", "fragment"])
def test_unknown_slugs_are_friendly_404s(client, url, headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 404
    soup = soup_of(response)
    assert "can't find" in text(soup.h1)
    assert soup.select_one("a.button[href='/']")
    assert bool(soup.find("html")) is (not headers)


# ----------------------------------------------------------------- the content changes


def copy_content(tmp_path: Path) -> tuple[Path, Flask]:
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    return content, create_app({"TESTING": True, "CONTENT_DIR": str(content)})


def test_an_edited_file_shows_on_the_next_request(tmp_path):
    content, app = copy_content(tmp_path)
    client = app.test_client()
    assert "Mrs. M. Tomalin" in text(get_page(client, "/sets/misc-869-1986").select_one("dl"))
    path = content / "sets" / "misc-869-1986.md"
    path.write_text(path.read_text().replace("credit_line: Mrs. M. Tomalin [@vam-misc-869]\n", ""))
    rows = get_page(client, "/sets/misc-869-1986").select(".facts__row--credit-line dd")
    assert text(rows[0]) == "not recorded"


def test_a_broken_file_leaves_the_other_pages_working(tmp_path):
    content, app = copy_content(tmp_path)
    (content / "sets" / "twizzles-happy-families.md").write_text("---\nkind: set\ntitle: [\n---\n")
    client = app.test_client()
    assert client.get("/sets/twizzles-happy-families").status_code == 404
    for url in ("/", "/sets/", "/sets/misc-869-1986", "/notes/golliwog"):
        assert client.get(url).status_code == 200, url
    assert client.get("/healthz").json["status"] == "degraded"


def test_unsafe_markup_in_content_never_reaches_the_page(tmp_path):
    content, app = copy_content(tmp_path)
    path = content / "pages" / "about.md"
    path.write_text(
        path.read_text()
        + '\n<script>alert(1)</script>\n<a href="javascript:alert(2)" onclick="x()">x</a>\n'
        + '<p style="color:red">styled</p>\n'
    )
    response = app.test_client().get("/pages/about")
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "alert(" not in body and "onclick" not in body and "style=" not in body


# ----------------------------------------------------------------- the look (CSS)


def css_rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) for every rule, @media blocks flattened."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = []
    for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", css):
        selectors = [s.strip() for s in match.group(1).split(",") if s.strip()]
        declarations = {}
        for declaration in match.group(2).split(";"):
            if ":" in declaration:
                name, value = declaration.split(":", 1)
                declarations[name.strip()] = value.strip()
        rules.append((selectors, declarations))
    return rules


RULES = css_rules(CSS)
VARIABLES = next(d for s, d in RULES if s == [":root"])


def px(value: str) -> float:
    value = re.sub(r"var\((--[\w-]+)\)", lambda m: VARIABLES[m.group(1)], value).strip()
    match = re.fullmatch(r"([\d.]+)px", value)
    return float(match.group(1)) if match else 0.0


def target_selectors() -> list[str]:
    """Selectors whose rule makes a target at least 48 px tall."""
    found = []
    for selectors, declarations in RULES:
        big = px(declarations.get("min-height", "0")) >= 48
        # an inline link in running text: 14 px above and below ~20 px of text
        padded = px(declarations.get("padding-block", "0")) >= 14
        if big or padded:
            found += [s for s in selectors if ":" not in s]
    return found


def test_css_has_target_rules():
    selectors = target_selectors()
    for needed in (".button", ".nav-link", ".skip-link", ".tile-link", ".prose a"):
        assert needed in selectors
    widths = [s for sel, d in RULES if px(d.get("min-width", "0")) >= 48 for s in sel]
    assert ".button" in widths and ".nav-link" in widths


@pytest.mark.parametrize("url", [*ROUTES, "/nope"])
def test_every_link_and_button_is_a_48px_target(client, url):
    soup = soup_of(client.get(url, headers=OWN))
    selectors = target_selectors()
    for tag in soup.select("a[href], button, input[type=submit]"):
        assert any(soupsieve.match(s, tag) for s in selectors), (url, str(tag)[:120])


def luminance(hex_colour: str) -> float:
    hex_colour = hex_colour.lstrip("#")
    if len(hex_colour) == 3:
        hex_colour = "".join(c * 2 for c in hex_colour)
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def colour(value: str) -> str:
    return VARIABLES[value[4:-1]] if value.startswith("var(") else value


def rule(selector: str) -> dict[str, str]:
    return next(d for s, d in RULES if selector in s)


@pytest.mark.parametrize(
    ("fg", "bg"),
    [
        ("--ink", "--paper"),
        ("--ink", "--card"),
        ("--ink-soft", "--paper"),
        ("--ink-soft", "--paper-2"),
        ("--ink-soft", "--card"),
        ("--blue", "--paper"),
        ("--blue", "--card"),
        ("--red", "--paper"),
        ("--red", "--card"),
        ("--red", "--warning-bg"),
        ("--ink", "--warning-bg"),
        ("--ink", "--info-bg"),
        ("--cream", "--navy"),
        ("--focus", "--cover"),
        ("--blue", "--info-bg"),
    ],
)
def test_palette_contrast_is_aa(fg, bg):
    assert contrast(VARIABLES[fg], VARIABLES[bg]) >= 4.5


def test_cover_is_white_text_on_dark():
    cover = rule(".flagged__cover")
    assert cover["color"] == "#fff"
    assert contrast("#fff", colour(cover["background"])) >= 7
    primary = rule(".button--primary")
    assert contrast(primary["color"], colour(primary["background"])) >= 4.5


def test_css_respects_reduced_motion_and_has_focus_rings():
    assert "@media (prefers-reduced-motion: reduce)" in CSS
    assert ":focus-visible" in CSS
    assert "url(http" not in CSS and "@import" not in CSS and "@font-face" not in CSS
    html = rule("html")
    assert html["font-size"].startswith("clamp(1.125rem")  # at least 18 px


@pytest.mark.parametrize("slug", SET_SLUGS)
def test_a_sets_description_for_link_previews_is_its_attract_summary_where_it_has_one(client, slug):
    """A preview or a search result shows it out of the page's context, as the loop does."""
    record = SNAPSHOT.sets[slug].record
    meta = get_page(client, f"/sets/{slug}").select_one("meta[name=description]")["content"]
    wanted = record.attract_summary or record.summary
    assert " ".join(meta.split()) == " ".join(plain(wanted).split())
