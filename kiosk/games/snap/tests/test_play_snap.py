"""Playing Snap through the web: setup, the table, tokens on the page (its actions are in
test_play_snap_actions.py, the kept states in test_play_snap_cache.py).

What every game shares (bad tokens, stale taps, wrong buttons, fragments) is also tested
for every game in tests/test_play_flow.py."""

from __future__ import annotations

import re

import pytest
from game_files import shipped_levels, shipped_variants

from kiosk import create_app
from kiosk.catalogue.decks import card_name
from kiosk.games.core import IllegalAction
from kiosk.games.snap import engine as snap
from kiosk.games.snap import web as play
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import HUMAN

from .snap_pages import (
    STANDARD,
    TWIZZLES,
    WOOLWORTHS,
    act,
    game_of,
    rebuild,
    set_record_of,
    soup,
    start,
    status_text,
    token_of,
    tokens_record,
)
from .snap_pages import app as app  # the fixture: pytest finds it by name

SETS = [WOOLWORTHS, STANDARD, TWIZZLES, "snitchems-1797"]


# ----------------------------------------------------------------- setup


@pytest.mark.parametrize("slug", SETS)
def test_setup_page_offers_the_choices(client, slug):
    response = client.get(f"/sets/{slug}/play")
    assert response.status_code == 200
    page = soup(response)
    assert [i["value"] for i in page.find_all("input", attrs={"name": "bots"})] == [
        "0",
        "1",
        "2",
        "3",
    ]
    modes = [i["value"] for i in page.find_all("input", attrs={"name": "mode"})]
    assert modes == list(play.MODES)
    levels = page.find_all("input", attrs={"name": "level"})
    assert [i["value"] for i in levels] == list(snap.LEVELS)
    text = page.get_text(" ")
    for level in shipped_levels("snap"):
        assert level.title in text and level.description in text
    variants = [i["value"] for i in page.find_all("input", attrs={"name": "variant"})]
    assert sorted(variants) == sorted(snap.VARIANTS)
    for variant in shipped_variants("snap").values():
        assert variant.title in text and variant.description in text
    checked = page.find("input", attrs={"name": "variant", "checked": True})["value"]
    assert checked == ("woolworths" if slug == WOOLWORTHS else "classic")
    assert page.find("button", string=re.compile("Start"))
    assert client.get(f"/sets/{slug}/play/snap").status_code == 200


def test_flagged_cards_notice_and_link(client):
    for response in (client.get(f"/sets/{WOOLWORTHS}/play"), start(client, WOOLWORTHS)):
        page = soup(response)
        notice = page.find(class_="game__flagged")
        assert notice is not None and "Golly Oh Golly!" in notice.get_text()
        assert "left out of this game" in notice.get_text()
        assert notice.find("a", href="/notes/golliwog")
    assert soup(client.get(f"/sets/{STANDARD}/play")).find(class_="game__flagged") is None


def test_the_notice_made_once_links_inside_the_embed_too(client):
    """The notice is kept per set and mount point: an embedded game links inside the embed,
    and the kiosk's own game, asked for afterwards, still links to the kiosk's page."""
    embedded = soup(client.post(f"/embed/sets/{WOOLWORTHS}/play", data={"bots": "1"}))
    assert embedded.find(class_="game__flagged").find("a", href="/embed/notes/golliwog")
    plain = soup(start(client, WOOLWORTHS))
    assert plain.find(class_="game__flagged").find("a", href="/notes/golliwog")


def test_card_pictures_kept_per_mount_point_stay_inside_the_embed(client):
    """Each card's picture URL is worked out once per set and mount point: the embedded game's
    faces (preloaded and turned) come from /embed/, the kiosk's own game's do not."""

    def pictures(response) -> list[str]:
        page = soup(response)
        game = page.find(id="snap-game")
        preloaded = (game.get("data-faces") or "").split()
        return preloaded + [img["src"] for img in game.select("img.card-img")]

    for mount in ("/embed", "", "/embed"):  # the embed again, after the kiosk's own
        first = client.post(f"{mount}/sets/{STANDARD}/play", data={"bots": "1"})
        turned = client.post(
            f"{mount}/sets/{STANDARD}/play/act", data={"token": token_of(first), "act": "turn"}
        )
        srcs = pictures(first) + pictures(turned)
        assert any("/back" not in src for src in pictures(turned)), srcs  # a face is shown
        assert all(src.startswith(f"{mount}/cards/") for src in srcs), (mount, srcs)


