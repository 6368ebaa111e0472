"""Card faces and backs as SVG text in a 1950s lithograph palette: pure functions of the card
data, so every page shows the same pictures.
"""

from __future__ import annotations

from kiosk.web.cardfaces.backs import DEFAULT_BACK, back_svg, icon_svg
from kiosk.web.cardfaces.emblems import emblem_svg
from kiosk.web.cardfaces.faces import face_svg, face_title
from kiosk.web.cardfaces.standard import STANDARD_IDS, is_standard_id, standard_name, standard_svg
from kiosk.web.cardfaces.svg import quoted

DRAWING_VERSION = "3"  # bump when the drawings change, so cached SVGs are refetched

__all__ = [
    "DEFAULT_BACK",
    "DRAWING_VERSION",
    "STANDARD_IDS",
    "back_svg",
    "emblem_svg",
    "face_svg",
    "face_title",
    "icon_svg",
    "is_standard_id",
    "quoted",
    "standard_name",
    "standard_svg",
]
