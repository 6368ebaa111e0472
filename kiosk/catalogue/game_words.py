"""The words visitors read for a game's variants and levels, from its game file (the
curators'); a game without its file falls back to the engine's names, never to an error.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType

from kiosk.catalogue.schema import GameRecord


@dataclass(frozen=True)
class ShownVariant:
    """A rule variant as a page shows it: the curators' words beside the engine's facts."""

    name: str
    title: str
    description: str
    source: str  # the seed and its words, from the engine
    historic: bool


@dataclass(frozen=True)
class ShownLevel:
    """A computer player's level as the setup page offers it."""

    name: str
    title: str
    description: str
    names: tuple[str, ...] = ()  # what its computer players are called at the table

    def player_names(self, count: int) -> list[str]:
        """The game file's names for ``count`` players, then the level's title with a number."""
        named = list(self.names[:count])
        return named + [f"{self.title} {n + 1}" for n in range(len(named), count)]


def game_record(records: Iterable[object], engine: str) -> GameRecord | None:
    """The (first) game file whose engine is ``engine``, if the catalogue has one."""
    return next(
        (r for r in records if isinstance(r, GameRecord) and r.engine == engine),
        None,
    )


def _fallback(name: str) -> str:
    return name.replace("-", " ").capitalize()


def shown_variants(record: GameRecord | None, engine: ModuleType) -> dict[str, ShownVariant]:
    """Every variant of ``engine``, in its order, with the game file's words."""
    written = record.variants if record is not None else {}
    out = {}
    for name, variant in engine.VARIANTS.items():
        words = written.get(name)
        out[name] = ShownVariant(
            name=name,
            title=words.title if words else _fallback(name),
            description=words.description if words else "",
            source=variant.source,
            historic=variant.historic,
        )
    return out


def shown_levels(record: GameRecord | None, engine: ModuleType) -> list[ShownLevel]:
    """Every computer level of ``engine``, easiest first, with the game file's words."""
    written = record.levels if record is not None else {}
    return [
        ShownLevel(
            name,
            written[name].title if name in written else _fallback(name),
            written[name].description if name in written else "",
            tuple(written[name].names) if name in written else (),
        )
        for name in engine.LEVELS
    ]
