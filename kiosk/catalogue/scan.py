"""Stage 4, store (its walk): the folder's content files and pictures with their stats, in one
``os.scandir`` walk that never raises: a loop, a dangling or outside link, an unreadable folder
is a *fault* of its path (``Scan.faults``), and what it hides is kept as last read.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field

from kiosk.catalogue.pictures import DERIVED

IMAGES = "images"

StatKey = tuple[int, int, int]  # mtime_ns, size, inode

# What a fault says (after the path): the curator's next step included.
LOOP = "a symbolic link that leads round in a loop: not read (delete it, or put the file here)"
DANGLING = "a symbolic link to a file that is not there: not read (delete it, or put the file here)"
OUTSIDE = (
    "a symbolic link out of the content folder: refused (the kiosk reads only what is in"
    " the folder: copy what it points to here instead)"
)
KINDS_OF_FILE = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a named pipe",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
}


@dataclass
class Scan:
    """What one walk found: markdown files by stat, pictures by size, and what is amiss."""

    markdown: dict[str, StatKey] = field(default_factory=dict)
    images: dict[str, int] = field(default_factory=dict)  # rel → size (regular files only)
    links: set[str] = field(default_factory=set)  # under images/ but not a regular file
    missing: bool = False
    # rel → what is wrong with it ("" is the folder itself; a folder's rel has no slash at
    # its end): whatever was there before is kept, as the walk could not see it
    faults: dict[str, str] = field(default_factory=dict)

    def hides(self, rel: str) -> bool:
        """Whether a fault hides ``rel`` (itself, a folder it is in, or the whole folder gone)."""
        if self.missing or rel in self.faults or "" in self.faults:
            return True
        parts = rel.split("/")
        return any("/".join(parts[:n]) in self.faults for n in range(1, len(parts)))


def is_content_file(name: str) -> bool:
    """A markdown file a curator wrote (not hidden, not a draft of an editor, not a README)."""
    return (
        name.endswith(".md")
        and not name.startswith((".", "#", "_"))
        and name.lower() != "readme.md"
    )


def reason(exc: OSError) -> str:
    """An OSError in a few words ("Permission denied")."""
    return exc.strerror or type(exc).__name__


def inside(real_root: str, real: str) -> bool:
    """Whether the resolved path ``real`` is in the resolved folder ``real_root``."""
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def scan(root: str) -> Scan:
    """Every markdown file (and every file under images/) with its stat: one cheap walk."""
    found = Scan()
    real_root = os.path.realpath(root)
    stack = [("", root)]
    while stack:
        prefix, folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except (FileNotFoundError, NotADirectoryError):  # gone while the walk went on
            if not prefix:
                found.missing = True
            continue
        except OSError as exc:  # a folder that cannot be read (permissions, I/O)
            found.faults[prefix.rstrip("/")] = (
                f"the folder cannot be read ({reason(exc)}): what it holds is not updated"
            )
            continue
        for entry in entries:
            if entry.name.startswith(".") or (not prefix and entry.name == DERIVED):
                continue  # hidden, or made by `kiosk images` (thousands of tiles, no content)
            rel = prefix + entry.name
            try:
                _look_at(found, entry, rel, real_root, stack)
            except FileNotFoundError:  # deleted (or renamed) while the folder was read
                continue
            except OSError as exc:
                found.faults[rel] = f"cannot be read ({reason(exc)})"
    return found


def _look_at(
    found: Scan, entry: os.DirEntry[str], rel: str, real_root: str, stack: list[tuple[str, str]]
) -> None:
    """One entry of a folder into ``found`` (an OSError here is this entry's fault)."""
    if entry.is_dir(follow_symlinks=False):
        stack.append((rel + "/", entry.path))
        return
    if rel.startswith(IMAGES + "/"):
        if entry.is_file(follow_symlinks=False):
            found.images[rel] = entry.stat(follow_symlinks=False).st_size
        else:  # a symbolic link could lead anywhere: never served
            found.links.add(rel)
        return
    content = is_content_file(entry.name)
    if entry.is_symlink():
        _look_at_link(found, entry, rel, real_root, content)
        return
    if content:
        _add(found, rel, entry.stat(follow_symlinks=False), "not a regular file ({}): not read")


def _add(found: Scan, rel: str, st: os.stat_result, fault: str) -> None:
    """A markdown file by its stat, or what else it is as a fault (a pipe would block a read)."""
    if stat.S_ISREG(st.st_mode):
        found.markdown[rel] = (st.st_mtime_ns, st.st_size, st.st_ino)
    else:
        found.faults[rel] = fault.format(KINDS_OF_FILE.get(stat.S_IFMT(st.st_mode), "not a file"))


def _look_at_link(
    found: Scan, entry: os.DirEntry[str], rel: str, real_root: str, content: bool
) -> None:
    """A symbolic link: followed only to a regular file inside the content folder."""
    try:
        st = os.stat(entry.path)
    except OSError as exc:
        if content and exc.errno == errno.ELOOP:
            found.faults[rel] = LOOP
        elif content and exc.errno == errno.ENOENT:
            found.faults[rel] = DANGLING
        elif content:
            raise
        return  # a broken link that is not a content file: nothing the kiosk reads
    if not inside(real_root, os.path.realpath(entry.path)):
        if content or not entry.name.startswith(("_", "#")):  # a folder's link, too
            found.faults[rel] = OUTSIDE
        return
    if content:  # a link to a folder inside is not followed (the folder is walked anyway)
        _add(found, rel, st, "a symbolic link to {}, not a file: not read")