def test_the_setup_context_is_a_fresh_dict_each_time(app):
    with app.test_request_context():
        set_record = set_record_of(WOOLWORTHS)
        first = flow.setup_context(play.GAME, set_record)
        first["error"] = "changed by one page"
        first["record"] = None
        again = flow.setup_context(play.GAME, set_record)
    assert "error" not in again and again["record"] is set_record


@pytest.mark.parametrize(
    ("slug", "size", "matches_by"),
    [(WOOLWORTHS, 43, "picture"), (STANDARD, 52, "rank"), (TWIZZLES, None, "family")],
)
def test_decks(app, client, slug, size, matches_by):
    game = game_of(app, token_of(start(client, slug)), slug)
    cards = game.state.cards.values()
    assert not any("golly" in c.id for c in cards)
    if size is not None:
        assert len(game.state.cards) == size
    if matches_by == "family":
        assert all(c.match == c.family for c in cards)
    if matches_by == "rank":
        assert all(c.match == c.rank for c in cards)


@pytest.mark.parametrize("path", ["/sets/nope/play", "/sets/nope/play/snap"])
def test_unknown_set_is_404(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path, data={"bots": "1"}).status_code == 404
    assert client.post("/sets/nope/play/act", data={"act": "next"}).status_code == 404


@pytest.mark.parametrize(
    "form",
    [{"bots": "7"}, {"bots": "x"}, {"bots": "0"}, {"level": "turbo"}, {"variant": "poker"}],
)
def test_bad_setup_is_400_with_the_setup_again(client, form):
    response = client.post(f"/sets/{STANDARD}/play", data={"bots": "1", **form})
    assert response.status_code == 400
    assert "Please choose again" in response.get_data(as_text=True)
    assert soup(response).find("input", attrs={"name": "bots"})


# ----------------------------------------------------------------- the table


@pytest.mark.parametrize("bots", [1, 2, 3])
def test_table_has_a_region_per_player(app, client, bots):
    response = start(client, WOOLWORTHS, bots=str(bots), level="easy", variant="woolworths")
    page = soup(response)
    regions = page.select("#play-form section.seat")
    assert len(regions) == bots + 1
    names = [page.find(id=r["aria-labelledby"]).get_text() for r in regions]
    # the table reads as it is seen: the computer players across the top, the visitor below
    assert names[-1] == "You" and all(n.startswith("Sleepy") for n in names[:-1])
    assert len(set(names)) == len(names)
    assert page.find("button", string="Snap!")
    assert page.find("button", string="Snap Pool!")  # the Woolworths card has a pool
    assert page.find(role="status")
    assert page.find("a", href="/rules/snap/woolworths")
    options = game_of(app, token_of(response), WOOLWORTHS).state.options
    assert options.players == bots + 1 and options.humans == (0,)
    assert options.max_turns == snap.KIOSK_MAX_TURNS and options.level == "easy"


def test_face_up_cards_are_named(app, client):
    response = start(client, STANDARD)
    token = token_of(response)
    response = act(client, STANDARD, token, "turn")
    page = soup(response)
    mine = page.find(id="seat-0")
    img = mine.find("img", class_="play-card")
    game = game_of(app, token_of(response))
    top = game.state.cards[game.state.up[0][-1]]
    assert img["alt"] == top.name  # e.g. "Queen of Hearts"
    assert f"You turn up {top.name}." in status_text(response)


