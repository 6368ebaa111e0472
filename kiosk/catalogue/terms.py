"""Contested terms and vague content notes: what ``kiosk check`` looks for in a card's words;
the defaults apply only while no ``kind: terms`` file is published.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kiosk.catalogue.schema import TermsRecord

# The seed of content/contested-terms.md: golliwog imagery and the Jim Crow Museum's caricatures
DEFAULT_TERMS: tuple[str, ...] = (
    "golliwog",
    "golliwogg",
    "gollywog",
    "golly",
    "gollies",
    "chawky",
    "minstrel",
    "blackface",
    "sambo",
    "piccaninny",
    "pickaninny",
    "picaninny",
    "mammy",
    "coon",
    "jim crow",
    "uncle tom",
)


def contested(records: Iterable[object]) -> tuple[str, ...]:
    """The curators' contested terms (every ``kind: terms`` record), or the defaults if none."""
    lists = [r.terms for r in records if isinstance(r, TermsRecord)]
    return tuple(t for terms in lists for t in terms) if lists else DEFAULT_TERMS


# Words that warn without saying what a picture shows: a note made only of these is vague.
_VAGUE = """a an the this that some may might could contain contains containing content contents
    offensive offending offence offense sensitive upsetting disturbing distressing harmful
    hurtful inappropriate problematic outdated racist racial racism imagery image images
    picture pictures material materials depiction depictions language term terms stereotype
    stereotypes stereotypical warning card cards shows show of and or with which be is
    considered now today potentially culturally historic historical"""
VAGUE_WORDS = frozenset(_VAGUE.split())


def pattern(terms: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for the terms: whole words, any case, plurals, spaces as any space."""
    written = [t for t in terms if t.strip()]
    written += [t[:-1] + "ies" for t in written if t.endswith("y")]
    parts = sorted((r"\s+".join(map(re.escape, t.split())) for t in written), key=len, reverse=True)
    if not parts:
        return re.compile(r"(?!x)x")
    return re.compile(r"\b(?:" + "|".join(parts) + r")(?:e?s)?\b", re.IGNORECASE)


def find_term(terms: tuple[str, ...], texts: Iterable[str | None]) -> str | None:
    """The first contested term in any of ``texts``, as written there, or None."""
    words = " ".join(t for t in texts if t)
    found = pattern(terms).search(words)
    return found.group(0) if found else None


def is_vague(shows: str) -> bool:
    """True when ``shows`` only warns (e.g. "offensive content"): no word names a thing."""
    return all(w in VAGUE_WORDS for w in re.findall(r"[a-z]+", shows.lower()))
