"""Signed game-record tokens: round trip, secrecy of the seed, and every way a token goes bad."""

from __future__ import annotations

import hmac
import json
import time
import zlib

import pytest
from itsdangerous import URLSafeTimedSerializer
from itsdangerous.encoding import base64_encode

from kiosk import create_app
from kiosk.games import registry
from kiosk.web import tokens


@pytest.fixture
def app():
    return create_app({"TESTING": True, "SECRET_KEY": "token-test-secret", "GAME_MAX_AGE": 60})


def reference(app, game: str = "snap") -> URLSafeTimedSerializer:
    """itsdangerous's serializer with our salt, made here as the tests' own reference."""
    return URLSafeTimedSerializer(app.config["SECRET_KEY"], salt=tokens.SALT + game)


def record(**changes) -> tokens.PlayRecord:
    base = tokens.PlayRecord(
        game="snap",
        set_slug="misc-869-1986",
        options={"variant": "classic", "players": 2},
        nonce="abc123",
        actions=(["t", 0], ["c", 0, 1, 412.5]),
        deck="0123456789abcdef",
        settings={"auto": False},
    )
    return base if not changes else tokens.PlayRecord(**{**base.__dict__, **changes})


def test_round_trip(app):
    with app.app_context():
        token = tokens.dump(record())
        assert tokens.load(token, "snap") == record()


def test_token_reveals_no_seed(app):
    """The seed is HMAC(secret, nonce): it is not in the token, and differs per secret."""
    with app.app_context():
        token = tokens.dump(record())
        seed = tokens.seed_for("abc123")
    with create_app({"TESTING": True, "SECRET_KEY": "another-secret"}).app_context():
        assert seed != tokens.seed_for("abc123")
    data = reference(app).loads(token)
    assert seed not in token and seed not in json.dumps(data)
    assert data["n"] == "abc123"
    assert seed == hmac.digest(b"token-test-secret", b"abc123", "sha256").hex()


@pytest.mark.parametrize("actions", [(), (["t", 0],), tuple(f"t{n % 3}" for n in range(500))])
@pytest.mark.parametrize("game", registry.names())
def test_the_format_is_itsdangerous(app, monkeypatch, game, actions):
    """Read by itsdangerous and reading it, both ways: byte for byte what itsdangerous writes
    at the same second."""
    monkeypatch.setattr(time, "time", lambda: 1_790_000_000.5)
    r = record(game=game, actions=actions, settings={"note": "café"})
    with app.app_context():
        ours = tokens.dump(r)
        signed = {**r.to_json(), "k": tokens.key_id()}  # the record and the secret's id
        assert ours.startswith(".")  # compressed: every record is shorter so
        assert reference(app, game).loads(ours) == signed
        assert tokens.load(reference(app, game).dumps(r.to_json()), game) == r
        assert ours == reference(app, game).dumps(signed)


def test_tokens_compressed_with_a_small_window_still_load(app):
    """Tokens made before tokens.py used itsdangerous as it is: zlib with a 1 KB window."""
    r = record(actions=tuple(f"t{n % 3}" for n in range(500)))
    with app.app_context():
        data = json.dumps({**r.to_json(), "k": tokens.key_id()}, separators=(",", ":"))
        packer = zlib.compressobj(6, zlib.DEFLATED, 10, 4)
        packed = packer.compress(data.encode()) + packer.flush()
        signer = reference(app).make_signer()
        token = signer.sign(b"." + base64_encode(packed)).decode("ascii")
        assert tokens.load(token, "snap") == r


def test_a_token_from_the_future_is_expired(app, monkeypatch):
    with app.app_context():
        token = tokens.dump(record())
        monkeypatch.setattr(time, "time", lambda: 1_000_000.0)  # the clock went back
        with pytest.raises(tokens.BadToken) as caught:
            tokens.load(token, "snap")
    assert caught.value.reason == "expired"


@pytest.mark.parametrize(
    ("ahead_s", "reads"),
    [(1, True), (tokens.CLOCK_SKEW_S, True), (tokens.CLOCK_SKEW_S + 1, False)],
)
def test_a_server_whose_clock_runs_ahead_is_tolerated(app, monkeypatch, ahead_s, reads):
    """Two machines serving one game: a token stamped by the one whose clock is a little ahead
    still reads on the other; one stamped further ahead does not."""
    now = 1_790_000_000.0
    with app.app_context():
        monkeypatch.setattr(time, "time", lambda: now + ahead_s)
        token = tokens.dump(record())
        monkeypatch.setattr(time, "time", lambda: now)
        if reads:
            assert tokens.load(token, "snap") == record()
        else:
            with pytest.raises(tokens.BadToken) as caught:
                tokens.load(token, "snap")
            assert caught.value.reason == "expired"


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace(".", "", 1),  # the compressed payload's mark gone
        lambda t: t[:-3],  # a short signature
        lambda t: t[:10] + ("A" if t[10] != "A" else "B") + t[11:],  # the payload changed
        lambda t: t.rsplit(".", 2)[0] + ".." + t.rsplit(".", 1)[1],  # no timestamp
    ],
    ids=["unmarked", "short-sig", "payload", "no-stamp"],
)
def test_a_changed_token_is_not_trusted(app, change):
    with app.app_context():
        token = tokens.dump(record(actions=tuple(f"t{n % 2}" for n in range(50))))
        with pytest.raises(tokens.BadToken) as caught:
            tokens.load(change(token), "snap")
    assert caught.value.reason in ("tampered", "malformed")


