"""The one play flow for every game (docs/play.md): no server state, every table carries a signed
record that each POST replays; each worker keeps lately replayed games (:func:`state_cache`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from jinja2 import TemplateNotFound
from werkzeug.wrappers import Response

from kiosk.catalogue.decks import flagged_faces
from kiosk.catalogue.schema import SetRecord
from kiosk.games import registry
from kiosk.games.cards import Card
from kiosk.games.core import DeckRefused, GameError
from kiosk.memo import Memo
from kiosk.web import content, insights, tokens
from kiosk.web.cards import back_src
from kiosk.web.play.games import (
    HUMAN,
    NotOnTheList,
    Played,
    PlayGame,
    adapter,
    adapters,
    blueprint_name,
)

bp = Blueprint("play", __name__)

FIRST = registry.names()[0]  # the game of a set's short addresses, /sets/<slug>/play[/act]
STATE_CACHE_SIZE = 256  # games kept per process (a few kB each): far more than kiosks in use
CACHE_EXTENSION = "play.state_cache"
UNPLAYABLE = "These cards cannot be used for {game}: please choose another game or set."
STALE = "That tap was meant for an earlier moment of the game. Here is the game as it is now."
RESUMED = "Here is your game, as you left it."  # a reload, Back or Forward brought it back
NOT_A_BUTTON = "That button is not part of this game."
BAD_TOKEN_WORDS = {
    "missing": "This game's cards were not sent with the page.",
    "tampered": "This game's record has been changed, so the kiosk cannot trust it.",
    "restarted": "This game was started before the kiosk restarted, so it cannot carry on.",
    "expired": "This game was left for a long time, so it has been put away.",
    "malformed": "The kiosk could not read this game's record.",
    "wrong-game": "That record belongs to another game.",
    "wrong-set": "That record belongs to another set of cards.",
    "cards-changed": "The cards of this set have changed since the game began.",
}


def game_or_404(game: str, slug: str) -> tuple[PlayGame, SetRecord]:
    """The game and the set with these slugs if the set is played with it, else a 404."""
    plugin = adapter(game) if game in registry.names() else None
    entry = content.current().sets.get(slug)
    if plugin is None or entry is None or not plugin.plays(entry.record):  # type: ignore[arg-type]
        abort(404)
    return plugin, entry.record  # type: ignore[return-value]


def deck_and_fingerprint(game: PlayGame, set_record: SetRecord) -> tuple[list[Card], str]:
    """The set's deck for ``game`` and its fingerprint, once a snapshot (empty: it cannot play)."""

    decks, key = content.derived().decks, (game.slug, set_record.key)
    found = decks.get(key)
    if found is None:
        try:
            deck = game.deck(set_record)
            found = deck, tokens.deck_fingerprint([c.id for c in deck])
        except DeckRefused:
            found = [], ""
        found = decks.setdefault(key, found)
    return found


def setup_context(game: PlayGame, set_record: SetRecord) -> dict[str, Any]:
    """The setup context, once a snapshot per game, set and mount; a fresh dict for the caller."""
    if current_app.debug:  # edited templates show at once
        return _setup_context(game, set_record)
    setups, key = content.derived().setups, (game.slug, set_record.key, request.script_root)
    found = setups.get(key)
    if found is None:
        found = setups.setdefault(key, _setup_context(game, set_record))
    return dict(found)


def _setup_context(game: PlayGame, set_record: SetRecord) -> dict[str, Any]:
    snapshot = content.current()
    flagged = flagged_faces(set_record)
    notes = []
    for slug in dict.fromkeys(f.content_note.note for f in flagged if f.content_note):
        entry = snapshot.notes.get(slug)
        notes.append((url_for("pages.note", slug=slug), entry.record.title if entry else slug))
    # The tables' macros, imported once here: an {% import %} in a table would cost its
    # render a comparison of the template globals on every action (about 20 us each).
    parts = current_app.jinja_env.get_template("play/_parts.html").module
    card_parts = current_app.jinja_env.get_template("cards/_card.html").module
    deck = deck_and_fingerprint(game, set_record)[0]
    urls = {"game": game.slug, "slug": set_record.key}
    return {
        "game": game,
        "record": set_record,
        "flagged": flagged,
        "flagged_notes": notes,
        "play_parts": parts,
        "card_parts": card_parts,
        "deck_size": len(deck),
        "unplayable": None if deck else UNPLAYABLE.format(game=game.title),
        "setup_url": url_for("play.setup", **urls),
        "start_url": url_for("play.start", **urls),
        "act_url": url_for("play.act_post", **urls),
        "resume_url": url_for("play.resume", **urls),
        "rules_urls": {
            name: url_for("rules.first", game=game.slug, slug=example(game.slug, name))
            for name in game.engine.VARIANTS
        },
        "back": back_src(set_record),
        **game.choices(set_record, deck),
    }


