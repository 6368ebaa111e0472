"""The 52-card deck's faces: rank indices, pips, and typographic court cards."""

from __future__ import annotations

import re

from kiosk.games.cards import RANK_NAMES, RANKS, SUITS
from kiosk.web.cardfaces.svg import HEIGHT, INK, SANS, SERIF, WIDTH, svg_document, text_block

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

# Pip centres for 2-10 on the 250 × 350 card: a column (left, centre, right) and a height; pips
# below the middle are drawn inverted.
_COLUMNS = {"L": 85, "C": 125, "R": 165}
_PIPS = {
    "2": "C85 C265",
    "3": "C85 C175 C265",
    "4": "L85 R85 L265 R265",
    "5": "L85 R85 C175 L265 R265",
    "6": "L85 R85 L175 R175 L265 R265",
    "7": "L85 R85 C130 L175 R175 L265 R265",
    "8": "L85 R85 C130 L175 R175 C220 L265 R265",
    "9": "L85 R85 L145 R145 C175 L205 R205 L265 R265",
    "10": "L85 R85 C115 L145 R145 L205 R205 C235 L265 R265",
}


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
        parts.append(text_block([COURT_WORDS[rank]], 17, 204, ink, SANS, "bold"))
        parts.append(_pip(suit, WIDTH / 2, 100, 34, ink))
        parts.append(_pip(suit, WIDTH / 2, 250, 34, ink, invert=True))
    else:
        for pip in _PIPS[rank].split():
            x, y = _COLUMNS[pip[0]], int(pip[1:])
            parts.append(_pip(suit, x, y, 40, ink, invert=y > HEIGHT / 2 + 1))
    return svg_document(name, "\n".join(parts))
