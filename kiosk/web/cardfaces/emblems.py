"""The emblems, one object each in cream on a medallion, keyed by
:data:`kiosk.catalogue.looks.EMBLEM_ORDER` (tests/test_cardfaces.py checks both ways).
"""

from __future__ import annotations

from kiosk.catalogue.looks import CREAM, PALETTE
from kiosk.web.cardfaces.svg import WIDTH

# Each emblem is drawn in cream inside a medallion of radius 62 centred on (0, 0).
EMBLEM_DRAWINGS: dict[str, str] = {
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


def medallion(emblem: str, ink: str, cy: float = 150) -> str:
    """A coloured medallion with a cream emblem on it, ringed by a fine line."""
    drawing = EMBLEM_DRAWINGS[emblem].replace("{c}", CREAM)
    return (
        f'<g class="medallion" transform="translate({WIDTH / 2} {cy})">'
        f'<circle r="66" fill="{ink}"/>'
        f'<circle r="58" fill="none" stroke="{CREAM}" stroke-width="2"/>'
        f"{drawing}</g>"
    )


def emblem_svg(emblem: str, ink: str = PALETTE[1]) -> str:
    """One emblem on its medallion, alone: for the curators' list of emblems."""
    body = medallion(emblem, ink).replace(f"translate({WIDTH / 2} 150)", "translate(70 70)")
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 140 140" width="140" height="140"'
        f' role="img" aria-label="{emblem}">{body}</svg>'
    )
