"""Play Snap against the computer with a set's deck: setup, table, actions (see docs/play.md).

No server state: every page carries a signed game record (:mod:`kiosk.web.tokens`); each
POST replays the record with :func:`kiosk.games.snap.replay`, applies one action, and sends
back the new table and a new token. (Each worker keeps the games it replayed lately in a
:class:`StateCache`, so the next action of a game usually applies one action, not 500: an
optimisation only, a miss replays.) Every button is a real form, so the game works without
JavaScript; with it, ``play.js`` paces the computer players, measures the visitor's reaction
from the moment a card is painted, and htmx swaps ``#game`` in place.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from kiosk.catalogue.decks import card_name, deck_for, flagged_faces
from kiosk.catalogue.schema import SetRecord
from kiosk.games import snap
from kiosk.games.cards import Card
from kiosk.games.core import Event, GameError, Hearer
from kiosk.web import content, tokens
from kiosk.web.cardfaces import quoted
from kiosk.web.cards import back_src, card_src, find_face

bp = Blueprint("play", __name__)

GAME = snap.GAME
HUMAN = 0  # the visitor's seat
DEFAULT_VARIANT = {"misc-869-1986": "woolworths"}  # a set's own rules; "classic" elsewhere
BOT_NAMES = {
    "easy": ("Sleepy Sam", "Sleepy Sal", "Sleepy Stan"),
    "medium": ("Steady Sue", "Steady Stu", "Steady Stella"),
    "hard": ("Speedy Sid", "Speedy Sadie", "Speedy Seth"),
}
SPEED_WORDS = {
    "easy": "takes it slowly, and sometimes misses a match",
    "medium": "pays attention, about as quick as a grown-up",
    "hard": "very quick: a real race",
}
DEFAULT_LEVEL = "easy"
DEFAULT_BOTS = 1
# The computer players turn a card this long after the last card was painted (ms): longer for
# slower levels, so almost every computer call falls inside the window it belongs to.
PACE_MS = {"easy": 2200, "medium": 1500, "hard": 1200}
# A match stays on the table at least this long at every level, as long as at the slowest:
# time for a young child to see it and tap (docs/play.md, "Fair timing").
MATCH_OPEN_MS = PACE_MS["easy"]
STATE_CACHE_SIZE = 256  # games kept per process (a few kB each): far more than kiosks in use
CACHE_EXTENSION = "play.state_cache"
SETUP_EXTENSION = "play.setup_contexts"
OUTCOME_HOLD_MS = 800  # extra time to read an outcome before the next card
UNMEASURED_MS = 800  # a call without a measured reaction (no JavaScript) counts as this
BAD_REACTION_WORDS = "The kiosk could not tell how quickly you tapped. Please tap Snap! again."
OUTCOMES = {
    "snap",
    "pool-formed",
    "pool-won",
    "tie",
    "penalty",
    "mistaken-call",
    "forfeit",
    "unclaimed",
    "out",
}
CODES = {"turn": "t", "call": "c", "call-pool": "p", "close": "x"}
TYPES = {v: k for k, v in CODES.items()}
ACTS = ("turn", "snap", "pool", "next", "auto-on", "auto-off")
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


# ----------------------------------------------------------------- records and games


def encode_action(action: dict[str, Any]) -> str:
    """An engine action as a short string for the token (``"t0"``, ``"c0:12:431.5"``).

    One string an action (not a list) keeps a 500-action record quick to sign and to read.
    """
    code = CODES[action["type"]]
    if code in ("c", "p"):
        return f"{code}{action['player']}:{action['turn']}:{action['reaction_ms']!r}"
    return f"{code}{action['player']}"


def _number(text: str) -> int | float:
    return int(text) if text.isascii() and text.isdigit() else float(text)


def decode_action(item: Any) -> dict[str, Any]:
    """The engine action for a token's item (raises BadToken("malformed")).

    Items are strings (see :func:`encode_action`); the lists of older tokens still read.
    """
    try:
        if type(item) is str:
            code, fields = item[:1], item[1:].split(":")
            player, *rest = fields
            action: dict[str, Any] = {"type": TYPES[code], "player": int(player)}
            if code in ("c", "p"):
                turn, ms = rest
                action["turn"], action["reaction_ms"] = int(turn), _number(ms)
            elif rest:
                raise ValueError("extra fields")
            return action
        code, player, *rest = item
        action = {"type": TYPES[code], "player": player}
        if code in ("c", "p"):
            action["turn"], action["reaction_ms"] = rest
        elif rest:
            raise ValueError("extra fields")
    except (TypeError, ValueError, KeyError):
        raise tokens.BadToken("malformed", "an action in the record is not readable") from None
    return action


_TURNS = tuple({"type": "turn", "player": p} for p in range(8))  # shared: the engine only reads
_TURN_CODES = {f"t{p}": turn for p, turn in enumerate(_TURNS)}


def decode_actions(items: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Every action of a record (a turn, by far the most common, without a new dict)."""
    out = []
    turns = _TURN_CODES
    for item in items:
        turn = turns.get(item) if type(item) is str else None
        if turn is not None:
            out.append(turn)
            continue
        if type(item) is list and len(item) == 2 and item[0] == "t" and type(item[1]) is int:
            player = item[1]
            if 0 <= player < len(_TURNS):
                out.append(_TURNS[player])
                continue
        out.append(decode_action(item))
    return out


