"""The cover belongs to the picture file (issue 25): every way of reaching a covered picture
is tried here and refused — its original at every spelling of its address, its made copies,
its IIIF description and tiles, a manifest, every page, embed, print page, game, rule step,
oEmbed answer and attract slide, a note's body, another set that names the same file, a
broken record — and View card's signed address only for a set that allows it, never cached
publicly, never forged, never reused late, never in an embed.

Both covered pictures of tests/photo_content.py are tried: the flagged card's front (flagged
by its card) and the pack laid out (flagged on the picture itself). Each refusal has its
control: the same address of an uncovered picture answers, so a test cannot pass because an
address was wrongly written.
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

import pytest
from photo_content import (
    CC_BY,
    FLAGGED_FRONT,
    FLAGGED_PACK,
    SCENARIO,
    SLUG,
    editable_copy,
    photo_content,
)
from test_kiosk_crawl import crawl

from kiosk import create_app
from kiosk.catalogue.pictures import DERIVED, derived_dir, picture_id, read_made, tiles
from kiosk.web import pictures

COVERED = (FLAGGED_FRONT, FLAGGED_PACK)
ALTS = {
    FLAGGED_FRONT: "The flagged card, photographed.",
    FLAGGED_PACK: "The whole pack laid out in rows.",
}
UNCOVERED = f"images/{SLUG}/case.jpg"
UNCOVERED_FRONT = f"images/{SLUG}/harbour-light.jpg"
PAGE = f"/sets/{SLUG}"
TITLE = "A photographed Snap pack (made up for the tests)"
FLAGGED_KEY = "golly-oh-golly"
SECRET = "covered-pictures"
SAME_ORIGIN = {"Sec-Fetch-Site": "same-origin"}  # "View card" pressed inside the embed
# Another set that names the flagged files without flagging them: the cover is the file's
ANOTHER_SET = f"""---
kind: set
title: Another photographed record (made up for the tests)
slug: another-record
object_type: Card game (Snap)
summary: A record made up for the tests, naming photographs another record covers.
back:
  pattern: plain
  description: Dark blue.
images:
  - src: {FLAGGED_PACK}
    alt: A picture named again, unflagged.
    credit: Photograph made up for the kiosk's tests
    rights: {CC_BY}
    caption: Named again here.
    shows: pack
  - src: {FLAGGED_FRONT}
    alt: Another picture named again, unflagged.
    credit: Photograph made up for the kiosk's tests
    rights: {CC_BY}
    shows: card
  - src: {UNCOVERED}
    alt: The case once more.
    credit: Photograph made up for the kiosk's tests
    rights: {CC_BY}
    shows: case
order: 97
---
A record that names three photographs.
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    content = photo_content(tmp_path_factory.mktemp("covered"))
    (content / "games" / "snap" / "photographs.md").write_text(SCENARIO, encoding="utf-8")
    return content


@pytest.fixture
def content(made, tmp_path):
    """A copy of the photographed content that a test may change."""
    return editable_copy(made, tmp_path)


def client_for(content: Path, **config):
    app = create_app({"TESTING": True, "SECRET_KEY": SECRET, "CONTENT_DIR": str(content), **config})
    return app.test_client()


@pytest.fixture(scope="module")
def client(made):
    return client_for(made)


def fetch(client, url: str, **options):
    """The response to ``url`` (redirects followed), its body read and its file closed."""
    response = client.get(url, follow_redirects=True, **options)
    response.get_data()
    response.close()
    return response


def edit_set(content: Path, old: str, new: str) -> None:
    path = content / "sets" / f"{SLUG}.md"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def opt_in(content: Path) -> None:
    """The set lets View card show its covered photographs (``view_flagged_photographs``)."""
    edit_set(content, "games: [snap]\n", "games: [snap]\nview_flagged_photographs: true\n")


# ------------------------------------------------------------------ the files' addresses


