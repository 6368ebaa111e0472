"""Playing Snap through the web: setup, every action, bad tokens, replay, the kept states.

What every game shares (bad tokens, stale taps, wrong buttons, fragments) is also tested
for every game in tests/test_play_flow.py."""

from __future__ import annotations

import re
from dataclasses import replace
from random import Random
from typing import Any

import pytest
from bs4 import BeautifulSoup
from game_files import shipped_levels, shipped_variants

from kiosk import create_app
from kiosk.catalogue.decks import card_name
from kiosk.games.cards import standard_deck
from kiosk.games.core import IllegalAction
from kiosk.games.snap import engine as snap
from kiosk.games.snap import web as play
from kiosk.web import tokens
from kiosk.web.play import flow
from kiosk.web.play.games import HUMAN, Played

WOOLWORTHS = "misc-869-1986"
STANDARD = "snap-standard-deck"
TWIZZLES = "twizzles-happy-families"
SETS = [WOOLWORTHS, STANDARD, TWIZZLES, "snitchems-1797"]


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "play-test-secret"})


@pytest.fixture
def client(app):
    return app.test_client()


# ----------------------------------------------------------------- helpers


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def token_of(response) -> str:
    field = soup(response).find("input", attrs={"name": "token"})
    assert field is not None, response.get_data(as_text=True)[:500]
    return field["value"]


def status_text(response) -> str:
    region = soup(response).find(id="game-status")
    return " ".join(region.get_text(" ").split()) if region else ""


def start(client, slug: str = STANDARD, **form: Any):
    data = {"bots": "1", "level": "medium", "variant": "classic", **form}
    response = client.post(f"/sets/{slug}/play", data=data)
    assert response.status_code == 200
    return response


def act(client, slug: str, token: str, what: str, **form: Any):
    return client.post(f"/sets/{slug}/play/act", data={"token": token, "act": what, **form})


def set_record_of(slug: str):
    return flow.game_or_404("snap", slug)[1]


def rebuild(record, set_record) -> Played:
    return flow.rebuild(play.GAME, record, set_record)


def deck_of(set_record):
    return flow.deck_and_fingerprint(play.GAME, set_record)[0]


def game_of(app, token: str, slug: str = STANDARD) -> Played:
    with app.test_request_context():
        return rebuild(tokens.load(token, "snap"), set_record_of(slug))


def advance_until(client, app, slug, token, wanted, limit=1500):
    """Press Next / turn the visitor's card until ``wanted(state)``; return the token.

    A game that ends first is dealt again with the same choices (a few times at most).
    """
    setup = tokens_record(app, token).options
    deals = 0
    for _ in range(limit):
        state = game_of(app, token, slug).state
        if wanted(state):
            return token
        if state.over or state.out[HUMAN]:
            deals += 1
            assert deals < 5, "the wanted moment never came in five deals"
            token = token_of(
                start(
                    client,
                    slug,
                    bots=str(setup["players"] - 1),
                    level=setup["level"],
                    variant=setup["variant"],
                )
            )
            continue
        legal = {a["type"] for a in snap.legal_actions(state, HUMAN)}
        response = act(client, slug, token, "turn" if "turn" in legal else "next")
        assert response.status_code == 200
        token = token_of(response)
    raise AssertionError("the wanted moment never came")


def match_showing(state) -> bool:
    w = state.window
    return w is not None and w.snap and not w.calls


def nothing_showing(state) -> bool:
    w = state.window
    return w is not None and not (w.snap or w.pool) and not w.bot_calls


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


# ----------------------------------------------------------------- actions


def test_turn_then_wait_for_your_turn(app, client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "turn")
    token2 = token_of(response)
    assert len(tokens_record(app, token2).actions) == 1
    again = act(client, STANDARD, token2, "turn")
    assert "Wait for your turn." in status_text(again)
    assert tokens_record(app, token_of(again)).actions == tokens_record(app, token2).actions


def tokens_record(app, token: str) -> tokens.PlayRecord:
    with app.app_context():
        return tokens.load(token, "snap")


def test_next_turns_for_the_computer_and_waits_for_you(app, client):
    token = token_of(act(client, STANDARD, token_of(start(client)), "turn"))
    response = act(client, STANDARD, token, "next")
    assert "Steady Sue turns up" in status_text(response)
    record = tokens_record(app, token_of(response))
    assert record.actions[-1] == "t1"
    # now it is the visitor's turn: the page waits for them, unless the computer's card left
    # something to settle (a match, or a call), which the page's pace then closes
    state = game_of(app, token_of(response)).state
    assert snap.to_move(state) == [0]
    settles = state.window is not None and state.window.has_to_settle()
    assert ('data-pace="' in response.get_data(as_text=True)) == settles


def test_next_on_your_turn_changes_nothing(app, client):
    token = token_of(start(client))  # seat 0 (the visitor) turns first
    response = act(client, STANDARD, token, "next")
    assert tokens_record(app, token_of(response)).actions == ()
    assert "Your turn" in status_text(response)


