"""Playing Snap through the web: the replayed-state cache plays exactly as a full replay."""

from __future__ import annotations

import re
from dataclasses import replace
from random import Random
from typing import Any

import pytest

from kiosk import create_app
from kiosk.games.cards import standard_deck
from kiosk.games.snap import engine as snap
from kiosk.games.snap import web as play
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import HUMAN

from .snap_pages import (
    STANDARD,
    WOOLWORTHS,
    act,
    game_of,
    rebuild,
    set_record_of,
    start,
    token_of,
)
from .snap_pages import app as app  # the fixture: pytest finds it by name

# ----------------------------------------------------------------- the replayed-state cache


def deck_of(set_record):
    return flow.deck_and_fingerprint(play.GAME, set_record)[0]


def fresh_state(app, token: str, slug: str = STANDARD) -> snap.SnapState:
    """The state a full replay of the token's record gives, with no cache involved."""
    with app.test_request_context():
        record = tokens.load(token, "snap")
        deck = deck_of(set_record_of(slug))
        return snap.replay(
            deck,
            snap.options_from_json(record.options),
            tokens.seed_for(record.nonce),
            [play.decode_action(item) for item in record.actions],
        )


def without_token(response) -> str:
    return re.sub(r'name="token" value="[^"]*"', "", response.get_data(as_text=True))


def visitor_move(app, token: str, slug: str) -> dict[str, str]:
    """What a visitor's page would send next (Snap! on a match, else Next or a turn)."""
    state = fresh_state(app, token, slug)
    w = state.window
    if w is not None and w.snap and not w.calls and not state.out[HUMAN]:
        return {"act": "snap", "turn": str(w.turn), "reaction_ms": "350"}
    legal = {a["type"] for a in snap.legal_actions(state, HUMAN)}
    return {"act": "turn" if "turn" in legal else "next"}


@pytest.mark.parametrize(("slug", "variant"), [(STANDARD, "snap-pool"), (WOOLWORTHS, "woolworths")])
def test_cached_games_play_exactly_as_replayed_ones(slug, variant):
    # two apps with caches play as two workers would, taking turns at random; a third with
    # no cache replays every record in full: the pages and the states must be the same
    config = {"TESTING": True, "SECRET_KEY": "cache-secret"}
    workers = [create_app(config), create_app(config)]
    cold = create_app({**config, "PLAY_STATE_CACHE": 0})
    clients = [w.test_client() for w in workers]
    pick = Random(5)
    token = token_of(start(clients[0], slug, bots="2", level="hard", variant=variant))
    for _ in range(120):
        form = visitor_move(cold, token, slug)
        what = form.pop("act")
        warm = act(pick.choice(clients), slug, token, what, **form)
        again = act(cold.test_client(), slug, token, what, **form)
        assert warm.status_code == again.status_code == 200
        assert without_token(warm) == without_token(again)
        token = token_of(warm)
        if 'data-over="1"' in warm.get_data(as_text=True):
            break
    with workers[0].test_request_context():
        taken = rebuild(tokens.load(token, "snap"), set_record_of(slug)).state
    assert taken == fresh_state(cold, token, slug)
    caches = [w.extensions[flow.CACHE_EXTENSION] for w in workers]
    assert sum(c.hits for c in caches) > 60  # most actions carried a kept state forward
    assert cold.extensions[flow.CACHE_EXTENSION].hits == 0


def test_a_hit_is_the_state_a_fresh_replay_gives(app, client):
    token = token_of(start(client))
    for _ in range(30):
        token = token_of(act(client, STANDARD, token, "turn" if _ % 2 else "next"))
    cache = app.extensions[flow.CACHE_EXTENSION]
    hits = cache.hits
    with app.test_request_context():
        game = rebuild(tokens.load(token, "snap"), set_record_of(STANDARD))
    assert cache.hits == hits + 1
    assert game.state == fresh_state(app, token)
    assert len(cache) == 0  # taken out: the request owns it now


def test_a_tampered_token_never_reaches_the_cache(app, client):
    token = token_of(act(client, STANDARD, token_of(start(client)), "next"))
    cache = app.extensions[flow.CACHE_EXTENSION]
    hits, misses, kept = cache.hits, cache.misses, len(cache)
    middle = len(token) // 3  # inside the signed payload (compressed: after the first ".")
    assert token[middle] != "."
    swapped = "A" if token[middle] != "A" else "B"
    forged = token[:middle] + swapped + token[middle + 1 :]
    response = act(client, STANDARD, forged, "turn")
    assert response.status_code == 400
    other = create_app({"TESTING": True, "SECRET_KEY": "someone-else"})
    with app.test_request_context():
        record = tokens.load(token, "snap")
    with other.test_request_context():
        foreign = tokens.dump(record.plus("c0:0:1.0"))  # same game, another secret
    assert act(client, STANDARD, foreign, "turn").status_code == 400
    assert (cache.hits, cache.misses, len(cache)) == (hits, misses, kept)


