"""Stage 3, render: markdown → HTML sanitised by nh3 (no script, handler or javascript: URL),
with an ``Audit`` of what it removed for the curator (``lint``); content files render through
``render_bounded``: nesting checked, then a child process capped in time and memory.
"""

from __future__ import annotations

import atexit
import json
import re
import select
import subprocess
import sys
import threading
from dataclasses import dataclass
from html.parser import HTMLParser
from posixpath import normpath
from typing import Any
from urllib.parse import urlsplit

import markdown
import nh3

from kiosk.catalogue.citations import mark

MEDIA_PREFIX = "/media/"

EXTENSIONS = ["tables", "smarty", "abbr", "sane_lists", "fenced_code"]  # ``` is code

TAGS = {
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "em",
    "strong",
    "b",
    "i",
    "small",
    "sub",
    "sup",
    "s",
    "code",
    "pre",
    "a",
    "blockquote",
    "q",
    "cite",
    "abbr",
    "figure",
    "figcaption",
    "img",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
}
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
GENERIC_ATTRIBUTES = {"lang", "title"}  # nh3 (ammonia) keeps these on every allowed tag
URL_SCHEMES = {"http", "https", "mailto"}
CLEAN_CONTENT = {"script", "style"}


def media_url(src: str) -> str | None:
    """``images/box.jpg`` → ``/media/images/box.jpg``; None unless inside ``images/``."""
    if not src or urlsplit(src).scheme or src.startswith(("/", "\\")) or "\\" in src:
        return None
    clean = normpath(src)
    if clean.startswith("..") or not clean.startswith("images/"):
        return None
    return MEDIA_PREFIX + clean


# Browsers drop tabs, newlines and controls in URLs and read "\\" as "/": such a link is dropped
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_AROUND = re.compile(r"^[\x00-\x20]+|[\x00-\x20]+$")
_NEVER = re.compile(r"[\\\x00-\x1f\x7f]")


def _link_ok(value: str) -> bool:
    """A link stays only if a browser would read it as ours or as an allowed scheme."""
    url = _AROUND.sub("", _TAB_OR_NEWLINE.sub("", value))
    if _NEVER.search(url):
        return False
    parts = urlsplit(url)
    if parts.scheme:
        return parts.scheme.lower() in URL_SCHEMES
    return not url.startswith("//")  # no scheme-relative links to other hosts


def _attribute_filter(tag: str, attr: str, value: str) -> str | None:
    """Pictures only from images/, links only where ``_link_ok`` allows."""
    if tag == "img" and attr == "src":
        return media_url(value)
    if attr in {"href", "cite"}:
        return value if _link_ok(value) else None
    return value


