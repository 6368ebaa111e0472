"""The rules step by step: ``/rules/<game>/<slug>/<n>`` is one engine moment of a scenario the
catalogue ran; ``steps.json`` gives the whole sequence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from kiosk.catalogue.game_words import shown_variants
from kiosk.catalogue.scenarios import Run, Step, split_source
from kiosk.catalogue.schema import ScenarioRecord, SetRecord, StepCaption
from kiosk.catalogue.store import Entry
from kiosk.games import registry
from kiosk.web.content import current
from kiosk.web.play.games import adapter

bp = Blueprint("rules", __name__, url_prefix="/rules")

DWELL_MS = 1600  # how long Play rests on a step once its cards have landed


ID_REFS = re.compile(r'\b(id|aria-labelledby|aria-describedby)="')


def game_table(run: Run, step: Step, set_record: SetRecord, ids: str = "") -> Markup:
    """The table after ``step`` by the game's own template; ``ids`` prefixes ids on shared pages."""
    game = adapter(run.game)
    env = current_app.jinja_env
    parts = {
        "card_parts": env.get_template("cards/_card.html").module,
        "play_parts": env.get_template("play/_parts.html").module,
    }
    context = game.step_table(run, step, set_record)
    html = render_template(f"play/_{game.slug}.html", rule_step=True, **parts, **context)
    return Markup(ID_REFS.sub(rf'\1="{ids}', html) if ids else html)


@dataclass(frozen=True)
class Frame:
    """One step drawn small beside its caption: the attract loop's frames, the printed strip."""

    n: int
    caption: str
    table: Markup


@dataclass(frozen=True)
class Caption:
    """What a step says: the curator's words (or the engine's), and the rule quoted."""

    text: str
    happened: str
    quote: str
    source: str


def _weight(caption: Caption) -> int:
    """About how many lines a caption takes in a narrow column (which one is the longest)."""
    parts = [caption.text, caption.happened, caption.quote, caption.source]
    return sum(-(-len(p) // 36) for p in parts if p)


def caption_of(record: ScenarioRecord, run: Run, step: Step, variant_source: str) -> Caption:
    """The curator's caption for a step, falling back on the engine's words and rule."""
    given = record.steps.get(step.n)
    source, quote = split_source(variant_source)
    text = ""
    if isinstance(given, StepCaption):
        text = given.text
        if given.quote:
            quote = given.quote if given.quote.startswith(("“", '"')) else f"“{given.quote}”"
            source = given.source or ""
    elif isinstance(given, str):
        text = given
    return Caption(text or step.text, step.text if text else "", quote, source)


GHOSTS = 3  # the longest captions a step page holds unseen, so the caption keeps one size


def longest_captions(record: ScenarioRecord, run: Run, variant_source: str) -> list[Caption]:
    """The longest captions, drawn unseen so the table keeps its size from step to step."""
    captions = dict.fromkeys(caption_of(record, run, s, variant_source) for s in run.steps)
    return sorted(captions, key=_weight, reverse=True)[:GHOSTS]


def _scenario(game: str, slug: str) -> tuple[Entry, Run]:
    snapshot = current()
    key = f"{game}/{slug}"
    entry = snapshot.scenarios.get(key)
    run = snapshot.runs.get(key)
    if entry is None or run is None:
        abort(404)
    return entry, run


@bp.get("/")
def index() -> str:
    """Every game with its variants, each with what is different and the seed it comes from."""
    snapshot = current()
    games = []
    for slug, entry in snapshot.games.items():
        module = registry.engine(entry.record.engine)
        scenarios = [e for e in snapshot.scenarios.values() if e.record.game == slug]
        variants = []
        for variant in shown_variants(entry.record, module).values():
            source, quote = split_source(variant.source)
            examples = [e for e in scenarios if e.record.variant == variant.name]
            variants.append(
                {"variant": variant, "source": source, "quote": quote, "examples": examples}
            )
        games.append({"entry": entry, "variants": variants})
    return render_template("rules/index.html", games=games)


@bp.get("/<game>/<slug>")
def first(game: str, slug: str) -> Response:
    """A scenario's address without a step: its first step."""
    _scenario(game, slug)
    return redirect(url_for("rules.step", game=game, slug=slug, n=1))


@bp.get("/<game>/<slug>/steps.json")
def steps_json(game: str, slug: str) -> Response:
    """The whole sequence as JSON, for the attract loop and for scripts."""
    entry, run = _scenario(game, slug)
    record = entry.record
    assert isinstance(record, ScenarioRecord)
    variant = registry.engine(run.game).VARIANTS[record.variant]
    steps = []
    for s in run.steps:
        caption = caption_of(record, run, s, variant.source)
        steps.append(
            {
                **s.to_json(),
                "caption": caption.text,
                "quote": caption.quote,
                "source": caption.source,
                "url": url_for("rules.step", game=game, slug=slug, n=s.n),
            }
        )
    return jsonify(
        {
            "game": game,
            "slug": slug,
            "variant": record.variant,
            "title": record.title,
            "steps": steps,
        }
    )


@bp.get("/<game>/<slug>/<int:n>")
def step(game: str, slug: str, n: int) -> str:
    """Step n of a scenario: the table, the caption, and the controls."""
    entry, run = _scenario(game, slug)
    if not 1 <= n <= len(run.steps):
        abort(404)
    record = entry.record
    assert isinstance(record, ScenarioRecord)
    snapshot = current()
    set_entry = snapshot.sets.get(record.deck)
    if set_entry is None:  # pragma: no cover - a published scenario's set is published
        abort(404)
    set_record = set_entry.record
    assert isinstance(set_record, SetRecord)
    variant = registry.engine(run.game).VARIANTS[record.variant]
    current_step = run.steps[n - 1]
    raw = request.args.get("dwell", "")
    dwell = max(50, min(10_000, int(raw))) if raw.isdigit() else DWELL_MS
    extra: dict[str, Any] = {"dwell": dwell} if dwell != DWELL_MS else {}

    def at(k: int, **more: Any) -> str:
        return url_for("rules.step", game=game, slug=slug, n=k, **more)

    return render_template(
        "rules/step.html",
        game_table=game_table(run, current_step, set_record),
        ghosts=longest_captions(record, run, variant.source),
        record=record,
        run=run,
        step=current_step,
        n=n,
        total=len(run.steps),
        caption=caption_of(record, run, current_step, variant.source),
        variant=variant,
        game_entry=snapshot.games.get(game),
        game_adapter=adapter(run.game),
        set_record=set_record,
        playing=request.args.get("play") == "1" and n < len(run.steps),
        dwell=dwell,
        prev_url=at(n - 1, **extra) if n > 1 else None,
        next_url=at(n + 1, **extra) if n < len(run.steps) else None,
        play_url=at(n + 1, play=1, **extra) if n < len(run.steps) else at(1, play=1, **extra),
        pause_url=at(n, **extra),
        start_url=at(1, **extra),
        index_url=url_for("rules.index"),
    )


def init_app(app: Flask) -> None:
    """Register the rules pages."""
    app.register_blueprint(bp)