def set_or_404(slug: str) -> SetRecord:
    """The set with this slug, or a 404."""
    entry = content.current().sets.get(slug)
    if entry is None:
        abort(404)
    return entry.record  # type: ignore[return-value]


_DECKS: dict[tuple[str, str], tuple[list[Card], str]] = {}  # (content version, slug) → deck


def deck_and_print(record: SetRecord) -> tuple[list[Card], str]:
    """The set's playable deck (flagged cards left out) and its fingerprint, made once."""
    key = (content.current().version, record.key)
    found = _DECKS.get(key)
    if found is None:
        deck = deck_for(record, include_flagged=False)
        found = (deck, tokens.deck_fingerprint([c.id for c in deck]))
        if len(_DECKS) > 64:  # content reloads make new records: forget the old ones
            _DECKS.clear()
        _DECKS[key] = found
    return found


def deck_of(record: SetRecord) -> list[Card]:
    """The set's playable deck (flagged cards left out)."""
    return deck_and_print(record)[0]


def bound() -> int:
    """The kiosk bound on turns (the config may lower it for tests)."""
    return int(current_app.config.get("PLAY_MAX_TURNS") or snap.KIOSK_MAX_TURNS)


def variants_for(record: SetRecord) -> list[str]:
    """The Snap variants offered for this set, its own rules first."""
    first = DEFAULT_VARIANT.get(record.key, "classic")
    return [first, *(name for name in snap.VARIANTS if name != first)]


@dataclass
class Game:
    """A game rebuilt from its record: the engine state, and the record it came from."""

    record: tokens.GameRecord
    state: snap.SnapState
    events: list[Event]

    @property
    def options(self) -> snap.SnapOptions:
        return self.state.options


def start_record(
    set_slug: str, deck: list[Card], variant: str, bots: int, level: str
) -> tokens.GameRecord:
    """A new game's record (raises OptionsError for choices that make no game)."""
    options = snap.options_for(
        variant, players=bots + 1, humans=(HUMAN,), level=level, max_turns=bound()
    )
    return tokens.GameRecord(
        game=GAME,
        set_slug=set_slug,
        options=options.to_json(),
        nonce=current_app.config.get("PLAY_NONCE") or tokens.new_nonce(),  # tests fix the deal
        deck=tokens.deck_fingerprint([c.id for c in deck]),
        settings={"auto": False},
    )


