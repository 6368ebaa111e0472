"""A problem found in a content file, told to curators the way compilers do."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True, slots=True)
class Problem:
    """``path:line:col: message``: editors and terminals turn this into a jump to the spot."""

    path: str
    line: int
    col: int
    message: str
    # "error" keeps the file back; a "warning" (what a visitor will not see) and a "note" (a
    # choice the kiosk made for the curator to confirm) are only said
    level: str = "error"

    def __str__(self) -> str:
        level = "" if self.level == "error" else f"{self.level}: "
        return f"{self.path}:{self.line}:{self.col}: {level}{self.message}"


def did_you_mean(name: str, names: Iterable[str], prefix: str = "") -> str:
    """`` (did you mean '<prefix><nearest>'?)`` for the nearest of ``names``, or ''."""
    close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
    return f" (did you mean '{prefix}{close[0]}'?)" if close else ""


def a_draft(where: str, kind: str, slug: str) -> str:
    """A published file names a draft: visitors would meet what is never shown to them."""
    return (
        f"{where}: the {kind} '{slug}' is a draft, never shown to visitors: publish it first"
        " (delete its 'draft: true')"
    )
