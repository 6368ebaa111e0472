"""How each card of a set is told apart at a glance: its emblem (always an object, never a
person) and its ink, chosen here so the checks can name a bad one; ``kiosk.web.cardfaces``
draws whatever is chosen.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from kiosk.catalogue.decks import match_key
from kiosk.catalogue.schema import CardFace, SetRecord

CREAM = "#fbf3df"  # the card's paper: every ink carries cream words, and is read on cream

# Inks a 1950s chromolithograph might have used; every one is dark enough for cream text on it.
PALETTE = (
    "#a8322a",
    "#1d4e89",
    "#2e6b3a",
    "#8a5a12",
    "#6d2a4a",
    "#1f6661",
    "#553c8b",
    "#37474f",
)

# The emblems a curator may write (docs/curators.md), in the order free ones are handed out
EMBLEM_ORDER: tuple[str, ...] = (
    "crown",
    "anchor",
    "fish",
    "horseshoe",
    "wheel",
    "star",
    "coal",
    "lamp",
    "paper",
    "spiral",
    "broom",
    "heart",
    "ice",
    "rosette",
    "sword",
    "bell",
    "key",
    "umbrella",
    "kite",
    "teapot",
    "flag",
    "leaf",
    "boat",
    "moon",
)

# Words starting a word of a card's name → the emblem drawn: always an object, never a person.
EMBLEM_WORDS: tuple[tuple[str, str], ...] = (
    ("yeoman", "crown"),
    ("king", "crown"),
    ("queen", "crown"),
    ("guard", "sword"),
    ("winner", "paper"),
    ("news", "paper"),
    ("coal", "coal"),
    ("cert", "horseshoe"),
    ("jockey", "horseshoe"),
    ("horse", "horseshoe"),
    ("road", "lamp"),
    ("tar", "anchor"),
    ("sail", "anchor"),
    ("right away", "wheel"),
    ("train", "wheel"),
    ("law", "star"),
    ("fish", "fish"),
    ("stop me", "ice"),
    ("ice", "ice"),
    ("twizzle", "spiral"),
    ("broom", "broom"),
    ("sally", "heart"),
    ("bell", "bell"),
    ("key", "key"),
    ("umbrella", "umbrella"),
    ("rain", "umbrella"),
    ("kite", "kite"),
    ("teapot", "teapot"),
    ("flag", "flag"),
    ("leaf", "leaf"),
    ("tree", "leaf"),
    ("boat", "boat"),
    ("ship", "boat"),
    ("moon", "moon"),
    ("night", "moon"),
)

MIN_CONTRAST = 4.5  # WCAG 2.2 AA: cream words on a face's ink, and the ink's words on cream


def palette_colour(key: str) -> str:
    """A stable ink for a face: the same face always gets the same colour."""
    digest = hashlib.sha1(key.encode("utf-8")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


def _luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def colour_problem(colour: str) -> str | None:
    """Why a curator's face colour cannot be used (not ``#rrggbb``, too pale), or None."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
        return f"'{colour}' is not a colour code: write six hex digits in quotes, e.g. \"#1d4e89\""
    ratio = contrast(colour, CREAM)
    if ratio < MIN_CONTRAST:
        return (
            f"'{colour}' is too pale for the cream words on it ({ratio:.1f}:1, at least"
            f" {MIN_CONTRAST}:1 is needed): choose a darker colour"
        )
    return None


def _word_emblem(name: str) -> str | None:
    """The emblem a card's words ask for ("Jolly Jack Tar" → anchor), or None."""
    lowered = name.casefold()
    for word, emblem in EMBLEM_WORDS:
        if re.search(r"\b" + re.escape(word), lowered):
            return emblem
    return None


def emblem_for(name: str) -> str:
    """The emblem's key for a card name on its own (``rosette`` when no word matches)."""
    return _word_emblem(name) or "rosette"


@dataclass(frozen=True)
class Look:
    """How a picture (or a family) is told apart at a glance: its emblem and its ink."""

    emblem: str
    ink: str


def look_for(face: CardFace) -> Look:
    """A face's look when drawn on its own, without the rest of its set."""
    return Look(emblem_for(face.family or face.name), palette_colour(face.family or face.key))


def _pictures(set_record: SetRecord) -> dict[str, list[CardFace]]:
    """The unflagged faces grouped as Snap matches them (flagged ones are drawn as words)."""
    groups: dict[str, list[CardFace]] = {}
    for face in set_record.cards:
        if face.content_note is None:
            groups.setdefault(match_key(set_record, face), []).append(face)
    return groups


def _chosen(faces: list[CardFace]) -> tuple[str | None, str | None]:
    """The emblem and colour a curator wrote on any card of a picture (or family), if any."""
    emblem = next((f.emblem for f in faces if f.emblem in EMBLEM_ORDER), None)
    colour = next((f.colour for f in faces if f.colour and not colour_problem(f.colour)), None)
    return emblem, colour


def _wanted(faces: list[CardFace]) -> tuple[str | None, str]:
    """The emblem and ink a picture asks for: the curator's, else its family's or name's words."""
    emblem, colour = _chosen(faces)
    first = faces[0]
    if first.family:
        words, ink = _word_emblem(first.family), palette_colour(first.family)
    else:
        words = _word_emblem(first.name) if first.recorded else None
        ink = palette_colour(first.key)
    return emblem or words, colour or ink


def _assign(
    wanted: dict[str, str | None], choices: tuple[str, ...], first: list[str] | None = None
) -> dict[str, str]:
    """Each key its wanted choice unless taken (``first`` served first), else the next free."""
    out: dict[str, str] = {}
    order = [*(first or []), *(k for k in wanted if k not in (first or []))]
    for key, want in ((k, wanted[k]) for k in order):
        if want in choices and want not in out.values():
            out[key] = want
    free = [c for c in choices if c not in out.values()]
    for n, key in enumerate(k for k in wanted if k not in out):
        out[key] = free[n] if n < len(free) else choices[(n - len(free)) % len(choices)]
    return {key: out[key] for key in wanted}


def set_looks(set_record: SetRecord) -> dict[str, Look]:
    """Every face's look by slug, chosen at once: matching cards share one, others no emblem."""
    groups = _pictures(set_record)
    wants = {key: _wanted(faces) for key, faces in groups.items()}
    chosen = {key: _chosen(faces) for key, faces in groups.items()}
    # A curator's emblem is theirs: a guess by words never takes it first.
    explicit = {c[0] for c in chosen.values() if c[0]}
    emblems = _assign(
        {k: w[0] if chosen[k][0] or w[0] not in explicit else None for k, w in wants.items()},
        EMBLEM_ORDER,
        first=[k for k in wants if chosen[k][0]],
    )
    inks = _assign({k: w[1] for k, w in wants.items()}, PALETTE)
    inks.update({k: c[1] for k, c in chosen.items() if c[1]})  # a chosen colour is kept
    return {
        face.key: Look(emblems[key], inks[key]) for key, faces in groups.items() for face in faces
    }


def emblem_picks(set_record: SetRecord) -> list[tuple[int, str]]:
    """(index in ``cards``, emblem) for each picture whose emblem the kiosk chose itself."""
    looks = set_looks(set_record)
    picks = []
    for faces in _pictures(set_record).values():
        if _chosen(faces)[0] is None:
            first = faces[0]
            picks.append((set_record.cards.index(first), looks[first.key].emblem))
    return picks
