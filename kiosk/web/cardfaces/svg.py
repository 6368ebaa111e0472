"""What every drawing shares: size, inks, type, the document, the frame, fitted titles."""

from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape

from kiosk.catalogue.looks import CREAM

WIDTH, HEIGHT = 250, 350
INK = "#2b2118"
SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
SANS = "'DejaVu Sans', Verdana, Arial, sans-serif"


def quoted(title: str) -> str:
    """A historic title in curly quotation marks, as the museum prints historic text."""
    return f"\u201c{title.strip()}\u201d"


def svg_document(title: str, body: str, desc: str | None = None) -> str:
    """The SVG document: role img, its title first (its accessible name), then the drawing."""
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        'aria-labelledby="t">',
        f'<title id="t">{escape(title)}</title>',
    ]
    if desc:
        parts.append(f"<desc>{escape(desc)}</desc>")
    parts.append(body)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def frame(ink: str) -> str:
    """The cream card with rounded corners, a bold coloured border and a fine inner rule."""
    return (
        f'<rect x="1.5" y="1.5" width="{WIDTH - 3}" height="{HEIGHT - 3}" rx="16" '
        f'fill="{CREAM}" stroke="{INK}" stroke-width="3"/>\n'
        f'<rect x="12" y="12" width="{WIDTH - 24}" height="{HEIGHT - 24}" rx="9" '
        f'fill="none" stroke="{ink}" stroke-width="7"/>\n'
        f'<rect x="21" y="21" width="{WIDTH - 42}" height="{HEIGHT - 42}" rx="5" '
        f'fill="none" stroke="{ink}" stroke-width="1.5"/>'
    )


def corner_diamonds(ink: str) -> str:
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


def text_block(
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
        f'<tspan x="{WIDTH / 2}" y="{first + i * leading:.1f}">{escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    return (
        f'<text text-anchor="middle" font-family="{family}" font-weight="{weight}" '
        f'font-size="{size}" fill="{fill}">{tspans}</text>'
    )