def state_cache() -> Memo[tuple[tuple[Any, ...], Any]]:
    """Lately replayed games by what makes them, so an action applies one action, not 500.

    A record whose actions begin with an entry's applies only the rest (``apply`` never changes
    the kept state); keys come only from signed records, so no token changes another's game."""
    cache = current_app.extensions.get(CACHE_EXTENSION)
    if cache is None:
        size = int(current_app.config.get("PLAY_STATE_CACHE", STATE_CACHE_SIZE))
        cache = current_app.extensions.setdefault(CACHE_EXTENSION, Memo(size))
    return cache


def _cache_key(game: PlayGame, record: tokens.PlayRecord, options: Any) -> tuple:
    # the nonce stands for the seed: one app has one secret, so one nonce makes one seed
    return (game.slug, record.nonce, record.set_slug, record.deck, options)


def new_record(game: PlayGame, set_record: SetRecord, options: Any, settings: dict) -> Any:
    """A new game's record: a fresh nonce and the fingerprint of the deck it is dealt from."""
    return tokens.PlayRecord(
        game=game.slug,
        set_slug=set_record.key,
        options=options.to_json(),
        nonce=current_app.config.get("PLAY_NONCE") or tokens.new_nonce(),  # tests fix the deal
        deck=deck_and_fingerprint(game, set_record)[1],
        settings=settings,
    )


def rebuild(game: PlayGame, record: tokens.PlayRecord, set_record: SetRecord) -> Played:
    """Replay a record on the set's deck (raises BadToken if it no longer makes a game)."""
    if record.set_slug != set_record.key:
        raise tokens.BadToken("wrong-set", record.set_slug)
    deck, fingerprint = deck_and_fingerprint(game, set_record)
    if fingerprint != record.deck:
        raise tokens.BadToken("cards-changed")
    if not game.own_script and record.settings.get("level") not in game.engine.LEVELS:
        raise tokens.BadToken("malformed", "no computer level")
    engine = game.engine
    try:
        options = engine.options_from_json(record.options)
        kept = state_cache().take(
            _cache_key(game, record, options),
            content.current().version,
            fits=lambda found: record.actions[: len(found[0])] == found[0],
        )
        if kept is not None:
            done, state = len(kept[0]), kept[1]
            for action in map(game.decode_action, record.actions[done:]):
                state, _ = engine.apply(state, action)
        else:
            seed = tokens.seed_for(record.nonce)
            actions = [game.decode_action(item) for item in record.actions]
            state = engine.replay(deck, options, seed, actions)
    except (GameError, TypeError, KeyError, ValueError) as exc:
        raise tokens.BadToken("malformed", str(exc)) from None
    return Played(record, state)


def keep(game: PlayGame, played: Played) -> None:
    """Keep the state for this game's next action (call once the request is done with it)."""
    if not played.recorded:  # e.g. a late call, which the record leaves out
        return
    key = _cache_key(game, played.record, played.state.options)
    state_cache().put(key, (played.record.actions, played.state), content.current().version)


def settings(game: PlayGame, played: Played) -> tuple[str, str, int]:
    """The game's variant, computer level and number of computer players (counts, "again")."""
    o = played.state.options
    variant = getattr(o, "variant", None) or played.record.settings.get("variant")
    variant = variant or next(iter(game.engine.VARIANTS))
    return variant, o.level, o.players - len(getattr(o, "humans", (HUMAN,)))


