"""A problem found in a content file, told to curators the way compilers do."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True, slots=True)
class Problem:
    """``path:line:col: message``: editors and terminals turn this into a jump to the spot."""

    path: str
    line: int
    col: int
    message: str
    warning: bool = False  # shown and logged, but the file is still published

    def __str__(self) -> str:
        level = "warning: " if self.warning else ""
        return f"{self.path}:{self.line}:{self.col}: {level}{self.message}"
