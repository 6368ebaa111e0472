"""A content folder with a photographed set, its photographs generated here (never a picture
of a real object): the real content plus ``sets/test-photographs.md``.

Twelve pictures a visitor may see (the case, the box, the instruction card, eight card fronts
and one back) and two that are covered: the pack laid out (the golliwog card among the
others, flagged on the picture) and the flagged card's front. ``photo_content(tmp_path)``
copies a folder made once a run, with ``kiosk images`` already run on it.
"""

from __future__ import annotations

import fcntl
import os
import random
import shutil
import tempfile
from pathlib import Path

import yaml
from PIL import Image, ImageDraw

from kiosk.catalogue.pictures import flagged_files, uses_in
from kiosk.catalogue.schema import SetRecord
from kiosk.config import ROOT
from kiosk.images import derive

SLUG = "test-photographs"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"
IN_COPYRIGHT = "http://rightsstatements.org/vocab/InC/1.0/"
FACES = (
    ("Harbour Light", (40, 90, 150)),
    ("The Milk Cart", (170, 60, 40)),
    ("Top Hat", (40, 40, 40)),
    ("Kite Day", (200, 140, 30)),
    ("Post Early", (150, 30, 40)),
    ("Ice Cream", (220, 200, 150)),
    ("Ship Ahoy", (20, 70, 110)),
    ("Fire Engine", (200, 40, 30)),
)
FRONTS = [name for name, _ in FACES]  # the cards whose fronts a visitor may see
FLAGGED_FACE = "Golly Oh Golly!"
FLAGGED_FRONT = "images/test-photographs/golly.jpg"
FLAGGED_PACK = "images/test-photographs/pack.jpg"
NOTE = (
    "    content_note:\n"
    "      shows: a golliwog, a racist caricature drawn from blackface minstrelsy\n"
    "      note: golliwog\n"
)


# A two-player Snap step-through with the photographed pack (its flagged card left out of
# play): Harbour Light meets Harbour Light at step 4, and every photographed card of it is
# face up by step 10. Tests write it as games/snap/photographs.md.
SCENARIO = """---
kind: scenario
game: snap
slug: photographs
variant: classic
title: Snap with the photographed pack
summary: Two players turn cards from the photographed pack, and call "Snap!" on a match.
deck: test-photographs
players: 2
order: 95
cards:
  - fire-engine-1
  - the-milk-cart-1
  - top-hat-1
  - kite-day-1
  - harbour-light-1
  - harbour-light-2
actions:
  - turn: 1
  - turn: 2
  - call: 2
    ms: 300
  - turn: 1
  - turn: 2
  - turn: 1
  - turn: 2
steps:
  3: Player 1 turns up the top card of their pile.
---
"""


