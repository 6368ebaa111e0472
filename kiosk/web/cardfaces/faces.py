"""A named set's face: title, family and emblem; a flagged face is its historic title only."""

from __future__ import annotations

from kiosk.catalogue.decks import card_name
from kiosk.catalogue.looks import CREAM, Look, look_for
from kiosk.catalogue.schema import CardFace
from kiosk.web.cardfaces.emblems import medallion
from kiosk.web.cardfaces.svg import (
    INK,
    SANS,
    WIDTH,
    corner_diamonds,
    fit_lines,
    frame,
    quoted,
    svg_document,
    text_block,
)


def _shows_family(face: CardFace) -> bool:
    """True when the family's name is not already the card's own (a master card's)."""
    return bool(face.family) and face.family.casefold() != face.name.casefold()


def face_title(face: CardFace, set_title: str | None = None) -> str:
    """The accessible name, family first; a printed name quoted, an unnamed card said plainly."""
    if not face.recorded:
        what = f"{card_name(face)} ({_not_recorded(face)})"
    elif face.role == "master":
        what = f"{quoted(face.name)}, the master card"
    else:
        what = quoted(face.name)
    name = f"{face.family} family: {what}" if face.family else f"Card {what}"
    return f"{name} ({set_title})" if set_title else name


def _not_recorded(face: CardFace) -> str:
    """What of an unrecorded card is not recorded: a family's article, or the card itself."""
    return "article not recorded" if face.role == "article" else "not recorded"


def _flagged_svg(face: CardFace, set_title: str | None) -> str:
    """A flagged face: its historic title in quotation marks and nothing else."""
    lines, size = fit_lines(quoted(face.name), width=170, height=100, max_size=34)
    return svg_document(
        face_title(face, set_title) + ": historic title only, no picture drawn",
        "\n".join(
            [
                frame(INK),
                f'<path d="M60 120 H190 M60 232 H190" stroke="{INK}" stroke-width="1.5"/>',
                text_block(lines, size, 176, INK),
                text_block(["HISTORIC TITLE"], 12, 290, INK, SANS, "normal"),
            ]
        ),
        desc="Only the title printed on the card is drawn here.",
    )


def _top_label(face: CardFace, ink: str) -> str:
    """The line above the emblem: the family's name, or MASTER CARD on a master card."""
    if _shows_family(face):
        family = str(face.family).upper()  # _shows_family: there is one
        lines, size = fit_lines(family, width=176, height=20, max_size=18, max_lines=1)
        return text_block(lines, size, 52, ink, SANS, "bold")
    if face.role == "master":
        return text_block(["MASTER CARD"], 14, 52, ink, SANS, "bold")
    return ""


def _banner(face: CardFace, ink: str, y: float = 238) -> str:
    """The name under the emblem: cream on ink, or ink on a dashed panel when not recorded."""
    box = f'x="30" y="{y}" width="{WIDTH - 60}" height="76" rx="4"'
    if face.recorded:
        lines, size = fit_lines(face.name, width=164, height=68, max_size=28)
        return f'<rect {box} fill="{ink}"/>\n' + text_block(lines, size, y + 38, CREAM)
    lines, size = fit_lines(card_name(face), width=160, height=44, max_size=24)
    return "\n".join(
        [
            f'<rect {box} fill="{CREAM}" stroke="{ink}" stroke-width="3" stroke-dasharray="8 5"/>',
            text_block(lines, size, y + 28, ink),
            text_block([_not_recorded(face)], 13, y + 62, ink, SANS, "normal"),
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
    """A named set's face in its ``look`` (no two unlike cards alike); flagged: its title only."""
    if face.content_note is not None:
        return _flagged_svg(face, set_title)
    look = look or look_for(face)
    parts = [
        frame(look.ink),
        corner_diamonds(look.ink),
        _top_label(face, look.ink),
        medallion(look.emblem, look.ink, cy=150),
        _banner(face, look.ink),
    ]
    return svg_document(face_title(face, set_title), "\n".join(p for p in parts if p), _desc(face))
