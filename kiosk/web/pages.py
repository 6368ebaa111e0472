"""Catalogue pages: home, sets and their records, games, notes, plain pages, patterns; an htmx
request for part of a page gets its main content alone (``htmx_fragment``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    has_request_context,
    render_template,
    request,
    url_for,
)

from kiosk.catalogue.citations import keys_cited
from kiosk.catalogue.decks import card_name, unplayable
from kiosk.catalogue.pictures import uses
from kiosk.catalogue.schema import CardFace, ContentNote, Image, SetRecord
from kiosk.catalogue.store import Entry, Snapshot
from kiosk.games.cards import SUITS
from kiosk.web import citing, content, curators
from kiosk.web.caching import VARIANT_HEADERS
from kiosk.web.cardfaces import STANDARD_IDS, quoted, standard_name
from kiosk.web.cards import face_alt, face_src, front_picture, standard_src
from kiosk.web.pictures import Picture as Photo
from kiosk.web.pictures import covered_url, picture
from kiosk.web.play import flow
from kiosk.web.play.games import adapters

bp = Blueprint("pages", __name__)

# The record's key facts, in the order a museum record gives them, with their labels.
FACT_FIELDS: tuple[tuple[str, str], ...] = (
    ("accession", "Accession number"),
    ("historic_title", "Title as printed"),
    ("object_type", "Object type"),
    ("date", "Date"),
    ("maker", "Maker or publisher"),
    ("place", "Place"),
    ("materials", "Materials and techniques"),
    ("physical_description", "Physical description"),
    ("dimensions", "Dimensions"),
    ("card_count", "Number of cards"),
    ("marks", "Marks and inscriptions"),
    ("credit_line", "Credit line"),
    ("history", "Object history"),
)
# Fields about one object a museum holds: an ordinary pack has none of them to record.
MUSEUM_FIELDS = frozenset(
    {"accession", "historic_title", "materials", "dimensions", "marks", "credit_line", "history"}
)
NOT_RECORDED = "not recorded"
MATCH_WORDS = {
    "picture": "Two cards match when they show the same picture.",
    "rank": "Two cards match when they have the same rank (two sevens, two queens).",
    "family": "Cards belong together when they are of the same family.",
}


def wants_fragment() -> bool:
    """True for an htmx request that swaps part of a page (not a boost of the whole body)."""
    if not has_request_context():
        return False
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Request-Type") != "full"
        and headers.get("HX-History-Restore-Request") != "true"
    )


def play_url(set_key: str, game: str = flow.FIRST) -> str | None:
    """Where to play ``game`` with a set (inside an embed, the embed's URL), or None."""
    if game not in adapters() or "play.setup" not in current_app.view_functions:
        return None
    return url_for("play.setup", slug=set_key, game=game)


@dataclass(frozen=True)
class PlayLink:
    """A button on a set's tile or record: one of its own games, and where to play it."""

    title: str
    url: str
    game: str = ""  # the game's engine name


def play_links(record: SetRecord) -> list[PlayLink]:
    """The set's games that this kiosk can play with its deck: never offer a dead end."""
    snapshot = content.current()
    links = []
    for slug in record.games:
        game = snapshot.games.get(slug)
        url = play_url(record.key, slug)
        if game is None or url is None:
            continue
        engine = game.record.engine  # type: ignore[union-attr]
        if unplayable(record, engine) is None:
            links.append(PlayLink(game.record.title, url, engine))
    return links


bp.add_app_template_global(quoted, "quoted")  # a global: macros imported without context use it
bp.add_app_template_global(card_name, "card_name")  # a card the record does not name, said plainly
bp.add_app_template_global(play_url, "play_game_url")
bp.add_app_template_global(play_links, "play_links")
bp.add_app_template_global(NOT_RECORDED, "NOT_RECORDED")  # type: ignore[arg-type]  # a constant


@bp.app_context_processor
def _layout() -> dict[str, Any]:
    """What differs by request (the rest are globals: no processor call a render)."""
    return {"htmx_fragment": wants_fragment()}


@bp.after_app_request
def _vary(response: Response) -> Response:
    """The same URL answers a page or a fragment: caches must key on the htmx headers."""
    if response.mimetype == "text/html":
        response.vary.update(VARIANT_HEADERS)
    return response


def is_flagged(face: CardFace) -> bool:
    """A face whose picture is contested: never shown uncovered, never a thumbnail."""
    return face.content_note is not None


def is_museum_object(record: SetRecord) -> bool:
    """A set a museum holds (an accession number or a credit line): museum words fit it alone."""
    return bool(record.accession or record.credit_line)


def fact_rows(record: SetRecord) -> list[tuple[str, str, Any]]:
    """The key facts; an empty museum field is "not recorded" only where it applies at all."""
    museum = is_museum_object(record)
    rows = [(name, label, getattr(record, name)) for name, label in FACT_FIELDS]
    return [r for r in rows if museum or r[0] not in MUSEUM_FIELDS or r[2] not in (None, "")]


@dataclass(frozen=True)
class Picture:
    """A safe picture for a set in lists: a face that is not flagged, over the set's back."""

    src: str
    alt: str


@bp.app_template_global()
def set_picture(record: SetRecord) -> Picture | None:
    """The first recorded, unflagged face (or a standard card); None if there is none."""
    if record.deck == "standard-52":
        digest = hashlib.sha1(record.key.encode()).digest()
        card_id = ("KH", "QS", "AD", "JC", "7H", "10S")[digest[0] % 6]
        return Picture(standard_src(card_id), standard_name(card_id))
    for face in record.cards:
        if face.recorded and not is_flagged(face):
            return Picture(face_src(record, face), face_alt(record, face))
    return None


# What a set's picture shows, as its caption's first words say it
SHOWS_WORDS = {
    "case": "The case",
    "box": "The box",
    "instruction-card": "The instruction card",
    "pack": "The pack laid out",
    "card": "A card",
}


@dataclass(frozen=True)
class Shown:
    """One of a set's photographs as placed: uncovered (``photo``) or covered, with its flag."""

    image: Image
    photo: Photo | None
    flag: ContentNote | None = None

    @property
    def shows(self) -> str:
        """What it shows in words ("The case"), or "" for a picture of something else."""
        return SHOWS_WORDS.get(self.image.shows or "", "")


def cover_of(src: str) -> ContentNote | None:
    """The flag that covers a picture file, from whichever set flags it."""
    records = content.set_records()  # drafts too
    return next((u.flag for u in uses(records) if u.flag and u.image.src == src), None)


def shown(image: Image, flag: ContentNote | None = None) -> Shown:
    """A picture uncovered, or its cover with the flag this use (or another set) gives it."""
    photo = None if flag is not None else picture(image)
    return Shown(image, photo, None if photo is not None else flag or cover_of(image.src))


def set_pictures(record: SetRecord) -> list[Shown]:
    """The set's own pictures (case, box, instruction card, the pack), each shown or covered."""
    return [shown(image, image.content_note) for image in record.images]


def back_pictures(record: SetRecord) -> list[tuple[CardFace, Shown]]:
    """The photographs of cards' backs, each file once, with the first card it is the back of."""
    found: dict[str, tuple[CardFace, Shown]] = {}
    for face in record.cards:
        back = face.back_image
        if back is not None and back.src not in found:
            found[back.src] = (face, shown(back, back.content_note))
    return list(found.values())


def front_photos(record: SetRecord) -> dict[str, Photo]:
    """Each unflagged card's front photograph, by the card's key (flagged cards have none)."""
    fronts = {}
    for face in record.cards:
        if face.image is not None and not is_flagged(face):
            photo = picture(face.image)
            if photo is not None:
                fronts[face.key] = photo
    return fronts


def lead_photo(record: SetRecord) -> Photo | None:
    """The photograph at the top of the record: the front of the face ``set_picture`` shows."""
    if record.deck == "standard-52":
        return None
    face = next((f for f in record.cards if f.recorded and not is_flagged(f)), None)
    return front_picture(face) if face is not None else None


def families(record: SetRecord) -> list[tuple[str | None, list[CardFace]]]:
    """The faces grouped by family, in the order the record lists them (one group if none)."""
    groups: dict[str | None, list[CardFace]] = {}
    for face in record.cards:
        groups.setdefault(face.family, []).append(face)
    return list(groups.items())


def standard_suits() -> list[tuple[str, list[str]]]:
    """The 52 ids grouped by suit, for a record that plays with a standard pack."""
    return [(name, [cid for cid in STANDARD_IDS if cid.endswith(code)]) for code, name in SUITS]


def sets_flagged_with(snapshot: Snapshot, note_slug: str) -> list[Entry]:
    """The sets with a card whose content note points at this note."""
    return [
        entry
        for entry in snapshot.sets.values()
        if any(
            face.content_note is not None and face.content_note.note == note_slug
            for face in entry.record.cards  # type: ignore[union-attr]
        )
    ]


def sets_playing(snapshot: Snapshot, game_slug: str) -> list[Entry]:
    """The sets that list this game."""
    return [e for e in snapshot.sets.values() if game_slug in e.record.games]  # type: ignore


@bp.get("/")
def home() -> str:
    """The sets as big cards, the games, and the way to the note and the about page."""
    snapshot = content.current()
    return render_template(
        "pages/home.html",
        sets=list(snapshot.sets.values()),
        games=list(snapshot.games.values()),
        notes=list(snapshot.notes.values()),
        pages=snapshot.pages,
    )


@bp.get("/sets/")
def sets() -> str:
    """Every catalogued set."""
    return render_template("pages/sets.html", sets=list(content.current().sets.values()))


@bp.get("/sets/<slug>")
def set_record(slug: str) -> str:
    """A set's catalogue record: facts, interpretation, cards (flagged ones covered), sources."""
    snapshot = content.current()
    entry = content.entry_or_404("set", slug)
    record: SetRecord = entry.record  # type: ignore[assignment]
    flagged_keys = {face.key for face in record.cards if is_flagged(face)}
    view = request.args.get("view", "")
    revealed = view if view in flagged_keys else None
    gallery = set_pictures(record)
    backs = back_pictures(record)
    fronts = front_photos(record)
    covered_pictures = [s for s in gallery if s.flag] + [s for _, s in backs if s.flag]
    note_slugs = [face.content_note.note for face in record.cards if face.content_note]
    note_slugs += [s.flag.note for s in covered_pictures if s.flag]
    return render_template(
        "pages/set.html",
        entry=entry,
        record=record,
        facts=fact_rows(record),
        museum=is_museum_object(record),
        match_words=MATCH_WORDS[record.match],
        groups=families(record),
        grouped=any(face.family for face in record.cards),
        suits=standard_suits() if record.deck == "standard-52" else [],
        flagged=[face for face in record.cards if is_flagged(face)],
        flagged_notes=[
            snapshot.notes[slug] for slug in dict.fromkeys(note_slugs) if slug in snapshot.notes
        ],
        revealed=revealed,
        notes=snapshot.notes,
        games=[snapshot.games[s] for s in record.games if s in snapshot.games],
        picture=set_picture(record),
        lead=lead_photo(record),
        gallery=gallery,
        backs=backs,
        fronts=fronts,
        covered_pictures=covered_pictures,
        view_photos=any(covered_url(record, f.image) for f in record.cards if is_flagged(f)),
        photographs=bool(gallery or backs or fronts),
    )


@bp.get("/games/")
def games() -> str:
    """The three games, with the sets each is played with."""
    snapshot = content.current()
    return render_template(
        "pages/games.html",
        games=[(e, sets_playing(snapshot, e.record.key)) for e in snapshot.games.values()],
    )


def _entry_page(kind: str, slug: str, **context: Any) -> str:
    """A game's, a note's or a plain page: ``pages/<kind>.html`` given the entry and its record."""
    entry = content.entry_or_404(kind, slug)
    return render_template(f"pages/{kind}.html", entry=entry, record=entry.record, **context)


@bp.get("/games/<slug>")
def game(slug: str) -> str:
    """A game's history and rules, and the sets to play it with."""
    return _entry_page("game", slug, sets=sets_playing(content.current(), slug))


@bp.get("/notes/<slug>")
def note(slug: str) -> str:
    """A contextual note, e.g. on golliwog imagery, with the sets it concerns."""
    return _entry_page("note", slug, sets=sets_flagged_with(content.current(), slug))


ENTRY_VIEWS = {"set": "pages.set_record", "game": "pages.game", "note": "pages.note"}


def cited_sources(snapshot: Snapshot) -> list[tuple[str, Any, list[tuple[str, str]]]]:
    """Every source of the sources file, with the pages that cite it (title, address)."""
    used: dict[str, list[tuple[str, str]]] = {}
    for kind in ("set", "game", "note", "page"):
        for entry in snapshot.of_kind(kind).values():
            view = ENTRY_VIEWS.get(kind, "pages.page")
            for key in sorted(keys_cited(entry.record, entry.html)):
                url = url_for(view, slug=entry.record.key)
                used.setdefault(key, []).append((entry.record.title, url))
    return [(key, source, used.get(key, [])) for key, source in citing.registry(snapshot).items()]


@bp.get("/pages/<slug>")
def page(slug: str) -> str:
    """A plain page: about, sources (the sources page lists the curators' sources file)."""
    snapshot = content.current()
    return _entry_page(
        "page", slug, cited_sources=cited_sources(snapshot) if slug == "sources" else []
    )


@bp.get("/patterns")
def patterns() -> str:
    """Every component at once: a target for accessibility checks and screenshots."""
    snapshot = content.current()
    demo_set = next(
        (e for e in snapshot.sets.values() if any(is_flagged(f) for f in e.record.cards)),
        next(iter(snapshot.sets.values()), None),
    )
    record = demo_set.record if demo_set else None
    plain = next((f for f in record.cards if not is_flagged(f)), None) if record else None
    flagged = next((f for f in record.cards if is_flagged(f)), None) if record else None
    return render_template(
        "pages/patterns.html",
        record=record,
        plain=plain,
        flagged_face=flagged,
        notes=snapshot.notes,
        facts=fact_rows(record) if record else [],
        sets=list(snapshot.sets.values())[:2],
        photo_demo=next(
            (s for e in snapshot.sets.values() for s in set_pictures(e.record) if s.photo), None
        ),
    )


def init_app(app: Flask) -> None:
    """Register the catalogue pages, and the curators' (kiosk.web.curators)."""
    app.register_blueprint(bp)
    citing.init_app(app)
    curators.init_app(app)
