"""The rules, step by step: every variant's scenario, one engine moment per URL.

``/rules/`` lists each game's variants; ``/rules/<game>/<slug>/<n>`` shows step n (1-based)
of the scenario the catalogue ran through the engine; ``steps.json`` gives the whole
sequence (for the attract loop). Everything a step shows comes from the run: the places
after that step and the engine's public state.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from kiosk.catalogue.scenarios import Run, Step, seat_name, split_source
from kiosk.catalogue.schema import ScenarioRecord, SetRecord, StepCaption
from kiosk.catalogue.store import Entry
from kiosk.games import registry
from kiosk.web.cards import back_src, card_face, dom_id
from kiosk.web.content import current
from kiosk.web.play.games import PlaceStyle, adapter

bp = Blueprint("rules", __name__, url_prefix="/rules")

DWELL_MS = 1600  # how long Play rests on a step once its cards have landed


@dataclass(frozen=True)
class CardView:
    """One card as a step shows it."""

    id: str
    dom: str  # a safe DOM id / view-transition-name part
    src: str
    alt: str
    up: bool
    place: str
    index: int
    css: str = ""  # the class that makes a photograph fill the card ("" for a drawing)


@dataclass(frozen=True)
class PlaceView:
    """One pile, hand or spread of cards, with its label."""

    name: str
    label: str
    cards: list[CardView]
    spread: bool  # cards side by side (hands, the table) rather than stacked
    note: str = ""

    @property
    def count(self) -> str:
        n = len(self.cards)
        return "empty" if n == 0 else f"{n} card" + ("" if n == 1 else "s")


@dataclass(frozen=True)
class AreaView:
    """A player's side of the table, or the middle."""

    label: str
    places: list[PlaceView]
    notes: list[str]
    current: bool = False
    narrow: str = ""  # the label's last words, which step aside in a narrow column


UNNAMED = PlaceStyle("")  # a place its game does not describe: face up, stacked, its own name


def _place(
    run: Run, back: str, name: str, style: PlaceStyle, ids: list[str], printable_only: bool
) -> PlaceView:
    cards = []
    up, spread = style.face_up, style.spread
    for i, cid in enumerate(ids):
        card = run.cards[cid]
        shown = up and (spread or i == len(ids) - 1)
        # a face up shows the set's photograph of the card where it has one (on paper, only
        # one its rights let be printed), else the drawing; its alt is the card's name
        face = card_face(card.face, printable_only=printable_only) if up and card.face else None
        cards.append(
            CardView(
                id=cid,
                dom=dom_id(cid),
                src=face.src if face else back,
                alt=card.name if shown else "",
                up=up,
                place=name,
                index=i,
                css=face.css if face else "",
            )
        )
    kind = name.partition(":")[0]
    note = adapter(run.game).place_note(kind, [run.cards[c] for c in ids]) if ids else ""
    return PlaceView(name, style.label or kind, cards, spread, note)


def _laid_out(
    styles: Mapping[str, PlaceStyle], places: Mapping[str, list[str]]
) -> list[tuple[str, PlaceStyle]]:
    """``places`` (name -> cards) in the order its game lays them out, each with its style: the
    kinds the game names first, in its order, then any other."""
    order = {kind: i for i, kind in enumerate(styles)}
    named = sorted(places, key=lambda n: order.get(n.partition(":")[0], len(order)))
    return [(n, styles.get(n.partition(":")[0], UNNAMED)) for n in named]


def table_of(
    run: Run, step: Step, set_record: SetRecord, back: str, printable_only: bool = False
) -> list[AreaView]:
    """The table after ``step``: the middle first, then each player's side, laid out as the
    game's adapter says (``printable_only``: for paper, a photograph only where its rights let
    it be printed)."""
    game = adapter(run.game)
    public = step.public
    in_middle = {n: ids for n, ids in step.places.items() if ":" not in n}
    middle = [
        _place(run, back, name, style, in_middle[name], printable_only)
        for name, style in _laid_out(game.middle_layout(run.options), in_middle)
        if in_middle[name] or style.always
    ]
    areas = [
        AreaView(
            "The middle of the table", middle, game.table_notes(public), narrow=" of the table"
        )
    ]
    for seat in range(run.players):
        mine = {
            n: c for n, c in step.places.items() if n.rpartition(":")[2] == str(seat) and ":" in n
        }
        areas.append(
            AreaView(
                seat_name(seat),
                [
                    _place(run, back, name, style, mine[name], printable_only)
                    for name, style in _laid_out(game.seat_places, mine)
                ],
                game.seat_notes(public, seat),
                current=public.get("current") == seat and not public.get("over"),
            )
        )
    return areas


