"""Stage 3, render: the markdown body → HTML, then sanitised with nh3.

Markdown passes raw HTML straight through, so the sanitiser is what stands between a
pasted snippet and the page: no ``<script>``, no ``on*=`` handler, no ``javascript:`` URL.
Images may only come from the content folder's ``images/`` and are served under
``MEDIA_PREFIX`` (see ``kiosk.web.content``).
"""

from __future__ import annotations

import threading
from posixpath import normpath
from urllib.parse import urlsplit

import markdown
import nh3

MEDIA_PREFIX = "/media/"

EXTENSIONS = ["tables", "smarty", "abbr", "sane_lists"]

TAGS = {
    "h2", "h3", "h4", "h5", "h6", "p", "br", "hr",
    "ul", "ol", "li", "dl", "dt", "dd",
    "em", "strong", "b", "i", "small", "sub", "sup", "s", "code", "pre",
    "a", "blockquote", "q", "cite", "abbr", "figure", "figcaption", "img",
    "table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption",
}
# h1 is the page's own title; a body's "# heading" is kept as text of an h2 (see _demote).
ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "blockquote": {"cite"},
    "q": {"cite"},
    "img": {"src", "alt", "title"},
    "th": {"scope", "colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
    "ol": {"start"},
}
URL_SCHEMES = {"http", "https", "mailto"}
CLEAN_CONTENT = {"script", "style"}


def media_url(src: str, prefix: str = MEDIA_PREFIX) -> str | None:
    """``images/box.jpg`` → ``/media/images/box.jpg``; None unless inside ``images/``."""
    if not src or urlsplit(src).scheme or src.startswith(("/", "\\")) or "\\" in src:
        return None
    clean = normpath(src)
    if clean.startswith("..") or not clean.startswith("images/"):
        return None
    return prefix + clean


def _link_ok(value: str) -> bool:
    parts = urlsplit(value.strip())
    if parts.scheme:
        return parts.scheme.lower() in URL_SCHEMES
    return not value.strip().startswith("//")  # no scheme-relative links to other hosts


def _make_filter(prefix: str):
    def attribute_filter(tag: str, attr: str, value: str) -> str | None:
        if tag == "img" and attr == "src":
            return media_url(value, prefix)
        if attr in {"href", "cite"}:
            return value if _link_ok(value) else None
        return value

    return attribute_filter


def _demote(html: str) -> str:
    """A body's ``<h1>`` becomes ``<h2>``: the page title is the only h1 (WCAG heading order)."""
    return html.replace("<h1", "<h2").replace("</h1>", "</h2>")


def sanitise(html: str, prefix: str = MEDIA_PREFIX) -> str:
    """Keep a safe subset of HTML: allowed tags, attributes and URL schemes only."""
    return nh3.clean(
        _demote(html),
        tags=TAGS,
        clean_content_tags=CLEAN_CONTENT,
        attributes=ATTRIBUTES,
        attribute_filter=_make_filter(prefix),
        url_schemes=URL_SCHEMES,
        strip_comments=True,
        link_rel="noopener noreferrer",
    )


_local = threading.local()


def _converter() -> markdown.Markdown:
    """One Markdown instance per thread (building one loads every extension; it is not shared)."""
    md = getattr(_local, "md", None)
    if md is None:
        md = _local.md = markdown.Markdown(extensions=EXTENSIONS, output_format="html")
    return md


def render_markdown(text: str, prefix: str = MEDIA_PREFIX) -> str:
    """Markdown → safe HTML, the way every body in the catalogue is shown."""
    md = _converter()
    try:
        html = md.convert(text)
    finally:
        md.reset()
    return sanitise(html, prefix)
