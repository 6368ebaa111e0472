"""Links between the kiosk's own pages, checked: a link to no page is an error at its
``path:line:col``, a page no visitor can reach a warning; addresses mirror the views' routes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kiosk.catalogue.citations import blank_code
from kiosk.catalogue.problems import Problem, did_you_mean
from kiosk.catalogue.schema import PageRecord, SetRecord

# Pages the kiosk's own templates link to (the navigation, the home page, the teachers' embed)
LINKED_BY_THE_KIOSK = frozenset({"about", "sources", "teachers"})
# Addresses that are always there, whatever the content holds
FIXED = frozenset({"/", "/sets/", "/games/", "/rules/", "/patterns", "/curators/emblems"})
# Addresses served from files, not pages: not checked here (images have their own check)
FILES = ("/media/", "/static/", "/cards/")

# A markdown or HTML address from the site's root (not "//host", "/\host" or "/&#9;/host")
LINK = re.compile(
    r"\]\(\s*<?(?P<md>/(?![/\\\s&])[^)\s>]*)|href=[\"'](?P<html>/(?![/\\\s&])[^\"']*)[\"']"
)


def links_in(source: Any) -> Iterable[tuple[str, int, int]]:
    """Every root-relative address in a file's body, with its file line and column."""
    for match in LINK.finditer(blank_code(source.body)):
        group = "md" if match["md"] is not None else "html"
        yield match[group], *source.body_position(match.start(group))


def _why_not(address: str, kinds: dict[str, dict[str, Any]]) -> str | None:
    """Why ``address`` leads to no page a visitor can see, or None when it does."""
    path, _, fragment = address.partition("#")
    path = path.split("?", 1)[0]
    if path.startswith(FILES) or path in FIXED:
        return None
    parts = path.strip("/").split("/")
    plural = {"sets": "set", "games": "game", "notes": "note", "pages": "page"}
    if parts[0] == "rules" and len(parts) == 3:
        kind, slug, shown = "scenario", f"{parts[1]}/{parts[2]}", address
    elif parts[0] in plural and len(parts) >= 2:
        kind, slug, shown = plural[parts[0]], parts[1], parts[1]
    else:
        return "no page of the kiosk has this address"
    known = kinds.get(kind, {})
    if slug not in known:
        return f"there is no {kind} '{shown}'{did_you_mean(slug, known)}"
    record = known[slug]
    if getattr(record, "draft", False):
        return f"the {kind} '{slug}' is a draft, never shown to visitors"
    rest = parts[2:] if kind != "scenario" else []
    if kind == "set" and rest and rest[0] == "play" and len(rest) == 2:
        if rest[1] not in record.games:
            return f"the set '{slug}' is not played with '{rest[1]}'"
    elif rest and (kind != "set" or rest not in (["print"], ["play"])):
        return "no page of the kiosk has this address"
    if kind == "set" and fragment.startswith("card-"):
        faces = [face.key for face in record.cards]
        if fragment[5:] not in faces:
            hint = did_you_mean(fragment[5:], faces, "#card-")
            return f"the set '{slug}' has no card '{fragment[5:]}'{hint}"
    return None


def link_problems(
    items: Iterable[Any], complete: bool = True
) -> tuple[dict[str, list[Problem]], list[Problem]]:
    """Broken links (errors, by file) and unreached pages (warnings, only when ``complete``)."""
    items = list(items)
    kinds: dict[str, dict[str, Any]] = {}
    for item in items:
        kinds.setdefault(item.record.kind, {})[item.record.key] = item.record
    found: dict[str, list[Problem]] = {}
    reached: set[tuple[str, str]] = {("page", slug) for slug in LINKED_BY_THE_KIOSK}
    for item in items:
        if isinstance(item.record, SetRecord):
            reached |= {("note", f.content_note.note) for f in item.record.cards if f.content_note}
        for address, line, col in links_in(item.source):
            parts = address.split("#")[0].strip("/").split("/")
            if len(parts) >= 2 and parts[0] in ("notes", "pages"):
                reached.add((parts[0][:-1], parts[1]))
            why = _why_not(address, kinds)
            if why:
                message = f"link to '{address}': {why}"
                found.setdefault(item.rel, []).append(Problem(item.source.path, line, col, message))
    warnings = [
        item.source.problem(
            ("slug",),
            f"no page links to the {item.record.kind} '{item.record.key}', so no visitor can"
            f" reach it: link to it as [its title](/{item.record.kind}s/{item.record.key})"
            " from another page, or make it a draft",
            key=True,
            level="warning",
        )
        for item in items
        if complete
        and isinstance(item.record, PageRecord)
        and not item.record.draft
        and (item.record.kind, item.record.key) not in reached
    ]
    return found, warnings


__all__ = ["LINKED_BY_THE_KIOSK", "link_problems", "links_in"]
