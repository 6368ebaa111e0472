"""Card backs (a pattern of Ws, a lattice, or plain) and the kiosk's icon."""

from __future__ import annotations

import re

from kiosk.catalogue.looks import CREAM
from kiosk.catalogue.schema import Back
from kiosk.web.cardfaces.standard import SUIT_PATHS
from kiosk.web.cardfaces.svg import HEIGHT, INK, WIDTH, svg_document


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
    return svg_document(title, "\n".join(part for part in body if part), desc=back.description)


def icon_svg() -> str:
    """The kiosk's icon: a red diamond on a cream card (the favicon)."""
    return svg_document(
        "Snap & Happy Families",
        f'<rect x="20" y="20" width="210" height="310" rx="28" fill="{CREAM}" stroke="{INK}" '
        f'stroke-width="14"/><path d="{SUIT_PATHS["D"]}" fill="#a8322a" '
        'transform="translate(45 95) scale(1.6)"/>',
    )


DEFAULT_BACK = Back(pattern="lattice", colour="#7a2330", description="A plain lattice back.")
