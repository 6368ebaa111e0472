"""The attract loop (``/attract/<n>``: sets and safe rule step-throughs taking turns; an htmx
request gets the slide alone, for kiosk-mode.js) and kiosk mode's idle timings.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Flask, abort, current_app, render_template, url_for

from kiosk.catalogue.citations import plain
from kiosk.catalogue.scenarios import sequence
from kiosk.catalogue.schema import SetRecord
from kiosk.catalogue.store import Snapshot
from kiosk.catalogue.words import word
from kiosk.config import kiosk_timings
from kiosk.web import content
from kiosk.web.cards import back_src, find_face
from kiosk.web.pages import (
    NOT_RECORDED,
    Picture,
    is_flagged,
    is_museum_object,
    set_picture,
    wants_fragment,
)
from kiosk.web.play.games import PlayGame, adapter
from kiosk.web.rules import Frame, game_table

log = logging.getLogger(__name__)

bp = Blueprint("attract", __name__, url_prefix="/attract")

STEP_MS = 2600  # a rule step rests this long on the attract screen: time to read its caption


@dataclass(frozen=True)
class Slide:
    """One slide of the reel: a set, or a rule played step by step."""

    kind: str  # "set" or "rules"
    title: str
    url: str  # the page a visitor would go to for more
    kicker: str = ""  # the line above a set's title
    lines: list[tuple[str, str]] = field(default_factory=list)  # (label, value)
    summary: str = ""
    picture: Picture | None = None
    back: str = ""
    game_title: str = ""
    frames: list[Frame] = field(default_factory=list)
    game: PlayGame | None = None  # a rule's game, whose table (and its CSS) the frames draw


def safe_scenario(snapshot: Snapshot, key: str) -> bool:
    """True when no card of the scenario's run is a flagged face: the attract loop shows it."""
    run = snapshot.runs.get(key)
    if run is None:
        return False
    for card in run.cards.values():
        set_slug, _, face_slug = (card.face or "").partition("/")
        entry = snapshot.sets.get(set_slug)
        if entry is None:
            continue  # a standard pack's face: nothing contested
        face = find_face(entry.record, face_slug)  # type: ignore[arg-type]
        if face is not None and is_flagged(face):
            return False
    return True


def reel(snapshot: Snapshot) -> list[tuple[str, str]]:
    """The slides in order, as (kind, key): sets and safe rule step-throughs taking turns."""
    sets = [("set", key) for key in snapshot.sets]
    rules = [
        ("rules", f"{item['game']}/{item['slug']}")
        for item in sequence(snapshot)
        if safe_scenario(snapshot, f"{item['game']}/{item['slug']}")
    ]
    out: list[tuple[str, str]] = []
    for i in range(max(len(sets), len(rules))):
        if sets:
            out.append(sets[i % len(sets)])
        if i < len(rules):
            out.append(rules[i])
    return out


def set_kicker(record: SetRecord) -> str:
    """ "In the collection" only for an object a museum holds; any other set says what it is."""
    if is_museum_object(record):
        return word(content.current().words, "in-the-collection")
    return record.object_type or ""


def _set_slide(snapshot: Snapshot, key: str) -> Slide:
    record: SetRecord = snapshot.sets[key].record  # type: ignore[assignment]
    return Slide(
        kind="set",
        title=record.title,
        url=url_for("pages.set_record", slug=key),
        kicker=set_kicker(record),
        lines=[
            ("Date", plain(record.date or NOT_RECORDED)),
            ("Maker", plain(record.maker or NOT_RECORDED)),
        ],
        summary=plain(record.attract_summary or record.summary),
        picture=set_picture(record),
        back=back_src(record),
    )


def _rules_slide(snapshot: Snapshot, key: str) -> Slide:
    entry = snapshot.scenarios[key]
    run = snapshot.runs[key]
    record = entry.record
    item = next(i for i in sequence(snapshot) if f"{i['game']}/{i['slug']}" == key)
    set_record: SetRecord = snapshot.sets[record.deck].record  # type: ignore[assignment]
    frames = [
        Frame(step.n, shown["caption"], game_table(run, step, set_record, f"a{step.n}-"))
        for step, shown in zip(run.steps, item["steps"], strict=True)
    ]
    game = snapshot.games.get(record.game)
    return Slide(
        kind="rules",
        title=record.title,
        url=url_for("rules.step", game=record.game, slug=record.slug, n=1),
        summary=plain(record.summary),
        game_title=game.record.title if game else "",
        frames=frames,
        game=adapter(record.game),
    )


@bp.get("/")
@bp.get("/<int:n>")
def slide(n: int = 1) -> str:
    """Slide n of the attract loop (a whole page, or only the slide for an htmx request)."""
    snapshot = content.current()
    slides = reel(snapshot)
    if not 1 <= n <= len(slides):
        abort(404)
    kind, key = slides[n - 1]
    shown = _set_slide(snapshot, key) if kind == "set" else _rules_slide(snapshot, key)
    context: dict[str, Any] = {
        "slide": shown,
        "n": n,
        "total": len(slides),
        "next_url": url_for("attract.slide", n=n % len(slides) + 1),
        "prev_url": url_for("attract.slide", n=(n - 2) % len(slides) + 1),
        "slide_ms": current_app.config["ATTRACT_SLIDE_SECONDS"] * 1000,
        "step_ms": STEP_MS,
    }
    if wants_fragment():
        return render_template("attract/_slide.html", heading="h2", **context)
    return render_template("attract/slide.html", heading="h1", **context)


@bp.app_context_processor
def _kiosk_context() -> dict[str, Any]:
    config = current_app.config
    return {
        "kiosk_idle_ms": config["IDLE_SECONDS"] * 1000,
        "kiosk_countdown_ms": config["COUNTDOWN_SECONDS"] * 1000,
    }


def init_app(app: Flask) -> None:
    """Register the slides; settle the kiosk-mode timings once, saying what was changed."""
    timings, said = kiosk_timings(app.config, testing=app.testing)
    for message in said:
        log.warning("kiosk mode: %s", message)
    app.config.update(timings)
    app.register_blueprint(bp)
