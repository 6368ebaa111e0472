"""A crawl of the whole kiosk in kiosk mode: no link, form or target leads off the machine.

The crawl starts at ``/`` and follows every internal ``href``, ``src``, ``action``,
``data-hx-get`` and ``data-hx-post``; it submits every form once with its default choices, so
it reaches a started game of every kind and one move in it. The content is a copy of
``content/`` with off-site links added to a page body (web, email, phone), so the rewriting of
markdown is crawled too.
Then every catalogue page is fetched again in normal mode: each off-site address found there
must be in the kiosk page as text with a QR code.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlsplit, urlunsplit

import pytest
from bs4 import BeautifulSoup

from kiosk import create_app
from kiosk.config import ROOT

EXTRA_LINKS = {  # (the sanitiser allows no tel: link in content; test_offsite covers tel:)
    "https://www.vam.ac.uk/collections?type=games&q=snap": "the V&A games",
    "mailto:visits@example.org": "the learning team",
}
EXTRA_BODY = "\n\n## Find out more\n\nLook up [{}]({}) or write to [{}](<{}>).\n".format(
    *[part for url, name in EXTRA_LINKS.items() for part in (name, url)]
)
# Many URLs differ only by a step number or a query string (rule steps, revealed cards):
# a few of each are enough to see every page type.
PER_SHAPE = 4
MAX_REQUESTS = 2500
LINK_ATTRS = ("href", "src", "action", "formaction", "data-hx-get", "data-hx-post", "poster")
WENT_ANYWHERE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:|^[/\\]{2}")


@dataclass
class Visit:
    """One request the crawl made and what came back."""

    method: str
    url: str
    status: int
    mimetype: str
    html: str = ""
    referrer: str = ""
    location: str = ""


@dataclass
class Crawl:
    """Every request the crawl made, keyed by (method, url)."""

    visits: dict[tuple[str, str], Visit] = field(default_factory=dict)

    def pages(self) -> Iterator[Visit]:
        """The HTML responses."""
        return (v for v in self.visits.values() if v.mimetype == "text/html")


def shape(url: str) -> str:
    """A URL with numbers and the query string left out: URLs of one shape are one page type."""
    parts = urlsplit(url)
    path = re.sub(r"/\d+(?=/|$)", "/N", parts.path)
    return f"{path}?" if parts.query else path


def internal(url: str) -> bool:
    """True for a URL that stays on this server (relative, or absolute-path)."""
    return not WENT_ANYWHERE.match(url.strip())


def form_data(form) -> dict[str, str]:
    """A form's default submission: hidden and text values, checked choices, the first button."""
    data: dict[str, str] = {}
    for field_ in form.find_all(["input", "select", "textarea"]):
        name = field_.get("name")
        if not name:
            continue
        kind = (field_.get("type") or "text").lower()
        if field_.name == "select":
            option = field_.find("option", selected=True) or field_.find("option")
            if option is not None:
                data.setdefault(name, option.get("value", option.get_text()))
        elif kind in {"radio", "checkbox"}:
            if field_.has_attr("checked"):
                data.setdefault(name, field_.get("value", "on"))
        elif kind not in {"submit", "button", "image", "reset"}:
            data.setdefault(name, field_.get("value", ""))
    button = form.find(["button", "input"], attrs={"type": "submit"}) or form.find(
        "button", attrs={"type": None}
    )
    if button is not None and button.get("name"):
        data[button["name"]] = button.get("value", "")
    return data


def links_in(soup: BeautifulSoup) -> list[tuple[str, str, dict[str, str] | None]]:
    """Every internal request a page can make: (method, URL, form data for a submission)."""
    found: list[tuple[str, str, dict[str, str] | None]] = []
    for element in soup.find_all(True):
        for attr in LINK_ATTRS:
            value = element.get(attr)
            if not value or not internal(value):
                continue
            if element.name == "form" and attr == "action":
                data = form_data(element)
                if (element.get("method") or "get").lower() == "post":
                    found.append(("POST", value, data))
                else:
                    parts = urlsplit(value)
                    found.append(("GET", urlunsplit(parts._replace(query=urlencode(data))), None))
            elif attr in {"data-hx-post", "formaction"}:
                form = element if element.name == "form" else element.find_parent("form")
                data = form_data(form) if form is not None else {}
                if element.get("name"):
                    data[element["name"]] = element.get("value", "")
                found.append(("POST", value, data))
            else:
                found.append(("GET", value, None))
        for candidate in (element.get("srcset") or "").split(","):
            words = candidate.split()
            if words and internal(words[0]):
                found.append(("GET", words[0], None))
    return found


