"""Citations drawn as numbered notes with their sources at the page's foot (issue 27); the
syntax is kiosk.catalogue.citations'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Flask, g, render_template, url_for
from markupsafe import Markup, escape

from kiosk.catalogue import citations
from kiosk.catalogue.citations import Cited
from kiosk.catalogue.store import Snapshot
from kiosk.web import content


def registry(snapshot: Snapshot) -> dict[str, Any]:
    """Key → source, from the curators' sources file(s)."""
    return citations.registry(e.record for e in snapshot.sources.values())


@dataclass(frozen=True)
class NoteSource:
    """One source named in a note: the source (None if unknown) and what the citation adds."""

    key: str
    source: Any
    locator: str = ""
    prefix: str = ""


@dataclass
class PageNotes:
    """The notes of the page being drawn, in the order they were cited."""

    known: dict[str, Any]
    notes: list[tuple[NoteSource, ...]] = field(default_factory=list)

    def ref(self, items: tuple[Cited, ...]) -> Markup:
        """The superscript link for one citation, and its note kept for the foot."""
        self.notes.append(
            tuple(NoteSource(c.key, self.known.get(c.key), c.locator, c.prefix) for c in items)
        )
        n = len(self.notes)
        return Markup(
            f'<sup class="cite" id="cite-ref-{n}"><a class="cite__link" href="#cite-note-{n}">'
            f'<span class="visually-hidden">Note </span>{n}</a></sup>'
        )


def page_notes_state() -> PageNotes:
    """This request's notes (one page is drawn a request)."""
    notes = g.get("_kiosk_notes")
    if notes is None:
        notes = g._kiosk_notes = PageNotes(registry(content.current()))
    return notes


def cited(html: Any) -> Markup:
    """A rendered body with its citation tokens drawn as numbered note links."""
    notes = page_notes_state()
    text = str(html)
    out, last = [], 0
    for token in citations.TOKEN.finditer(text):
        out += [text[last : token.start()], notes.ref(citations.decode(token[1]))]
        last = token.end()
    return Markup("".join(out) + text[last:])


def cite(value: Any) -> Markup:
    """A field's text, escaped, with its ``[@key]`` citations drawn as numbered note links."""
    text = "" if value is None else str(value)
    notes = page_notes_state()
    out, last = [], 0
    for citation in citations.find(text):
        out += [str(escape(text[last : citation.start].rstrip(" "))), notes.ref(citation.items)]
        last = citation.end
    return Markup("".join(out) + str(escape(text[last:])))


def uncited(value: Any) -> str:
    """A field's or a body's text without its citations (where the page has no notes)."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return Markup(citations.unmark(str(value)))
    return citations.plain(str(value))


def source_anchor(key: str) -> str:
    """The id of a source on the sources page."""
    return f"source-{key}"


def source_url(key: str) -> str:
    """Where a source is described, on the sources page."""
    return url_for("pages.page", slug="sources", _anchor=source_anchor(key))


def page_notes(heading: str = "Notes") -> Markup:
    """The foot of the page: every note cited so far, each linked to its source and back."""
    notes = page_notes_state()
    if not notes.notes:
        return Markup("")
    listed = list(enumerate(notes.notes, 1))
    return Markup(render_template("pages/_notes.html", notes=listed, heading=heading))


def init_app(app: Flask) -> None:
    """Make ``cited``, ``cite``, ``uncited`` and ``page_notes`` available to every template."""
    app.add_template_filter(cited, "cited")
    app.add_template_filter(uncited, "uncited")
    app.add_template_global(cite, "cite")
    app.add_template_global(page_notes, "page_notes")
    app.add_template_global(source_url, "source_url")
    app.add_template_global(source_anchor, "source_anchor")
