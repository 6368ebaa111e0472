"""The one play flow: setup, start, act, bad tokens and the no-JavaScript path, for every game.

No server state: every table carries a signed game record (:mod:`kiosk.web.tokens`); each
POST replays the record with the game's engine, does what the tapped button asks and sends
back the new table and a new token. Every button is a real form, so a game works without
JavaScript; with it, ``play.js`` paces the computer players and htmx swaps the game in place
(the table's own posts get only the game region back). What differs from game to game comes
from its :class:`~kiosk.web.play.games.PlayGame` (``GAMES``, by slug). Each worker keeps the
games it replayed lately in a :class:`~kiosk.memo.Memo` (``PLAY_STATE_CACHE`` entries), so the
next action of a game usually applies one action, not 500: an optimisation only, a miss
replays. Starts and ends of games are counted for the curators (:func:`insights.count_game`).
"""

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
from werkzeug.wrappers import Response

from kiosk.catalogue.decks import flagged_faces
from kiosk.catalogue.schema import SetRecord
from kiosk.games.cards import Card
from kiosk.games.core import GameError
from kiosk.memo import Memo
from kiosk.web import content, insights, tokens
from kiosk.web.cards import back_src
from kiosk.web.play import happy_families, snap, snitchems
from kiosk.web.play.games import HUMAN, Game, NotOnTheList, PlayGame

bp = Blueprint("play", __name__)

GAMES: dict[str, PlayGame] = {g.slug: g for g in (snap.GAME, happy_families.GAME, snitchems.GAME)}
FIRST = snap.GAME.slug  # the game of a set's short addresses, /sets/<slug>/play[/act]
STATE_CACHE_SIZE = 256  # games kept per process (a few kB each): far more than kiosks in use
CACHE_EXTENSION = "play.state_cache"
SETUP_EXTENSION = "play.setup_contexts"
STALE = "That tap was meant for an earlier moment of the game. Here is the game as it is now."
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

_decks: Memo[tuple[list[Card], str]] = Memo(64)  # (game, set) → deck and fingerprint


# ----------------------------------------------------------------- sets, decks, setup


def game_or_404(game: str, slug: str) -> tuple[PlayGame, SetRecord]:
    """The game and the set with these slugs if the set is played with it, else a 404."""
    plugin = GAMES.get(game)
    entry = content.current().sets.get(slug)
    if plugin is None or entry is None or not plugin.plays(entry.record):  # type: ignore[arg-type]
        abort(404)
    return plugin, entry.record  # type: ignore[return-value]


def deck_and_print(game: PlayGame, set_record: SetRecord) -> tuple[list[Card], str]:
    """The set's deck for ``game`` and its fingerprint, made once per content version."""

    def make() -> tuple[list[Card], str]:
        deck = game.deck(set_record)
        return deck, tokens.deck_fingerprint([c.id for c in deck])

    return _decks.value((game.slug, set_record.key), make, content.current().version)


def setup_context(game: PlayGame, set_record: SetRecord) -> dict[str, Any]:
    """The setup page's choices and what every table of the set shows the same: made once per
    game, set, content version and mount point, and a fresh dict each time for the caller."""
    if current_app.debug:  # edited templates show at once
        return _setup_context(game, set_record)
    kept = current_app.extensions.get(SETUP_EXTENSION)
    if kept is None:
        kept = current_app.extensions.setdefault(SETUP_EXTENSION, Memo(64))
    key = (game.slug, set_record.key, request.script_root)
    version = content.current().version
    return dict(kept.value(key, lambda: _setup_context(game, set_record), version))


