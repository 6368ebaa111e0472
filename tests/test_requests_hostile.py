"""Hostile requests (issue 16): bodies, Host names, proxies' headers, off-site links, embeds,
oEmbed's format, duplicate slugs, linked images, and games from before a restart."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from fixture_content import GOOD

from kiosk import create_app
from kiosk.catalogue.render import render_audited
from kiosk.catalogue.store import Catalogue
from kiosk.config import from_environment
from kiosk.web import offsite, security

ROOT = Path(__file__).resolve().parent.parent
FLAGGED = "/sets/misc-869-1986?view=golly-oh-golly"


class Untouched(io.RawIOBase):
    """A request body that records whether anything read it."""

    def __init__(self) -> None:
        self.reads = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.reads += 1
        buffer[:1] = b"x"
        return 1


# ----------------------------------------------------------------- bodies


@pytest.mark.parametrize(
    "path", ["/sets/snap-standard-deck/play", "/sets/snap-standard-deck/play/act", "/"]
)
def test_a_large_body_is_refused_before_it_is_read(client, path):
    body = Untouched()
    response = client.post(
        path,
        content_type="application/x-www-form-urlencoded",
        environ_overrides={"wsgi.input": body, "CONTENT_LENGTH": str(100 * 1024 * 1024)},
    )
    assert response.status_code == 413
    assert body.reads == 0
    assert "too much to send" in response.get_data(as_text=True)


def test_a_large_multipart_field_is_refused(client, app):
    """Werkzeug's form limits apply to multipart bodies (a urlencoded one is read whole, so
    MAX_CONTENT_LENGTH is its limit)."""
    field = "x" * (app.config["MAX_FORM_MEMORY_SIZE"] + 1)
    assert len(field) < app.config["MAX_CONTENT_LENGTH"]
    response = client.post(
        "/sets/snap-standard-deck/play/act",
        data={"token": field},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413


def test_too_many_multipart_parts_are_refused(client):
    response = client.post(
        "/sets/snap-standard-deck/play/act",
        data={f"f{n}": "1" for n in range(200)},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413


def test_a_game_form_is_well_within_the_limits(client):
    response = client.post("/sets/snap-standard-deck/play", data={"bots": "1", "level": "easy"})
    assert response.status_code == 200


def test_the_body_limit_is_a_setting(monkeypatch):
    monkeypatch.setenv("KIOSK_MAX_CONTENT_LENGTH", "1000")
    app = create_app({"TESTING": True})
    assert app.config["MAX_CONTENT_LENGTH"] == 1000
    response = app.test_client().post("/sets/snap-standard-deck/play", data={"x": "y" * 2000})
    assert response.status_code == 413


# ----------------------------------------------------------------- Host names


@pytest.mark.parametrize(
    "path",
    [
        "/sets",
        "/sets/misc-869-1986",
        "/oembed?url=http://evil.example/sets/&format=json",
        "/embed/sets/",
        "/healthz",
    ],
)
def test_a_forged_host_is_refused(client, path):
    response = client.get(path, headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert "evil.example" not in response.get_data(as_text=True)
    assert "evil.example" not in response.headers.get("Location", "")


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "localhost:8000", "127.0.0.1:5000"])
def test_the_loopback_names_are_trusted_by_default(client, host):
    assert client.get("/sets/", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize(
    ("raw", "wanted"),
    [
        ("kiosk.example.org", ["kiosk.example.org"]),
        (
            "kiosk.example.org, .school.example localhost",
            ["kiosk.example.org", ".school.example", "localhost"],
        ),
        ("", ["localhost", "127.0.0.1"]),
        ("*", None),
    ],
)
def test_kiosk_trusted_hosts(monkeypatch, raw, wanted):
    monkeypatch.setenv("KIOSK_TRUSTED_HOSTS", raw)
    assert create_app({"TESTING": True}).config["TRUSTED_HOSTS"] == wanted


def test_a_hosted_server_names_its_hosts():
    app = create_app({"TESTING": True, "TRUSTED_HOSTS": "kiosk.example.org .school.example"})
    client = app.test_client()
    assert client.get("/sets/", headers={"Host": "kiosk.example.org"}).status_code == 200
    assert client.get("/sets/", headers={"Host": "a.school.example"}).status_code == 200
    assert client.get("/sets/", headers={"Host": "localhost"}).status_code == 400
    assert client.get("/sets/", headers={"Host": "school.example.evil"}).status_code == 400


def test_oembed_answers_only_for_its_own_host(client):
    ours = client.get("/oembed", query_string={"url": "http://localhost/sets/", "format": "json"})
    assert ours.status_code == 200
    assert 'src="http://localhost/embed/sets/"' in ours.get_json()["html"]
    other = client.get("/oembed", query_string={"url": "http://127.0.0.1/sets/"})
    assert other.status_code == 404  # another of our names, but not the one asked
    evil = client.get("/oembed", query_string={"url": "http://evil.example/sets/"})
    assert evil.status_code == 404


@pytest.mark.parametrize("fmt", ["json", "JSON", "Json", " json ", ""])
def test_oembed_format_is_read_case_insensitively(client, fmt):
    query = {"url": "http://localhost/sets/", "format": fmt}
    assert client.get("/oembed", query_string=query).status_code == 200


@pytest.mark.parametrize("fmt", ["xml", "XML", "jsonp"])
def test_oembed_other_formats_are_not_implemented(client, fmt):
    query = {"url": "http://localhost/sets/", "format": fmt}
    assert client.get("/oembed", query_string=query).status_code == 501


# ----------------------------------------------------------------- proxies


def test_proxy_headers_are_ignored_by_default(client):
    headers = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-For": "203.0.113.9",
    }
    body = client.get("/oembed", query_string={"url": "http://localhost/sets/"}, headers=headers)
    assert body.status_code == 200
    assert body.get_json()["provider_url"] == "http://localhost/"


def test_proxy_fix_believes_the_proxy_when_told():
    app = create_app({"TESTING": True, "PROXY_FIX": 1, "TRUSTED_HOSTS": ["kiosk.example.org"]})
    client = app.test_client()
    headers = {"X-Forwarded-Proto": "https", "Host": "kiosk.example.org"}
    query = {"url": "https://kiosk.example.org/sets/"}
    answer = client.get("/oembed", query_string=query, headers=headers)
    assert answer.status_code == 200
    assert answer.get_json()["provider_url"] == "https://kiosk.example.org/"
    assert 'src="https://kiosk.example.org/embed/sets/"' in answer.get_json()["html"]
    forged = client.get(
        "/sets/", headers={"X-Forwarded-Host": "evil.example", "Host": "kiosk.example.org"}
    )
    assert forged.status_code == 200 and "evil.example" not in forged.get_data(as_text=True)
    assert client.get("/sets/", headers={"Host": "evil.example"}).status_code == 400


def test_proxy_fix_setting(monkeypatch):
    monkeypatch.setenv("KIOSK_PROXY_FIX", "2")
    assert from_environment()["PROXY_FIX"] == 2
    with pytest.raises(ValueError):
        security.proxies("-1")


# ----------------------------------------------------------------- off-site link tricks

TRICKS = [
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "\\/evil.example/x",
    "/\t/evil.example/x",
    " //evil.example/x",
    "/\\/evil.example/x",
]


@pytest.mark.parametrize("href", TRICKS)
@pytest.mark.parametrize("kiosk_mode", [False, True])
def test_backslash_and_other_tricks_never_leave(href, kiosk_mode, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    page = content / "pages" / "about.md"
    escaped = href.replace("\t", "&#9;")
    page.write_text(
        page.read_text(encoding="utf-8")
        + f'\n\n<a href="{escaped}">raw</a> and [markdown]({href.replace(" ", "")}).\n',
        encoding="utf-8",
    )
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content), "KIOSK_MODE": kiosk_mode})
    body = app.test_client().get("/pages/about").get_data(as_text=True)
    soup = BeautifulSoup(body, "html.parser")
    hrefs = [a.get("href", "") for a in soup.select("main a")]
    # a browser reads each as a path here (spaces are kept inside a path), never another host
    assert all(offsite.classify(h) == offsite.LOCAL for h in hrefs if "evil" in h), hrefs
    assert "raw" in body and "markdown" in body  # the words stay, the links go


@pytest.mark.parametrize("href", TRICKS)
def test_the_renderer_drops_tricky_links(href):
    html = render_audited(f'<a href="{href}">x</a>')[0]
    found = BeautifulSoup(html, "html.parser").a.get("href")
    assert found is None or offsite.classify(found) == offsite.LOCAL, html


@pytest.mark.parametrize(
    "href", ["/sets/", "#top", "?view=x", "https://example.org/a", "mailto:a@b.c"]
)
def test_the_renderer_keeps_ordinary_links(href):
    assert f'href="{href}"' in render_audited(f'<a href="{href}">x</a>')[0]


# ----------------------------------------------------------------- ?view= from elsewhere

MOUNTS = ["", "/embed"]  # the site's pages and the embed: one rule (issue 46: a link to ?view=)


def revealed(response) -> bool:
    soup = BeautifulSoup(response.get_data(as_text=True), "html.parser")
    return bool(soup.select(".flagged.is-revealed"))


@pytest.mark.parametrize("mount", MOUNTS)
@pytest.mark.parametrize("site", [None, "cross-site", "same-site", "none"])
def test_an_address_from_elsewhere_never_opens_a_flagged_card(client, mount, site):
    """Another site's link, a typed or bookmarked address, a browser that says nothing."""
    headers = {"Sec-Fetch-Site": site} if site else {}
    response = client.get(mount + FLAGGED, headers=headers)
    assert response.status_code == 303
    assert response.headers["Location"] == mount + "/sets/misc-869-1986"
    covered = client.get(mount + FLAGGED, headers=headers, follow_redirects=True)
    assert covered.status_code == 200 and not revealed(covered)
    assert covered.request.path == mount + "/sets/misc-869-1986"


