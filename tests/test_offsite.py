"""Off-site links in kiosk mode: text and a QR code, never a way out; untouched otherwise."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest
import segno
from bs4 import BeautifulSoup
from markupsafe import Markup

from kiosk import create_app
from kiosk.catalogue.render import render_audited
from kiosk.web import content, offsite
from kiosk.web.modes import EMBED_KEY


@pytest.fixture
def kiosk_app():
    return create_app({"TESTING": True, "SECRET_KEY": "offsite-test", "KIOSK_MODE": True})


@pytest.fixture
def normal_app():
    return create_app({"TESTING": True, "SECRET_KEY": "offsite-test", "KIOSK_MODE": False})


def soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


# ----------------------------------------------------------------- classify


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("/notes/golliwog", offsite.LOCAL),
        ("notes/golliwog", offsite.LOCAL),
        ("#cards", offsite.LOCAL),
        ("?view=road-up", offsite.LOCAL),
        ("", offsite.LOCAL),
        ("https://www.pagat.com/fishing/snitchems.html", offsite.OFFSITE),
        ("HTTP://EXAMPLE.ORG", offsite.OFFSITE),
        ("  http://example.org  ", offsite.OFFSITE),
        ("mailto:visits@example.org", offsite.OFFSITE),
        ("tel:+441632960000", offsite.OFFSITE),
        ("javascript:alert(1)", offsite.UNSAFE),
        ("JavaScript:alert(1)", offsite.UNSAFE),
        ("java\tscript:alert(1)", offsite.UNSAFE),
        ("\x01javascript:alert(1)", offsite.UNSAFE),
        ("data:text/html,<b>hi</b>", offsite.UNSAFE),
        ("vbscript:msgbox", offsite.UNSAFE),
        ("file:///etc/passwd", offsite.UNSAFE),
        ("//evil.example/", offsite.UNSAFE),
        ("/\\evil.example/", offsite.UNSAFE),
        ("\\\\evil.example/", offsite.UNSAFE),
    ],
)
def test_classify(url, kind):
    assert offsite.classify(url) == kind


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://example.org/a?b=1", "https://example.org/a?b=1"),
        ("mailto:visits@example.org", "visits@example.org"),
        ("mailto:visits@example.org?subject=Hello", "visits@example.org"),
        ("tel:+44%201632%20960000", "+44 1632 960000"),
    ],
)
def test_shown_address(url, shown):
    assert offsite.shown_address(url) == shown


# ----------------------------------------------------------------- the QR code


def modules_of(svg: str) -> set[tuple[int, int]]:
    """The dark modules drawn by segno's path (``M``/``m`` moves, ``h`` runs of one row)."""
    path = re.search(r'class="offsite__modules"[^>]* d="([^"]+)"', svg)
    assert path, svg[:300]
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, args in re.findall(r"([MmHh])([^MmHh]*)", path.group(1)):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif command == "h":
            dark.update((int(y), int(x) + i) for i in range(int(numbers[0])))
            x += numbers[0]
        else:
            raise AssertionError(f"unexpected path command {command}")
    return dark


@pytest.mark.parametrize(
    "url",
    [
        "https://www.pagat.com/fishing/snitchems.html",
        'https://example.org/?a=1&b="two"&c=<3>',
        "mailto:visits@example.org",
    ],
)
def test_qr_encodes_exactly_the_url(url):
    """The drawn modules are segno's matrix for the URL itself (not an HTML-escaped copy)."""
    svg = offsite.qr_svg(url)
    expected = {
        (row, col)
        for row, line in enumerate(segno.make(url, error="m", micro=False).matrix_iter(border=4))
        for col, bit in enumerate(line)
        if bit
    }
    assert modules_of(svg) == expected
    escaped = segno.make(url.replace("&", "&amp;"), error="m", micro=False)
    if "&" in url:
        assert modules_of(svg) != {
            (r, c)
            for r, line in enumerate(escaped.matrix_iter(border=4))
            for c, bit in enumerate(line)
            if bit
        }


def test_qr_svg_is_well_formed_sized_and_has_no_style():
    url = "https://www.vam.ac.uk/collections?type=games&q=snap"
    svg = offsite.qr_svg(url)
    root = ET.fromstring(svg)
    assert root.tag == "svg"
    assert root.get("width") == root.get("height") == str(offsite.QR_PIXELS)
    assert root.get("viewBox")
    assert "style" not in svg.lower(), "the CSP forbids style attributes"
    assert "data:" not in svg and "<script" not in svg


def test_qr_svg_is_deterministic():
    url = "https://catsatcards.com/Games/Snitchems.html"
    assert offsite.qr_svg(url) == offsite.qr_svg(url)