class StateCache:
    """Games replayed lately in this process, so the next action need not replay 500 more.

    Each entry is one game's state after a record's actions, keyed by everything that makes
    the game (seed, set, deck, content version, options) and kept with those actions. A
    record whose actions begin with an entry's takes that state out and applies only the
    actions after it (``apply`` makes new states: the kept one is never changed); anything
    else is a miss and replays in full. Keys come only from records whose signature was
    checked, and a state is a pure function of its key and actions, so one visitor's token
    cannot change what another's replays to. Each worker has its own cache; with two
    gunicorn workers a game's entry in the other worker is still a prefix of the record and
    carries forward.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple, tuple[tuple[Any, ...], snap.SnapState]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, key: tuple, actions: tuple[Any, ...]) -> tuple[snap.SnapState, int] | None:
        """The kept state if ``actions`` begins with its actions (removed), and how many."""
        with self._lock:
            found = self._entries.pop(key, None)
        if found is not None:
            done, state = found
            n = len(done)
            if n <= len(actions) and actions[:n] == done:
                self.hits += 1
                return state, n
        self.misses += 1
        return None

    def put(self, key: tuple, actions: tuple[Any, ...], state: snap.SnapState) -> None:
        """Keep ``state``, the game after ``actions``."""
        if self.size <= 0 or state.actions != len(actions):  # e.g. a late call not recorded
            return
        with self._lock:
            self._entries[key] = (actions, state)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every kept game."""
        with self._lock:
            self._entries.clear()


def state_cache() -> StateCache:
    """This app's cache of replayed games (``PLAY_STATE_CACHE`` entries; 0 turns it off)."""
    cache = current_app.extensions.get(CACHE_EXTENSION)
    if cache is None:
        size = current_app.config.get("PLAY_STATE_CACHE", STATE_CACHE_SIZE)
        cache = current_app.extensions.setdefault(CACHE_EXTENSION, StateCache(int(size)))
    return cache


def _cache_key(record: tokens.GameRecord, options: snap.SnapOptions, seed: str) -> tuple:
    return (seed, record.set_slug, record.deck, content.current().version, options)


def rebuild(record: tokens.GameRecord, set_record: SetRecord) -> Game:
    """Replay a record on the set's deck (raises BadToken if it no longer makes a game)."""
    if record.set_slug != set_record.key:
        raise tokens.BadToken("wrong-set", record.set_slug)
    deck, fingerprint = deck_and_print(set_record)
    if fingerprint != record.deck:
        raise tokens.BadToken("cards-changed")
    try:
        options = snap.options_from_json(record.options)
        seed = tokens.seed_for(record.nonce)
        kept = state_cache().take(_cache_key(record, options, seed), record.actions)
        if kept is None:
            state = snap.replay(deck, options, seed, decode_actions(record.actions))
        else:
            state, done = kept
            for action in decode_actions(record.actions[done:]):
                state, _ = snap.apply(state, action)
    except (GameError, TypeError, KeyError, ValueError) as exc:
        raise tokens.BadToken("malformed", str(exc)) from None
    return Game(record, state, [])


def keep(game: Game) -> None:
    """Keep the game's state for this game's next action (call once the request is done)."""
    record = game.record
    try:
        seed = tokens.seed_for(record.nonce)
        key = _cache_key(record, game.state.options, seed)
    except (TypeError, ValueError):  # pragma: no cover - records here were checked already
        return
    state_cache().put(key, record.actions, game.state)


def play(game: Game, action: dict[str, Any]) -> Game:
    """Apply one engine action; record it unless it changed nothing (a late call)."""
    game.state, events = snap.apply(game.state, action)
    game.events = events
    if not (len(events) == 1 and events[0].type == "late-call"):
        game.record = game.record.plus(encode_action(action))
    return game


def has_to_settle(state: snap.SnapState) -> bool:
    """Whether the open call window holds something to settle (a match, or a call)."""
    return state.window is not None and state.window.has_to_settle()


