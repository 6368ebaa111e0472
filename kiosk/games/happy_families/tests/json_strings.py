"""Every string in a JSON value: what the engine tests search for a card a view must hide."""

from __future__ import annotations


def strings(value) -> set[str]:
    """Every string anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()