@pytest.mark.parametrize("mount", MOUNTS)
def test_view_card_on_our_own_page_reveals_it(client, mount):
    """The visitor's own tap: the "View card" form, sent from our page (inside a frame too)."""
    response = client.get(mount + FLAGGED, headers={"Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 200 and revealed(response)
    assert "Sec-Fetch-Site" in response.headers["Vary"]
    again = client.get(mount + FLAGGED, headers={"Sec-Fetch-Site": "cross-site"})
    assert again.status_code == 303  # the cached, revealed page is not sent to anyone else


@pytest.mark.parametrize("mount", MOUNTS)
def test_other_query_arguments_survive_the_cover(client, mount):
    response = client.get(mount + FLAGGED + "&x=1")
    assert response.headers["Location"] == mount + "/sets/misc-869-1986?x=1"


@pytest.mark.parametrize(
    "path",
    [
        "/embed/embed",
        "/embed/embed/",
        "/embed/embed/sets/",
        "/embed/embed/sets/misc-869-1986",
        "/embed/embed/embed/",
    ],
)
def test_embed_inside_embed_is_not_a_page(client, path):
    assert client.get(path).status_code == 404


def test_embed_pages_still_work(client):
    assert client.get("/embed/sets/").status_code == 200
    assert client.get("/embed").status_code == 200


# ----------------------------------------------------------------- duplicate slugs


def copy_content(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


def impostor(content: Path, name: str) -> Path:
    note = content / "notes" / "golliwog.md"
    text = note.read_text(encoding="utf-8").replace("title: ", "title: Impostor ", 1)
    path = content / "notes" / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["a-copy.md", "zz-copy.md"])
def test_a_second_file_never_takes_a_published_slug(tmp_path, name):
    content = copy_content(tmp_path)
    app = create_app({"TESTING": True, "CONTENT_DIR": str(content)})
    client = app.test_client()
    before = client.get("/notes/golliwog").get_data(as_text=True)
    impostor(content, name)
    after = client.get("/notes/golliwog").get_data(as_text=True)
    assert "Impostor" not in after and after == before
    problems = client.get("/healthz").get_json()["content"]["problems"]
    assert len(problems) == 1
    assert problems[0].startswith(f"content/notes/{name}:")
    assert "duplicate note slug 'golliwog' (also in content/notes/golliwog.md)" in problems[0]


def test_after_a_restart_the_file_named_after_the_slug_keeps_it(tmp_path):
    content = copy_content(tmp_path)
    impostor(content, "a-copy.md")
    snapshot = Catalogue(content).current()
    assert snapshot.notes["golliwog"].path == "content/notes/golliwog.md"
    assert [p.path for p in snapshot.problems] == ["content/notes/a-copy.md"]


# ----------------------------------------------------------------- images


@pytest.fixture
def linked(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\nnot for visitors")
    (content / "images" / "box.png").unlink()
    (content / "images" / "box.png").symlink_to(secret)
    (content / "images" / "outside.png").symlink_to(secret)
    return content


def test_a_linked_image_is_a_problem(linked):
    problems = [str(p) for p in Catalogue(linked).current().problems]
    assert len(problems) == 1
    assert "images[0].src: image 'images/box.png' is a link to another file" in problems[0]


def test_a_linked_image_is_never_served(linked):
    client = create_app({"TESTING": True, "CONTENT_DIR": str(linked)}).test_client()
    assert client.get("/media/images/outside.png").status_code == 404
    assert client.get("/media/images/box.png").status_code == 404
    # the link holds the set back, so no readable record names its other picture either
    assert client.get("/media/images/fishermen.png").status_code == 404
    good = create_app({"TESTING": True, "CONTENT_DIR": str(GOOD)}).test_client()
    with good.get("/media/images/fishermen.png") as regular:
        assert regular.status_code == 200


def test_only_a_picture_a_readable_record_names_is_served(tmp_path):
    """The curators' guide puts a photograph in images/ before a record names it (issue 46)."""
    content = tmp_path / "content"
    shutil.copytree(GOOD, content)
    (content / "images" / "not-yet.png").write_bytes(
        (GOOD / "images" / "fishermen.png").read_bytes()
    )
    client = create_app({"TESTING": True, "CONTENT_DIR": str(content)}).test_client()
    assert client.get("/media/images/not-yet.png").status_code == 404  # a guessed name
    record = content / "sets" / "test-snap.md"
    record.write_text(record.read_text("utf-8") + "\n![The box](images/not-yet.png)\n", "utf-8")
    with client.get("/media/images/not-yet.png") as named:  # a page's text now shows it
        assert named.status_code == 200


# ----------------------------------------------------------------- games after a restart


def test_a_game_from_before_a_restart_says_so():
    before = create_app({"TESTING": True, "SECRET_KEY": "first-secret"}).test_client()
    page = before.post("/sets/snap-standard-deck/play", data={"bots": "1", "level": "easy"})
    token = BeautifulSoup(page.get_data(as_text=True), "html.parser").find(
        "input", attrs={"name": "token"}
    )["value"]
    after = create_app({"TESTING": True, "SECRET_KEY": "second-secret"}).test_client()
    response = after.post("/sets/snap-standard-deck/play/act", data={"token": token, "act": "turn"})
    assert response.status_code == 400
    text = " ".join(response.get_data(as_text=True).split())
    assert "This game was started before the kiosk restarted" in text
    assert "has been changed" not in text
