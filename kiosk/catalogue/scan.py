"""Stage 4, store (its walk): which content files and pictures the folder holds, with stats.

One cheap ``os.scandir`` walk, no file opened: the store compares it with the walk before
and re-reads only what changed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

IMAGES = "images"

StatKey = tuple[int, int, int]  # mtime_ns, size, inode


@dataclass
class Scan:
    """What one walk found: markdown files by stat, pictures by size, and what is amiss."""

    markdown: dict[str, StatKey] = field(default_factory=dict)
    images: dict[str, int] = field(default_factory=dict)  # rel → size (regular files only)
    links: set[str] = field(default_factory=set)  # under images/ but not a regular file
    missing: bool = False


def is_content_file(name: str) -> bool:
    """A markdown file a curator wrote (not hidden, not a draft of an editor, not a README)."""
    return (
        name.endswith(".md")
        and not name.startswith((".", "#", "_"))
        and name.lower() != "readme.md"
    )


def scan(root: str) -> Scan:
    """Every markdown file (and every file under images/) with its stat: one cheap walk."""
    found = Scan()
    stack = [("", root)]
    while stack:
        prefix, folder = stack.pop()
        try:
            entries = os.scandir(folder)
        except FileNotFoundError:
            if not prefix:
                found.missing = True
            continue
        except NotADirectoryError:
            found.missing = not prefix
            continue
        with entries:
            for entry in entries:
                name = entry.name
                if name.startswith("."):
                    continue
                rel = prefix + name
                if entry.is_dir(follow_symlinks=False):
                    stack.append((rel + "/", entry.path))
                elif rel.startswith(IMAGES + "/"):
                    if entry.is_file(follow_symlinks=False):
                        found.images[rel] = entry.stat(follow_symlinks=False).st_size
                    else:  # a symbolic link could lead anywhere: never served
                        found.links.add(rel)
                elif is_content_file(name) and entry.is_file():
                    st = entry.stat()
                    found.markdown[rel] = (st.st_mtime_ns, st.st_size, st.st_ino)
    return found