def next_action(game: Game) -> dict[str, Any] | None:
    """What "Next" (the page's pace) does now: a computer turn, a settle, or nothing."""
    s = game.state
    if s.over:
        return None
    can_turn = s.turn < (s.options.max_turns or float("inf"))
    if not can_turn:
        return {"type": "close", "player": HUMAN} if s.window is not None else None
    mover = snap.to_move(s)[0]
    if s.options.speed:
        return {"type": "turn", "player": mover}
    if mover != HUMAN or game.record.settings.get("auto"):
        return {"type": "turn", "player": mover}
    if has_to_settle(s):
        return {"type": "close", "player": HUMAN}
    return None


class Refused(GameError):
    """A request the rules refuse, with the words the visitor sees (answered with 400)."""

    def __init__(self, words: str) -> None:
        super().__init__(words)
        self.words = words


def reaction(raw: str | None) -> float:
    """The reaction (ms) the page sent, for the engine to judge; none sent (no JavaScript)
    counts as ``UNMEASURED_MS``. Only read here: the engine refuses a negative or
    non-finite one (text that is no number reads as NaN) and makes a false start too late."""
    text = (raw or "").strip()
    if not text:
        return UNMEASURED_MS
    try:
        ms = float(text)
    except ValueError:
        return math.nan
    if math.isfinite(ms) and ms > snap.MAX_REACTION_MS:  # a tap after a minute away: slowest
        return float(snap.MAX_REACTION_MS)
    return round(ms, 1)


def act(game: Game, what: str, form: dict[str, str]) -> str | None:
    """Do the visitor's ``what``; return a note when the button did nothing."""
    s = game.state
    if what in ("auto-on", "auto-off"):
        game.record = game.record.with_settings(auto=what == "auto-on")
        return None
    if s.over:
        return "The game is over."
    if what == "next":
        action = next_action(game)
        if action is not None:  # else it is the visitor's move: the table says so
            play(game, action)
        return None
    legal = snap.legal_actions(s, HUMAN)
    if what == "turn":
        if not any(a["type"] == "turn" for a in legal):
            return "Wait for your turn." if not s.out[HUMAN] else "You are out of this game."
        play(game, {"type": "turn", "player": HUMAN})
        return None
    # a call: Snap! or Snap Pool!
    if s.options.forfeits:
        return "In the forfeits game a match snaps by itself: no need to call."
    if s.out[HUMAN]:
        return "You are out of this game."
    try:
        turn = int(form.get("turn", ""))
    except ValueError:
        turn = -1
    kind = "call-pool" if what == "pool" else "call"
    try:
        play(
            game,
            {
                "type": kind,
                "player": HUMAN,
                "turn": turn,
                "reaction_ms": reaction(form.get("reaction_ms")),
            },
        )
    except snap.BadReaction:  # a bad request (a page never sends one): 400, in words
        raise Refused(BAD_REACTION_WORDS) from None
    return None


# ----------------------------------------------------------------- words


def names(options: snap.SnapOptions) -> list[str]:
    """Each seat's name: "You", then the computer players named for their level."""
    out = []
    for seat in range(options.players):
        if seat == HUMAN:
            out.append("You")
        else:
            level = options.seat_level(seat)
            out.append(BOT_NAMES[level][(seat - 1) % 3])
    return out


def card_alt(card: dict[str, Any] | None, set_record: SetRecord) -> str:
    """A card named by its picture or rank (and family, where Snap matches by family)."""
    if card is None:
        return ""
    if set_record.deck == "standard-52":
        return card["name"]
    face = find_face(set_record, (card.get("face") or "").rpartition("/")[2])
    # a printed name is historic text, quoted; a card the record does not name is said plainly
    name = card_name(face) if face is not None and not face.recorded else quoted(card["name"])
    if set_record.match == "family" and card.get("match"):
        return f"{name}, {card['match']} family"
    return name


