"""Stage 3, render: the markdown body → HTML, then sanitised with nh3.

Markdown passes raw HTML straight through, so the sanitiser is what stands between a
pasted snippet and the page: no ``<script>``, no ``on*=`` handler, no ``javascript:`` URL.
Images may only come from the content folder's ``images/`` and are served under
``MEDIA_PREFIX`` (see ``kiosk.web.content``).

Python-Markdown has inputs that take minutes (``[a](`` repeated) or recurse past Python's
limit (thousands of nested ``[``), so the catalogue renders through :func:`render_bounded`:
nesting is checked first, then the markdown is rendered in a child process
(``render_worker``) that is stopped after ``RENDER_SECONDS`` and cannot grow past
``WORKER_MEMORY_BYTES``.
"""

from __future__ import annotations

import atexit
import json
import re
import select
import subprocess
import sys
import threading
from posixpath import normpath
from urllib.parse import urlsplit

import markdown
import nh3

MEDIA_PREFIX = "/media/"

EXTENSIONS = ["tables", "smarty", "abbr", "sane_lists"]

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


# Browsers drop tabs and newlines anywhere in a URL and controls or spaces around it, and read
# a backslash as a slash: "/\\evil.example" and "java\tscript:" are what they would follow.
# No link of ours needs a backslash or a control character, so such a link is dropped.
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


# ----------------------------------------------------------------- bounds on hostile markdown

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
    """One child process (``kiosk.catalogue.render_worker``) that renders markdown, one body at
    a time over its pipes; replaced when a render overruns, stopped when left idle."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._idle: threading.Timer | None = None

    def render(self, text: str, prefix: str, seconds: float) -> str:
        """``render_markdown`` in the child; RenderProblem if it takes over ``seconds``."""
        with self._lock:
            if self._idle is not None:
                self._idle.cancel()
            try:
                proc = self._started()
                answer = self._ask(proc, [text, prefix], seconds)
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
                f"took more than {seconds:g} s to render: look for a long run of"
                " brackets, parentheses or '<' and break it up",
            )
        if "error" in answer:
            raise RenderProblem(1, f"could not be rendered ({answer['error']})")
        return answer["html"]

    def _ask(self, proc: subprocess.Popen[bytes], job: list[str], seconds: float) -> dict | None:
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
        if self._ask(proc, ["", MEDIA_PREFIX], WORKER_START_SECONDS) is None:
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


def render_bounded(text: str, prefix: str = MEDIA_PREFIX, seconds: float = RENDER_SECONDS) -> str:
    """``render_markdown`` for content files: RenderProblem when too deep, slow or large."""
    check_nesting(text)
    return _worker.render(text, prefix, seconds)