def crawl(client, start: str = "/") -> Crawl:
    """Visit everything reachable from ``start``; submit each form action once."""
    done = Crawl()
    per_shape: Counter[str] = Counter()
    queue: list[tuple[str, str, dict[str, str] | None, str]] = [("GET", start, None, "")]
    seen = {("GET", start)}
    while queue:
        method, url, data, referrer = queue.pop(0)
        assert len(done.visits) < MAX_REQUESTS, "the crawl never ends: a URL loop?"
        response = client.get(url) if method == "GET" else client.post(url, data=data)
        visit = Visit(method, url, response.status_code, response.mimetype, referrer=referrer)
        done.visits[(method, url)] = visit
        found: list[tuple[str, str, dict[str, str] | None]] = []
        if response.status_code in {301, 302, 303, 307, 308}:
            visit.location = response.headers.get("Location", "")
            if internal(visit.location):  # an outside Location fails test_redirects_stay_here
                found.append(("GET", visit.location, None))
        if response.mimetype != "text/html":
            response.close()
        else:
            visit.html = response.get_data(as_text=True)
            found += links_in(BeautifulSoup(visit.html, "html.parser"))
        for method_, value, data_ in found:
            if value.startswith("#"):
                continue  # this very page
            target = urlunsplit(urlsplit(urljoin(url, value))._replace(fragment=""))
            key = (method_, target)
            if key in seen:
                continue
            seen.add(key)
            if method_ == "GET" and not target.startswith("/static/"):
                per_shape[shape(target)] += 1
                if per_shape[shape(target)] > PER_SHAPE:
                    continue
            queue.append((method_, target, data_, url))
    return done


@pytest.fixture(scope="module")
def content_dir(tmp_path_factory) -> Path:
    """A copy of the real content with off-site links in the about page's body."""
    folder = tmp_path_factory.mktemp("crawl") / "content"
    shutil.copytree(ROOT / "content", folder)
    about = folder / "pages" / "about.md"
    about.write_text(about.read_text(encoding="utf-8") + EXTRA_BODY, encoding="utf-8")
    return folder


def make_app(content_dir: Path, kiosk: bool):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "crawl-test-secret",
            "CONTENT_DIR": str(content_dir),
            "KIOSK_MODE": kiosk,
        }
    )


@pytest.fixture(scope="module")
def kiosk_app(content_dir):
    return make_app(content_dir, kiosk=True)


@pytest.fixture(scope="module")
def normal_app(content_dir):
    return make_app(content_dir, kiosk=False)


@pytest.fixture(scope="module")
def kiosk_crawl(kiosk_app) -> Crawl:
    return crawl(kiosk_app.test_client())


# ----------------------------------------------------------------- reach


def test_the_crawl_reaches_every_page_type(kiosk_crawl):
    got = {(method, urlsplit(url).path) for (method, url) in kiosk_crawl.visits}
    wanted = [
        ("GET", r"^/$"),
        ("GET", r"^/sets/$"),
        ("GET", r"^/sets/[\w-]+$"),
        ("GET", r"^/games/$"),
        ("GET", r"^/games/[\w-]+$"),
        ("GET", r"^/notes/[\w-]+$"),
        ("GET", r"^/pages/[\w-]+$"),
        ("GET", r"^/rules/$"),
        ("GET", r"^/rules/[\w-]+/[\w-]+$"),
        ("GET", r"^/rules/[\w-]+/[\w-]+/\d+$"),
        ("GET", r"^/static/css/"),
        ("GET", r"^/static/.*\.js$"),
        ("GET", r"^/cards/"),
        # the setup page, a started game and a move in it, for each game
        ("GET", r"^/sets/[\w-]+/play$"),
        ("POST", r"^/sets/[\w-]+/play$"),
        ("POST", r"^/sets/[\w-]+/play/act$"),
        ("GET", r"^/sets/[\w-]+/play/happy-families$"),
        ("POST", r"^/sets/[\w-]+/play/happy-families$"),
        ("POST", r"^/sets/[\w-]+/play/happy-families/act$"),
        ("GET", r"^/sets/[\w-]+/play/snitchems$"),
        ("POST", r"^/sets/[\w-]+/play/snitchems$"),
        ("POST", r"^/sets/[\w-]+/play/snitchems/act$"),
    ]
    for method, pattern in wanted:
        assert any(m == method and re.search(pattern, p) for m, p in got), (method, pattern)
    for rules in ("/rules/snap/", "/rules/happy-families/", "/rules/snitchems/"):
        assert any(p.startswith(rules) for _m, p in got), rules
    assert len(kiosk_crawl.visits) > 100