def test_an_unrecorded_card_is_named_plainly_with_its_family(app, client):
    with app.app_context():
        record = set_record_of(TWIZZLES)
    plain = {f"{card_name(f)}, {f.family} family" for f in record.cards if not f.recorded}
    token, seen = token_of(start(client, TWIZZLES)), set()
    for _ in range(40):
        state = game_of(app, token, TWIZZLES).state
        if state.over or seen & plain:
            break
        legal = {a["type"] for a in snap.legal_actions(state, HUMAN)}
        response = act(client, TWIZZLES, token, "turn" if "turn" in legal else "next")
        token = token_of(response)
        seen |= {img["alt"] for img in soup(response).select("img.play-card") if img["alt"]}
    assert seen & plain, seen  # e.g. "Sally Cross's second card, Sally Cross family"
    assert not [alt for alt in seen if ": " in alt], seen  # never the record's "Sally Cross: …"


def test_forfeits_and_easy_tables(client):
    page = soup(start(client, STANDARD, variant="forfeits"))
    assert page.find(class_="seat__counters") and not page.find("button", string="Snap!")
    assert "snaps by itself" in page.get_text()
    page = soup(start(client, STANDARD, variant="easy"))
    assert page.find(id="centre-name").get_text() == "The centre pile"


# ----------------------------------------------------------------- tokens on the page


def _tampered(app, token):
    head, _, sig = token.rpartition(".")
    return head + "." + ("A" if sig[0] != "A" else "B") + sig[1:]


def _other_game(app, token):
    with app.app_context():
        return tokens.dump(
            tokens.PlayRecord(game="snitchems", set_slug=STANDARD, options={}, nonce="n")
        )


def _other_set(app, token):
    record = tokens_record(app, token)
    with app.app_context():
        return tokens.dump(tokens.PlayRecord(**{**record.__dict__, "set_slug": WOOLWORTHS}))


def _other_deck(app, token):
    record = tokens_record(app, token)
    with app.app_context():
        return tokens.dump(tokens.PlayRecord(**{**record.__dict__, "deck": "0" * 16}))


def _bad_action(app, token):
    record = tokens_record(app, token)
    with app.app_context():
        return tokens.dump(record.plus(["z", 0]))


def _illegal_action(app, token):
    record = tokens_record(app, token)
    with app.app_context():
        return tokens.dump(record.plus(["t", 1]))  # seat 1 turning out of turn


def _bad_options(app, token):
    record = tokens_record(app, token)
    with app.app_context():
        return tokens.dump(tokens.PlayRecord(**{**record.__dict__, "options": {"players": 99}}))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda app, token: "",
        lambda app, token: "garbage",
        lambda app, token: token[:-3],
        _tampered,
        _other_game,
        _other_set,
        _other_deck,
        _bad_action,
        _illegal_action,
        _bad_options,
    ],
    ids=[
        "missing",
        "garbage",
        "truncated",
        "tampered",
        "other-game",
        "other-set",
        "cards-changed",
        "bad-action",
        "illegal-action",
        "bad-options",
    ],
)
def test_bad_tokens_get_a_friendly_400(app, client, spoil):
    token = token_of(start(client))
    response = act(client, STANDARD, spoil(app, token), "next")
    assert response.status_code == 400
    page = soup(response)
    assert page.find("h1").get_text() == "Let's start a new game"
    assert page.find("a", href=f"/sets/{STANDARD}/play", string="Start a new game")
    assert page.find(id="snap-game")  # htmx swaps #snap-game: the page keeps its shape


def test_expired_token(client):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "GAME_MAX_AGE": -1})
    client = app.test_client()
    token = token_of(start(client))
    response = act(client, STANDARD, token, "next")
    assert response.status_code == 400
    assert "left for a long time" in response.get_data(as_text=True)


def test_same_token_same_table(app, client):
    """The same game replayed from its token gives the same table (and the same record)."""
    token = token_of(act(client, STANDARD, token_of(start(client)), "turn"))
    first, second = (act(client, STANDARD, token, "next") for _ in range(2))
    strip = re.compile(r'name="token" value="[^"]*"')
    assert strip.sub("", first.get_data(as_text=True)) == strip.sub(
        "", second.get_data(as_text=True)
    )
    assert tokens_record(app, token_of(first)) == tokens_record(app, token_of(second))
    a, b = game_of(app, token_of(first)), game_of(app, token_of(second))
    assert a.state == b.state