def _setup_context(game: PlayGame, set_record: SetRecord) -> dict[str, Any]:
    snapshot = content.current()
    flagged = flagged_faces(set_record)
    notes = []
    for slug in dict.fromkeys(f.content_note.note for f in flagged if f.content_note):
        entry = snapshot.notes.get(slug)
        notes.append((url_for("pages.note", slug=slug), entry.record.title if entry else slug))
    parts = current_app.jinja_env.get_template("play/_parts.html").module
    deck = deck_and_print(game, set_record)[0]
    urls = {"game": game.slug, "slug": set_record.key}
    return {
        "game": game,
        "record": set_record,
        "flagged": flagged,
        "flagged_notes": notes,
        # the same for every action of a game: rendered here, once per set and version
        "flagged_notice": parts.flagged_notice(flagged, notes),  # type: ignore[attr-defined]
        "deck_size": len(deck),
        "setup_url": url_for("play.setup", **urls),
        "start_url": url_for("play.start", **urls),
        "act_url": url_for("play.act_post", **urls),
        "back": back_src(set_record),
        **game.choices(set_record, deck),
    }


# ----------------------------------------------------------------- records and replay


def state_cache() -> Memo[tuple[tuple[Any, ...], Any]]:
    """This app's games replayed lately (``PLAY_STATE_CACHE`` entries; 0 keeps none).

    Each entry is one game's state after a record's actions, keyed by everything that makes
    the game (game, nonce, set, deck, options; content version) and kept with those actions. A
    record whose actions begin with an entry's takes that state out and applies only the
    actions after it (``apply`` makes new states: the kept one is never changed); anything
    else replays in full. Keys come only from records whose signature was checked, and a state
    is a pure function of its key and actions, so one visitor's token cannot change what
    another's replays to. Each worker has its own; an entry in another worker is still a prefix
    of the record and carries forward.
    """
    cache = current_app.extensions.get(CACHE_EXTENSION)
    if cache is None:
        size = int(current_app.config.get("PLAY_STATE_CACHE", STATE_CACHE_SIZE))
        cache = current_app.extensions.setdefault(CACHE_EXTENSION, Memo(size))
    return cache


def _cache_key(game: PlayGame, record: tokens.GameRecord, options: Any) -> tuple:
    # the nonce stands for the seed: one app has one secret, so one nonce makes one seed
    return (game.slug, record.nonce, record.set_slug, record.deck, options)


def new_record(game: PlayGame, set_record: SetRecord, options: Any, settings: dict) -> Any:
    """A new game's record: a fresh nonce and the fingerprint of the deck it is dealt from."""
    return tokens.GameRecord(
        game=game.slug,
        set_slug=set_record.key,
        options=options.to_json(),
        nonce=current_app.config.get("PLAY_NONCE") or tokens.new_nonce(),  # tests fix the deal
        deck=deck_and_print(game, set_record)[1],
        settings=settings,
    )


def rebuild(game: PlayGame, record: tokens.GameRecord, set_record: SetRecord) -> Game:
    """Replay a record on the set's deck (raises BadToken if it no longer makes a game)."""
    if record.set_slug != set_record.key:
        raise tokens.BadToken("wrong-set", record.set_slug)
    deck, fingerprint = deck_and_print(game, set_record)
    if fingerprint != record.deck:
        raise tokens.BadToken("cards-changed")
    if game.needs_level and record.settings.get("level") not in game.engine.LEVELS:
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
            for action in game.decode_actions(record.actions[done:]):
                state, _ = engine.apply(state, action)
        else:
            seed = tokens.seed_for(record.nonce)
            state = engine.replay(deck, options, seed, game.decode_actions(record.actions))
    except (GameError, TypeError, KeyError, ValueError) as exc:
        raise tokens.BadToken("malformed", str(exc)) from None
    return Game(record, state)


def keep(game: PlayGame, played: Game) -> None:
    """Keep the state for this game's next action (call once the request is done with it)."""
    if not played.recorded:  # e.g. a late call, which the record leaves out
        return
    key = _cache_key(game, played.record, played.state.options)
    state_cache().put(key, (played.record.actions, played.state), content.current().version)


# ----------------------------------------------------------------- counting


def count(game: PlayGame, played: Game, set_record: SetRecord, event: str) -> None:
    """Count a game started or finished (with its outcome and length) for the curators."""
    variant, level, bots = game.settings(played)
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


