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
