"""Warnings: what a visitor will not see of what the curator wrote (what the sanitiser
removed, a value too long for a page, a colour the cards cannot draw), at its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from kiosk.catalogue.citations import CODE_SPAN, blank, strings
from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import SourceFile
from kiosk.catalogue.render import Audit
from kiosk.catalogue.schema import dotted

# What the sanitiser removes (kiosk/catalogue/render.py), and what to do instead.
SCRIPT = (
    "a <script> is removed before the page is shown (the kiosk runs no scripts from content):"
    " delete it"
)
EMBED = (
    "an <{0}> is removed before the page is shown (the kiosk is offline): delete it, and put"
    " the web address in sources:"
)
STYLES = (
    "styles are removed before the page is shown (colours and sizes come from the kiosk's own"
    " look): delete the style"
)
HANDLER = (
    "'{0}=' is removed before the page is shown (the kiosk runs no scripts from content): delete it"
)
JAVASCRIPT = "a javascript: link is removed before the page is shown: link to a kiosk page instead"
TAG = (
    "{0} <{1}> is removed before the page is shown (a body may hold markdown and a few plain"
    " tags only): delete it, or write it in markdown"
)
ATTRIBUTE = "'{0}=' is removed before the page is shown (the kiosk's own look is used): delete it"
LINK = (
    "a link to '{0}' is removed before the page is shown (only https:, http: and mailto:"
    " links and the kiosk's own pages are kept): link to one of those"
)
PICTURE = (
    "the picture '{0}' is not shown (the kiosk shows only pictures in the content folder's"
    " images/): put it in images/ and write images/<its name>"
)
EMBEDS = {"iframe", "object", "embed"}
MAX_REMOVALS_SAID = 20  # per file: a file of a thousand tags needs one look, not a thousand
MORE = "write the body in markdown, and check it again"

# Limits on one value: far beyond any real one (a title 73 characters, a text 395), for a page
TITLE_FIELDS = {"title", "name", "historic_title"}
MAX_TITLE = 200
MAX_TEXT = 2_000

COLOUR = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SCHEME = re.compile(r"^[\x00-\x20]*([a-zA-Z][a-zA-Z0-9+.-]*):")


def _shown(value: str, limit: int = 60) -> str:
    """A value quoted in a message: no control characters, at most ``limit`` characters."""
    value = _CONTROL.sub("?", value)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _messages(tag: str, tag_gone: bool, attrs: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(attribute or "", message): one for a tag that goes, one for each attribute of a kept tag."""
    names = [name for name, _ in attrs]
    if tag_gone:
        handler = next((name for name in names if name.startswith("on")), None)
        if tag == "script":
            return [("", SCRIPT)]
        if tag in EMBEDS:
            return [("", EMBED.format(tag))]
        if tag == "style":
            return [("", STYLES)]
        if handler:
            return [(handler, HANDLER.format(handler))]
        if "style" in names:
            return [("style", STYLES)]
        return [("", TAG.format("an" if tag[:1] in "aeiou" else "a", _shown(tag, 30)))]
    found = []
    for name, value in attrs:
        if name.startswith("on"):
            found.append((name, HANDLER.format(_shown(name, 30))))
        elif name == "style":
            found.append((name, STYLES))
        elif tag == "img" and name == "src":
            found.append((name, PICTURE.format(_shown(value))))
        elif name in {"href", "cite"}:
            scheme = _SCHEME.match(re.sub(r"[\t\n\r]", "", value))
            if scheme and scheme.group(1).lower() == "javascript":
                found.append((name, JAVASCRIPT))
            else:
                found.append((name, LINK.format(_shown(value))))
        else:
            found.append((name, ATTRIBUTE.format(_shown(name, 30))))
    return found


def removal_warnings(source: SourceFile, audit: Audit) -> Iterator[Problem]:
    """A warning at its line and column for each thing the ``Audit`` says the sanitiser took out."""
    body = source.body
    masked = CODE_SPAN.sub(blank, body)
    cursor = said = 0
    position = source.body_position
    for start_tag, tag, tag_gone, attrs in audit.removed:
        # raw HTML reaches the renderer's output as written (outside code, where markdown
        # did not see code); what markdown made ([x](javascript:…)) is found by its value
        value = next((v for _, v in attrs if v), "")
        for text, written in ((masked, start_tag), (body, start_tag), (masked, value)):
            at = text.find(written, cursor) if written else -1
            if at >= 0:
                where = (at, at + len(written))
                break
        else:  # not found again (entities, say): said where the last one was
            where = (cursor, cursor)
        cursor = where[1]
        for name, message in _messages(tag, tag_gone, attrs):
            offset = where[0]
            if name:
                rx = re.compile(rf"(?<![\w:-]){re.escape(name)}(?![\w:-])", re.I)
                named = rx.search(body, where[0], where[1])
                offset = named.start() if named else offset
            said += 1
            if said > MAX_REMOVALS_SAID:
                told = sum(len(_messages(t, g, a)) for _, t, g, a in audit.removed)
                more = told + audit.more - MAX_REMOVALS_SAID
                message = f"and {more:,} more removed before the page is shown: {MORE}"
                yield Problem(source.path, *position(offset), message, level="warning")
                return
            yield Problem(source.path, *position(offset), message, level="warning")


def length_warnings(source: SourceFile) -> Iterator[Problem]:
    """A value of the front matter longer than any page can hold (it is still shown)."""

    for loc, value in strings(source.data or {}):
        name = next((part for part in reversed(loc) if isinstance(part, str)), "")
        title = name in TITLE_FIELDS
        limit = MAX_TITLE if title else MAX_TEXT
        if len(value) > limit:
            what = f"a {name}" if title else "a value"
            yield source.problem(
                loc,
                f"{dotted(loc)}: {len(value):,} characters, more than the {limit:,}"
                f" {what} may have: shorten it (the kiosk shows it whole, and a page"
                " cannot hold it)",
                level="warning",
            )


def colour_warnings(source: SourceFile) -> Iterator[Problem]:
    """A colour the card drawings cannot use (they fall back to their own)."""
    data = source.data or {}
    back = data.get("back")
    colour = back.get("colour") if isinstance(back, dict) else None
    if isinstance(colour, str) and not COLOUR.fullmatch(colour.strip()):
        yield source.problem(
            ("back", "colour"),
            f"back.colour: the kiosk cannot draw the colour '{colour}': write a colour code"
            ' in quotes, such as "#1d2c5e" (until then it draws its own dark blue)',
            level="warning",
        )


def warnings_of(source: SourceFile, audit: Audit | None = None) -> list[Problem]:
    """Every warning for one file, in file order (``audit``: from the render that publishes it)."""
    if source.data is None:
        return []
    return sorted(
        [
            *removal_warnings(source, audit or Audit()),
            *length_warnings(source),
            *colour_warnings(source),
        ]
    )
