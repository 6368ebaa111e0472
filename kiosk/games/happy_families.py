"""Happy Families by the Twizzles rule card, with its variation: an event-sourced engine.

Seed: the Twizzles rule card. Every decision the card leaves open is written down, with its
words, in ``docs/rules/happy-families.md``; the short version:

* three to eight players ("any number more than two"); two is refused, since a two-player
  game leaves nothing to remember: every card you lack is in the one other hand;
* the deck is any number (two or more) of complete families of four; :func:`playable_deck`
  drops incomplete families from a catalogue deck;
* the dealer is drawn from the game's RNG (or fixed by the ``dealer`` option); cards are dealt
  singly, one to each player from the dealer's left, until the pack is gone;
* a complete family is laid down as a trick at once: at the deal and the moment it completes;
* the asker may ask only a player who holds cards (hand sizes are public, so asking an empty
  hand is a question with a known answer) for a card they lack of a family they hold;
* a player left with no cards is skipped: the turn goes to the next player on the left who
  still holds cards;
* when every family is down the game is over (most tricks wins, ties share the win) or, with
  the variation, the player with most tricks (the first from the dealer's left on a tie)
  starts claiming whole tricks;
* kiosk bounds, not historic: ``max_asks`` and ``max_claims`` end a game that runs too long.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, IllegalAction, OptionsError, Variant, replay_events

GAME = "happy-families"
FAMILY_SIZE = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 8
REFUSAL = "I'm sorry, you can't"

_SEED = "twizzles-happy-families-rules.txt"
VARIANTS: dict[str, Variant] = {
    "classic": Variant(
        name="classic",
        title="Happy Families",
        description="Ask for the cards you need; a refusal passes the turn; most tricks wins.",
        source=(
            f'{_SEED}, rule 4: "If the player asked has the card he must hand it over, and the '
            'player who asked can again ask the same player or any other player"'
        ),
        options={"variation": False},
    ),
    "variation": Variant(
        name="variation",
        title="Happy Families: asking for whole families",
        description=(
            "When every family is down, the player with most tricks asks others for whole "
            "tricks until one player holds them all."
        ),
        source=(
            f'{_SEED}, rule 6: "The player with the most tricks may ask any other player for a '
            'complete set he thinks that other player has."'
        ),
        options={"variation": True},
    ),
}
LEVELS: tuple[str, ...] = ("forgetful", "remembering")

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "variation": False,
    "tricks_face_down": True,  # rule 3: "lay down in front of him, face down"
    "dealer": None,  # None: drawn from the game's RNG
    "shuffle": True,  # False: deal the deck as given, its first card first (for scenarios)
    "max_asks": 400,  # kiosk bound (not historic) on asks in the main game
    "max_claims": 60,  # kiosk bound (not historic) on claims in the variation
    "names": None,  # display names, used by the bots' explanations
}

Options = dict[str, Any]
Action = dict[str, Any]


def options_for(variant: str = "classic", **overrides: Any) -> Options:
    """Options for a named variant with overrides, checked so a bad choice fails early."""
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise OptionsError(f"unknown Happy Families variant {variant!r} (known: {known})")
    unknown = sorted(set(overrides) - set(DEFAULTS))
    if unknown:
        raise OptionsError(f"unknown Happy Families option(s): {', '.join(unknown)}")
    opts = {**DEFAULTS, **VARIANTS[variant].options, **overrides}
    _check_options(opts)
    return opts


def _check_options(opts: Options) -> None:
    """Refuse options that make no game, with words a curator or visitor can act on."""
    players = opts["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise OptionsError("players must be a whole number")
    if players < MIN_PLAYERS:
        raise OptionsError(
            f"Happy Families needs at least {MIN_PLAYERS} players "
            '(the rule card: "any number more than two")'
        )
    if players > MAX_PLAYERS:
        raise OptionsError(f"the kiosk plays Happy Families with at most {MAX_PLAYERS} players")
    for key in ("variation", "tricks_face_down", "shuffle"):
        if not isinstance(opts[key], bool):
            raise OptionsError(f"{key} must be true or false")
    for key in ("max_asks", "max_claims"):
        value = opts[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise OptionsError(f"{key} must be a whole number of at least 1")
    dealer = opts["dealer"]
    if dealer is not None and (
        not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players
    ):
        raise OptionsError(f"dealer must be a seat from 0 to {players - 1}")
    names = opts["names"]
    if names is not None and (
        len(names) != players or not all(isinstance(n, str) and n for n in names)
    ):
        raise OptionsError("names must give one non-empty name per player")


# --------------------------------------------------------------------------- decks


def generic_deck(families: int = 6) -> list[Card]:
    """A plain deck of lettered families for tests and demos (not a historic pack)."""
    if not 2 <= families <= 26:
        raise OptionsError("a generic deck has from 2 to 26 families")
    deck = []
    for f in range(families):
        letter = chr(ord("A") + f)
        family = f"Family {letter}"
        for i in range(FAMILY_SIZE):
            deck.append(
                Card(
                    id=f"{letter}{i + 1}",
                    name=f"{family}, card {i + 1}",
                    match=family,
                    family=family,
                    face=f"generic/{letter}{i + 1}",
                )
            )
    return deck


def playable_deck(deck: list[Card]) -> list[Card]:
    """Keep only complete families of four: a catalogue deck may miss cards or flagged ones."""
    counts: dict[str, int] = {}
    for card in deck:
        if card.family is not None:
            counts[card.family] = counts.get(card.family, 0) + 1
    return [c for c in deck if c.family is not None and counts[c.family] == FAMILY_SIZE]


def _check_deck(deck: list[Card]) -> list[str]:
    """The families in deck order, or OptionsError when the deck cannot be played."""
    ids = [c.id for c in deck]
    if len(set(ids)) != len(ids):
        raise OptionsError("every card in a Happy Families deck needs its own id")
    families: dict[str, int] = {}
    for card in deck:
        if card.family is None:
            raise OptionsError(f"card {card.id} belongs to no family")
        families[card.family] = families.get(card.family, 0) + 1
    short = [f for f, n in families.items() if n != FAMILY_SIZE]
    if short:
        raise OptionsError(
            f"families must have {FAMILY_SIZE} cards each: {', '.join(short)} "
            "(playable_deck keeps only complete families)"
        )
    if len(families) < 2:
        raise OptionsError("Happy Families needs at least two complete families")
    return list(families)


# --------------------------------------------------------------------------- state


@dataclass
class State:
    """One moment of a game: where every card is, whose turn, and the record that led here."""

    cards: dict[str, Card]
    families: list[str]
    options: Options
    seed: Any
    rng: random.Random = field(compare=False, repr=False)
    places: dict[str, list[str]]
    dealer: int
    turn: int
    phase: str  # "ask", "variation" or "over"
    asks: int = 0
    claims: int = 0
    end: str | None = None  # why the game ended
    events: list[dict[str, Any]] = field(default_factory=list)
    record: list[Action] = field(default_factory=list)

    @property
    def players(self) -> int:
        """How many seats round the table."""
        return self.options["players"]

    def clone(self) -> State:
        """A copy safe to change: cards and deck are shared, everything that moves is copied."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            cards=self.cards,
            families=self.families,
            options=self.options,
            seed=self.seed,
            rng=rng,
            places={k: list(v) for k, v in self.places.items()},
            dealer=self.dealer,
            turn=self.turn,
            phase=self.phase,
            asks=self.asks,
            claims=self.claims,
            end=self.end,
            events=list(self.events),
            record=list(self.record),
        )


