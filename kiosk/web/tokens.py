"""Signed game-record tokens: a game travels with its page (itsdangerous, a salt per game and a
maximum age); the seed is HMAC(secret, nonce), so a token reveals no coming card. A bad token
raises BadToken only; its key id tells "restarted" from "tampered".
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import zlib
from dataclasses import dataclass, field, replace
from typing import Any

from flask import current_app
from itsdangerous import BadSignature, URLSafeTimedSerializer
from itsdangerous.encoding import base64_decode, base64_encode

from kiosk.games import registry

FORMAT = 1  # bump when the record's shape changes: older tokens then read as malformed
MAX_TOKEN_CHARS = 64_000  # far beyond any real game: a longer token is refused unread
SALT = "kiosk.game-record."  # + the game's name
# A token may come from another machine whose clock runs a little ahead: a stamp up to this
# many seconds in the future still reads (further ahead, something is wrong: "expired").
CLOCK_SKEW_S = 120
KEY_ID = "k"  # the record's field naming the secret's id
PEEK_BYTES = 1_000_000  # an unverified token is unpacked only this far, to read its key id


class BadToken(Exception):
    """A token that cannot be trusted or used: tampered, expired, malformed or another game's."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        # "missing" | "tampered" | "restarted" | "expired" | "malformed" | "wrong-game"
        self.reason = reason


@dataclass(frozen=True)
class PlayRecord:
    """Everything needed to rebuild one game: the deck comes from the set, the seed from nonce."""

    game: str
    set_slug: str
    options: dict[str, Any]
    nonce: str
    actions: tuple[Any, ...] = ()
    deck: str = ""  # fingerprint of the deck dealt: an edited set cannot replay an old game
    settings: dict[str, Any] = field(default_factory=dict)  # page choices (auto-turn, …)

    def plus(self, *actions: Any) -> PlayRecord:
        """The same record with ``actions`` appended."""
        return replace(self, actions=(*self.actions, *actions))

    def with_settings(self, **settings: Any) -> PlayRecord:
        """The same record with some page settings changed."""
        return replace(self, settings={**self.settings, **settings})

    def to_json(self) -> dict[str, Any]:
        """The record as compact JSON-ready data."""
        return {
            "v": FORMAT,
            "g": self.game,
            "s": self.set_slug,
            "o": self.options,
            "n": self.nonce,
            "a": _pack_actions(self.actions),
            "d": self.deck,
            "p": self.settings,
        }

    @classmethod
    def from_json(cls, data: Any) -> PlayRecord:
        """Rebuild a record from :meth:`to_json` data (raises BadToken("malformed"))."""
        try:
            if not isinstance(data, dict) or data.get("v") != FORMAT:
                raise TypeError("not a game record of this format")
            record = cls(
                game=data["g"],
                set_slug=data["s"],
                options=data["o"],
                nonce=data["n"],
                actions=_unpack_actions(data["a"]),
                deck=data["d"],
                settings=data["p"],
            )
            checks = (
                (record.game, str),
                (record.set_slug, str),
                (record.options, dict),
                (record.nonce, str),
                (record.deck, str),
                (record.settings, dict),
            )
            if any(not isinstance(value, kind) for value, kind in checks) or not record.nonce:
                raise TypeError("a field has the wrong type")
        except (KeyError, TypeError) as exc:
            raise BadToken("malformed", str(exc)) from None
        return record


def _pack_actions(actions: tuple[Any, ...]) -> str | list[Any]:
    """All-string actions as one comma-joined string (quick to write and read), else a list."""
    try:
        joined = ",".join(actions)
    except TypeError:  # not all strings
        return list(actions)
    if joined.count(",") == max(0, len(actions) - 1) and "" not in actions:
        return joined
    return list(actions)  # a comma inside one, or an empty one: they would not split back


def _unpack_actions(packed: Any) -> tuple[Any, ...]:
    if type(packed) is str:
        return tuple(packed.split(",")) if packed else ()
    return tuple(packed)  # a list (or a TypeError for from_json to report)