def test_an_address_too_long_for_a_qr_code_is_still_shown_in_words():
    url = "https://example.org/" + "x" * 4000
    assert offsite.qr_svg(url) == ""
    page = soup(offsite.rewrite(f'<p><a href="{url}">long</a></p>'))
    assert page.find("a") is None and page.find("svg") is None
    assert page.select_one(".offsite__url").get_text() == url
    assert "note it down" in page.select_one(".offsite__caption").get_text()


def test_qr_markup_names_and_prints_the_address():
    html = offsite.qr_markup('https://example.org/?q="snap"&x=1', 'The "Snap" page')
    page = soup(html)
    svg = page.find("svg")
    assert svg["role"] == "img"
    assert svg["aria-label"] == 'QR code: scan to open The "Snap" page on your phone'
    assert page.select_one(".offsite__url").get_text() == 'https://example.org/?q="snap"&x=1'
    assert page.select_one(".offsite__caption").get_text() == "Scan to open on your phone"
    assert "&amp;x=1" in html and 'q="snap"' not in html.split("<svg", 1)[0]
    assert '"Snap" page on' not in html, "quotes inside the attribute are escaped"


# ----------------------------------------------------------------- rewriting HTML


@pytest.mark.parametrize(
    "html",
    [
        '<p>Read <a href="javascript:alert(1)">this</a> now.</p>',
        '<p>Read <a href="JAVASCRIPT:alert(1)">this</a> now.</p>',
        '<p>Read <a href="java&#9;script:alert(1)">this</a> now.</p>',
        '<p>Read <a href="data:text/html;base64,PGI+">this</a> now.</p>',
        '<p>Read <a href="//evil.example/">this</a> now.</p>',
    ],
)
def test_unsafe_links_become_plain_text(html):
    out = offsite.rewrite(html)
    assert out == "<p>Read this now.</p>"


@pytest.mark.parametrize(
    "html",
    [
        '<p>See <a href="/notes/golliwog" rel="noopener noreferrer">our note</a>.</p>',
        '<p><a href="#cards">Cards</a> and <a href="sets/">sets</a> &amp; more &lt;3</p>',
        '<ul><li><a href="/sets/?a=1&amp;b=2" title="A &quot;quote&quot;">x</a></li></ul>',
        '<p>No links at all, an <abbr title="about">abbr</abbr> and a<br>break.</p>',
    ],
)
def test_relative_links_are_untouched(html):
    assert offsite.rewrite(html) == html


def test_every_rendered_body_without_offsite_links_survives_unchanged(normal_app):
    """Re-serialising the sanitised HTML is faithful: the real content comes back byte-exact."""
    with normal_app.app_context():
        snapshot = content.current()
        bodies = [
            entry.html
            for kind in (snapshot.sets, snapshot.games, snapshot.notes, snapshot.pages)
            for entry in kind.values()
            if entry.html
        ]
    assert len(bodies) >= 5
    for body in bodies:
        assert offsite.rewrite(body) == body


def test_offsite_link_becomes_text_and_qr():
    body = render_audited(
        """Look at [the "Snap" rules & more](https://example.org/snap?a=1&b="x"&c) today."""
    )[0]
    assert "<a " in body and 'rel="noopener noreferrer"' in body
    out = offsite.rewrite(body)
    page = soup(out)
    assert page.find("a") is None
    assert page.select_one(".offsite__text").get_text() == "the \u201cSnap\u201d rules & more"
    assert page.select_one(".offsite__url").get_text() == 'https://example.org/snap?a=1&b="x"&c'
    label = page.find("svg")["aria-label"]
    assert label == "QR code: scan to open the \u201cSnap\u201d rules & more on your phone"
    assert page.get_text().startswith("Look at the \u201cSnap\u201d rules & more")
    assert page.get_text().rstrip().endswith("today.")
    # the URL's ampersands are escaped in the markup: no bare "&b" for a browser to misread
    assert '?a=1&amp;b="x"&amp;c</span>' in out and "&b" not in out and "&c" not in out
    assert modules_of(out) == modules_of(offsite.qr_svg('https://example.org/snap?a=1&b="x"&c'))


@pytest.mark.parametrize(
    ("href", "shown"),
    [
        ("mailto:visits@example.org", "visits@example.org"),
        ("tel:+441632960000", "+441632960000"),
        ("https://example.org/", "https://example.org/"),
    ],
)
def test_every_kind_of_leaving_is_caught(href, shown):
    out = offsite.rewrite(f'<p>Contact <a href="{href}">us</a>.</p>')
    page = soup(out)
    assert page.find("a") is None
    assert page.select_one(".offsite__url").get_text() == shown
    assert page.find("svg")["aria-label"] == "QR code: scan to open us on your phone"