def test_auto_turn(app, client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "auto-on")
    token = token_of(response)
    assert tokens_record(app, token).settings["auto"] is True
    assert soup(response).find(id="auto-button")["aria-pressed"] == "true"
    response = act(client, STANDARD, token, "next")  # now "next" turns the visitor's card too
    assert "You turn up" in status_text(response)
    response = act(client, STANDARD, token_of(response), "auto-off")
    assert tokens_record(app, token_of(response)).settings["auto"] is False


def test_snap_on_a_match_wins_the_cards(app, client):
    token = advance_until(
        client, app, STANDARD, token_of(start(client, level="easy")), match_showing
    )
    game = game_of(app, token)
    turn = game.state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="100")
    words = status_text(response)
    # 100 ms, the quickest a reaction can be, beats any computer player (never under 350 ms)
    assert re.search(r"You called first — you win \d+ cards", words), words
    after = game_of(app, token_of(response)).state
    assert after.snaps == game.state.snaps + 1
    # told at the cards: the winner's seat is marked, both matched cards face up there
    page = soup(response)
    region = page.find(id="snap-game")
    assert region["data-outcome"] == "won"
    assert region["data-sounds"].split() == ["win"]
    seat = page.find(id="seat-0")
    assert "seat--won" in seat["class"]
    matched = seat.select(".seat__match img.is-match")
    assert len(matched) == 2 and all(img["src"] for img in matched)
    assert "You win" in seat.select_one(".seat__badge").get_text()


def test_too_slow(app, client):
    def bot_calls_first(state):
        w = state.window
        return match_showing(state) and any(c[2] == "snap" for c in w.bot_calls)

    token = advance_until(
        client, app, STANDARD, token_of(start(client, level="hard")), bot_calls_first
    )
    turn = game_of(app, token).state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="59000")
    assert re.search(r"Too slow! Speedy Sid called Snap! first", status_text(response))
    page = soup(response)
    assert page.find(id="snap-game")["data-outcome"] == "slow"
    assert "seat--slow" in page.find(id="seat-0")["class"]
    winner = page.find(id="seat-1")
    assert "seat--won" in winner["class"] and len(winner.select("img.is-match")) == 2


def test_mistaken_call_pays_a_penalty(app, client):
    slug = STANDARD
    token = token_of(start(client, variant="penalty-card-each"))
    token = advance_until(client, app, slug, token, nothing_showing)
    before = game_of(app, token).state
    turn = before.window.turn
    response = act(client, slug, token, "snap", turn=turn, reaction_ms="500")
    assert "No match — a wrong call: a card to each other player." in status_text(response)
    after = game_of(app, token_of(response)).state
    assert len(after.down[0]) == len(before.down[0]) - 1
    page = soup(response)
    assert page.find(id="snap-game")["data-outcome"] == "wrong"
    assert "wrong" in page.find(id="snap-game")["data-sounds"].split()
    seat = page.find(id="seat-0")
    assert "seat--wrong" in seat["class"]
    assert seat.select_one(".seat__badge").get_text() == "No match! −1 card"


def test_mistaken_call_without_a_penalty(app, client):
    start_ = token_of(start(client, variant="snap-pool"))  # a variant that forgives mistakes
    token = advance_until(client, app, STANDARD, start_, nothing_showing)
    turn = game_of(app, token).state.window.turn
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms="500")
    assert "No match — no penalty for a wrong call." in status_text(response)


def test_snap_pool_call(app, client):
    slug = WOOLWORTHS
    token = token_of(start(client, slug, variant="woolworths"))
    token = advance_until(client, app, slug, token, nothing_showing)
    turn = game_of(app, token, slug).state.window.turn
    # with no pool at all a Snap Pool! call is mistaken: the face-up pile goes to the pool
    response = act(client, slug, token, "pool", turn=turn, reaction_ms="400")
    assert "No match — a wrong call: your face-up pile to the pool." in status_text(response)
    assert soup(response).find(id="pool-name")


def test_late_and_duplicate_calls_change_nothing(app, client):
    token = advance_until(client, app, STANDARD, token_of(start(client)), nothing_showing)
    turn = game_of(app, token).state.window.turn
    late = act(client, STANDARD, token, "snap", turn=turn - 1, reaction_ms="300")
    assert late.status_code == 200
    assert "Too late — that card has gone." in status_text(late)
    assert soup(late).find(id="snap-game")["data-outcome"] == "late"
    assert "seat--late" in soup(late).find(id="seat-0")["class"]
    assert tokens_record(app, token_of(late)) == tokens_record(app, token)
    unmeasured = act(client, STANDARD, token, "snap", turn="abc")
    assert "Too late" in status_text(unmeasured)


@pytest.mark.parametrize("raw", ["", "  ", None])
def test_unmeasured_reactions_count_as_the_default(raw):
    assert play.reaction(raw) == play.UNMEASURED_MS
    assert play.reaction("431.26") == 431.3


@pytest.mark.parametrize(
    ("raw", "read"),
    [("0", 0.0), ("99.94", 99.9), ("-5", -5.0), ("1e9", 60_000.0), ("inf", float("inf"))],
)
def test_reactions_are_read_as_sent_for_the_engine_to_judge(raw, read):
    # only read: a minute away counts as the slowest reaction, the rest is the engine's
    assert play.reaction(raw) == read