def new_nonce() -> str:
    """A fresh random nonce for a new game (from the OS, never the game's own RNG)."""
    return secrets.token_urlsafe(12)


def _secret() -> bytes:
    key = current_app.config["SECRET_KEY"]
    return key.encode("utf-8") if isinstance(key, str) else key


def seed_for(nonce: str) -> str:
    """The game's seed: HMAC-SHA256 of the nonce under the server secret (hex)."""
    return hmac.digest(_secret(), nonce.encode("utf-8"), "sha256").hex()


def deck_fingerprint(card_ids: list[str] | tuple[str, ...]) -> str:
    """A short fingerprint of a deck's card ids, in order."""
    return hashlib.sha256("\0".join(card_ids).encode("utf-8")).hexdigest()[:16]


def key_id() -> str:
    """A short id of this server's secret (8 characters of a hash): tokens carry it."""
    digest = hashlib.sha256(b"kiosk.key-id\0" + _secret()).digest()[:6]
    return base64_encode(digest).decode("ascii")


def _serializer(game: str) -> URLSafeTimedSerializer:
    """itsdangerous's serializer for ``game``'s tokens: the app's secret, a salt per game."""
    return URLSafeTimedSerializer(_secret(), salt=SALT + game)


def dump(record: PlayRecord) -> str:
    """Sign ``record`` into a URL-safe token (compressed when that is shorter)."""
    return _serializer(record.game).dumps({**record.to_json(), KEY_ID: key_id()})


def load(token: Any, game: str) -> PlayRecord:
    """The record in ``token`` for ``game``, or BadToken saying what is wrong with it."""
    if not isinstance(token, str) or not token.strip():
        raise BadToken("missing", "no game token was sent")
    if len(token) > MAX_TOKEN_CHARS:
        raise BadToken("malformed", "the token is too long")
    token = token.strip()
    try:
        # the age is checked below: itsdangerous refuses any stamp in the future at all
        data, signed_at = _serializer(game).loads(token, return_timestamp=True)
    except BadSignature as exc:
        raise _refusal(token, game, exc) from None
    except Exception as exc:  # BadPayload: signed by us, so only an older format fails here
        raise BadToken("malformed", type(exc).__name__) from None
    age = int(time.time()) - int(signed_at.timestamp())
    if age > int(current_app.config["GAME_MAX_AGE"]):
        raise BadToken("expired", "the game is older than the maximum age")
    if age < -CLOCK_SKEW_S:
        raise BadToken("expired", "the token is stamped further in the future than clocks drift")
    record = PlayRecord.from_json(data)
    if record.game != game:
        raise BadToken("wrong-game", f"this is a token for {record.game}")
    return record


def _refusal(token: str, game: str, exc: BadSignature) -> BadToken:
    """Why a token's signature does not match ``game``'s, in the visitor's terms."""
    # another game's token fails the signature too (the salt differs): tell them apart
    for other in registry.names():
        if other != game and _serializer(other).make_signer().validate(token):
            return BadToken("wrong-game", f"this is a token for {other}")
    if exc.payload is None:  # not even a payload and a signature
        return BadToken("malformed", "the signature does not match")
    if _peek_key_id(exc.payload) not in (None, key_id()):
        return BadToken("restarted", "signed with the secret from before a restart")
    return BadToken("tampered", "the signature does not match")


def _peek_key_id(payload: bytes) -> str | None:
    """The key id of an unverified payload, unpacked no further than PEEK_BYTES, or None."""
    try:
        packed = payload.startswith(b".")
        data = base64_decode(payload[1:] if packed else payload)
        if packed:
            data = zlib.decompressobj().decompress(data, PEEK_BYTES)
        found = json.loads(data.decode("utf-8")).get(KEY_ID)
    except Exception:  # anything unreadable is simply "no key id"
        return None
    return found if isinstance(found, str) else None