def example(slug: str, variant: str) -> str:
    """The rule example a table links to: the one named after ``variant``, else its first."""
    scenarios = content.current().scenarios
    if f"{slug}/{variant}" in scenarios:
        return variant
    found = (e.record for e in scenarios.values() if e.record.game == slug)
    return next((r.slug for r in found if r.variant == variant), variant)  # type: ignore[union-attr]


def count(game: PlayGame, played: Played, set_record: SetRecord, event: str) -> None:
    """Count a game started or finished (with its outcome and length) for the curators."""
    variant, level, bots = settings(game, played)
    outcome, length = "", None
    if event == "finished":
        winners = game.engine.result(played.state)["winners"]
        outcome = "lost" if HUMAN not in winners else "won" if len(winners) == 1 else "shared"
        length = len(played.record.actions)
    insights.count_game(
        event,
        set_slug=set_record.key,
        game=game.slug,
        variant=variant,
        level=level,
        bots=bots,
        outcome=outcome,
        length=length,
    )


def wants_region() -> bool:
    """The table's own htmx post (not a boosted page): the game region alone is sent."""
    headers = request.headers
    return headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true"


def render_game(
    game: PlayGame,
    played: Played,
    set_record: SetRecord,
    note: str | None = None,
    status: int = 200,
    over: bool | None = None,
) -> tuple[str, int]:
    """The game page, or the region alone for the table's own post (``over``: asked already)."""
    ctx = setup_context(game, set_record)
    ctx.update(game.table(played, set_record, ctx, note))
    variant, level, bots = settings(game, played)
    ctx.update(
        token=tokens.dump(played.record),
        step=len(played.record.actions),
        pace=game.pace_ms(played),
        over=game.engine.is_over(played.state) if over is None else over,
        again={"variant": variant, "level": level, "bots": bots, **ctx.get("again_more", {})},
    )
    # the table's own post: the game's table template itself (an include would copy the
    # whole context once more), else the page around it
    template = f"play/_{game.slug}.html" if wants_region() else "play/page.html"
    return render_template(template, **ctx), status


def render_setup(game: PlayGame, set_record: SetRecord, error: str | None = None) -> Any:
    """The setup page (400 with the words of what went wrong, when ``error`` is given)."""
    ctx = setup_context(game, set_record)
    page = render_template("play/setup.html", error=error, **ctx)
    return (page, 400) if error else page


def bad_token(game: PlayGame, set_record: SetRecord, error: tokens.BadToken) -> tuple[str, int]:
    """The friendly "start a new game" page, status 400, for any game's bad token."""
    words = BAD_TOKEN_WORDS.get(error.reason, BAD_TOKEN_WORDS["malformed"])
    return render_template(
        "play/bad_token.html",
        game=game,
        record=set_record,
        words=words,
        setup_url=url_for("play.setup", game=game.slug, slug=set_record.key),
    ), 400


@bp.get("/sets/<slug>/play", defaults={"game": FIRST})
@bp.get("/sets/<slug>/play/<game>")
def setup(slug: str, game: str) -> Any:
    """Choose the computer players, their level and the rules; then Start."""
    return render_setup(*game_or_404(game, slug))


@bp.post("/sets/<slug>/play", defaults={"game": FIRST})
@bp.post("/sets/<slug>/play/<game>")
def start(slug: str, game: str) -> Any:
    """Deal a new game with the chosen setup and show the table."""
    plugin, set_record = game_or_404(game, slug)
    deck = deck_and_fingerprint(plugin, set_record)[0]
    if not deck:
        return render_setup(plugin, set_record, UNPLAYABLE.format(game=plugin.title))
    try:
        options, settings = plugin.start(set_record, request.form)
        record = new_record(plugin, set_record, options, settings)
        state, events = plugin.engine.new_game(deck, options, tokens.seed_for(record.nonce))
    except NotOnTheList as refused:
        return render_setup(plugin, set_record, refused.words)
    except GameError as exc:
        return render_setup(plugin, set_record, f"This set cannot be played: {exc}.")
    played = Played(record, state, [] if plugin.own_script else list(events))
    page = render_game(plugin, played, set_record)
    count(plugin, played, set_record, "started")
    keep(plugin, played)
    return page


