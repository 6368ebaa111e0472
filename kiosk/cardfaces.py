"""Card faces and backs drawn as SVG text: typographic, in a 1950s lithograph palette.

Pure functions of the card data (no Flask, no I/O), so the catalogue pages, the game table
and the rule steps all show the same pictures. The kiosk draws no people: a named card gets
its printed title and a simple emblem of an object (an anchor, a crown, a wheel); a flagged
card gets only its historic title, in quotation marks; a standard card gets its rank and pips.
A set's emblems and inks are chosen for the whole set at once (:func:`set_looks`), so cards
that do not match never share an emblem, and a family's four cards share theirs.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from kiosk.catalogue.decks import card_name, match_key
from kiosk.catalogue.schema import Back, CardFace, SetRecord
from kiosk.games.cards import RANK_NAMES, RANKS, SUITS

DRAWING_VERSION = "2"  # bump when the drawings change, so cached SVGs are refetched

WIDTH, HEIGHT = 250, 350
CREAM = "#fbf3df"
INK = "#2b2118"
PAPER_LINE = "#d9c9a3"
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
SANS = "'DejaVu Sans', Verdana, Arial, sans-serif"

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

SUIT_NAMES = dict(SUITS)
RED_SUITS = {"H", "D"}
SUIT_INK = {"S": "#1a1a1a", "C": "#1a1a1a", "H": "#b3261e", "D": "#b3261e"}

# Suit symbols drawn in a 100 × 100 box (no fonts needed for the pips).
SUIT_PATHS = {
    "D": "M50 0 L88 50 L50 100 L12 50 Z",
    "H": (
        "M50 94 C22 72 2 54 2 30 C2 13 14 2 29 2 C39 2 46 8 50 17 "
        "C54 8 61 2 71 2 C86 2 98 13 98 30 C98 54 78 72 50 94 Z"
    ),
    "S": (
        "M50 2 C78 26 98 42 98 61 C98 75 87 84 74 84 C65 84 58 80 53 73 "
        "C54 85 58 93 67 100 L33 100 C42 93 46 85 47 73 C42 80 35 84 26 84 "
        "C13 84 2 75 2 61 C2 42 22 26 50 2 Z"
    ),
    "C": (
        "M50 4 A21 21 0 0 1 68 36 A21 21 0 1 1 56 68 C57 84 60 92 68 100 L32 100 "
        "C40 92 43 84 44 68 A21 21 0 1 1 32 36 A21 21 0 0 1 50 4 Z"
    ),
}

STANDARD_IDS = tuple(f"{rank}{suit}" for suit, _ in SUITS for rank in RANKS)
_STANDARD_RE = re.compile(r"^(A|[2-9]|10|J|Q|K)([SHDC])$")

COURT_WORDS = {"J": "JACK", "Q": "QUEEN", "K": "KING"}

# Pip centres for 2-10 (x, y) on the 250 × 350 card; pips below the middle are drawn inverted.
_L, _C, _R = 85, 125, 165
_PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((_C, 85), (_C, 265)),
    "3": ((_C, 85), (_C, 175), (_C, 265)),
    "4": ((_L, 85), (_R, 85), (_L, 265), (_R, 265)),
    "5": ((_L, 85), (_R, 85), (_C, 175), (_L, 265), (_R, 265)),
    "6": ((_L, 85), (_R, 85), (_L, 175), (_R, 175), (_L, 265), (_R, 265)),
    "7": ((_L, 85), (_R, 85), (_C, 130), (_L, 175), (_R, 175), (_L, 265), (_R, 265)),
    "8": (
        (_L, 85),
        (_R, 85),
        (_C, 130),
        (_L, 175),
        (_R, 175),
        (_C, 220),
        (_L, 265),
        (_R, 265),
    ),
    "9": (
        (_L, 85),
        (_R, 85),
        (_L, 145),
        (_R, 145),
        (_C, 175),
        (_L, 205),
        (_R, 205),
        (_L, 265),
        (_R, 265),
    ),
    "10": (
        (_L, 85),
        (_R, 85),
        (_C, 115),
        (_L, 145),
        (_R, 145),
        (_L, 205),
        (_R, 205),
        (_C, 235),
        (_L, 265),
        (_R, 265),
    ),
}


# --------------------------------------------------------------------------- helpers


def _text(value: str) -> str:
    """Text content made safe for XML."""
    return escape(value)


def _attr(value: str) -> str:
    """An attribute value, quoted and escaped for XML."""
    return quoteattr(value)


def quoted(title: str) -> str:
    """A historic title in curly quotation marks, as the museum prints historic text."""
    return f"\u201c{title.strip()}\u201d"


def palette_colour(key: str) -> str:
    """A stable ink for a face: the same face always gets the same colour."""
    digest = hashlib.sha1(key.encode("utf-8")).digest()
    return PALETTE[digest[0] % len(PALETTE)]


def _svg(title: str, body: str, desc: str | None = None) -> str:
    """The SVG document: role img, its title first (its accessible name), then the drawing."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        'aria-labelledby="t">',
        f'<title id="t">{_text(title)}</title>',
    ]
    if desc:
        parts.append(f"<desc>{_text(desc)}</desc>")
    parts.append(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _frame(ink: str, dashed: bool = False) -> str:
    """The cream card with rounded corners, a bold coloured border and a fine inner rule."""
    dash = ' stroke-dasharray="10 7"' if dashed else ""
    return (
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16" '
        f'fill="{CREAM}" stroke="{INK}" stroke-width="3"/>\n'
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="9" '
        f'fill="none" stroke="{ink}" stroke-width="7"{dash}/>\n'
        f'<rect x="21" y="21" width="{WIDTH - 42}" height="{HEIGHT - 42}" rx="5" '
        f'fill="none" stroke="{ink}" stroke-width="1.5"/>'
    )


def _corner_diamonds(ink: str) -> str:
    """Small diamonds in the four corners, the commonest ornament of cheap printed packs."""
    out = []
    for x, y in ((34, 34), (WIDTH - 34, 34), (34, HEIGHT - 34), (WIDTH - 34, HEIGHT - 34)):
        path = f"M{x} {y - 7} L{x + 5} {y} L{x} {y + 7} L{x - 5} {y} Z"
        out.append(f'<path d="{path}" fill="{ink}"/>')
    return "\n".join(out)


def fit_lines(
    text: str,
    width: float = 180,
    height: float = 70,
    max_size: float = 30,
    min_size: float = 12,
    max_lines: int = 3,
) -> tuple[list[str], float]:
    """Wrap a title into lines, choosing the line count that gives the largest type that fits."""
    text = " ".join(text.split()) or " "
    best: tuple[float, list[str]] | None = None
    for lines_allowed in range(1, max_lines + 1):
        chars = max(4, -(-len(text) // lines_allowed))
        lines = textwrap.wrap(text, width=chars, break_long_words=False) or [text]
        if len(lines) > lines_allowed:
            lines = textwrap.wrap(text, width=chars + 3, break_long_words=True) or [text]
            if len(lines) > lines_allowed:
                continue
        longest = max(len(line) for line in lines)
        size = min(max_size, width / (0.6 * longest), height / (1.15 * len(lines)))
        if best is None or size > best[0] * 1.08:
            best = (size, lines)
    if best is None:
        return textwrap.wrap(text, width=max(4, int(width / (0.6 * min_size)))), min_size
    return best[1], round(max(best[0], min_size), 1)


def _text_block(
    lines: list[str],
    size: float,
    centre_y: float,
    fill: str,
    family: str = SERIF,
    weight: str = "bold",
) -> str:
    """Lines of centred text around ``centre_y``."""
    leading = size * 1.15
    first = centre_y - leading * (len(lines) - 1) / 2 + size * 0.35
    tspans = "".join(
        f'<tspan x="{WIDTH / 2}" y="{first + i * leading:.1f}">{_text(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<text text-anchor="middle" font-family="{family}" font-weight="{weight}" '
        f'font-size="{size}" fill="{fill}">{tspans}</text>'
    )


# --------------------------------------------------------------------------- emblems

# Each emblem is drawn in cream inside a medallion of radius 62 centred on (0, 0).
_EMBLEMS: dict[str, str] = {
    "crown": (
        '<path d="M-40 22 L-44 -22 L-22 0 L0 -32 L22 0 L44 -22 L40 22 Z" fill="{c}"/>'
        '<rect x="-42" y="26" width="84" height="10" rx="2" fill="{c}"/>'
        '<circle cx="-44" cy="-26" r="5" fill="{c}"/><circle cx="0" cy="-36" r="5" fill="{c}"/>'
        '<circle cx="44" cy="-26" r="5" fill="{c}"/>'
    ),
    "anchor": (
        '<circle cx="0" cy="-34" r="8" fill="none" stroke="{c}" stroke-width="5"/>'
        '<path d="M0 -26 V36 M-20 -14 H20" stroke="{c}" stroke-width="7" fill="none"/>'
        '<path d="M-36 8 C-32 34 -12 40 0 40 C12 40 32 34 36 8" stroke="{c}" '
        'stroke-width="7" fill="none"/>'
        '<path d="M-42 14 L-36 2 L-28 14 Z M42 14 L36 2 L28 14 Z" fill="{c}"/>'
    ),
    "fish": (
        '<path d="M-38 0 C-20 -26 18 -26 34 0 C18 26 -20 26 -38 0 Z" fill="{c}"/>'
        '<path d="M30 0 L50 -18 L50 18 Z" fill="{c}"/>'
        '<path d="M-34 40 C-20 32 -8 48 6 40 C20 32 32 48 44 40" stroke="{c}" '
        'stroke-width="4" fill="none"/>'
    ),
    "horseshoe": (
        '<path d="M-26 36 L-30 0 C-34 -30 -16 -40 0 -40 C16 -40 34 -30 30 0 L26 36" '
        'stroke="{c}" stroke-width="14" fill="none" stroke-linecap="square"/>'
    ),
    "wheel": (
        '<circle cx="0" cy="0" r="38" fill="none" stroke="{c}" stroke-width="7"/>'
        '<circle cx="0" cy="0" r="7" fill="{c}"/>'
        '<path d="M0 -38 V38 M-38 0 H38 M-27 -27 L27 27 M27 -27 L-27 27" stroke="{c}" '
        'stroke-width="3"/>'
    ),
    "star": (
        '<path d="M0 -42 L10 -13 L40 -13 L16 5 L25 34 L0 17 L-25 34 L-16 5 L-40 -13 '
        'L-10 -13 Z" fill="{c}"/>'
    ),
    "coal": (
        '<path d="M-36 20 L-24 -14 L-4 -22 L8 -6 L30 -16 L40 14 L20 32 L-14 34 Z" fill="{c}"/>'
        '<path d="M-24 -14 L-6 8 L8 -6 M-6 8 L-14 34 M-6 8 L20 32" stroke="#000" '
        'stroke-opacity=".35" stroke-width="2" fill="none"/>'
    ),
    "lamp": (
        '<path d="M-34 36 L-18 -30 L18 -30 L34 36 Z" fill="{c}"/>'
        '<path d="M-24 6 H24 M-29 22 H29" stroke="#000" stroke-opacity=".4" stroke-width="7"/>'
        '<rect x="-24" y="-42" width="48" height="12" rx="3" fill="{c}"/>'
    ),
    "paper": (
        '<rect x="-34" y="-40" width="68" height="80" rx="3" fill="{c}"/>'
        '<path d="M-24 -26 H24 M-24 -12 H24 M-24 2 H8 M-24 16 H24 M-24 28 H14" '
        'stroke="#000" stroke-opacity=".4" stroke-width="4"/>'
    ),
    "spiral": (
        '<path d="M0 0 C6 -6 12 2 6 8 C-2 16 -14 6 -12 -4 C-8 -20 14 -22 22 -8 '
        'C30 8 18 28 0 30 C-22 32 -36 12 -32 -8 C-28 -30 -4 -42 18 -36" '
        'stroke="{c}" stroke-width="6" fill="none" stroke-linecap="round"/>'
    ),
    "broom": (
        '<path d="M-30 -40 L10 10" stroke="{c}" stroke-width="7" stroke-linecap="round"/>'
        '<path d="M4 4 L-6 20 L16 42 L36 32 L24 12 Z" fill="{c}"/>'
        '<path d="M2 24 L20 36 M10 16 L28 30" stroke="#000" stroke-opacity=".35" stroke-width="2"/>'
    ),
    "heart": (
        '<path d="M0 36 C-26 18 -40 2 -40 -14 C-40 -28 -30 -36 -19 -36 C-10 -36 -3 -30 0 -22 '
        'C3 -30 10 -36 19 -36 C30 -36 40 -28 40 -14 C40 2 26 18 0 36 Z" fill="{c}"/>'
    ),
    "ice": (
        '<path d="M-18 -2 L0 42 L18 -2 Z" fill="{c}"/>'
        '<circle cx="0" cy="-14" r="20" fill="{c}"/>'
        '<path d="M-12 8 L4 2 M-6 20 L8 12" stroke="#000" stroke-opacity=".35" stroke-width="2"/>'
    ),
    "rosette": (
        '<circle cx="0" cy="0" r="14" fill="{c}"/>'
        + "".join(
            f'<ellipse cx="0" cy="-28" rx="9" ry="15" fill="{{c}}" transform="rotate({a})"/>'
            for a in range(0, 360, 45)
        )
    ),
    "sword": (
        '<path d="M0 -46 L7 -36 L7 14 L-7 14 L-7 -36 Z" fill="{c}"/>'
        '<rect x="-24" y="14" width="48" height="9" rx="3" fill="{c}"/>'
        '<rect x="-4.5" y="23" width="9" height="15" fill="{c}"/>'
        '<circle cx="0" cy="42" r="6" fill="{c}"/>'
        '<path d="M0 -34 V8" stroke="#000" stroke-opacity=".35" stroke-width="2"/>'
    ),
    "bell": (
        '<path d="M-34 24 C-28 18 -25 8 -25 -6 C-25 -26 -13 -36 0 -36 C13 -36 25 -26 25 -6 '
        'C25 8 28 18 34 24 Z" fill="{c}"/>'
        '<circle cx="0" cy="33" r="8" fill="{c}"/><circle cx="0" cy="-40" r="6" fill="{c}"/>'
    ),
    "key": (
        '<circle cx="-24" cy="0" r="16" fill="none" stroke="{c}" stroke-width="9"/>'
        '<path d="M-8 0 H44 M32 0 V16 M42 0 V13" stroke="{c}" stroke-width="8" fill="none"/>'
    ),
    "umbrella": (
        '<path d="M-44 0 C-42 -28 -22 -42 0 -42 C22 -42 42 -28 44 0 C38 -7 28 -7 22 0 '
        'C16 -7 6 -7 0 0 C-6 -7 -16 -7 -22 0 C-28 -7 -38 -7 -44 0 Z" fill="{c}"/>'
        '<path d="M0 -2 V32 C0 44 -16 44 -16 32" stroke="{c}" stroke-width="6" fill="none" '
        'stroke-linecap="round"/>'
    ),
    "kite": (
        '<path d="M0 -46 L26 -12 L0 24 L-26 -12 Z" fill="{c}"/>'
        '<path d="M0 -46 V24 M-26 -12 H26" stroke="#000" stroke-opacity=".35" stroke-width="2"/>'
        '<path d="M0 24 C-12 30 12 36 0 44" stroke="{c}" stroke-width="3" fill="none"/>'
        '<path d="M-9 30 L0 34 L-9 38 Z M9 38 L0 42 L9 46 Z" fill="{c}"/>'
    ),
    "teapot": (
        '<ellipse cx="-4" cy="8" rx="30" ry="24" fill="{c}"/>'
        '<path d="M22 4 L44 -16 L46 -10 L30 18 Z" fill="{c}"/>'
        '<path d="M-32 -4 C-50 -4 -50 22 -32 22" stroke="{c}" stroke-width="7" fill="none"/>'
        '<rect x="-18" y="-22" width="28" height="8" rx="3" fill="{c}"/>'
        '<circle cx="-4" cy="-27" r="6" fill="{c}"/>'
        '<rect x="-24" y="30" width="40" height="7" rx="2" fill="{c}"/>'
    ),
    "flag": (
        '<path d="M-28 -42 V44" stroke="{c}" stroke-width="6" stroke-linecap="round"/>'
        '<path d="M-25 -40 C-8 -48 8 -30 38 -38 L38 2 C8 10 -8 -8 -25 0 Z" fill="{c}"/>'
    ),
    "leaf": (
        '<path d="M-36 36 C-42 -10 -8 -42 40 -42 C40 4 8 42 -36 36 Z" fill="{c}"/>'
        '<path d="M-40 40 L26 -26 M-14 14 L-14 -8 M4 -4 L4 -24 M-8 8 L16 8" stroke="#000" '
        'stroke-opacity=".35" stroke-width="3" fill="none"/>'
    ),
    "boat": (
        '<path d="M-44 14 H44 L30 34 H-30 Z" fill="{c}"/>'
        '<path d="M0 -44 V14" stroke="{c}" stroke-width="4"/>'
        '<path d="M4 -40 L36 8 H4 Z M-4 -28 L-30 8 H-4 Z" fill="{c}"/>'
    ),
    "moon": ('<path d="M14 -38 A40 40 0 1 0 14 38 A30 30 0 1 1 14 -38 Z" fill="{c}"/>'),
}

# Words starting a word of a card's name → the emblem drawn: always an object, never a person.
_EMBLEM_WORDS: tuple[tuple[str, str], ...] = (
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

# The order free emblems are handed out in, once the words have had their say; also the
# names a curator may write as ``emblem:`` (docs/curators.md, /curators/emblems).
EMBLEM_ORDER: tuple[str, ...] = tuple(_EMBLEMS)
MIN_CONTRAST = 4.5  # WCAG 2.2 AA: cream words on a face's ink, and the ink's words on cream


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


def emblem_svg(emblem: str, ink: str = PALETTE[1]) -> str:
    """One emblem on its medallion, alone: for the curators' list of emblems."""
    body = _medallion(emblem, ink).replace(f"translate({WIDTH / 2} 150)", "translate(70 70)")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 140 140" width="140" height="140"'
        f' role="img" aria-label="{emblem}">{body}</svg>'
    )


def _word_emblem(name: str) -> str | None:
    """The emblem a card's words ask for ("Jolly Jack Tar" → anchor), or None."""
    lowered = name.casefold()
    for word, emblem in _EMBLEM_WORDS:
        if re.search(r"\b" + re.escape(word), lowered):
            return emblem
    return None


def emblem_for(name: str) -> str:
    """The emblem's key for a card name on its own (``rosette`` when no word matches)."""
    return _word_emblem(name) or "rosette"


def _medallion(emblem: str, ink: str, cy: float = 150) -> str:
    """A coloured medallion with a cream emblem on it, ringed by a fine line."""
    drawing = _EMBLEMS[emblem].replace("{c}", CREAM)
    return (
        f'<g class="medallion" transform="translate({WIDTH / 2} {cy})">'
        f'<circle r="66" fill="{ink}"/>'
        f'<circle r="58" fill="none" stroke="{CREAM}" stroke-width="2"/>'
        f"{drawing}</g>"
    )


# --------------------------------------------------------------------------- looks


@dataclass(frozen=True)
class Look:
    """How a picture (or a family) is told apart at a glance: its emblem and its ink."""

    emblem: str
    ink: str


def look_for(face: CardFace) -> Look:
    """A face's look when drawn on its own, without the rest of its set."""
    return Look(emblem_for(face.family or face.name), palette_colour(face.family or face.key))


def _pictures(set_record: SetRecord) -> dict[str, list[CardFace]]:
    """The set's faces grouped as Snap matches them (a family, or one picture), in set order.

    Flagged faces are left out: they are drawn as their historic title only, no emblem.
    """
    groups: dict[str, list[CardFace]] = {}
    for face in set_record.cards:
        if face.content_note is None:
            groups.setdefault(match_key(set_record, face), []).append(face)
    return groups


def _chosen(faces: list[CardFace]) -> tuple[str | None, str | None]:
    """The emblem and colour a curator wrote on any card of a picture (or family), if any."""
    emblem = next((f.emblem for f in faces if f.emblem in _EMBLEMS), None)
    colour = next((f.colour for f in faces if f.colour and not colour_problem(f.colour)), None)
    return emblem, colour


def _wanted(faces: list[CardFace]) -> tuple[str | None, str]:
    """The emblem and ink a picture asks for: the curator's ``emblem:`` and ``colour:`` first,
    else by its family's or its printed name's words."""
    emblem, colour = _chosen(faces)
    if emblem or colour:
        guessed = _wanted_by_words(faces)
        return emblem or guessed[0], colour or guessed[1]
    return _wanted_by_words(faces)


def _wanted_by_words(faces: list[CardFace]) -> tuple[str | None, str]:
    """The emblem and ink a picture's words ask for (its family's, or its printed name's)."""
    first = faces[0]
    if first.family:
        return _word_emblem(first.family), palette_colour(first.family)
    words = _word_emblem(first.name) if first.recorded else None
    return words, palette_colour(first.key)


def _assign(
    wanted: dict[str, str | None], choices: tuple[str, ...], first: list[str] | None = None
) -> dict[str, str]:
    """Each key gets its wanted choice if no earlier key took it, else the next free one;
    the keys in ``first`` (a curator's choices) are served before the rest.

    Once every choice is taken they are used again in turn (only inks ever run out).
    """
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
    """Every face's look, keyed by face slug, chosen for the whole set at once.

    Cards that match (the same picture, or one family) share a look; cards that do not
    match never share an emblem, and share an ink only when the set has more pictures
    than the palette has inks.
    """
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


# --------------------------------------------------------------------------- named faces


def _shows_family(face: CardFace) -> bool:
    """True when the family's name is not already the card's own (a master card's)."""
    return bool(face.family) and face.family.casefold() != face.name.casefold()


def face_title(face: CardFace, set_title: str | None = None) -> str:
    """The accessible name: the family first ("Sally Cross family: …"), then what it is called.

    A printed name is historic text, in quotation marks; a card the record does not name is
    called by its plain name and said to be not recorded.
    """
    if not face.recorded:
        what = f"{card_name(face)}, not recorded"
    elif face.role == "master":
        what = f"{quoted(face.name)}, the master card"
    else:
        what = quoted(face.name)
    name = f"{face.family} family: {what}" if face.family else f"Card {what}"
    return f"{name} ({set_title})" if set_title else name


def _flagged_svg(face: CardFace, set_title: str | None) -> str:
    """A flagged face: its historic title in quotation marks and nothing else."""
    lines, size = fit_lines(quoted(face.name), width=170, height=100, max_size=34)
    return _svg(
        face_title(face, set_title) + ": historic title only, no picture drawn",
        "\n".join(
            [
                _frame(INK),
                f'<path d="M60 120 H190 M60 232 H190" stroke="{INK}" stroke-width="1.5"/>',
                _text_block(lines, size, 176, INK),
                _text_block(["HISTORIC TITLE"], 12, 290, INK, SANS, "normal"),
            ]
        ),
        desc="Only the title printed on the card is drawn here.",
    )


def _top_label(face: CardFace, ink: str) -> str:
    """The line above the emblem: the family's name, or MASTER CARD on a master card."""
    if _shows_family(face):
        lines, size = fit_lines(
            face.family.upper(),
            width=176,
            height=20,
            max_size=18,
            max_lines=1,  # type: ignore[union-attr]
        )
        return _text_block(lines, size, 52, ink, SANS, "bold")
    if face.role == "master":
        return _text_block(["MASTER CARD"], 14, 52, ink, SANS, "bold")
    return ""


def _banner(face: CardFace, ink: str, y: float = 238) -> str:
    """The name under the emblem: cream on ink, or ink on a dashed panel when not recorded."""
    box = f'x="30" y="{y}" width="{WIDTH - 60}" height="76" rx="4"'
    if face.recorded:
        lines, size = fit_lines(face.name, width=164, height=68, max_size=28)
        return f'<rect {box} fill="{ink}"/>\n' + _text_block(lines, size, y + 38, CREAM)
    lines, size = fit_lines(card_name(face), width=160, height=44, max_size=24)
    return "\n".join(
        [
            f'<rect {box} fill="{CREAM}" stroke="{ink}" stroke-width="3" stroke-dasharray="8 5"/>',
            _text_block(lines, size, y + 28, ink),
            _text_block(["not recorded"], 13, y + 62, ink, SANS, "normal"),
        ]
    )


def _desc(face: CardFace) -> str | None:
    """What a card the record does not name is drawn with, and why."""
    if face.recorded:
        return None
    whose = f"the {face.family} family's" if face.family else "its own"
    return (
        "The museum's record does not say what this card shows. "
        f"The kiosk draws {whose} emblem on it, so it can be told apart from other cards."
    )


def face_svg(face: CardFace, set_title: str | None = None, look: Look | None = None) -> str:
    """A named set's face: title in a display serif, an object emblem, a period border.

    ``look`` is the face's emblem and ink from :func:`set_looks` (so no two non-matching
    cards of a set look alike); without it the face is drawn as if alone. A flagged face
    (``content_note``) is drawn as type only: its historic title in quotation marks and
    nothing else, whatever the printed card showed.
    """
    if face.content_note is not None:
        return _flagged_svg(face, set_title)
    look = look or look_for(face)
    parts = [
        _frame(look.ink),
        _corner_diamonds(look.ink),
        _top_label(face, look.ink),
        _medallion(look.emblem, look.ink, cy=150),
        _banner(face, look.ink),
    ]
    return _svg(face_title(face, set_title), "\n".join(p for p in parts if p), _desc(face))


# --------------------------------------------------------------------------- standard faces


def is_standard_id(card_id: str) -> bool:
    """True for the ids of the 52-card deck, e.g. ``AS``, ``10H``, ``QD``."""
    return bool(_STANDARD_RE.match(card_id))


def standard_name(card_id: str) -> str:
    """``QH`` → ``Queen of Hearts``."""
    match = _STANDARD_RE.match(card_id)
    if not match:
        raise ValueError(f"not a standard card id: {card_id!r}")
    rank, suit = match.groups()
    return f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}"


def _pip(suit: str, x: float, y: float, size: float, ink: str, invert: bool = False) -> str:
    """One suit symbol of ``size`` user units centred on (x, y)."""
    scale = size / 100
    rotate = f" rotate(180 {x} {y})" if invert else ""
    return (
        f'<path d="{SUIT_PATHS[suit]}" fill="{ink}" '
        f'transform="{rotate.strip()} translate({x - size / 2:.1f} {y - size / 2:.1f}) '
        f'scale({scale:.3f})"/>'
    )


def _index(rank: str, suit: str, ink: str) -> str:
    """The rank and a small pip in the top-left corner, repeated upside down bottom right."""
    size = 34 if rank != "10" else 28
    one = (
        f'<text x="36" y="58" text-anchor="middle" font-family="{SERIF}" font-weight="bold" '
        f'font-size="{size}" fill="{ink}">{rank}</text>' + _pip(suit, 36, 80, 22, ink)
    )
    return f'<g>{one}</g>\n<g transform="rotate(180 {WIDTH / 2} {HEIGHT / 2})">{one}</g>'


def standard_svg(card_id: str) -> str:
    """A clean face of the 52-card deck: indices, pips, or a typographic court card."""
    name = standard_name(card_id)
    rank, suit = _STANDARD_RE.match(card_id).groups()  # type: ignore[union-attr]
    ink = SUIT_INK[suit]
    parts = [
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16" '
        f'fill="#fffdf6" stroke="{INK}" stroke-width="3"/>',
        _index(rank, suit, ink),
    ]
    if rank == "A":
        parts.append(_pip(suit, WIDTH / 2, HEIGHT / 2, 110, ink))
    elif rank in COURT_WORDS:
        frame_ink = "#1d4e89" if suit in RED_SUITS else "#a8322a"
        parts.append(
            f'<rect x="62" y="62" width="126" height="226" rx="6" fill="#f6ecd2" '
            f'stroke="{frame_ink}" stroke-width="4"/>'
            f'<rect x="70" y="70" width="110" height="210" rx="3" fill="none" '
            f'stroke="{frame_ink}" stroke-width="1.5"/>'
        )
        parts.append(
            f'<text x="{WIDTH / 2}" y="176" text-anchor="middle" font-family="{SERIF}" '
            f'font-weight="bold" font-size="92" fill="{ink}">{rank}</text>'
        )
        parts.append(_text_block([COURT_WORDS[rank]], 17, 204, ink, SANS, "bold"))
        parts.append(_pip(suit, WIDTH / 2, 100, 34, ink))
        parts.append(_pip(suit, WIDTH / 2, 250, 34, ink, invert=True))
    else:
        for x, y in _PIPS[rank]:
            parts.append(_pip(suit, x, y, 40, ink, invert=y > HEIGHT / 2 + 1))
    return _svg(name, "\n".join(parts))


# --------------------------------------------------------------------------- backs


def _w_path(x: float, y: float, w: float, h: float) -> str:
    """A letter W as a zigzag line, for the Woolworth's back."""
    step = w / 4
    points = [
        (x, y),
        (x + step, y + h),
        (x + 2 * step, y + h * 0.35),
        (x + 3 * step, y + h),
        (x + 4 * step, y),
    ]
    return "M" + " L".join(f"{px:.1f} {py:.1f}" for px, py in points)


def back_svg(back: Back, set_title: str | None = None) -> str:
    """A card back from the set's ``back``: a pattern of Ws, a lattice, or plain."""
    colour = back.colour if re.fullmatch(r"#[0-9a-fA-F]{3,8}", back.colour) else "#1d2c5e"
    title = f"Card back{f' ({set_title})' if set_title else ''}"
    light = "#e9dfc4"
    if back.pattern == "woolworths-w":
        tile = (
            '<pattern id="p" width="36" height="32" patternUnits="userSpaceOnUse">'
            f'<path d="{_w_path(6, 6, 24, 18)}" fill="none" stroke="{light}" '
            'stroke-width="3" stroke-linejoin="miter"/></pattern>'
        )
    elif back.pattern == "lattice":
        tile = (
            '<pattern id="p" width="24" height="24" patternUnits="userSpaceOnUse">'
            f'<path d="M0 0 L24 24 M24 0 L0 24" stroke="{light}" stroke-width="2"/>'
            "</pattern>"
        )
    else:
        tile = ""
    fill = "url(#p)" if tile else colour
    body = [
        f"<defs>{tile}</defs>" if tile else "",
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16" '
        f'fill="{colour}" stroke="{INK}" stroke-width="3"/>',
        f'<rect x="14" y="14" width="{WIDTH - 28}" height="{HEIGHT - 28}" rx="9" '
        f'fill="{fill}" stroke="{light}" stroke-width="3"/>',
    ]
    if back.pattern == "plain":
        body.append(
            f'<ellipse cx="{WIDTH / 2}" cy="{HEIGHT / 2}" rx="54" ry="80" fill="none" '
            f'stroke="{light}" stroke-width="3"/>'
        )
    return _svg(title, "\n".join(part for part in body if part), desc=back.description)


def icon_svg() -> str:
    """The kiosk's icon: a red diamond on a cream card (the favicon)."""
    return _svg(
        "Snap & Happy Families",
        f'<rect x="20" y="20" width="210" height="310" rx="28" fill="{CREAM}" stroke="{INK}" '
        f'stroke-width="14"/><path d="{SUIT_PATHS["D"]}" fill="#a8322a" '
        'transform="translate(45 95) scale(1.6)"/>',
    )


DEFAULT_BACK = Back(pattern="lattice", colour="#7a2330", description="A plain lattice back.")