def hearer(game: Game, set_record: SetRecord) -> Hearer:
    """The visitor at the table: "you", the computer seats by name, cards by the set's names."""
    cards = game.state.cards
    return Hearer(
        names(game.options), HUMAN, lambda cid: card_alt(snap.card_json(cards[cid]), set_record)
    )


def headline(words: list[str], outcomes: list[str]) -> str | None:
    """The sentence to show big: the last outcome (or note), else the last card turned."""
    return (outcomes or words or [None])[-1]


def pace_ms(game: Game) -> int | None:
    """How long the page waits before posting "Next" (None: it waits for the visitor)."""
    if game.state.over or next_action(game) is None:
        return None
    override = current_app.config.get("PLAY_PACE_MS")
    pace = int(override) if override else PACE_MS[game.options.level]
    w = game.state.window
    if not override and w is not None and (w.snap or w.pool):
        pace = max(pace, MATCH_OPEN_MS)  # whoever plays, a slow visitor can see it and tap
    if any(e.type in OUTCOMES for e in game.events):
        pace += OUTCOME_HOLD_MS if not override else 0
    return pace


# ----------------------------------------------------------------- rendering


class CardLooks:
    """How a set's cards show on the table (picture URL, name), each worked out once: one per
    set, content version and mount point (kept with the setup context)."""

    def __init__(self, set_record: SetRecord) -> None:
        self.set_record = set_record
        self._srcs: dict[str, str] = {}
        self._looks: dict[str, SimpleNamespace] = {}

    def src(self, face: str) -> str:
        """The URL of a card picture (an engine card's ``face`` key)."""
        found = self._srcs.get(face)
        if found is None:
            found = self._srcs[face] = card_src(face)
        return found

    def look(self, card: dict[str, Any] | None) -> SimpleNamespace | None:
        """A card of the engine's view as the table shows it: ``id``, ``src`` and ``alt``."""
        if card is None:
            return None
        found = self._looks.get(card["id"])
        if found is None:
            found = SimpleNamespace(
                id=card["id"], src=self.src(card["face"]), alt=card_alt(card, self.set_record)
            )
            self._looks[card["id"]] = found
        return found