# ----------------------------------------------------------------- pages


def wants_region() -> bool:
    """The table's own htmx post (not a boosted page): the game region alone is sent."""
    headers = request.headers
    return headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true"


def render_game(
    game: PlayGame, played: Game, set_record: SetRecord, note: str | None = None, status: int = 200
) -> tuple[str, int]:
    """The game page (or, for the table's own htmx post, just the game region)."""
    ctx = setup_context(game, set_record)
    ctx.update(game.table(played, set_record, ctx, note))
    variant, level, bots = game.settings(played)
    ctx.update(
        token=tokens.dump(played.record),
        step=len(played.record.actions),
        pace=game.pace_ms(played),
        over=game.engine.is_over(played.state),
        again={"variant": variant, "level": level, "bots": bots},
    )
    template = "play/_region.html" if wants_region() else "play/page.html"
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


# ----------------------------------------------------------------- views


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
    try:
        options, settings = plugin.start(set_record, request.form)
        record = new_record(plugin, set_record, options, settings)
        deck = deck_and_print(plugin, set_record)[0]
        state, events = plugin.engine.new_game(deck, options, tokens.seed_for(record.nonce))
    except NotOnTheList as refused:
        return render_setup(plugin, set_record, refused.words)
    except GameError as exc:
        return render_setup(plugin, set_record, f"This set cannot be played: {exc}.")
    played = Game(record, state, list(events) if plugin.says_the_deal else [])
    page = render_game(plugin, played, set_record)
    count(plugin, played, set_record, "started")
    keep(plugin, played)
    return page


@bp.get("/sets/<slug>/play/act", defaults={"game": FIRST})
@bp.get("/sets/<slug>/play/<game>/act")
def act_get(slug: str, game: str) -> Response:
    """A bookmarked or reloaded action address: back to the setup."""
    game_or_404(game, slug)
    return redirect(url_for("play.setup", game=game, slug=slug), code=303)


@bp.post("/sets/<slug>/play/act", defaults={"game": FIRST})
@bp.post("/sets/<slug>/play/<game>/act")
def act_post(slug: str, game: str) -> tuple[str, int]:
    """One visitor action on the game in the token.

    A button that is not one of the game's is a 400 with the table; a tap whose step counter
    is not the game's (a double tap, a late tap) changes nothing and shows the game as it is;
    an action the rules refuse is a 400 with the table as it was.
    """
    plugin, set_record = game_or_404(game, slug)
    form: Mapping[str, str] = request.form
    try:
        played = rebuild(plugin, tokens.load(form.get("token"), plugin.slug), set_record)
    except tokens.BadToken as error:
        return bad_token(plugin, set_record, error)
    was_over = plugin.engine.is_over(played.state)
    if plugin.button(form) not in plugin.buttons:
        page = render_game(plugin, played, set_record, NOT_A_BUTTON, 400)
    elif plugin.stepped and form.get("step") != str(len(played.record.actions)):
        page = render_game(plugin, played, set_record, STALE)
    else:
        try:
            note = plugin.act(played, form)
        except GameError as error:  # the rules refused it: the table stays as it was
            played = rebuild(plugin, played.record, set_record)
            note = getattr(error, "words", "That cannot be done now.")
            page = render_game(plugin, played, set_record, note, 400)
        else:
            page = render_game(plugin, played, set_record, note)
    if not was_over and plugin.engine.is_over(played.state):
        count(plugin, played, set_record, "finished")
    keep(plugin, played)  # last: from here on another request may take this state and change it
    return page


def init_app(app: Flask) -> None:
    """Register the play pages of every game."""
    # /sets/<slug>/play/snap is served as it is, not redirected to Snap's short address (the
    # rule whose default it matches): both are public. No other rule of the kiosk has defaults.
    app.url_map.redirect_defaults = False
    app.register_blueprint(bp)