@pytest.mark.parametrize(
    "actions",
    [
        (),
        ("t0",),
        ("t0", "c1:12:431.5", "t1"),
        (["t", 0], ["c", 0, 1, 412.5]),  # older Snap tokens, and other games' lists
        ("a,b", "c"),  # a comma inside: kept as a list
        ("t0", ""),  # an empty one: kept as a list
        ("t0", ["t", 1]),
    ],
)
def test_actions_round_trip_whatever_their_shape(app, actions):
    with app.app_context():
        assert tokens.load(tokens.dump(record(actions=actions)), "snap").actions == actions


def test_string_actions_travel_as_one_string():
    packed = record(actions=("t0", "t1", "c0:2:350.0")).to_json()["a"]
    assert packed == "t0,t1,c0:2:350.0"


def test_plus_and_settings_do_not_mutate():
    r = record()
    longer = r.plus(["t", 1])
    assert len(longer.actions) == len(r.actions) + 1
    assert r.with_settings(auto=True).settings == {"auto": True}
    assert r.settings == {"auto": False}


def _expired(app) -> str:
    """A token loaded when it is older than GAME_MAX_AGE (here: any age at all)."""
    with app.app_context():
        token = tokens.dump(record())
    app.config["GAME_MAX_AGE"] = -1
    return token


def _tampered(app) -> str:
    with app.app_context():
        token = tokens.dump(record())
    head, _, sig = token.rpartition(".")
    return head + "." + ("A" if sig[0] != "A" else "B") + sig[1:]


def _other_secret(app) -> str:
    other = create_app({"TESTING": True, "SECRET_KEY": "someone-elses-secret"})
    with other.app_context():
        return tokens.dump(record())


def _other_secret_no_key_id(app) -> str:
    """Signed elsewhere and carrying no key id: nothing says it is ours from before."""
    return URLSafeTimedSerializer("someone-elses-secret", salt=tokens.SALT + "snap").dumps(
        record().to_json()
    )


def _forged_key_id(app) -> str:
    """Our own key id, but the signature fails: changed, not from before a restart."""
    with app.app_context():
        signed = {**record().to_json(), "k": tokens.key_id()}
    return URLSafeTimedSerializer("someone-elses-secret", salt=tokens.SALT + "snap").dumps(signed)


def _other_game(app) -> str:
    with app.app_context():
        return tokens.dump(record(game="snitchems"))


def _bad_shape(app) -> str:
    with app.app_context():
        return reference(app).dumps({"v": tokens.FORMAT, "g": "snap"})


def _old_format(app) -> str:
    with app.app_context():
        return reference(app).dumps({**record().to_json(), "v": 0})


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda app: "", "missing"),
        (lambda app: None, "missing"),
        (lambda app: "not-a-token", "malformed"),
        (lambda app: "x" * (tokens.MAX_TOKEN_CHARS + 1), "malformed"),
        (lambda app: "....", "tampered"),
        (_tampered, "tampered"),
        (_other_secret, "restarted"),
        (_other_secret_no_key_id, "tampered"),
        (_forged_key_id, "tampered"),
        (_expired, "expired"),
        (_other_game, "wrong-game"),
        (_bad_shape, "malformed"),
        (_old_format, "malformed"),
    ],
    ids=[
        "empty",
        "none",
        "garbage",
        "too-long",
        "dots",
        "tampered",
        "other-secret",
        "other-secret-no-key-id",
        "forged-key-id",
        "expired",
        "other-game",
        "bad-shape",
        "old-format",
    ],
)
def test_bad_tokens(app, make, reason):
    token = make(app)
    with app.app_context(), pytest.raises(tokens.BadToken) as caught:
        tokens.load(token, "snap")
    assert caught.value.reason == reason


def test_deck_fingerprint_depends_on_order():
    assert tokens.deck_fingerprint(["a", "b"]) != tokens.deck_fingerprint(["b", "a"])
    assert len(tokens.deck_fingerprint(["a"])) == 16


@pytest.mark.random_deals
def test_nonces_are_fresh():
    assert len({tokens.new_nonce() for _ in range(50)}) == 50