def test_another_branch_of_the_same_game_replays_as_a_cold_worker_would(app, client):
    first = token_of(start(client))
    a = token_of(act(client, STANDARD, first, "turn"))
    token_of(act(client, STANDARD, a, "next"))  # the cache now holds the game after a + next
    back = act(client, STANDARD, first, "turn")  # an older page of the same game
    cold = create_app({"TESTING": True, "SECRET_KEY": "play-test-secret", "PLAY_STATE_CACHE": 0})
    again = act(cold.test_client(), STANDARD, first, "turn")
    assert back.status_code == again.status_code == 200
    assert without_token(back) == without_token(again)
    assert fresh_state(app, token_of(back)) == fresh_state(app, a)


def test_eviction_bounds_the_cache():
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "PLAY_STATE_CACHE": 3})
    client = app.test_client()
    tokens_started = [token_of(start(client)) for _ in range(5)]
    cache = app.extensions[flow.CACHE_EXTENSION]
    assert len(cache) == 3
    hits = cache.hits
    act(client, STANDARD, tokens_started[0], "turn")  # the oldest was dropped: a miss
    assert cache.hits == hits
    act(client, STANDARD, tokens_started[4], "turn")  # the newest is still there: a hit
    assert cache.hits == hits + 1
    assert len(cache) == 3


def test_a_state_that_differs_from_its_record_is_not_kept(app):
    with app.test_request_context():
        game = rebuild(
            tokens.load(token_of(start(app.test_client())), "snap"), set_record_of(STANDARD)
        )
        cache = flow.state_cache()
        cache.clear()
        game.recorded = False  # as after a late call, which the record leaves out
        flow.keep(play.GAME, game)
        assert len(cache) == 0
        game.recorded = True
        flow.keep(play.GAME, game)
        assert len(cache) == 1


def test_only_a_record_that_begins_with_the_kept_actions_takes_the_state(app):
    # a kept state after (t0, t1) is carried forward only by a record that begins with both
    with app.test_request_context():
        record = tokens.load(token_of(start(app.test_client())), "snap")
        game = rebuild(record, set_record_of(STANDARD))
        for action in [{"type": "turn", "player": 0}, {"type": "turn", "player": 1}]:
            play.GAME.play(game, action)
        for other in [(), ("t0",), ("t0", "t1"), ("t0", "t1", "t0")]:
            flow.keep(play.GAME, game)
            mine = replace(record, actions=other)
            taken = rebuild(mine, set_record_of(STANDARD)).state
            assert taken == snap.replay(
                deck_of(set_record_of(STANDARD)),
                snap.options_from_json(record.options),
                tokens.seed_for(record.nonce),
                [play.decode_action(item) for item in other],
            )


@pytest.mark.parametrize("variant", list(snap.VARIANTS))
def test_a_kept_state_carries_forward_as_a_full_replay_would(variant):
    # the cache's premise: replay(a + b) == replay(a) then apply b == applying every action
    deck = standard_deck()
    for players, seed in [(2, 1), (3, 2), (4, 3)]:
        options = snap.options_for(variant, players=players, humans=(0,), level="hard")
        state, _ = snap.new_game(deck, options, seed)
        policy = Random(seed)
        record: list[dict[str, Any]] = []
        while len(record) < 300 and not state.over:
            calls = [a for a in snap.legal_actions(state, 0) if a["type"] != "turn"]
            if calls and policy.random() < 0.3:
                action = {**policy.choice(calls), "reaction_ms": round(policy.uniform(200, 900), 1)}
            else:
                seat = snap.to_move(state)[0]
                kinds = [a["type"] for a in snap.legal_actions(state, seat)]
                action = {"type": "turn" if "turn" in kinds else "close", "player": seat}
            record.append(action)
            state, _ = snap.apply(state, action)
        cut = len(record) // 3
        assert snap.replay(deck, options, seed, record) == state
        kept = snap.replay(deck, options, seed, record[:cut])
        for action in record[cut:]:
            kept, _ = snap.apply(kept, action)
        assert kept == state


def test_a_next_action_is_asked_of_the_game_once_a_state(app, client, monkeypatch):
    """The table, its pace and "Next" each want the game's own next move: one ask a state,
    and a new ask once the state has changed."""
    asked = []
    kind = type(snap.GAME_TYPE)
    real = kind.next_move

    def counted(self, state, *args, **kwargs):
        asked.append(state)
        return real(self, state, *args, **kwargs)

    monkeypatch.setattr(kind, "next_move", counted)
    token = token_of(start(client, bots="2"))
    for what in ("turn", "next", "next"):
        asked.clear()
        step = len(game_of(app, token).record.actions)
        response = act(client, STANDARD, token, what, step=str(step))
        assert response.status_code == 200
        token = token_of(response)
        # each state asked once, though the table, its pace and "Next" all want it
        assert asked and len({id(s) for s in asked}) == len(asked), what
