"""No way out of the kiosk: in kiosk mode a link that leaves becomes its text and a QR code, an
unsafe one text alone; inside an embed, root-relative links go under ``/embed`` (a page outside
it may not be framed). The ``offsite`` filter and ``offsite_url``; the QR is CSP-safe SVG.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser
from urllib.parse import unquote

import segno
from flask import Flask, request
from markupsafe import Markup

from kiosk.web.modes import is_embed, runs_as_kiosk

LEAVING_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
QR_PIXELS = 160  # the SVG's own width and height, so it has a scannable size before any CSS
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules

LOCAL, OFFSITE, UNSAFE = "local", "offsite", "unsafe"
URL_ATTRS = frozenset({"href", "src", "action", "formaction"})  # what mounted() rewrites

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_AROUND = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")  # C0 controls and space


def cleaned(url: str) -> str:
    """``url`` as a browser reads it: no tab or newline inside, no control or space around."""
    return _AROUND.sub("", _TAB_OR_NEWLINE.sub("", url))


def classify(url: str) -> str:
    """Local, offsite or unsafe, as a browser reads it: ``java<tab>script:`` is javascript:."""
    url = cleaned(url)
    found = _SCHEME.match(url)
    if found:
        return OFFSITE if found.group(1).lower() in LEAVING_SCHEMES else UNSAFE
    if url[:2].replace("\\", "/") == "//":
        return UNSAFE  # scheme-relative: another host, and no scheme to show a visitor
    return LOCAL


def mounted(url: str, mount: str) -> str:
    """A root-relative address of ours under ``mount``; any other address as it is."""
    path = cleaned(url)
    if not mount or not path.startswith("/") or classify(path) != LOCAL:
        return url
    if path.startswith(mount) and path[len(mount) : len(mount) + 1] in ("", "/", "?", "#"):
        return url
    return mount + path


def shown_address(url: str) -> str:
    """The address as a visitor reads it: an email address or phone number without its scheme."""
    url = cleaned(url)
    scheme, _, rest = url.partition(":")
    if scheme.lower() in {"mailto", "tel"} and rest:
        return unquote(rest.split("?", 1)[0])
    return url


def qr_svg(url: str) -> str:
    """The QR as inline SVG with no ``style``; "" for an address too long for any QR code."""
    try:
        code = segno.make(cleaned(url), error="m", micro=False)
    except segno.DataOverflowError:
        return ""
    svg = code.svg_inline(
        border=QR_BORDER,
        dark="#000",
        light="#fff",  # a light quiet zone keeps it scannable on a dark theme too
        omitsize=True,  # a viewBox only: width and height are ours, below
        svgclass="offsite__code",
        lineclass="offsite__modules",
    )
    return svg.replace(
        "<svg ",
        f'<svg width="{QR_PIXELS}" height="{QR_PIXELS}" shape-rendering="crispEdges" ',
        1,
    )


def qr_markup(url: str, name: str = "") -> str:
    """A QR code for ``url`` with its accessible name, a caption and the address in words."""
    label = f"QR code: scan to open {name or shown_address(url)} on your phone"
    svg = qr_svg(url).replace(
        "<svg ", f'<svg role="img" aria-label="{escape(label, quote=True)}" focusable="false" ', 1
    )
    caption = "Scan to open on your phone" if svg else "Too long for a QR code: note it down"
    return (
        f'<span class="offsite__qr">{svg}'
        f'<span class="offsite__caption">{caption}</span> '
        f'<span class="offsite__url">{escape(shown_address(url), quote=False)}</span></span>'
    )


def offsite_url(url: str, name: str = "") -> Markup:
    """One address (a source's ``url:``): as text, plus its QR code in kiosk mode."""
    if runs_as_kiosk() and classify(url) == OFFSITE:
        return Markup(f'<span class="offsite">{qr_markup(url, name)}</span>')
    return Markup(escape(url, quote=False))


class _Rewriter(HTMLParser):
    """Re-serialise sanitised HTML with no way out (kiosk) and its addresses under ``mount``."""

    def __init__(self, *, kiosk: bool = True, mount: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.kiosk = kiosk
        self.mount = mount
        self.out: list[str] = []
        self.closers: dict[str, list[tuple[str, str, list[str]]]] = {"a": [], "form": []}

    def _kind(self, url: str) -> str:
        """:func:`classify` in kiosk mode; outside it every link stays as it is."""
        return classify(url) if self.kiosk else LOCAL

    @staticmethod
    def _tag(tag: str, attrs: list[tuple[str, str | None]], close: str = ">") -> str:
        parts = [tag]
        for key, value in attrs:
            parts.append(key if value is None else f'{key}="{escape(value, quote=True)}"')
        return "<" + " ".join(parts) + close

    def _name_parts(self) -> list[str] | None:
        """The text of the innermost link being turned into text, to name its QR code."""
        for kind, _url, text in reversed(self.closers["a"]):
            if kind == OFFSITE:
                return text
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, ">")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, " />")
        if tag in self.closers:  # <a/> is no element: close what _start opened
            self.handle_endtag(tag)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], close: str) -> None:
        gone = {"target", "ping"} if self.kiosk else set()
        kept = [
            (k, mounted(v, self.mount) if k in URL_ATTRS and v is not None else v)
            for k, v in attrs
            if k not in gone
        ]
        if tag == "img":
            text = self._name_parts()
            alt = dict(attrs).get("alt")
            if text is not None and alt:
                text.append(alt)
        if tag == "a":
            href = dict(attrs).get("href")
            if href is None or self._kind(href) == LOCAL:
                self.closers["a"].append(("keep", "", []))
            elif self.closers["a"] or self._kind(href) == UNSAFE:
                self.closers["a"].append(("drop", "", []))  # text only; a link in a link too
                return
            else:
                self.closers["a"].append((OFFSITE, href, []))
                self.out.append('<span class="offsite"><span class="offsite__text">')
                return
        elif tag == "area":
            href = dict(attrs).get("href")
            if href is not None and self._kind(href) != LOCAL:
                return
        elif tag == "form":
            action = dict(attrs).get("action")
            if action is not None and self._kind(action) != LOCAL:
                self.closers["form"].append(("drop", "", []))
                return
            self.closers["form"].append(("keep", "", []))
        elif tag in {"button", "input"}:
            kept = [(k, v) for k, v in kept if k != "formaction" or self._kind(v or "") == LOCAL]
        self.out.append(self._tag(tag, kept, close))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.closers:
            if not self.closers[tag]:
                return  # a stray end tag
            kind, url, text = self.closers[tag].pop()
            if kind == "drop":
                return
            if kind == OFFSITE:
                name = " ".join(" ".join(text).split())
                self.out.append("</span> " + qr_markup(url, name) + "</span>")
                return
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        text = self._name_parts()
        if text is not None:
            text.append(data)
        if self.cdata_elem:  # raw text of <script>/<style>: never escaped
            self.out.append(data)
        else:
            self.out.append(escape(data, quote=False))

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:
        self.out.append(f"<![{data}]>")

    def result(self) -> str:
        """The rewritten HTML, with any link or form left open closed properly."""
        self.close()
        for tag in ("a", "form"):
            while self.closers[tag]:
                self.handle_endtag(tag)
        return "".join(self.out)


def rewrite(html: str, *, kiosk: bool = True, mount: str = "") -> str:
    """``html`` with no way out (``kiosk``) and its root-relative addresses under ``mount``."""
    parser = _Rewriter(kiosk=kiosk, mount=mount)
    parser.feed(html)
    return parser.result()


def offsite_filter(html: str | None) -> Markup:
    """Rendered HTML rewritten in kiosk mode or inside an embed, else as it is."""
    html = "" if html is None else str(html)
    kiosk, mount = runs_as_kiosk(), request.script_root if is_embed() else ""
    return Markup(rewrite(html, kiosk=kiosk, mount=mount) if kiosk or mount else html)


def init_app(app: Flask) -> None:
    """Register the ``offsite`` filter and the ``offsite_url`` helper for templates."""
    app.add_template_filter(offsite_filter, "offsite")
    app.add_template_global(offsite_url, "offsite_url")