def spellings(src: str) -> list[str]:
    """The original's address written every other way a guesser (or a lax server) might."""
    folder, name = src.removeprefix("images/").rsplit("/", 1)
    rest = f"{folder}/{name}"
    return [
        f"/media/images/{rest}",
        f"/media/images/{rest.upper()}",
        f"/media/images/{folder}/{name.upper()}",
        f"/media/images/{folder}/{name.capitalize()}",
        f"/media/IMAGES/{rest}",
        f"/media/images//{rest}",
        f"/media/images/{folder}//{name}",
        f"/media//images/{rest}",
        f"/media/images/./{rest}",
        f"/media/images/{folder}/./{name}",
        f"/media/./images/{rest}",
        f"/media/images/{rest.replace('.', '%2e')}",
        f"/media/images/{rest.replace('/', '%2f')}",
        f"/media/images/{rest.replace('g', '%67')}",
        f"/media/images/{rest.replace('.', '%2E')}",
        f"/media/images/x/../{rest}",
        f"/media/images/{folder}/x/%2e%2e/{name}",
        f"/media/images/{rest}?v=2",
        f"/media/images/{rest}%20",
        f"/media/images/{rest}.",
        f"/embed/media/images/{rest}",
        f"/embed/media/images//{rest}",
    ]


def made_addresses(content: Path, src: str) -> list[str]:
    """Every address under which a file ``kiosk images`` made from ``src`` is served: each
    copy and IIIF file on disk, each tile ``tiles()`` says a viewer asks for, and two of them
    under /embed/."""
    pid = picture_id(src)
    folder = derived_dir(content, src)
    found = read_made(content, src)
    assert found is not None and folder.is_dir()
    copies = sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix != ".json")
    urls = [f"/media/pictures/{pid}/{name}" for name in copies]
    on_disk = sorted(p for p in (folder / "iiif").rglob("*") if p.is_file())
    urls += [f"/iiif/image/{pid}/{p.relative_to(folder / 'iiif').as_posix()}" for p in on_disk]
    asked = [f"/iiif/image/{pid}/{path}" for _, _, path in tiles(found.width, found.height)]
    urls += [url for url in asked if url not in urls]
    urls += [f"/embed/iiif/image/{pid}/info.json", f"/embed/media/pictures/{pid}/{copies[0]}"]
    return urls


def test_uncovered_pictures_answer_with_public_caching(client, made):
    for url in (
        f"/media/{UNCOVERED}",
        f"/media/pictures/{picture_id(UNCOVERED)}/w640.webp",
        f"/media/pictures/{picture_id(UNCOVERED)}/w320.jpg",
        f"/iiif/image/{picture_id(UNCOVERED)}/info.json",
        f"/iiif/image/{picture_id(UNCOVERED)}/full/300,225/0/default.jpg",  # its smallest level
        f"/iiif/{SLUG}/manifest.json",
    ):
        response = fetch(client, url)
        assert response.status_code == 200, url
        cache = response.headers["Cache-Control"]
        assert "public" in cache and "max-age=3600" in cache, (url, cache)


def test_every_made_address_of_an_uncovered_picture_answers(client, made):
    """The control: the addresses built below for a covered picture are real ones."""
    urls = made_addresses(made, UNCOVERED)
    assert len(urls) > 20
    for url in urls:
        assert fetch(client, url).status_code == 200, url


def test_many_spellings_of_an_uncovered_original_reach_it(client, made):
    """The control: most of the spellings tried below do reach a file that is not covered."""
    original = (made / UNCOVERED).read_bytes()
    reached = [u for u in spellings(UNCOVERED) if fetch(client, u).data == original]
    assert len(reached) >= 12, reached


@pytest.mark.parametrize("src", COVERED)
def test_no_address_of_a_covered_picture_answers(client, made, src):
    pid = picture_id(src)
    urls = spellings(src) + made_addresses(made, src)
    urls += [f"/iiif/image/{pid.upper()}/info.json", f"/media/pictures/{pid.upper()}/w320.jpg"]
    urls += [f"/media/pictures/{pid}/made.json", f"/iiif/image/{pid}/made.json"]
    assert len(urls) > 40
    for url in urls:
        response = fetch(client, url)
        assert response.status_code == 404, url
        assert "public" not in response.headers.get("Cache-Control", ""), url


