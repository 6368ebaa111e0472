"""Game files for tests: the visitor words every variant and level of an engine needs."""

from __future__ import annotations

from kiosk.games import registry


def words_yaml(engine: str) -> str:
    """A ``variants:`` and ``levels:`` block naming every one of ``engine``'s, in YAML."""
    module = registry.engine(engine)
    lines = ["variants:"]
    for name in module.VARIANTS:
        lines += [f"  {name}:", f"    title: {name} rules", f"    description: How {name} goes."]
    lines.append("levels:")
    for name in module.LEVELS:
        lines += [f"  {name}:", f"    title: {name} player", f"    description: Plays {name}."]
    return "\n".join(lines) + "\n"


def shipped_variants(engine: str) -> dict:
    """The shipped content's words for ``engine``'s variants (name → ShownVariant)."""
    from kiosk.catalogue.game_words import game_record, shown_variants
    from kiosk.catalogue.store import Catalogue
    from kiosk.config import ROOT

    games = Catalogue(ROOT / "content").current().games.values()
    return shown_variants(game_record((e.record for e in games), engine), registry.engine(engine))


def shipped_levels(engine: str) -> list:
    """The shipped content's words for ``engine``'s computer levels (ShownLevel each)."""
    from kiosk.catalogue.game_words import game_record, shown_levels
    from kiosk.catalogue.store import Catalogue
    from kiosk.config import ROOT

    games = Catalogue(ROOT / "content").current().games.values()
    return shown_levels(game_record((e.record for e in games), engine), registry.engine(engine))
