"""The catalogue fixtures as the tests read them: each game file completed with the visitor
words for every variant and level of its engine (``game_files.words_yaml``), so no fixture
copies an engine's lists by hand (a new variant would otherwise have to be added to each).

A game file in ``tests/fixtures/catalogue`` whose front matter has no ``variants:`` gets them
at the end of its front matter; the completed copy lives in a temporary folder for the run.
"""

from __future__ import annotations

import atexit
import contextlib
import re
import shutil
import tempfile
from pathlib import Path

from game_files import words_yaml

from kiosk.games import registry
from kiosk.images import derive

SOURCE = Path(__file__).parent / "fixtures" / "catalogue"
_ENGINE = re.compile(r"^engine: *([a-z0-9-]+) *$", re.M)


def _complete(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return
    end = text.find("\n---", 4)
    front = text[: end + 1] if end != -1 else ""
    found = _ENGINE.search(front)
    if end == -1 or found is None or found[1] not in registry.names() or "\nvariants:" in front:
        return
    path.write_text(front + words_yaml(found[1]) + text[end + 1 :], encoding="utf-8")


def _materialise() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="kiosk-fixtures-")) / "catalogue"
    atexit.register(shutil.rmtree, folder.parent, True)
    shutil.copytree(SOURCE, folder, symlinks=True)
    for path in folder.rglob("*.md"):
        if path.is_file() and not path.is_symlink():
            with contextlib.suppress(UnicodeDecodeError):  # broken encodings stay as they are
                _complete(path)
    # the good tree's pictures with their copies made, as `kiosk images` leaves a folder
    derive.run(folder / "good", ["images/box.png", "images/fishermen.png"])
    return folder


FIXTURES = _materialise()
GOOD = FIXTURES / "good"
BROKEN = FIXTURES / "broken"