@pytest.mark.parametrize("src", COVERED)
def test_no_address_answers_in_kiosk_mode_or_the_preview(made, src):
    for client in (client_for(made, KIOSK_MODE=True), client_for(made, PREVIEW=True)):
        for url in spellings(src)[:8] + made_addresses(made, src)[:12]:
            assert fetch(client, url).status_code == 404, url


# ------------------------------------------------------------- what places a picture


def covered_digests(content: Path) -> set[str]:
    """The SHA-256 of every covered original and every file made from one."""
    found = set()
    for src in COVERED:
        files = [content / src, *(derived_dir(content, src)).rglob("*")]
        found |= {hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.is_file()}
    return found


def leaks_in(text: str) -> list[str]:
    """What of a covered picture a page or answer names: its file, its id, its alt text."""
    found = []
    for src in COVERED:
        for mark in (src.rsplit("/", 1)[1], picture_id(src), ALTS[src]):
            if mark.lower() in text.lower():
                found.append(mark)
    if "/media/covered/" in text:
        found.append("/media/covered/")
    return found


def check_everything(visits: dict[str, tuple[int, str, bytes]], digests: set[str]):
    """No text names a covered picture; no answer is the bytes of one."""
    leaks, photographs = {}, 0
    for url, (_, mimetype, body) in visits.items():
        if mimetype.startswith("image/") and mimetype != "image/svg+xml":
            assert hashlib.sha256(body).hexdigest() not in digests, url
            photographs += "/media/pictures/" in url
            continue
        found = leaks_in(body.decode("utf-8", "replace"))
        if found:
            leaks[url] = found
    assert leaks == {}
    assert photographs >= 12  # the uncovered photographs were reached (and looked at) too


def crawled(client, start: str) -> dict[str, tuple[int, str, bytes]]:
    """Everything a visitor reaches from ``start`` by links, forms and srcsets (all of it
    fetched again, so images and SVG faces are looked at too), statics aside."""
    done = crawl(client, start)
    found: dict[str, tuple[int, str, bytes]] = {}
    for (method, url), visit in done.visits.items():
        if url.startswith(("/static/", "/embed/static/")):
            continue
        if method == "POST" or visit.mimetype == "text/html":
            found[f"{method} {url}"] = (visit.status, visit.mimetype, visit.html.encode())
        else:
            response = fetch(client, url)
            found[url] = (response.status_code, response.mimetype, response.data)
    return found


def walk_attract(client) -> dict[str, tuple[int, str, bytes]]:
    """Every slide of the attract loop, whole and as the fragment htmx swaps in."""
    found = {}
    for n in range(1, 200):
        response = client.get(f"/attract/{n}")
        if response.status_code == 404:
            break
        found[f"/attract/{n}"] = (200, response.mimetype, response.data)
        fragment = client.get(f"/attract/{n}", headers={"HX-Request": "true"})
        found[f"/attract/{n} (htmx)"] = (200, fragment.mimetype, fragment.data)
    return found


def named(client, urls: list[str], **options) -> dict[str, tuple[int, str, bytes]]:
    found = {}
    for url in urls:
        response = fetch(client, url, **options)
        assert response.status_code == 200, url
        found[url] = (200, response.mimetype, response.data)
    return found


PAGES = [
    "/",
    "/sets/",
    PAGE,
    f"{PAGE}?view={FLAGGED_KEY}",
    f"{PAGE}/print",
    f"{PAGE}/play",
    f"{PAGE}/play/snap",
    f"/iiif/{SLUG}/manifest.json",
    f"/oembed?url=http://localhost{PAGE}&format=json",
    f"/oembed?url=http://localhost{PAGE}%3Fview%3D{FLAGGED_KEY}&format=json",
    f"/oembed?url=http://localhost/embed{PAGE}&format=json",
    "/notes/golliwog",
    "/patterns",
    "/rules/",
    *(f"/rules/snap/photographs/{n}" for n in range(1, 11)),
    "/rules/snap/photographs/steps.json",
    f"/cards/{SLUG}/{FLAGGED_KEY}.svg",
    f"/cards/{SLUG}/back.svg",
    "/healthz",
]