@bp.get("/sets/<slug>/play/act", defaults={"game": FIRST})
@bp.get("/sets/<slug>/play/<game>/act")
@bp.get("/sets/<slug>/play/resume", defaults={"game": FIRST})
@bp.get("/sets/<slug>/play/<game>/resume")
def act_get(slug: str, game: str) -> Response:
    """A bookmarked or reloaded action or resume address: back to the setup."""
    game_or_404(game, slug)
    return redirect(url_for("play.setup", game=game, slug=slug), code=303)


@bp.post("/sets/<slug>/play/resume", defaults={"game": FIRST})
@bp.post("/sets/<slug>/play/<game>/resume")
def resume(slug: str, game: str) -> tuple[str, int]:
    """The game in the token as it stands (play.js, after a reload, Back or Forward)."""
    plugin, set_record = game_or_404(game, slug)
    try:
        played = rebuild(plugin, tokens.load(request.form.get("token"), plugin.slug), set_record)
    except tokens.BadToken as error:
        return bad_token(plugin, set_record, error)
    page = render_game(plugin, played, set_record, RESUMED)
    keep(plugin, played)
    return page


@bp.post("/sets/<slug>/play/act", defaults={"game": FIRST})
@bp.post("/sets/<slug>/play/<game>/act")
def act_post(slug: str, game: str) -> tuple[str, int]:
    """One visitor action: a foreign button or a refusal is a 400; a stale tap changes nothing."""
    plugin, set_record = game_or_404(game, slug)
    form: Mapping[str, str] = request.form
    try:
        played = rebuild(plugin, tokens.load(form.get("token"), plugin.slug), set_record)
    except tokens.BadToken as error:
        return bad_token(plugin, set_record, error)
    over = was_over = plugin.engine.is_over(played.state)
    if form.get(plugin.field, "").partition(":")[0] not in plugin.buttons:
        page = render_game(plugin, played, set_record, NOT_A_BUTTON, 400, over)
    elif not plugin.own_script and form.get("step") != str(len(played.record.actions)):
        page = render_game(plugin, played, set_record, STALE, over=over)
    else:
        before = Played(played.record, played.state)  # states are never changed, only replaced
        try:
            note = plugin.act(played, form)
        except GameError as error:  # the rules refused it: the table stays as it was
            played = before
            note = getattr(error, "words", "That cannot be done now.")
            page = render_game(plugin, played, set_record, note, 400, over)
        else:
            over = plugin.engine.is_over(played.state)
            page = render_game(plugin, played, set_record, note, over=over)
    if over and not was_over:
        count(plugin, played, set_record, "finished")
    keep(plugin, played)  # last: from here on another request may take this state and change it
    return page


def missing_parts(app: Flask) -> list[str]:
    """What a registered game lacks to be played here: its web adapter, or its templates."""
    found = []
    plugins = adapters()
    for slug in registry.names():
        plugin = plugins.get(slug)
        if plugin is None:
            found.append(f"game {slug!r} has no web adapter: a web.py beside its engine with GAME")
            continue
        for name in (f"play/_{slug}.html", f"play/_{slug}-setup.html"):
            try:
                app.jinja_env.get_template(name)
            except TemplateNotFound:
                found.append(f"game {slug!r} has no template {name}")
    return found


def init_app(app: Flask) -> None:
    """Register the play pages of every game, and check that each has what it needs."""
    # /sets/<slug>/play/snap is served as it is, not redirected to Snap's short address (the
    # rule whose default it matches): both are public. No other rule of the kiosk has defaults.
    app.url_map.redirect_defaults = False
    app.register_blueprint(bp)
    for plugin in adapters().values():  # each game's own templates and static files
        app.register_blueprint(
            Blueprint(
                blueprint_name(plugin.slug),
                __name__,
                template_folder=plugin.folder / "templates",
                static_folder=plugin.folder / "static",
                static_url_path=f"/play-static/{plugin.slug}",
            )
        )
    missing = missing_parts(app)
    if missing:
        raise RuntimeError("a registered game cannot be played: " + "; ".join(missing))