def test_any_worker_can_serve_any_move():
    """Two apps sharing only the secret (two gunicorn workers) play the same game."""
    one = create_app({"TESTING": True, "SECRET_KEY": "shared"}).test_client()
    two = create_app({"TESTING": True, "SECRET_KEY": "shared"}).test_client()
    token = token_of(start(one))
    response = act(two, STANDARD, token, "turn")
    assert response.status_code == 200 and "You turn up" in status_text(response)
    assert act(one, STANDARD, token_of(response), "next").status_code == 200
    other = create_app({"TESTING": True, "SECRET_KEY": "not-shared"}).test_client()
    assert act(other, STANDARD, token, "turn").status_code == 400


def test_no_cookies_are_set(client):
    responses = [client.get(f"/sets/{STANDARD}/play"), start(client)]
    responses.append(act(client, STANDARD, token_of(responses[-1]), "turn"))
    assert all("Set-Cookie" not in r.headers for r in responses)


def test_htmx_request_gets_a_fragment(client):
    token = token_of(start(client))
    response = client.post(
        f"/sets/{STANDARD}/play/act",
        data={"token": token, "act": "turn"},
        headers={"HX-Request": "true", "HX-Request-Type": "partial"},
    )
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in text
    assert soup(response).find(id="snap-game") and "You turn up" in status_text(response)


def test_the_token_hides_the_deal(app, client):
    token = token_of(start(client))
    record = tokens_record(app, token)
    with app.app_context():
        seed = tokens.seed_for(record.nonce)
    assert seed not in token and "seed" not in record.to_json()
    # the deal follows the server's secret: the same record under another secret deals
    # another order, so the token alone cannot tell what comes next
    other = create_app({"TESTING": True, "SECRET_KEY": "a-different-secret"})
    with other.test_request_context():
        elsewhere = rebuild(record, set_record_of(STANDARD)).state.order
    assert game_of(app, token).state.order != elsewhere


@pytest.mark.parametrize(
    "action",
    [
        {"type": "turn", "player": 0},
        {"type": "turn", "player": 3},
        {"type": "call", "player": 0, "turn": 12, "reaction_ms": 431.5},
        {"type": "call-pool", "player": 0, "turn": 3, "reaction_ms": 800},
        {"type": "close", "player": 0},
    ],
)
def test_actions_round_trip_through_the_record(action):
    item = play.encode_action(action)
    assert isinstance(item, str)
    assert play.decode_action(item) == action
    assert type(play.decode_action(item).get("reaction_ms", 0.0)) is type(
        action.get("reaction_ms", 0.0)
    )


@pytest.mark.parametrize(
    ("old", "action"),
    [
        (["t", 1], {"type": "turn", "player": 1}),
        (["c", 0, 12, 431.5], {"type": "call", "player": 0, "turn": 12, "reaction_ms": 431.5}),
        (["x", 0], {"type": "close", "player": 0}),
    ],
)
def test_the_lists_of_tokens_before_format_1_strings_are_malformed(old, action):
    # Long expired (GAME_MAX_AGE): a record is one string an action, and nothing else reads.
    assert play.decode_action(play.encode_action(action)) == action
    with pytest.raises(tokens.BadToken):
        play.decode_action(old)


@pytest.mark.parametrize(
    "item",
    [
        ["z", 0],
        "t",
        ["t"],
        ["t", 0, 1],
        ["c", 0, 1],
        None,
        5,
        "",
        "z0",
        "tx",
        "t0:1",
        "c0:1",
        "c0:1:2:3",
        "c0:x:1",
        "x0:",
    ],
)
def test_unreadable_actions_are_malformed(item):
    with pytest.raises(tokens.BadToken) as caught:
        play.decode_action(item)
    assert caught.value.reason == "malformed"


def test_a_refused_action_keeps_the_table(app, client, monkeypatch):
    token = token_of(start(client))

    def refuse(state, action):
        raise IllegalAction("not now")

    monkeypatch.setattr(play.snap, "apply", refuse)
    response = act(client, STANDARD, token, "turn")
    assert response.status_code == 400
    assert "That cannot be done now." in status_text(response)
    assert tokens_record(app, token_of(response)).actions == ()