def sanitise(html: str) -> str:
    """Keep a safe subset of HTML; a body's h1 becomes h2, as the page title is the only h1."""
    return nh3.clean(
        html.replace("<h1", "<h2").replace("</h1>", "</h2>"),
        tags=TAGS,
        clean_content_tags=CLEAN_CONTENT,
        attributes=ATTRIBUTES,
        attribute_filter=_attribute_filter,
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


def render_audited(text: str) -> tuple[str, Audit]:
    """Safe HTML and what the sanitiser removed; citations stay as tokens for the page's notes."""
    md = _converter()
    try:
        html = md.convert(mark(text))
    finally:
        md.reset()
    return sanitise(html), removed_by_sanitiser(html)


AUDITED = 100  # elements kept in an audit (the curator is told of the first 20, then a count)
AUDITED_CHARS = 1_000  # of a start tag or a value kept in an audit (enough to find it again)

# One element changed: its start tag, tag name, whether it goes, the (attribute, value)s that go
Removal = tuple[str, str, bool, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Audit:
    """What the sanitiser removed from one body: the first ``AUDITED`` elements, then a count."""

    removed: tuple[Removal, ...] = ()
    more: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"removed": self.removed, "more": self.more}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Audit:
        """The audit back from the worker's JSON, its lists tuples again (an Audit is compared)."""
        removed = data["removed"]
        return cls(tuple((s, t, g, tuple(map(tuple, a))) for s, t, g, a in removed), data["more"])


# Python-Markdown's own alignment styles and fence classes: never HTML the curator wrote
_ALIGNMENT = re.compile(r"text-align:\s*(left|right|center);?")
_LANGUAGE = re.compile(r"language-[\w+-]+")


class _Auditor(HTMLParser):
    """Every start tag of the HTML, held against what ``sanitise`` keeps (its allow-lists)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.removed: list[Removal] = []
        self.more = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kept = tag in TAGS or tag == "h1"  # h1 is demoted to h2, not removed
        allowed = ATTRIBUTES.get("h2" if tag == "h1" else tag, set()) | GENERIC_ATTRIBUTES
        gone = []
        for name, value in attrs:
            value = value or ""
            if tag in {"th", "td"} and name == "style" and _ALIGNMENT.fullmatch(value.strip()):
                continue
            if tag == "code" and name == "class" and _LANGUAGE.fullmatch(value):
                continue
            if (
                name not in allowed
                or (tag == "img" and name == "src" and media_url(value) is None)
                or (name in {"href", "cite"} and not _link_ok(value))
            ):
                gone.append((name, value[:AUDITED_CHARS]))
        if kept and not gone:
            return
        if len(self.removed) >= AUDITED:
            self.more += 1
            return
        start = (self.get_starttag_text() or f"<{tag}")[:AUDITED_CHARS]
        self.removed.append((start, tag, not kept, tuple(gone)))

    handle_startendtag = handle_starttag

    def parse_marked_section(self, i: int, report: int = 1) -> int:
        """``<![x …`` is a bogus comment to browsers and nh3; Python 3.11's parser raises on it."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            return self.parse_bogus_comment(i)


def removed_by_sanitiser(html: str) -> Audit:
    """Each element of ``html`` that ``sanitise`` drops, or drops an attribute or link of."""
    audit = _Auditor()
    audit.feed(html)
    audit.close()
    return Audit(tuple(audit.removed), audit.more)


MAX_NESTING = 16  # brackets inside brackets, quotes inside quotes: real text uses two or three
MAX_INDENT = 64  # columns of indentation (a list nested 16 deep)
RENDER_SECONDS = 2.0  # one file's body; real ones take a few milliseconds
WORKER_START_SECONDS = 60.0  # a fresh worker imports the renderer before its first job
WORKER_IDLE_SECONDS = 30.0  # an unused worker is stopped (it holds its own copy of Python)
WORKER_MEMORY_BYTES = 1024 * 1024 * 1024  # address space of the worker process


class RenderProblem(Exception):
    """A body the kiosk will not render: ``line`` counts from the body's first line (1)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


_NESTERS = re.compile(r"[\[\]\n]")
_LINE_START = re.compile(r"^([ \t]*)((?:>[ \t]*)*)", re.M)


def check_nesting(text: str) -> None:
    """RenderProblem for nesting deeper than any real text: it makes Python-Markdown recurse."""
    depth, line = 0, 1
    for found in _NESTERS.finditer(text):
        char = found.group()
        if char == "\n":
            line += 1
        elif char == "[":
            depth += 1
            if depth > MAX_NESTING:
                raise RenderProblem(line, f"'[' nested more than {MAX_NESTING} deep")
        else:
            depth = max(0, depth - 1)
    for n, found in enumerate(_LINE_START.finditer(text), start=1):
        indent, quotes = found.group(1).expandtabs(4), found.group(2)
        if len(indent) > MAX_INDENT:
            raise RenderProblem(n, f"indented more than {MAX_INDENT} columns")
        if quotes.count(">") > MAX_NESTING:
            raise RenderProblem(n, f"'>' quotes nested more than {MAX_NESTING} deep")


class _Worker:
    """The ``render_worker`` child, one body at a time: replaced on an overrun, stopped idle."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._idle: threading.Timer | None = None

    def render(self, text: str) -> tuple[str, Audit]:
        """``render_audited`` in the child; RenderProblem if it takes over ``RENDER_SECONDS``."""
        with self._lock:
            if self._idle is not None:
                self._idle.cancel()
            try:
                proc = self._started()
                answer = self._ask(proc, text, RENDER_SECONDS)
            except (OSError, ValueError) as exc:  # no child, or its pipes broke
                self._stop()
                raise RenderProblem(1, f"could not be rendered ({type(exc).__name__})") from None
            finally:
                self._idle = threading.Timer(WORKER_IDLE_SECONDS, self.stop)
                self._idle.daemon = True
                self._idle.start()
        if answer is None:
            raise RenderProblem(
                1,
                f"took more than {RENDER_SECONDS:g} s to render: look for a long run of"
                " brackets, parentheses or '<' and break it up",
            )
        if "error" in answer:
            raise RenderProblem(1, f"could not be rendered ({answer['error']})")
        return answer["html"], Audit.from_json(answer)

    def _ask(self, proc: subprocess.Popen[bytes], job: str, seconds: float) -> dict | None:
        """Send one job and wait for its answer; None (and the child stopped) on a timeout."""
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(job).encode() + b"\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], seconds)
        line = proc.stdout.readline() if ready else b""
        if not line:  # overran, or died (out of memory, killed)
            self._stop()
            return None
        return json.loads(line)

    def _started(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.catalogue.render_worker", str(WORKER_MEMORY_BYTES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._proc = proc
        if self._ask(proc, "", WORKER_START_SECONDS) is None:
            raise RenderProblem(1, "the markdown renderer did not start")
        return proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()
            proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()

    def stop(self) -> None:
        """Stop the child process (a new one starts with the next render)."""
        with self._lock:
            self._stop()


_worker = _Worker()
atexit.register(_worker.stop)


def render_bounded(text: str) -> tuple[str, Audit]:
    """``render_audited`` for content files: RenderProblem when too deep, slow or large."""
    check_nesting(text)
    return _worker.render(text)