def game_table(run: Run, step: Step, set_record: SetRecord) -> Markup | None:
    """The step's table drawn by the game's own table template, as in play (its adapter's
    ``step_table``), or None where the game leaves it to the plain table of places."""
    game = adapter(run.game)
    context = game.step_table(run, step, set_record) if game else None
    if context is None:
        return None
    env = current_app.jinja_env
    parts = {
        "card_parts": env.get_template("cards/_card.html").module,
        "play_parts": env.get_template("play/_parts.html").module,
    }
    return Markup(render_template(f"play/_{game.slug}.html", watch=True, **parts, **context))


@dataclass(frozen=True)
class Caption:
    """What a step says: the curator's words (or the engine's), and the rule quoted."""

    text: str
    happened: str
    quote: str
    source: str


@dataclass(frozen=True)
class TableShape:
    """How many cards a scenario's table ever holds side by side: rules.css sizes the cards
    and picks the table's layout from these.

    Counted over every step, so the cards keep one size while the steps go by: ``slots`` is
    the most cards across an area (a pile counts one, a spread each of its cards), ``stacks``
    the most piles in it, ``spread`` the most cards in its spreads (0: none).
    """

    seats: int
    middle_slots: int
    middle_stacks: int
    middle_spread: int
    seat_slots: int
    seat_stacks: int
    seat_spread: int


def _counts(areas: list[AreaView]) -> tuple[int, int, int]:
    """The slots, piles and spread cards of the fullest area of ``areas``."""
    slots = stacks = spread = 0
    for area in areas:
        piles = [p for p in area.places if not p.spread]
        cards = sum(len(p.cards) for p in area.places if p.spread)
        spreads = sum(max(1, len(p.cards)) for p in area.places if p.spread)
        slots = max(slots, len(piles) + spreads)
        stacks = max(stacks, len(piles))
        spread = max(spread, cards)
    return slots, stacks, spread


def shape_of(run: Run, set_record: SetRecord, back: str) -> TableShape:
    """The most a scenario's table holds at any step (the middle, and any one seat)."""
    middle: list[AreaView] = []
    seats: list[AreaView] = []
    for s in run.steps:
        areas = table_of(run, s, set_record, back)
        middle.append(areas[0])
        seats.extend(areas[1:])
    return TableShape(run.players, *_counts(middle), *_counts(seats))


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
    """The scenario's longest captions: drawn unseen in the caption's place, they make it as
    tall as any step's, so the table beside it keeps its size from step to step."""
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


def _dwell() -> int:
    raw = request.args.get("dwell", "")
    return max(50, min(10_000, int(raw))) if raw.isdigit() else DWELL_MS


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
    back = back_src(set_record)
    module = registry.engine(run.game)
    variant = module.VARIANTS[record.variant]
    current_step = run.steps[n - 1]
    game_entry = snapshot.games.get(game)
    playing = request.args.get("play") == "1"
    dwell = _dwell()
    extra: dict[str, Any] = {"dwell": dwell} if dwell != DWELL_MS else {}

    def at(k: int, **more: Any) -> str:
        return url_for("rules.step", game=game, slug=slug, n=k, **more)

    shape, ghosts = snapshot.kept(
        ("rules-step-shape", game, slug),
        lambda: (
            shape_of(run, set_record, back),
            longest_captions(record, run, variant.source),
        ),
    )
    drawn = game_table(run, current_step, set_record)
    return render_template(
        "rules/step.html",
        game_table=drawn,
        shape=shape,
        ghosts=ghosts,
        record=record,
        run=run,
        step=current_step,
        n=n,
        total=len(run.steps),
        areas=None if drawn else table_of(run, current_step, set_record, back),
        caption=caption_of(record, run, current_step, variant.source),
        variant=variant,
        game_entry=game_entry,
        game_adapter=adapter(run.game),
        set_record=set_record,
        playing=playing and n < len(run.steps),
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
