"""oEmbed 1.0 provider: a ``rich`` item framing one of our own existing pages' ``/embed/``
address (the host must be the request's, checked by TRUSTED_HOSTS); JSON only (XML is 501).
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, request, url_for
from markupsafe import escape

from kiosk.web.embed import PREFIX
from kiosk.web.security import REVEAL_ARG

bp = Blueprint("oembed", __name__)

DEFAULT_WIDTH = 800
DEFAULT_HEIGHT = 600
PROVIDER = "Snap & Happy Families museum kiosk"
SUFFIX = " · Snap & Happy Families"
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
DIMENSION = re.compile(r"[0-9]{1,6}")
FALLBACK_CLASS = "kiosk-embed-fallback"  # embed.js hides it once the frame has spoken
WHAT = "a page of the Snap & Happy Families museum kiosk, to look at or play in your browser"


def _dimension(name: str, default: int) -> int:
    """``maxwidth``/``maxheight``: a positive whole number, or 400."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    if not DIMENSION.fullmatch(raw) or int(raw) <= 0:  # ASCII digits: "¹".isdigit() is True
        abort(400)
    return min(default, int(raw))


def frames_elsewhere(policy: str) -> bool:
    """Whether a CSP lets some other site frame the page (a frame elsewhere would be blank)."""
    for directive in policy.split(";"):
        name, _, sources = directive.strip().partition(" ")
        if name.lower() == "frame-ancestors":
            return any(s.lower() not in ("'self'", "'none'") for s in sources.split())
    return True


def _page_path(url: str) -> tuple[str, str]:
    """A URL's path without ``/embed`` and its query (``?...`` or "") without ``view``."""
    parts = urlsplit(url)
    path = parts.path or "/"
    if path == PREFIX or path.startswith(PREFIX + "/"):
        path = path[len(PREFIX) :] or "/"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != REVEAL_ARG])
    return path, f"?{query}" if query else ""


def page_title(url: str) -> str | None:
    """Our page's title, or None if it is not ours or no other site may frame it."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != request.host.lower():
        return None
    path, query = _page_path(url)
    if not path.startswith("/") or path.startswith("//") or path.startswith("/oembed"):
        return None
    target = PREFIX + path + query
    with current_app.test_client().get(target, base_url=request.host_url) as response:
        if response.status_code != 200 or response.mimetype != "text/html":
            return None
        if not frames_elsewhere(response.headers.get("Content-Security-Policy", "")):
            return None
        body = response.get_data(as_text=True)
    found = TITLE.search(body)
    title = html.unescape(found.group(1)).strip() if found else PROVIDER
    return title.removesuffix(SUFFIX) or PROVIDER


def embed_src(url: str, embedded: bool = True) -> str:
    """The absolute ``/embed/`` address for one of our pages, never one revealing a card."""
    path, query = _page_path(url)
    return request.host_url.rstrip("/") + (PREFIX if embedded else "") + path + query


def fallback(url: str, title: str) -> str:
    """What a host shows where the frame cannot be: what the embed is, linked to the page."""
    return (
        f'<blockquote class="{FALLBACK_CLASS}"><a href="{escape(embed_src(url, False))}">'
        f"{escape(title)}</a>:"
        f" {escape(WHAT)}</blockquote>"
    )


def host_script() -> str:
    """embed.js as teachers paste it: without the version, which would go stale."""
    return url_for("static", filename="js/embed.js", _external=True).partition("?")[0]


@bp.get("/oembed")
def oembed() -> Response:
    """The oEmbed answer for ``url`` (400 without one, 404 if not ours, 501 for XML)."""
    url = request.args.get("url", "").strip()
    if not url:
        abort(400)
    # "format=" is no format: JSON; the value is read case-insensitively ("JSON" is JSON)
    if (request.args.get("format") or "json").strip().lower() != "json":
        abort(501)
    width = _dimension("maxwidth", DEFAULT_WIDTH)
    height = _dimension("maxheight", DEFAULT_HEIGHT)
    title = page_title(url)
    if title is None:
        abort(404)
    frame = (
        fallback(url, title)
        + f'<iframe src="{escape(embed_src(url))}" width="{width}" height="{height}" '
        f'title="{escape(title)}" loading="lazy"></iframe>'
        + f'<script src="{escape(host_script())}" defer></script>'
    )
    body: dict[str, Any] = {
        "version": "1.0",
        "type": "rich",
        "title": title,
        "provider_name": PROVIDER,
        "provider_url": url_for("pages.home", _external=True),
        "html": frame,
        "width": width,
        "height": height,
    }
    response = jsonify(body)
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def discovery_href() -> str | None:
    """The oEmbed discovery URL, absolute: WordPress fetches the ``href`` unresolved."""
    if request.method != "GET" or request.url_rule is None:
        return None
    if request.endpoint in (None, "static", "oembed.oembed"):
        return None
    root = request.host_url.rstrip("/")
    page = root + request.full_path.rstrip("?")
    return root + "/oembed?" + urlencode({"url": page, "format": "json"})


def init_app(app: Flask) -> None:
    """Register ``/oembed`` and the ``oembed_href`` template global."""
    app.register_blueprint(bp)
    app.add_template_global(discovery_href, "oembed_href")