def test_the_attract_loop_walks_through_the_photographed_set(made):
    slides = walk_attract(client_for(made, KIOSK_MODE=True))
    assert any(TITLE.encode() in body for _, _, body in slides.values())


def test_no_page_answer_or_slide_names_or_sends_one_on_the_site(made):
    client = client_for(made)
    visits = crawled(client, "/")
    assert f"GET {PAGE}" in visits and f"GET {PAGE}/print" in visits
    visits |= named(client, PAGES)
    visits |= named(client, [f"/embed{u}" for u in PAGES[:8]])
    visits |= named(client, [f"/embed{PAGE}?view={FLAGGED_KEY}"], headers=SAME_ORIGIN)
    check_everything(visits, covered_digests(made))


def test_no_page_answer_or_slide_names_or_sends_one_in_kiosk_mode(made):
    client = client_for(made, KIOSK_MODE=True)
    visits = crawled(client, "/")
    assert f"GET {PAGE}" in visits and f"GET {PAGE}/print" in visits
    visits |= walk_attract(client) | named(client, PAGES)
    check_everything(visits, covered_digests(made))


def test_no_embedded_page_names_or_sends_one(made):
    client = client_for(made)
    visits = crawled(client, f"/embed{PAGE}")
    assert any(url.startswith("POST /embed/") for url in visits)  # a game was played in it
    check_everything(visits, covered_digests(made))


def test_the_checks_above_would_see_a_leak(made):
    """The control: the leak checks find an uncovered picture's name, id, alt and bytes."""
    client = client_for(made)
    page = client.get(PAGE).get_data(as_text=True)
    assert picture_id(UNCOVERED) in page and "case" in page
    assert "The case, a card box with a picture on its lid." in page
    body = fetch(client, f"/media/pictures/{picture_id(UNCOVERED)}/w640.jpg").data
    assert hashlib.sha256(body).hexdigest() in {
        hashlib.sha256(p.read_bytes()).hexdigest()
        for p in derived_dir(made, UNCOVERED).iterdir()
        if p.is_file()
    }
    assert leaks_in(f"<img src=/media/{FLAGGED_FRONT} alt='{ALTS[FLAGGED_PACK]}'>") == [
        "golly.jpg",
        ALTS[FLAGGED_PACK],
    ]


# ------------------------------------------------------------- other ways of naming it


def test_a_covered_file_named_in_a_notes_body_is_never_served_or_placed(content):
    note = content / "notes" / "golliwog.md"
    text = note.read_text(encoding="utf-8")
    note.write_text(
        text + f"\n\n![A picture]({FLAGGED_FRONT})\n\n![Another]({FLAGGED_PACK})\n",
        encoding="utf-8",
    )
    client = client_for(content)
    for url in ("/notes/golliwog", "/embed/notes/golliwog"):
        response = fetch(client, url)
        assert response.status_code in {200, 404}, url
        assert leaks_in(response.get_data(as_text=True)) == [], url
    for src in COVERED:
        assert fetch(client, f"/media/{src}").status_code == 404, src


def test_another_record_naming_a_covered_file_unflagged_never_shows_it(content):
    (content / "sets" / "another-record.md").write_text(ANOTHER_SET, encoding="utf-8")
    client = client_for(content)
    page = fetch(client, "/sets/another-record")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert picture_id(UNCOVERED) in html  # its uncovered picture is placed
    assert leaks_in(html.replace(ALTS[FLAGGED_PACK], "")) == []
    manifest = client.get("/iiif/another-record/manifest.json").get_json(force=True)
    assert len(manifest["items"]) == 1
    for src in COVERED:
        for url in spellings(src)[:4] + made_addresses(content, src)[:12]:
            assert fetch(client, url).status_code == 404, url


def break_set(content: Path) -> None:
    """The set file that flags both pictures no longer reads (its YAML is broken)."""
    edit_set(content, "games: [snap]", "games: [snap")