def test_image_link_is_named_by_its_alt_text():
    out = offsite.rewrite(
        '<p><a href="https://example.org/"><img src="/media/images/a.jpg" '
        'alt="The box lid"></a></p>'
    )
    page = soup(out)
    assert page.find("img")["alt"] == "The box lid"
    assert page.find("svg")["aria-label"] == "QR code: scan to open The box lid on your phone"


def test_empty_link_is_named_by_its_address():
    out = offsite.rewrite('<p><a href="https://example.org/x"></a></p>')
    label = soup(out).find("svg")["aria-label"]
    assert label == "QR code: scan to open https://example.org/x on your phone"


def test_targets_forms_areas_and_formactions_lose_their_way_out():
    html = (
        '<a href="/sets/" target="_blank" ping="https://t.example/">Sets</a>'
        '<form action="https://evil.example/post" method="post"><input name="q"></form>'
        '<form action="/sets/" method="get"><button formaction="https://evil.example/">Go'
        '</button><button formaction="/games/">Games</button></form>'
        '<map name="m"><area href="https://evil.example/" alt="x"><area href="/notes/" alt="y">'
        "</map>"
    )
    out = offsite.rewrite(html)
    page = soup(out)
    assert "target" not in out and "ping" not in out and "evil.example" not in out
    assert page.find("a")["href"] == "/sets/"
    assert [f.get("action") for f in page.find_all("form")] == ["/sets/"]
    assert page.find("input", attrs={"name": "q"}), "the contents of a dropped form stay"
    assert [b.get("formaction") for b in page.find_all("button")] == [None, "/games/"]
    assert [a["href"] for a in page.find_all("area")] == ["/notes/"]


def test_nested_and_unclosed_links_still_close_properly():
    out = offsite.rewrite('<p><a href="https://a.example/">one <a href="https://b.example/">two')
    page = soup(out)
    assert page.find("a") is None
    assert out.count('class="offsite"') == 1
    assert out.count("<span") == out.count("</span>")
    assert "b.example" not in out
    assert page.get_text().startswith("one two")


def test_stray_end_tags_are_dropped():
    assert offsite.rewrite("<p>text</a></form></p>") == "<p>text</p>"


# ----------------------------------------------------------------- the filter and the helper


def test_filter_leaves_normal_mode_alone(normal_app):
    html = '<p><a href="https://example.org/" rel="noopener noreferrer">x</a></p>'
    with normal_app.app_context():
        out = offsite.offsite_filter(html)
    assert isinstance(out, Markup) and str(out) == html


def test_filter_rewrites_in_kiosk_mode(kiosk_app):
    html = '<p><a href="https://example.org/" rel="noopener noreferrer">x</a></p>'
    with kiosk_app.app_context():
        out = offsite.offsite_filter(html)
        assert offsite.offsite_filter(None) == ""
    assert isinstance(out, Markup) and "<a" not in out and "offsite__qr" in out


# ----------------------------------------------------------------- inside an embed


def embedded(app, mount: str = "/embed"):
    """A request context as the embed middleware leaves it: mounted at ``mount``, marked."""
    return app.test_request_context(
        "/pages/about", base_url=f"http://localhost{mount}", environ_overrides={EMBED_KEY: True}
    )


@pytest.mark.parametrize(
    ("url", "out"),
    [
        ("/notes/golliwog", "/embed/notes/golliwog"),
        ("/notes/golliwog?a=1#top", "/embed/notes/golliwog?a=1#top"),
        ("/", "/embed/"),
        ("  /sets/\n", "/embed/sets/"),  # as a browser reads it
        ("/media/images/box.png", "/embed/media/images/box.png"),  # served there too
        ("/static/css/kiosk.css", "/embed/static/css/kiosk.css"),
        ("/embedded", "/embed/embedded"),  # not the embed, only a name like it
        ("/embed", "/embed"),
        ("/embed/notes/golliwog", "/embed/notes/golliwog"),
        ("/embed?x=1", "/embed?x=1"),
        ("/embed#main", "/embed#main"),
        ("notes/golliwog", "notes/golliwog"),
        ("#cards", "#cards"),
        ("?view=road-up", "?view=road-up"),
        ("", ""),
        ("//evil.example/", "//evil.example/"),
        ("/\\evil.example/", "/\\evil.example/"),
        ("https://example.org/notes", "https://example.org/notes"),
        ("mailto:visits@example.org", "mailto:visits@example.org"),
    ],
)
def test_mounted(url, out):
    assert offsite.mounted(url, "/embed") == out
    assert offsite.mounted(url, "") == url