def table(
    game: Game, set_record: SetRecord, looks: CardLooks, note: str | None = None
) -> dict[str, Any]:
    """Everything the table template shows, from the visitor's view of the game."""
    s = game.state
    o = s.options
    v = snap.view(s, HUMAN)
    look = looks.look
    who = names(o)
    heard = hearer(game, set_record)
    turned = {e.data["player"] for e in game.events if e.type == "turn"}
    current = None if o.speed else v["current"]
    seats = []  # objects, not dicts: Jinja tries an attribute first, and on a dict that fails
    for info in v["players"]:
        p = info["seat"]
        top = look(info["top"])
        seats.append(
            SimpleNamespace(
                **{**info, "top": top, "current": current == p},
                name=who[p],
                top_alt=top.alt if top else "",
                top_src=top.src if top else None,
                top_vt=f"card-{top.id}" if top else None,
                turned=p in turned,
            )
        )
    centre = v["centre"]
    if centre:
        below, top = look(centre["below"]), look(centre["top"])
        centre = SimpleNamespace(
            count=centre["count"],
            top=top,
            top_alt=top.alt if top else "",
            top_src=top.src if top else None,
            below=below,
            below_alt=below.alt if below else "",
            below_src=below.src if below else None,
        )
    pool_top = look(v["pool"]["top"])
    pool = SimpleNamespace(
        count=v["pool"]["count"],
        top=pool_top,
        top_alt=pool_top.alt if pool_top else "",
        top_src=pool_top.src if pool_top else None,
    )
    shown = {c.id for c in (pool_top, *(seat.top for seat in seats)) if c}
    if centre:
        shown |= {c.id for c in (centre.top, centre.below) if c}
    ghosts: dict[int, list[str]] = {}  # cards just won, drawn over the winner's pack
    for e in game.events:
        won = e.data.get("tops", []) if e.type == "snap" else []
        if e.type == "pool-won":
            won = [e.data["pool_top"]]
        ghosts.setdefault(e.data.get("player", -1), []).extend(c for c in won if c not in shown)
    faces = []
    if s.turn == 0:  # the first table preloads every face, so no turned card waits to load
        faces = sorted({looks.src(c.face) for c in s.cards.values() if c.face})
    last = _last_turner(game)
    words = snap.sentences(game.events, heard)
    outcomes = snap.sentences([e for e in game.events if e.type != "turn"], heard)
    if note:
        words.append(note)
        outcomes.append(note)
    legal = v["actions"]
    pace = pace_ms(game)
    return {
        "view": SimpleNamespace(kitty=v["kitty"]),
        "seats": seats,
        "centre": centre,
        "pool": pool,
        "words": words,
        "ghosts": ghosts,
        "faces": faces,
        "turned_centre": f"flip-{last}" if last is not None and o.layout == "central" else None,
        "headline": headline(words, outcomes),
        "token": tokens.dump(game.record),
        "turn": v["window"]["turn"] if v["window"] else s.turn,
        "can_turn": "turn" in legal,
        "can_call": "call" in legal,
        "show_pool": o.pool or o.penalty in ("face-up-to-pool", "face-down-to-pool"),
        "can_pool": "call-pool" in legal,
        "forfeits": o.forfeits,
        "central": o.layout == "central",
        "speed": o.speed,
        "auto": bool(game.record.settings.get("auto")),
        "pace": pace,
        "waiting_for_you": not s.over and pace is None,  # no "Next" to wait for
        "over": s.over,
        "result": snap.result_words(s.winners, heard) if s.over else None,
        "you_won": s.over and HUMAN in s.winners,
        "variant": snap.VARIANTS[o.variant],
        "options": o,
        "max_turns": o.max_turns,
        "turns_left": None if o.max_turns is None else max(0, o.max_turns - s.turn),
        "rules_url": f"/rules/snap/{o.variant}",
        "bots": o.players - 1,
        "level": o.level,
    }


def _last_turner(game: Game) -> int | None:
    turns = [e.data["player"] for e in game.events if e.type == "turn"]
    return turns[-1] if turns else None


def setup_context(set_record: SetRecord) -> dict[str, Any]:
    """The setup page's choices, with the set's defaults: made once per set and content
    version (every game action shows them), and a fresh dict each time for the caller."""
    if current_app.debug:  # edited templates show at once
        return _setup_context(set_record)
    key = (content.current().version, set_record.key, request.script_root, bound())
    kept = current_app.extensions.setdefault(SETUP_EXTENSION, {})
    found = kept.get(key)
    if found is None:
        found = _setup_context(set_record)
        if len(kept) >= 64:  # content reloads make new versions: forget the old ones
            kept.clear()
        kept[key] = found
    return dict(found)


def _setup_context(set_record: SetRecord) -> dict[str, Any]:
    snapshot = content.current()
    flagged = flagged_faces(set_record)
    notes = []
    for slug in dict.fromkeys(f.content_note.note for f in flagged if f.content_note):
        entry = snapshot.notes.get(slug)
        notes.append((url_for("pages.note", slug=slug), entry.record.title if entry else slug))
    parts = current_app.jinja_env.get_template("play/_parts.html").module
    return {
        "record": set_record,
        "flagged": flagged,
        "flagged_notes": notes,
        # the same for every action of a game: rendered here, once per set and version
        "flagged_notice": parts.flagged_notice(flagged, notes),  # type: ignore[attr-defined]
        "deck_size": len(deck_of(set_record)),
        "variants": [snap.VARIANTS[name] for name in variants_for(set_record)],
        "default_variant": variants_for(set_record)[0],
        "levels": [(name, snap.LEVEL_INFO[name].title, SPEED_WORDS[name]) for name in snap.LEVELS],
        "default_level": DEFAULT_LEVEL,
        "default_bots": DEFAULT_BOTS,
        "max_turns": bound(),
        # the table's parts that depend only on the set and the mount point
        "act_url": url_for("play.act_post", slug=set_record.key),
        "back": back_src(set_record),
        "card_looks": CardLooks(set_record),
    }


