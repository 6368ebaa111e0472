"""``/sets/<slug>/print``: a set's own game on A4 (rules, the step-through as a strip, and its
playable cards to cut out, never a flagged one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Blueprint, Flask, abort, g, render_template, url_for
from markupsafe import Markup

from kiosk.catalogue.decks import deck_for, flagged_faces
from kiosk.catalogue.schema import ScenarioRecord, SetRecord
from kiosk.catalogue.store import Entry, Snapshot
from kiosk.games import registry
from kiosk.web import content
from kiosk.web.cards import PRINT_WIDTH, back_src, card_face, front_picture
from kiosk.web.play.games import adapter
from kiosk.web.rules import Frame, caption_of, game_table

bp = Blueprint("printing", __name__)

SECTION = re.compile(r"(?=<h2[\s>])")
HEADING = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S)
SCREEN_ONLY = re.compile(r"on this kiosk", re.I)  # how the kiosk plays: nothing for paper


@dataclass(frozen=True)
class PrintCard:
    """One card to cut out: its photograph where its rights let it be printed, else drawn."""

    src: str
    name: str
    css: str = ""  # the class that makes a photograph fill the card ("" for a drawing)


@dataclass(frozen=True)
class Photographs:
    """The credits the sheet must print, and cards drawn because their rights forbid print."""

    credits: list[str]  # "Jane Smith (CC BY 4.0)"
    drawn: list[tuple[str, str]]  # (the card's name, its photograph's rights in words)


@dataclass(frozen=True)
class LeftOut:
    """Cards of the set that are not printed, and why."""

    name: str
    copies: int
    shows: str
    note_title: str
    note_address: str


def paper_rules(html: str) -> Markup:
    """The game's text without the sections about playing on the kiosk (``on this kiosk``)."""
    kept = []
    for part in SECTION.split(html):
        heading = HEADING.match(part)
        if heading and SCREEN_ONLY.search(heading.group(1)):
            continue
        kept.append(part)
    return Markup("".join(kept))


def cards_to_print(record: SetRecord) -> list[PrintCard]:
    """Every card of the playable deck, one per copy: never a flagged card."""
    back = back_src(record)
    cards = []
    for card in deck_for(record):
        face = card_face(card.face, PRINT_WIDTH, printable_only=True) if card.face else None
        cards.append(PrintCard(face.src if face else back, card.name, face.css if face else ""))
    return cards


def photographs_printed(record: SetRecord) -> Photographs:
    """The printed photographs' credits, and the photographed cards drawn instead."""
    credits: dict[str, None] = {}
    drawn = []
    played = {card.face for card in deck_for(record)}
    for face in record.cards:
        if f"{record.key}/{face.key}" not in played:
            continue
        shown = front_picture(face)
        if shown is None:
            continue
        if shown.printable:
            credits[f"{shown.image.credit} ({shown.rights_name})"] = None
        else:
            drawn.append((face.name, shown.rights_name))
    return Photographs(list(credits), drawn)


def left_out(record: SetRecord, snapshot: Snapshot) -> list[LeftOut]:
    """The flagged cards, what they show and the note that says why (its full address)."""
    out = []
    for face in flagged_faces(record):
        note = face.content_note
        assert note is not None
        entry = snapshot.notes.get(note.note)
        title = entry.record.title if entry else "our note"  # type: ignore[union-attr]
        address = url_for("pages.note", slug=note.note, _external=True)
        out.append(LeftOut(face.name, face.copies - face.missing, note.shows, title, address))
    return out


def scenario_for(snapshot: Snapshot, game: str, set_key: str) -> Entry | None:
    """The step-through of ``game`` played with this set's pack, else the game's first one."""
    mine = [e for e in snapshot.scenarios.values() if e.record.game == game]  # type: ignore
    same_pack = [e for e in mine if e.record.deck == set_key]  # type: ignore[union-attr]
    found = same_pack or mine
    return found[0] if found else None


def strip_of(snapshot: Snapshot, scenario: Entry) -> list[Frame]:
    """Every step of a scenario's run: its caption and the table after it."""
    record = scenario.record
    assert isinstance(record, ScenarioRecord)
    run = snapshot.runs.get(record.key)
    set_entry = snapshot.sets.get(record.deck)
    if run is None or set_entry is None:
        return []
    set_record = set_entry.record
    assert isinstance(set_record, SetRecord)
    source = registry.engine(run.game).VARIANTS[record.variant].source
    return [
        Frame(
            s.n,
            caption_of(record, run, s, source).text,
            game_table(run, s, set_record, f"s{s.n}-"),
        )
        for s in run.steps
    ]


@bp.get("/sets/<slug>/print")
def set_print(slug: str) -> str:
    """A set's own game to print: rules, the step-through as a strip, the cards to cut out."""
    snapshot = content.current()
    g.paper = True  # a photograph only where its rights let it be printed (cards.card_face)
    entry = snapshot.sets.get(slug)
    if entry is None or not entry.record.cards_listed:  # type: ignore[union-attr]
        abort(404)  # nothing to cut out of a set whose cards are not recorded
    record = entry.record
    assert isinstance(record, SetRecord)
    game = next((snapshot.games[g] for g in record.games if g in snapshot.games), None)
    scenario = scenario_for(snapshot, game.record.key, record.key) if game else None
    return render_template(
        "print/set.html",
        record=record,
        game=game,
        rules=paper_rules(game.html) if game and game.html else None,
        scenario=scenario,
        game_adapter=adapter(game.record.key) if game else None,
        strip=strip_of(snapshot, scenario) if scenario else [],
        cards=cards_to_print(record),
        photographs=photographs_printed(record),
        left_out=left_out(record, snapshot),
        back=back_src(record),
    )


def init_app(app: Flask) -> None:
    """Register the print pages."""
    app.register_blueprint(bp)