@pytest.mark.parametrize("raw", ["nan", "abc", "NaN"])
def test_a_reaction_that_is_no_number_reads_as_nan(raw):
    assert play.reaction(raw) != play.reaction(raw)  # NaN: the engine refuses it


def a_match_to_call(app, client, level: str = "hard") -> tuple[str, int]:
    token = advance_until(
        client, app, STANDARD, token_of(start(client, level=level)), match_showing
    )
    return token, game_of(app, token).state.window.turn


@pytest.mark.parametrize("raw", ["nan", "-5", "inf", "-inf", "abc", "-0.1"])
def test_a_bad_reaction_is_a_friendly_400_with_the_table(app, client, raw):
    token, turn = a_match_to_call(app, client)
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms=raw)
    assert response.status_code == 400
    words = status_text(response)
    assert play.BAD_REACTION_WORDS in words, words
    assert "You called" not in words and "No match" not in words
    # the table stays as it was, and the match can still be called
    assert tokens_record(app, token_of(response)) == tokens_record(app, token)
    assert soup(response).find(id="snap-button").get("disabled") is None


@pytest.mark.parametrize("raw", ["0", "50", "99.9"])
def test_a_false_start_is_too_late_and_the_match_can_still_be_called(app, client, raw):
    token, turn = a_match_to_call(app, client)
    response = act(client, STANDARD, token, "snap", turn=turn, reaction_ms=raw)
    assert response.status_code == 200
    words = status_text(response)
    assert "Too late — that card has gone." in words, words
    assert "You called" not in words and "No match" not in words and "Too slow" not in words
    assert tokens_record(app, token_of(response)) == tokens_record(app, token)  # not recorded
    assert soup(response).find(id="snap-button").get("disabled") is None
    again = act(client, STANDARD, token_of(response), "snap", turn=turn, reaction_ms="100")
    assert re.search(r"You called first — you win \d+ cards", status_text(again))


def test_a_false_start_on_no_match_pays_no_penalty(app, client):
    token = token_of(start(client, variant="penalty-card-each"))
    token = advance_until(client, app, STANDARD, token, nothing_showing)
    before = game_of(app, token).state
    response = act(client, STANDARD, token, "snap", turn=before.window.turn, reaction_ms="0")
    assert "Too late — that card has gone." in status_text(response)
    assert "penalty" not in status_text(response)
    assert game_of(app, token_of(response)).state.down == before.down


@pytest.mark.parametrize("level", snap.LEVELS)
def test_a_match_stays_on_the_table_as_long_as_at_the_slowest_level(app, client, level):
    token, _ = a_match_to_call(app, client, level)
    state = game_of(app, token).state
    game = Played(tokens_record(app, token), state, [])
    with app.test_request_context():
        pace = play.GAME.pace_ms(game)
    assert pace is not None and pace >= play.MATCH_OPEN_MS == play.PACE_MS["easy"]
    quiet = advance_until(
        client,
        app,
        STANDARD,
        token,
        lambda s: not (s.window and s.window.has_to_settle()) and snap.to_move(s) != [HUMAN],
    )
    game = Played(tokens_record(app, quiet), game_of(app, quiet).state, [])
    with app.test_request_context():
        assert play.GAME.pace_ms(game) == play.PACE_MS[level]  # other cards keep the level's pace


def test_unknown_button_is_400_with_the_table(client):
    token = token_of(start(client))
    response = act(client, STANDARD, token, "cheat")
    assert response.status_code == 400
    assert "That button is not part of this game." in status_text(response)
    assert token_of(response)


def test_get_on_the_action_address_goes_back_to_setup(client):
    response = client.get(f"/sets/{STANDARD}/play/act")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/sets/{STANDARD}/play")


def test_a_short_game_ends_with_a_result(client):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "PLAY_MAX_TURNS": 4})
    client = app.test_client()
    token = token_of(start(client, STANDARD))
    for _ in range(20):
        state = game_of(app, token).state
        if state.over:
            break
        legal = {a["type"] for a in snap.legal_actions(state, 0)}
        response = act(client, STANDARD, token, "turn" if "turn" in legal else "next")
        token = token_of(response)
    page = soup(response)
    result = page.find(class_="result")
    assert result is not None and "Game over" in result.get_text()
    # said once: the result's title, not the status as well
    assert "Game over" not in status_text(response)
    players = result.select(".result__player")
    assert len(players) == 2 and len(result.select(".result__player.is-winner")) >= 1
    assert page.find(id="snap-game")["data-sounds"].split()[-1] in ("end-win", "end-lose")
    assert result.find("button", string="Play again")
    assert result.find("a", href="/rules/snap/classic")
    assert page.find(id="snap-game")["data-over"] == "1"
    assert not page.find(id="snap-button")
    again = client.post(
        f"/sets/{STANDARD}/play",
        data={i["name"]: i["value"] for i in result.find_all("input", attrs={"type": "hidden"})},
    )
    assert again.status_code == 200 and soup(again).find(id="snap-button")


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


# ----------------------------------------------------------------- the replayed-state cache


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