def photograph(path: Path, size: tuple[int, int], colour: tuple[int, int, int], seed: int) -> None:
    """A made-up 'photograph': a card-like shape on a grainy cloth, grainy enough that the
    file sizes are those of a real photograph, not of a flat drawing."""
    rng = random.Random(seed)
    w, h = size
    picture = Image.effect_noise(size, 40).convert("RGB")
    cloth = Image.new("RGB", size, (110 + seed % 40, 90, 70))
    picture = Image.blend(cloth, picture, 0.35)
    draw = ImageDraw.Draw(picture)
    inset = w // 8
    draw.rounded_rectangle(
        (inset, inset, w - inset, h - inset), radius=w // 30, fill=(236, 228, 205)
    )
    draw.rectangle((inset * 2, inset * 2, w - inset * 2, h - inset * 3), fill=colour)
    for _ in range(12):
        x, y = rng.randrange(inset * 2, w - inset * 2), rng.randrange(inset * 2, h - inset * 3)
        r = rng.randrange(w // 40, w // 12)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(255 - c for c in colour))
    path.parent.mkdir(parents=True, exist_ok=True)
    picture.save(path, "JPEG", quality=90)


def picture_yaml(src: str, alt: str, indent: str, rights: str = CC_BY, extra: str = "") -> str:
    return (
        f"{indent}src: {src}\n{indent}alt: {alt}\n"
        f"{indent}credit: Photograph made up for the kiosk's tests\n{indent}rights: {rights}\n"
        + extra
    )


def set_text() -> str:
    cards = []
    for i, (name, _) in enumerate(FACES):
        slug = name.lower().replace(" ", "-")
        front = picture_yaml(
            f"images/{SLUG}/{slug}.jpg",
            f"The {name} card, a coloured picture on cream card.",
            "      ",
            rights=IN_COPYRIGHT if i == 1 else CC_BY,
        )
        back = (
            "    back_image:\n"
            + picture_yaml(f"images/{SLUG}/back.jpg", "The back of a card, dark blue.", "      ")
            if i == 0
            else ""
        )
        cards.append(f"  - name: {name}\n    copies: 4\n    image:\n{front}{back}")
    golly = picture_yaml(FLAGGED_FRONT, "The flagged card, photographed.", "      ")
    cards.append(f"  - name: {FLAGGED_FACE}\n    copies: 4\n{NOTE}    image:\n{golly}")
    pictures = [
        ("case", "The case, a card box with a picture on its lid.", "case"),
        ("box", "The box seen from its side, with the maker's name.", "box"),
        ("instructions", "The instruction card, printed in black on white.", "instruction-card"),
    ]
    images = "".join(
        "  - "
        + picture_yaml(f"images/{SLUG}/{name}.jpg", alt, "    ").lstrip()
        + f"    caption: The {shows.replace('-', ' ')}.\n    shows: {shows}\n"
        for name, alt, shows in pictures
    )
    images += (
        "  - "
        + picture_yaml(
            FLAGGED_PACK,
            "The whole pack laid out in rows.",
            "    ",
            extra="    shows: pack\n" + NOTE.replace("    ", "    ", 1),
        ).lstrip()
    )
    return (
        "---\nkind: set\ntitle: A photographed Snap pack (made up for the tests)\n"
        f"slug: {SLUG}\nobject_type: Card game (Snap)\n"
        "date: not recorded\n"
        "summary: A pack made up for the tests, with made-up photographs of every part.\n"
        "attract_summary: A pack made up for the tests.\n"
        "deck: cards\nmatch: picture\nback:\n  pattern: plain\n  description: Dark blue.\n"
        "cards:\n" + "".join(cards) + "games: [snap]\nimages:\n" + images + "order: 90\n---\n"
        "A made-up pack, photographed for the tests.\n"
    )


def record_of(content: Path) -> SetRecord:
    """The photographed set's record, as the schema reads it."""
    text = (content / "sets" / f"{SLUG}.md").read_text(encoding="utf-8")
    return SetRecord.model_validate(yaml.safe_load(text.split("---\n")[1]))


def pictures_of(content: Path) -> list[str]:
    """The originals the photographed set names."""
    return sorted({use.image.src for use in uses_in(record_of(content))})


def build(content: Path, make: bool = True) -> Path:
    """Write the photographed set and its photographs into a copy of the real content."""
    shutil.copytree(ROOT / "content", content)
    (content / "sets" / f"{SLUG}.md").write_text(set_text(), encoding="utf-8")
    sizes = {
        "case": (2400, 1800),
        "box": (2000, 1500),
        "instructions": (1500, 2100),
        "pack": (2400, 1600),
    }
    names = [n.lower().replace(" ", "-") for n, _ in FACES] + ["golly", "back"]
    for seed, name in enumerate([*sizes, *names]):
        colour = dict(FACES).get(name.replace("-", " ").title(), (60, 60, 120))
        photograph(
            content / "images" / SLUG / f"{name}.jpg", sizes.get(name, (1200, 1800)), colour, seed
        )
    if make:
        derive.run(content, pictures_of(content), flagged_files([record_of(content)]))
    return content


def _built(make: bool) -> Path:
    """The folder made once a run: once for all of pytest-xdist's workers (the first to ask
    makes it while the others wait on a lock), else once for this process."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    home = Path(tempfile.gettempdir()) / f"kiosk-photo-content-{run}-{int(make)}"
    home.mkdir(exist_ok=True)
    with (home / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / "made").exists():
            shutil.rmtree(home / "content", ignore_errors=True)  # a build that failed midway
            build(home / "content", make)
            (home / "made").touch()
    return home / "content"


def photo_content(tmp_path: Path, make: bool = True) -> Path:
    """A fresh copy of the photographed content (made once a run, then copied)."""
    target = tmp_path / "content"
    shutil.copytree(_built(make), target)
    return target


def editable_copy(made: Path, tmp_path: Path) -> Path:
    """A copy of a made photo content folder that one test may change."""
    copy = tmp_path / "content"
    shutil.copytree(made, copy)
    return copy