def test_a_covered_file_stays_covered_when_the_record_that_flags_it_is_broken(content):
    break_set(content)
    client = client_for(content)
    assert fetch(client, PAGE).status_code == 404  # held back by its mistake
    assert fetch(client, f"/iiif/{SLUG}/manifest.json").status_code == 404
    for src in COVERED:
        assert read_made(content, src).covered  # made.json remembers
        for url in spellings(src) + made_addresses(content, src)[:20]:
            assert fetch(client, url).status_code == 404, url
    # never covered, but now named by no readable record: not served either (issue 46)
    assert fetch(client, f"/media/{UNCOVERED}").status_code == 404


def test_a_broken_record_leaves_its_files_covered_for_another_record(content):
    (content / "sets" / "another-record.md").write_text(ANOTHER_SET, encoding="utf-8")
    break_set(content)
    client = client_for(content)
    html = fetch(client, "/sets/another-record").get_data(as_text=True)
    assert picture_id(UNCOVERED) in html
    assert leaks_in(html.replace(ALTS[FLAGGED_PACK], "")) == []
    manifest = fetch(client, "/iiif/another-record/manifest.json").get_data(as_text=True)
    assert leaks_in(manifest) == [] and picture_id(UNCOVERED) in manifest
    for src in COVERED:
        for url in made_addresses(content, src)[:20]:
            assert fetch(client, url).status_code == 404, url


def test_a_broken_record_leaves_its_files_unplaced_in_a_notes_body(content):
    """With the flagging record broken, only made.json says the file is covered: a note that
    names it must not place it (kiosk check cannot name the flag of a file it cannot read)."""
    note = content / "notes" / "golliwog.md"
    note.write_text(
        note.read_text(encoding="utf-8") + f"\n\n![A picture]({FLAGGED_FRONT})\n",
        encoding="utf-8",
    )
    break_set(content)
    client = client_for(content)
    for url in ("/notes/golliwog", "/embed/notes/golliwog"):
        response = fetch(client, url)
        assert response.status_code in {200, 404}, url
        assert leaks_in(response.get_data(as_text=True)) == [], url
    assert fetch(client, f"/media/{FLAGGED_FRONT}").status_code == 404


def test_a_made_json_that_cannot_be_read_leaves_nothing_to_serve(content):
    """A damaged made.json: the file's copies are not served (the record still flags it)."""
    for src in COVERED:
        (derived_dir(content, src) / "made.json").write_text("{not json", encoding="utf-8")
    client = client_for(content)
    for src in COVERED:
        pid = picture_id(src)
        for url in (
            f"/media/{src}",
            f"/media/pictures/{pid}/w320.jpg",
            f"/iiif/image/{pid}/info.json",
            f"/iiif/image/{pid}/full/max/0/default.jpg",
        ):
            assert fetch(client, url).status_code == 404, url


# ------------------------------------------------------------ View card's signed address


def token_for(client, src: str = FLAGGED_FRONT, set_key: str = SLUG) -> str:
    with client.application.test_request_context():
        return pictures._serializer().dumps({"set": set_key, "src": src})


def covered_urls_in(html: str) -> list[str]:
    return re.findall(r"/media/covered/[A-Za-z0-9_.\-]+", html)


def test_a_set_that_does_not_opt_in_refuses_even_a_good_token(content):
    client = client_for(content)
    assert covered_urls_in(client.get(f"{PAGE}?view={FLAGGED_KEY}").get_data(as_text=True)) == []
    for src in COVERED:
        assert fetch(client, f"/media/covered/{token_for(client, src)}").status_code == 404


def test_a_set_that_opts_in_shows_it_privately_and_never_caches_it(content):
    opt_in(content)
    client = client_for(content)
    html = client.get(f"{PAGE}?view={FLAGGED_KEY}", headers=SAME_ORIGIN).get_data(as_text=True)
    [url] = covered_urls_in(html)  # only the revealed card's, only on its reveal
    assert covered_urls_in(client.get(PAGE).get_data(as_text=True)) == []
    response = fetch(client, url)
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert hashlib.sha256(response.data).hexdigest() in covered_digests(content)
    cache = response.headers["Cache-Control"]
    assert "no-store" in cache and "private" in cache and "public" not in cache
    assert "max-age" not in cache
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert "Expires" not in response.headers or response.headers["Expires"] == "0"