def render_game(game: Game, set_record: SetRecord, note: str | None = None, status: int = 200):
    """The game page (or, for htmx, just its main content: base.html decides)."""
    ctx = setup_context(set_record)
    ctx.update(table(game, set_record, ctx["card_looks"], note))
    headers = request.headers
    if headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true":
        # the table's own form (hx-select="#game"): #game alone is all htmx will take
        return render_template("play/_game.html", **ctx), status
    return render_template("play/game.html", **ctx), status


def bad_token(
    set_record: SetRecord,
    error: tokens.BadToken,
    setup_endpoint: str = "play.setup",
    game_id: str = "game",
) -> tuple[str, int]:
    """The friendly "start a new game" page, status 400, for any game's bad token."""
    words = BAD_TOKEN_WORDS.get(error.reason, BAD_TOKEN_WORDS["malformed"])
    setup_url = url_for(setup_endpoint, slug=set_record.key)
    return render_template(
        "play/bad_token.html", record=set_record, words=words, setup_url=setup_url, game_id=game_id
    ), 400


# ----------------------------------------------------------------- views


@bp.get("/sets/<slug>/play/snap")
@bp.get("/sets/<slug>/play")
def setup(slug: str) -> str:
    """Choose the computer players, their speed and the rules; then Start."""
    set_record = set_or_404(slug)
    return render_template("play/setup.html", **setup_context(set_record))


@bp.post("/sets/<slug>/play/snap")
@bp.post("/sets/<slug>/play")
def start(slug: str) -> tuple[str, int]:
    """Deal a new game with the chosen setup and show the table."""
    set_record = set_or_404(slug)
    form = request.form
    variant = form.get("variant", variants_for(set_record)[0])
    level = form.get("level", DEFAULT_LEVEL)
    try:
        bots = int(form.get("bots", DEFAULT_BOTS))
    except ValueError:
        bots = -1
    if variant not in snap.VARIANTS or level not in snap.LEVELS or not 1 <= bots <= 3:
        ctx = setup_context(set_record)
        ctx["error"] = "Please choose again: one of those choices was not on the list."
        return render_template("play/setup.html", **ctx), 400
    deck = deck_of(set_record)
    record = start_record(set_record.key, deck, variant, bots, level)
    state, _ = snap.new_game(
        deck, snap.options_from_json(record.options), tokens.seed_for(record.nonce)
    )
    game = Game(record, state, [])
    page = render_game(game, set_record)
    keep(game)
    return page


@bp.get("/sets/<slug>/play/act")
def act_get(slug: str) -> Response:
    """A bookmarked or reloaded action address: back to the setup."""
    set_or_404(slug)
    return redirect(url_for("play.setup", slug=slug), code=303)


@bp.post("/sets/<slug>/play/act")
def act_post(slug: str) -> tuple[str, int]:
    """One visitor action (turn, Snap!, Snap Pool!, Next, auto-turn) on the game in the token."""
    set_record = set_or_404(slug)
    form = request.form
    try:
        game = rebuild(tokens.load(form.get("token"), GAME), set_record)
    except tokens.BadToken as error:
        return bad_token(set_record, error)
    what = form.get("act", "")
    if what not in ACTS:
        page = render_game(game, set_record, "That button is not part of this game.", 400)
    else:
        try:
            note = act(game, what, form)
        except GameError as error:  # the rules refused it: the table stays as it was
            game = rebuild(game.record, set_record)
            note = getattr(error, "words", "That cannot be done now.")
            page = render_game(game, set_record, note, 400)
        else:
            page = render_game(game, set_record, note)
    keep(game)  # last: from here on another request may take this state and change it
    return page


def init_app(app: Flask) -> None:
    """Register the play pages."""
    app.register_blueprint(bp)