def test_every_page_answers(kiosk_crawl):
    """200, or a redirect to a page of ours (a rule's first step; a game's GET-after-POST)."""
    bad = [
        (v.method, v.url, v.status, v.location, v.referrer)
        for v in kiosk_crawl.visits.values()
        if not (v.status == 200 or (v.status in {302, 303} and internal(v.location)))
    ]
    assert not bad


def test_started_games_carry_a_token(kiosk_crawl):
    games = [v for v in kiosk_crawl.pages() if v.method == "POST"]
    assert len(games) >= 6
    for visit in games:
        soup = BeautifulSoup(visit.html, "html.parser")
        assert soup.find("input", attrs={"name": "token"}), visit.url


# ----------------------------------------------------------------- no way out


def test_no_link_or_form_leaves_the_kiosk(kiosk_crawl):
    leaks = []
    for visit in kiosk_crawl.pages():
        soup = BeautifulSoup(visit.html, "html.parser")
        for element in soup.select("a[href], area[href]"):
            if not internal(element["href"]):
                leaks.append((visit.url, str(element)[:120]))
        for element in soup.select("form"):
            if not internal(element.get("action", "")):
                leaks.append((visit.url, str(element)[:120]))
        for element in soup.select("[formaction], [data-hx-get], [data-hx-post], [ping]"):
            for attr in ("formaction", "data-hx-get", "data-hx-post", "ping"):
                if element.get(attr) and not internal(element[attr]):
                    leaks.append((visit.url, str(element)[:120]))
        for element in soup.select("[target], [formtarget]"):  # no new window, no _blank
            leaks.append((visit.url, str(element)[:120]))
    assert not leaks


def test_external_addresses_become_text_and_qr(kiosk_crawl, normal_app):
    """Every off-site address of a normal-mode page is, in kiosk mode, text with a QR code."""
    normal = normal_app.test_client()
    checked = Counter()
    for visit in kiosk_crawl.pages():
        if visit.method != "GET" or visit.status != 200:
            continue
        page = BeautifulSoup(normal.get(visit.url).get_data(as_text=True), "html.parser")
        wanted = {a["href"] for a in page.select("a[href]") if not internal(a["href"])}
        wanted |= {s.get_text(strip=True) for s in page.select(".source__url")}
        if not wanted:
            continue
        kiosk = BeautifulSoup(visit.html, "html.parser")
        shown = {}
        for qr in kiosk.select(".offsite__qr"):
            svg = qr.find("svg")
            assert svg is not None and svg.get("role") == "img", str(qr)[:200]
            assert svg["aria-label"].startswith("QR code: scan to open"), svg["aria-label"]
            assert svg.get("width") and svg.get("height")
            shown[qr.select_one(".offsite__url").get_text()] = qr
        for url in wanted:
            address = url.removeprefix("mailto:").removeprefix("tel:")
            assert address in shown, (visit.url, url, sorted(shown))
            checked[url] += 1
    assert set(EXTRA_LINKS) <= set(checked), checked
    assert "https://www.pagat.com/fishing/snitchems.html" in checked


def test_body_links_keep_their_text_in_kiosk_mode(kiosk_app, normal_app):
    kiosk = BeautifulSoup(kiosk_app.test_client().get("/pages/about").data, "html.parser")
    normal = BeautifulSoup(normal_app.test_client().get("/pages/about").data, "html.parser")
    for url, name in EXTRA_LINKS.items():
        link = normal.find("a", href=url)
        assert link is not None and link.get_text() == name
        assert "noopener" in link["rel"], "normal mode keeps its links as they were"
        text = [t.get_text() for t in kiosk.select(".prose .offsite__text")]
        assert name in text
    assert not [a for a in kiosk.select(".prose a") if not internal(a.get("href", ""))]
    # the local link in the same body is still a link
    assert kiosk.select_one(".prose a[href='/notes/golliwog']")