def test_the_opted_in_set_still_keeps_covered_files_off_every_other_address(content):
    opt_in(content)
    client = client_for(content)
    for src in COVERED:
        for url in spellings(src)[:6] + made_addresses(content, src)[:12]:
            assert fetch(client, url).status_code == 404, url
    manifest = client.get(f"/iiif/{SLUG}/manifest.json").get_data(as_text=True)
    assert leaks_in(manifest) == []
    embedded = fetch(client, f"/embed{PAGE}?view={FLAGGED_KEY}", headers=SAME_ORIGIN)
    assert embedded.status_code == 200
    assert covered_urls_in(embedded.get_data(as_text=True)) == []  # never inside a host's page


def test_an_address_stops_answering_when_the_set_stops_opting_in(content):
    opt_in(content)
    client = client_for(content)
    token = token_for(client)
    assert fetch(client, f"/media/covered/{token}").status_code == 200
    edit_set(content, "view_flagged_photographs: true\n", "")
    assert fetch(client, f"/media/covered/{token}").status_code == 404


@pytest.mark.parametrize(
    "why",
    [
        "tampered",
        "expired",
        "from another app",
        "another picture",
        "an uncovered picture",
        "another set",
        "not a token",
        "embed",
    ],
)
def test_view_cards_address_cannot_be_forged_reused_late_or_framed(content, monkeypatch, why):
    opt_in(content)
    client = client_for(content)
    token = token_for(client)
    assert fetch(client, f"/media/covered/{token}").status_code == 200  # the control
    url = f"/media/covered/{token}"
    if why == "tampered":
        url = f"/media/covered/{token[:-3]}{'AAA' if token[-3:] != 'AAA' else 'BBB'}"
    elif why == "expired":
        past = time.time() - pictures.COVERED_MAX_AGE - 1
        with monkeypatch.context() as m:
            m.setattr(time, "time", lambda: past)
            url = f"/media/covered/{token_for(client)}"
    elif why == "from another app":
        other = create_app({"TESTING": True, "SECRET_KEY": "x", "CONTENT_DIR": str(content)})
        url = f"/media/covered/{token_for(other.test_client())}"
    elif why == "another picture":
        url = f"/media/covered/{token_for(client, src=f'images/{SLUG}/nothing.jpg')}"
    elif why == "an uncovered picture":
        url = f"/media/covered/{token_for(client, src=UNCOVERED_FRONT)}"
    elif why == "another set":
        url = f"/media/covered/{token_for(client, set_key='misc-869-1986')}"
    elif why == "not a token":
        url = "/media/covered/golly.jpg"
    elif why == "embed":
        url = f"/embed/media/covered/{token}"
    assert fetch(client, url).status_code == 404


def test_a_token_made_just_inside_its_time_still_answers(content, monkeypatch):
    """The control for "expired": the same signing in the past, a minute less far back."""
    opt_in(content)
    client = client_for(content)
    recent = time.time() - pictures.COVERED_MAX_AGE + 60
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda: recent)
        url = f"/media/covered/{token_for(client)}"
    assert fetch(client, url).status_code == 200


def test_nothing_under_derived_is_reachable_but_through_these_addresses(client, made):
    """made.json and the folder itself are never served (their names tell what is covered)."""
    for src in (*COVERED, UNCOVERED):
        pid = picture_id(src)
        for url in (
            f"/media/{DERIVED}/{pid}/made.json",
            f"/media/images/../{DERIVED}/{pid}/w320.jpg",
            f"/media/pictures/{pid}/made.json",
            f"/media/pictures/{pid}/iiif/info.json",
            f"/iiif/image/{pid}/made.json",
            f"/iiif/image/{pid}/../w320.jpg",
        ):
            assert fetch(client, url).status_code == 404, url