def _hand(state: State, seat: int) -> list[str]:
    return state.places[f"hand:{seat}"]


def _move(state: State, cards: list[str], src: str, dst: str) -> dict[str, Any]:
    """Move cards between places and return the move as events carry it."""
    pile = state.places[src]
    for card in cards:
        pile.remove(card)
    state.places[dst].extend(cards)
    return {"cards": list(cards), "from": src, "to": dst, "at": "top"}


def _emit(state: State, out: list[Event], type_: str, **data: Any) -> None:
    event = Event(type_, data)
    out.append(event)
    state.events.append(event.to_json())


def family_cards(state: State, family: str) -> list[str]:
    """The card ids of one family, in deck order."""
    return [cid for cid, c in state.cards.items() if c.family == family]


def trick_families(state: State, seat: int) -> list[str]:
    """The families one player has laid down (or won), in the order they came."""
    seen: list[str] = []
    for cid in state.places[f"tricks:{seat}"]:
        fam = state.cards[cid].family
        if fam not in seen:
            seen.append(fam)
    return seen


def trick_counts(state: State) -> list[int]:
    """Tricks held by each seat."""
    return [len(state.places[f"tricks:{s}"]) // FAMILY_SIZE for s in range(state.players)]


def _lay_complete(state: State, seat: int, out: list[Event], at_deal: bool) -> None:
    """Lay down every complete family in one hand (rules 3 and 5)."""
    hand = _hand(state, seat)
    for fam in state.families:
        members = [c for c in hand if state.cards[c].family == fam]  # as they lie in hand
        if len(members) == FAMILY_SIZE:
            move = _move(state, members, f"hand:{seat}", f"tricks:{seat}")
            _emit(state, out, "trick", player=seat, family=fam, at_deal=at_deal, moves=[move])


def _next_with_cards(state: State, seat: int) -> int | None:
    """The first player to the left of seat (seat itself last) who still holds cards."""
    for step in range(1, state.players + 1):
        s = (seat + step) % state.players
        if _hand(state, s):
            return s
    return None


def _all_down(state: State) -> bool:
    return sum(trick_counts(state)) == len(state.families)


def new_game(
    deck: list[Card] | None, options: Options | None = None, seed: Any = 0
) -> tuple[State, list[Event]]:
    """Shuffle with the game's own RNG, deal singly, sort, lay down families complete at once."""
    opts = options_for("classic") if options is None else dict(options)
    _check_options(opts)
    deck = generic_deck() if deck is None else list(deck)
    families = _check_deck(deck)
    n = opts["players"]
    if len(deck) < n:
        raise OptionsError(f"{len(deck)} cards cannot be dealt to {n} players")
    rng = random.Random(f"{GAME}:{seed}")
    order = [c.id for c in deck]
    if opts["shuffle"]:
        rng.shuffle(order)
    else:
        order.reverse()  # the stock's top is the end of the list: the first card comes first
    dealer = opts["dealer"] if opts["dealer"] is not None else rng.randrange(n)
    places = {"box": [c.id for c in deck], "stock": []}
    for s in range(n):
        places[f"hand:{s}"] = []
        places[f"tricks:{s}"] = []
    state = State(
        cards={c.id: c for c in deck},
        families=families,
        options=opts,
        seed=seed,
        rng=rng,
        places=places,
        dealer=dealer,
        turn=(dealer + 1) % n,
        phase="ask",
    )
    out: list[Event] = []
    move = _move(state, order, "box", "stock")
    _emit(state, out, "shuffle", shuffled=opts["shuffle"], moves=[move])
    moves = []
    seat = dealer
    stock = state.places["stock"]  # the top of the stock is the end of the list
    while stock:
        seat = (seat + 1) % n
        moves.append(_move(state, [stock[-1]], "stock", f"hand:{seat}"))
    _emit(state, out, "deal", dealer=dealer, moves=moves)
    rank = {cid: i for i, cid in enumerate(c.id for c in deck)}
    fam_rank = {f: i for i, f in enumerate(families)}
    sorts = []
    for s in range(n):
        hand = _hand(state, s)
        ordered = sorted(hand, key=lambda c: (fam_rank[state.cards[c].family], rank[c]))
        sorts.append(_move(state, ordered, f"hand:{s}", f"hand:{s}"))
    _emit(state, out, "sort", moves=sorts)
    for s in range(n):
        _lay_complete(state, s, out, at_deal=True)
    if _all_down(state):
        _finish_main(state, out)
    elif not _hand(state, state.turn):
        _pass_on(state, out, state.turn)
    else:
        _emit(state, out, "turn", player=state.turn)
    return state, out


def _pass_on(state: State, out: list[Event], seat: int) -> None:
    """Skip a player with no cards: the turn goes to the next on the left who holds some."""
    nxt = _next_with_cards(state, seat)
    assert nxt is not None, "cards remain, so someone holds them"
    _emit(state, out, "pass", player=seat, to=nxt, reason="no cards left")
    state.turn = nxt
    _emit(state, out, "turn", player=nxt)


def _leader(state: State) -> int:
    """Most tricks; on a tie the first such player from the dealer's left."""
    counts = trick_counts(state)
    best = max(counts)
    for step in range(1, state.players + 1):
        s = (state.dealer + step) % state.players
        if counts[s] == best:
            return s
    raise AssertionError("unreachable")


def _finish_main(state: State, out: list[Event]) -> None:
    """Every family is down: the game ends, or the variation begins."""
    counts = trick_counts(state)
    if state.options["variation"] and max(counts) < len(state.families):
        state.phase = "variation"
        state.turn = _leader(state)
        _emit(state, out, "variation", player=state.turn, tricks=counts)
        _emit(state, out, "turn", player=state.turn)
        return
    why = "one player holds every trick" if state.options["variation"] else "every family is down"
    _game_over(state, out, why)


def _game_over(state: State, out: list[Event], why: str) -> None:
    state.phase = "over"
    state.end = why
    res = result(state)
    _emit(state, out, "game-over", reason=why, winners=res["winners"], scores=res["scores"])


def _bound(state: State, out: list[Event], what: str, limit: int) -> None:
    _emit(state, out, "bound", what=what, limit=limit, historic=False)
    _game_over(state, out, f"the kiosk's limit of {limit} {what} was reached")


# --------------------------------------------------------------------------- the rules


def to_move(state: State) -> list[int]:
    """The seat the game waits for, or [] when it is over."""
    return [] if state.phase == "over" else [state.turn]


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == "over"


def _families_held(state: State, seat: int) -> list[str]:
    held = {state.cards[c].family for c in _hand(state, seat)}
    return [f for f in state.families if f in held]


def legal_actions(state: State, player: int) -> list[Action]:
    """Every ask (or, in the variation, every claim) the player may make now."""
    if state.phase == "over" or player != state.turn:
        return []
    actions: list[Action] = []
    if state.phase == "ask":
        hand = set(_hand(state, player))
        wanted = [
            c
            for fam in _families_held(state, player)
            for c in family_cards(state, fam)
            if c not in hand
        ]
        for target in range(state.players):
            if target == player or not _hand(state, target):
                continue
            for cid in wanted:
                actions.append({"type": "ask", "player": player, "target": target, "card": cid})
        return actions
    mine = set(trick_families(state, player))
    for target in range(state.players):
        if target == player or not state.places[f"tricks:{target}"]:
            continue
        for fam in state.families:
            if fam not in mine:
                actions.append({"type": "claim", "player": player, "target": target, "family": fam})
    return actions


def _seat(state: State, value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < state.players:
        raise IllegalAction(f"{what} must be a seat from 0 to {state.players - 1}")
    return value


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Play one ask or claim; the state given is left untouched."""
    if not isinstance(action, dict):
        raise IllegalAction("an action is a mapping with a type")
    if state.phase == "over":
        raise IllegalAction("the game is over")
    player = _seat(state, action.get("player"), "player")
    if player != state.turn:
        raise IllegalAction(f"it is not your turn: the turn is player {state.turn + 1}'s")
    target = _seat(state, action.get("target"), "target")
    if target == player:
        raise IllegalAction("ask another player, not yourself")
    kind = action.get("type")
    s = state.clone()
    out: list[Event] = []
    if kind == "ask":
        if s.phase != "ask":
            raise IllegalAction("every family is down: now you ask for whole families")
        _ask(s, out, player, target, action.get("card"))
    elif kind == "claim":
        if s.phase != "variation":
            raise IllegalAction("whole families are asked for only in the variation, at the end")
        _claim(s, out, player, target, action.get("family"))
    else:
        raise IllegalAction(f"unknown action type {kind!r}: Happy Families has ask and claim")
    s.record.append(dict(action))
    return s, out


def _ask(s: State, out: list[Event], player: int, target: int, cid: Any) -> None:
    card = s.cards.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise IllegalAction(f"there is no card {cid!r} in this pack")
    hand = _hand(s, player)
    if cid in hand:
        raise IllegalAction(f"you already hold {card.name}")
    if card.family not in _families_held(s, player):
        raise IllegalAction(
            f"you may ask only for a card of a family you already hold: you hold no card of "
            f"{card.family}"
        )
    if not _hand(s, target):
        raise IllegalAction(f"player {target + 1} has no cards left to ask for")
    s.asks += 1
    _emit(
        s,
        out,
        "ask",
        player=player,
        target=target,
        card=cid,
        family=card.family,
        words=ask_words(card.name),
    )
    if cid in _hand(s, target):
        move = _move(s, [cid], f"hand:{target}", f"hand:{player}")
        _emit(s, out, "give", player=target, to=player, card=cid, moves=[move])
        _lay_complete(s, player, out, at_deal=False)
        if _all_down(s):
            _finish_main(s, out)
            return
        if s.asks >= s.options["max_asks"]:
            _bound(s, out, "asks", s.options["max_asks"])
            return
        if not hand:
            _pass_on(s, out, player)
        else:
            _emit(s, out, "turn", player=player)
        return
    _emit(s, out, "refuse", player=target, asker=player, card=cid, words=REFUSAL)
    if s.asks >= s.options["max_asks"]:
        _bound(s, out, "asks", s.options["max_asks"])
        return
    s.turn = target
    _emit(s, out, "turn", player=target)


def ask_words(thing: str) -> str:
    """What an asker says (rule 4's example): "Please may I have Broomstick Man's trowel?"."""
    return f"Please may I have {thing}?"


def family_words(fam: str) -> str:
    """How a whole family is named aloud: "the Twizzle family" (or "Family A" as it is)."""
    return fam if fam.lower().startswith("family") else f"the {fam} family"


def _claim(s: State, out: list[Event], player: int, target: int, fam: Any) -> None:
    if fam not in s.families:
        raise IllegalAction(f"there is no family {fam!r} in this pack")
    if fam in trick_families(s, player):
        raise IllegalAction(f"you hold the {fam} trick yourself")
    if not s.places[f"tricks:{target}"]:
        raise IllegalAction(f"player {target + 1} has no tricks to ask for")
    s.claims += 1
    _emit(
        s,
        out,
        "claim",
        player=player,
        target=target,
        family=fam,
        words=ask_words(family_words(fam)),
    )
    if fam in trick_families(s, target):
        move = _move(s, family_cards(s, fam), f"tricks:{target}", f"tricks:{player}")
        _emit(s, out, "hand-over", player=target, to=player, family=fam, moves=[move])
        if trick_counts(s)[player] == len(s.families):
            _game_over(s, out, "one player holds every trick")
            return
        if s.claims >= s.options["max_claims"]:
            _bound(s, out, "claims", s.options["max_claims"])
            return
        _emit(s, out, "turn", player=player)
        return
    _emit(s, out, "refuse", player=target, asker=player, family=fam, words=REFUSAL)
    if s.claims >= s.options["max_claims"]:
        _bound(s, out, "claims", s.options["max_claims"])
        return
    s.turn = target
    _emit(s, out, "turn", player=target)


# --------------------------------------------------------------------------- faces


def places(state: State) -> dict[str, list[str]]:
    """Every card id in exactly one place, bottom first."""
    return {k: list(v) for k, v in state.places.items()}


def result(state: State) -> dict[str, Any]:
    """Tricks per seat and the winners (everyone tied on most tricks shares the win)."""
    scores = trick_counts(state)
    best = max(scores)
    return {
        "over": state.phase == "over",
        "scores": scores,
        "winners": [s for s, n in enumerate(scores) if n == best] if state.phase == "over" else [],
        "reason": state.end,
    }


def public_state(state: State) -> dict[str, Any]:
    """What anyone watching the table knows: counts, tricks, turn, phase."""
    return {
        "phase": state.phase,
        "dealer": state.dealer,
        "current": None if state.phase == "over" else state.turn,
        "hand_counts": [len(_hand(state, s)) for s in range(state.players)],
        "tricks": trick_counts(state),
        "asks": state.asks,
        "claims": state.claims,
        "end": state.end,
    }


def names(state: State) -> list[str]:
    """Display names: the options' or "Player 1"…"""
    given = state.options.get("names")
    return list(given) if given else [f"Player {s + 1}" for s in range(state.players)]


def _redact(state: State, event: dict[str, Any], player: int) -> dict[str, Any] | None:
    """An event as one player saw it; None when it says nothing to them."""
    kind = event["type"]
    if kind in ("shuffle", "sort"):
        return None  # the order of the pack and of other hands is nobody's business
    if kind == "deal":
        counts = [0] * state.players
        for move in event["moves"]:
            counts[int(move["to"].split(":")[1])] += 1
        return {"type": "deal", "dealer": event["dealer"], "counts": counts}
    if kind == "trick":
        seen = event["player"] == player or not state.options["tricks_face_down"]
        out = {k: v for k, v in event.items() if k != "moves"}
        if not seen:
            out["family"] = None
        return out
    return {k: v for k, v in event.items() if k != "moves"}


def view(state: State, player: int) -> dict[str, Any]:
    """What one player may see: own hand, counts, tricks (face down), the public log."""
    face_up = not state.options["tricks_face_down"]
    tricks = []
    for s in range(state.players):
        fams = trick_families(state, s)
        tricks.append({"count": len(fams), "families": fams if (face_up or s == player) else None})
    log = []
    for event in state.events:
        red = _redact(state, event, player)
        if red is not None:
            log.append(red)
    return {
        "game": GAME,
        "me": player,
        "players": state.players,
        "names": names(state),
        "variation": state.options["variation"],
        "tricks_face_down": state.options["tricks_face_down"],
        "deck": [{"id": c.id, "name": c.name, "family": c.family} for c in state.cards.values()],
        "families": list(state.families),
        "hand": list(_hand(state, player)),
        "log": log,
        "tricks_on_table": tricks,
        "legal": legal_actions(state, player),
        **public_state(state),
    }


def replay(
    deck: list[Card] | None, options: Options, seed: Any, actions: list[Action]
) -> tuple[State, list[Event]]:
    """Rebuild a game from its record: the same state the live game reached."""
    return replay_events(sys.modules[__name__], deck, options, seed, actions)


def make_bot(level: str, seat: int, seed: Any = 0) -> Any:
    """A computer player at a level from LEVELS."""
    from kiosk.games.happy_families_bots import make_bot as _make

    return _make(level, seat, seed)


# --------------------------------------------------------------------------- trace checking


def _families_by_match(cards: dict[str, dict[str, Any]]) -> dict[str, str] | None:
    """Family of each card: the header's ``family``, else its ``match`` when that groups fours."""
    if all(card.get("family") for card in cards.values()):
        return {cid: card["family"] for cid, card in cards.items()}
    counts: dict[str, int] = {}
    for card in cards.values():
        counts[card["match"]] = counts.get(card["match"], 0) + 1
    if any(n != FAMILY_SIZE for n in counts.values()):
        return None
    return {cid: card["match"] for cid, card in cards.items()}


def check_event(
    before: dict[str, list[str]],
    event: dict[str, Any],
    cards: dict[str, dict[str, Any]],
    options: dict[str, Any],
    memo: dict[str, Any],
) -> str | None:
    """For trace checkers: what is wrong with one event given the places before it, or None."""
    if "families" not in memo:
        memo["families"] = _families_by_match(cards)
    fam = memo["families"]
    kind = event["type"]
    if kind == "ask":
        hand = before.get(f"hand:{event['player']}", [])
        if event["card"] in hand:
            return "asked for a card the asker already holds"
        if not before.get(f"hand:{event['target']}"):
            return "asked a player who holds no cards"
        if fam is not None and not any(fam[c] == fam[event["card"]] for c in hand):
            return "asked for a card of a family the asker does not hold"
    elif kind == "give" and event["card"] not in before.get(f"hand:{event['player']}", []):
        return "gave a card the player does not hold"
    elif kind == "refuse" and "card" in event:
        if event["card"] in before.get(f"hand:{event['player']}", []):
            return "said no while holding the card"
    elif kind == "trick":
        laid = event["moves"][0]["cards"]
        if len(laid) != FAMILY_SIZE:
            return "a trick is four cards"
        if fam is not None and len({fam[c] for c in laid}) != 1:
            return "a trick is one whole family"
    return None
