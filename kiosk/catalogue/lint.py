"""Warnings: what the kiosk would silently drop from a file, said to the curator at its line.

A warning never keeps a file from being shown (the sanitiser makes the body safe whatever
it holds); it tells the curator that a visitor will not see what they wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kiosk.catalogue.problems import Problem
from kiosk.catalogue.read import SourceFile

# What nh3 removes from a body (kiosk/catalogue/render.py), and what to do instead.
STRIPPED: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"<\s*script\b", re.I),
        "a <script> is removed before the page is shown (the kiosk runs no scripts from"
        " content): delete it",
    ),
    (
        re.compile(r"<\s*(iframe|object|embed)\b", re.I),
        "an <{0}> is removed before the page is shown (the kiosk is offline): delete it, and put"
        " the web address in sources:",
    ),
    (
        re.compile(r"<\s*style\b|<[^>]*\sstyle\s*=", re.I),
        "styles are removed before the page is shown (colours and sizes come from the kiosk's"
        " own look): delete the style",
    ),
    (
        re.compile(r"<[^>]*\s(on[a-z]+)\s*=", re.I),
        "'{0}=' is removed before the page is shown (the kiosk runs no scripts from content):"
        " delete it",
    ),
    (
        re.compile(r"javascript\s*:", re.I),
        "a javascript: link is removed before the page is shown: link to a kiosk page instead",
    ),
)
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}")


def body_warnings(source: SourceFile) -> Iterator[Problem]:
    """Each line of the body holding something the sanitiser strips (code is left alone)."""
    fenced = False
    for n, line in enumerate(source.body.splitlines()):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        text = CODE_SPAN.sub("", line)
        for rx, message in STRIPPED:
            found = rx.search(text)
            if found:
                what = found.group(1) if rx.groups else ""
                line_no = source.body_line + n
                yield Problem(
                    source.path,
                    line_no,
                    found.start() + 1,
                    message.format(what.lower()),
                    level="warning",
                )


def colour_warnings(source: SourceFile) -> Iterator[Problem]:
    """A colour the card drawings cannot use (they fall back to their own)."""
    data = source.data or {}
    back = data.get("back")
    colour = back.get("colour") if isinstance(back, dict) else None
    if isinstance(colour, str) and not COLOUR.fullmatch(colour.strip()):
        line, col = source.position(("back", "colour"))
        yield Problem(
            source.path,
            line,
            col,
            f"back.colour: the kiosk cannot draw the colour '{colour}': write a colour code"
            ' in quotes, such as "#1d2c5e" (until then it draws its own dark blue)',
            level="warning",
        )


def warnings_of(source: SourceFile) -> list[Problem]:
    """Every warning for one file, in file order."""
    if source.data is None:
        return []
    return sorted([*body_warnings(source), *colour_warnings(source)])