CONTENT = (
    '<p>Our <a href="/notes/golliwog" rel="noopener noreferrer">note</a>, '
    '<a href="/embed/sets/">sets</a>, <a href="#cards">cards</a>, <a href="games/">games</a>, '
    '<a href="//evil.example/">far</a>, <a href="https://example.org/a?b=1&amp;c=2">out</a>.</p>'
    '<figure><img src="/media/images/box.png" alt="The box"></figure>'
)
MOUNTED = (
    '<p>Our <a href="/embed/notes/golliwog" rel="noopener noreferrer">note</a>, '
    '<a href="/embed/sets/">sets</a>, <a href="#cards">cards</a>, <a href="games/">games</a>, '
    '<a href="//evil.example/">far</a>, <a href="https://example.org/a?b=1&amp;c=2">out</a>.</p>'
    '<figure><img src="/embed/media/images/box.png" alt="The box"></figure>'
)


def test_filter_mounts_root_relative_links_in_an_embed(normal_app):
    """Only the same-site root-relative addresses change; nothing else does."""
    with embedded(normal_app):
        assert str(offsite.offsite_filter(CONTENT)) == MOUNTED
    with embedded(normal_app, "/kiosk/embed"):  # request.script_root, whatever it is
        out = str(offsite.offsite_filter(CONTENT))
    assert 'href="/kiosk/embed/notes/golliwog"' in out
    assert 'src="/kiosk/embed/media/images/box.png"' in out


def test_filter_leaves_links_alone_outside_an_embed(normal_app):
    with normal_app.test_request_context("/pages/about"):
        assert str(offsite.offsite_filter(CONTENT)) == CONTENT
    with normal_app.test_request_context("/pages/about", base_url="http://localhost/kiosk"):
        assert str(offsite.offsite_filter(CONTENT)) == CONTENT, "a mount is not an embed"


def test_filter_in_kiosk_mode_inside_an_embed_does_both(kiosk_app):
    with embedded(kiosk_app):
        page = soup(str(offsite.offsite_filter(CONTENT)))
    assert [a["href"] for a in page.find_all("a")] == [
        "/embed/notes/golliwog",
        "/embed/sets/",
        "#cards",
        "games/",
    ]
    assert page.select_one(".offsite__url").get_text() == "https://example.org/a?b=1&c=2"
    assert page.find("img")["src"] == "/embed/media/images/box.png"


def test_every_rendered_body_is_only_mounted_in_an_embed(normal_app):
    """The real content inside an embed: its root-relative links, and nothing else, change."""
    with normal_app.app_context():
        snapshot = content.current()
        bodies = {
            entry.record.key: entry.html
            for kind in (snapshot.sets, snapshot.games, snapshot.notes, snapshot.pages)
            for entry in kind.values()
            if entry.html
        }
    assert any('href="/notes/golliwog"' in body for body in bodies.values())
    with embedded(normal_app):
        for body in bodies.values():
            expected = re.sub(r'((?:href|src)=")/(?![/\\]|embed(?=[/?#"]))', r"\1/embed/", body)
            assert str(offsite.offsite_filter(body)) == expected
        about = str(offsite.offsite_filter(bodies["about"]))
    assert 'href="/embed/notes/golliwog"' in about and 'href="/notes/' not in about


def test_filter_is_registered_for_templates(kiosk_app):
    with kiosk_app.app_context():
        template = kiosk_app.jinja_env.from_string(
            "{{ html|offsite }}|{{ offsite_url(url, 'Pagat') }}"
        )
        out = template.render(
            html='<a href="mailto:a@b.example">mail</a>', url="https://p.example/"
        )
    assert out.count("offsite__qr") == 2 and "<a" not in out


@pytest.mark.parametrize(
    ("url", "kiosk", "qr"),
    [
        ("https://example.org/?a=1&b=2", True, True),
        ("https://example.org/?a=1&b=2", False, False),
        ("javascript:alert(1)", True, False),
        ("/sets/", True, False),
    ],
)
def test_offsite_url(kiosk_app, normal_app, url, kiosk, qr):
    app = kiosk_app if kiosk else normal_app
    with app.app_context():
        out = offsite.offsite_url(url, "A source")
    assert isinstance(out, Markup)
    assert ("offsite__qr" in out) is qr
    assert "<a" not in out
    text = html.unescape(re.sub(r"<[^>]*>", "", str(out)))
    assert text.endswith(url)
    assert "&b=" not in out, "the ampersand is escaped"


def test_offsite_url_outside_an_app_is_text():
    assert offsite.offsite_url("https://example.org/<x>") == "https://example.org/&lt;x&gt;"
