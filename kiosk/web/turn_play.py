"""The request flow shared by the turn-based games (Happy Families, Snitch'ems).

Each game's module says what differs (its engine, how an action is written in the token, what
a move does, how the table looks); this module does what is the same: find the set, replay a
token's record, refuse a stale or foreign tap, and answer a bookmarked action address.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from flask import abort, redirect, request, url_for
from werkzeug.wrappers import Response

from kiosk.catalogue.schema import SetRecord
from kiosk.games.cards import Card
from kiosk.games.core import GameError
from kiosk.web import content, tokens

STALE = "That tap was meant for an earlier moment of the game. Here is the game as it is now."
NOT_A_BUTTON = "That button is not part of this game."

Rendered = tuple[str, int]


def set_for_game(slug: str, game: str) -> SetRecord:
    """The set with this slug if it is played with ``game``, else a 404."""
    entry = content.current().sets.get(slug)
    if entry is None or game not in entry.record.games:  # type: ignore[union-attr]
        abort(404)
    return entry.record  # type: ignore[return-value]


def new_record(
    game: str, set_slug: str, deck: list[Card], options: Any, settings: dict[str, Any]
) -> tokens.GameRecord:
    """A new game's record: a fresh nonce and the fingerprint of the deck it is dealt from."""
    return tokens.GameRecord(
        game=game,
        set_slug=set_slug,
        options=options.to_json(),
        nonce=tokens.new_nonce(),
        deck=tokens.deck_fingerprint([c.id for c in deck]),
        settings=settings,
    )


def replay_record(
    record: tokens.GameRecord,
    set_record: SetRecord,
    deck: list[Card],
    engine: ModuleType,
    decode: Callable[[Any], dict[str, Any]],
) -> Any:
    """The state a token's record makes on the set's deck (raises BadToken if none)."""
    if record.set_slug != set_record.key:
        raise tokens.BadToken("wrong-set", record.set_slug)
    if tokens.deck_fingerprint([c.id for c in deck]) != record.deck:
        raise tokens.BadToken("cards-changed")
    if record.settings.get("level") not in engine.LEVELS:
        raise tokens.BadToken("malformed", "no computer level")
    actions = [decode(a) for a in record.actions]
    try:
        options = engine.options_from_json(record.options)
        state = engine.replay(deck, options, tokens.seed_for(record.nonce), actions)
    except (GameError, TypeError, KeyError, ValueError) as exc:
        raise tokens.BadToken("malformed", str(exc)) from None
    return state


def back_to_setup(setup_endpoint: str, slug: str) -> Response:
    """A bookmarked or reloaded action address goes back to the game's setup."""
    return redirect(url_for(setup_endpoint, slug=slug), code=303)


def act_on_token(
    set_record: SetRecord,
    game: str,
    moves: tuple[str, ...],
    rebuild: Callable[[tokens.GameRecord, SetRecord], Any],
    act: Callable[[Any, str], tuple[str | None, Any]],
    render_game: Callable[..., Rendered],
    bad_token: Callable[[SetRecord, tokens.BadToken], Rendered],
) -> Rendered:
    """One visitor action from the posted form on the game in its token.

    A move that is not one of ``moves`` is a 400 with the table; a tap whose step counter is
    not the game's (a double tap, a late tap) changes nothing and shows the game as it is.
    """
    form = request.form
    try:
        played = rebuild(tokens.load(form.get("token"), game), set_record)
    except tokens.BadToken as error:
        return bad_token(set_record, error)
    move = form.get("move", "")
    if move.partition(":")[0] not in moves:
        return render_game(played, set_record, NOT_A_BUTTON, status=400)
    if form.get("step") != str(len(played.record.actions)):
        return render_game(played, set_record, STALE)
    note, chosen = act(played, move)
    return render_game(played, set_record, note, chosen)
