"""Snap's events in words, for the visitor and an onlooker alike: the one place they are said."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kiosk.games.core import Event, Hearer, plural

# What a wrong call costs, in the words that end every description of a game with calls.
MISTAKE_WORDS = {
    "none": "No penalty for a wrong call.",
    "card-each": "A wrong call: a card to each other player.",
    "face-up-to-pool": "A wrong call: your face-up pile to the pool.",
    "face-down-to-pool": "A wrong call: your face-down pile to the pool.",
}
# What a penalty does, after "… called Snap! with no match and"
PAYS = {
    "card-each": "gives one face-down card to each other player",
    "face-up-to-pool": "puts their face-up pile into the pool",
    "face-down-to-pool": "puts their face-down pile into the pool",
}


# A seat's badge after an outcome (docs/play.md, "The table tells the story")
BADGES = {"slow": "Too slow!", "together": "Together!", "late": "Too late"}


def badge(kind: str, event: Event | None = None, yours: bool = False) -> str:
    """A seat's badge for outcome ``kind``: what a call won or cost, else ``BADGES``' words."""
    d = event.data if event is not None else {}
    if kind == "won":
        call = "Snap!" if event is not None and event.type == "snap" else "Snap Pool!"
        return f"{call} You win {d['won']}!" if yours else f"{call} +{d['won']}"
    if kind == "wrong":
        return "No match!" + (f" −{plural(d['paid'], 'card')}" if d.get("paid") else "")
    if kind == "paid":
        return f"−{plural(d['paid'], 'counter')}"
    return BADGES[kind]


def _and(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _whose(h: Hearer, seat: int, subject: bool) -> str:
    """A player's, as a possessive: "Your"/"yours" or "Steady Sue's"."""
    if seat == h.me:
        return "Your" if subject else "yours"
    return f"{h.names[seat]}'s"


def _verb(h: Hearer, seat: int, verb: str, verbs: str) -> str:
    """The verb that agrees with the player: "turn" for you, "turns" for anyone else."""
    return verb if seat == h.me else verbs


def result_words(winners: Sequence[int], h: Hearer) -> str:
    """Who won, in a sentence."""
    winners = list(winners)
    if not winners:
        return "The game is over."
    if winners == [h.me]:
        return "Game over — you win!"
    if h.me in winners:
        others = _and([h.names[p] for p in winners if p != h.me])
        return f"Game over — you share the win with {others}!"
    if len(winners) == 1:
        return f"Game over — {h.names[winners[0]]} wins."
    return f"Game over — {_and([h.names[p] for p in winners])} share the win."


def sentences(events: Sequence[Event], hearer: Hearer) -> list[str]:
    """The events that say something, in words, as ``hearer`` hears them."""
    return [words for _, words in said(events, hearer)]


def said(events: Sequence[Event], hearer: Hearer) -> list[tuple[Event, str]]:
    """Each event that says something with its words (a table picks some of them again)."""
    me = hearer.me
    called = me is not None and any(e.type == "call" and e.data.get("player") == me for e in events)
    out = []
    for e in events:
        words = _sentence(e.type, e.data, hearer, called)
        if words:
            out.append((e, words))
    return out


def _sentence(t: str, d: Mapping[str, Any], h: Hearer, called: bool) -> str:
    """One event in words ("" for one that says nothing to this hearer)."""
    p = d.get("player")
    you = p is not None and p == h.me
    who = h.who(p) if isinstance(p, int) else ""
    too_slow = "Too slow! " if called else ""
    if t == "turn":
        middle = " onto the pile in the middle" if d["moves"][0]["to"] == "centre" else ""
        return f"{h.does(p, 'turn up', 'turns up')} {h.card_name(d['card'])}{middle}."
    if t == "turn-over":
        return (
            f"{h.does(p, 'have', 'has')} no face-down cards left, so "
            f"{_verb(h, p, 'turn', 'turns')} the face-up pile over "
            f"({plural(d['cards'], 'card')}) and {_verb(h, p, 'go', 'goes')} on."
        )
    if t == "call":
        call = "Snap Pool!" if d["kind"] == "pool" else "Snap!"
        return "" if you else f"{who} calls “{call}” ({d['reaction_ms']:g} ms)."
    if t == "snap":
        won = plural(d["won"], "card")
        if d.get("tie_broken_by_lot"):  # two calls at the very same moment
            return f"A dead heat! Drawn by lot, {h.does(p, 'win', 'wins')} {won}."
        if you:
            return f"You called first — you win {won}!" + (" Only just!" if d.get("tie") else "")
        just = ", only just," if d.get("tie") else ""
        return f"{too_slow}{who} called Snap! first{just} and wins {won}."
    if t == "pool-formed":
        first, *rest = d["players"]
        names = _and([h.who(first), *(h.whom(q) for q in rest)])
        return f"{names} called together: the matching piles go face up into the pool."
    if t == "pool-won":
        won = plural(d["won"], "card")
        if you:
            return f"You called Snap Pool! first — you win the pool, {won}!"
        return f"{too_slow}{who} called Snap Pool! first and wins the pool, {won}."
    if t == "tie":
        return "Snap Pool! called together: the pool stays where it is."
    if t in ("penalty", "mistaken-call"):
        rule = d.get("rule", "none")
        if you:
            words = MISTAKE_WORDS[rule]
            return f"No match — {words[0].lower()}{words[1:]}"
        call = "Snap Pool!" if d.get("call") == "pool" else "Snap!"
        if rule == "none":
            return f"{who} called {call} but there was no match."
        return f"{who} called {call} with no match and {PAYS[rule]}."
    if t == "unclaimed":
        return (
            ""
            if called
            else f"Nobody called that {'match' if d['kind'] == 'snap' else 'pool match'}."
        )
    if t == "forfeit":
        payer = d["payer"]
        double = ", a double forfeit" if d["owed"] >= 2 else ""
        return (
            f"{_whose(h, p, True)} card is like {_whose(h, payer, False)}: {h.whom(payer)} "
            f"{_verb(h, payer, 'give', 'gives')} up {plural(d['paid'], 'counter')}{double}."
        )
    if t == "out":
        return f"{h.does(p, 'are', 'is')} out of the game."
    if t == "collect":
        return f"{h.does(p, 'collect', 'collects')} the cards left on the table."
    if t == "late-call":
        if d.get("why") == "already called":
            return f"{h.does(p, 'have', 'has')} already called on this card."
        if you:  # the window closed, or a false start (judged against the card before)
            return "Too late — that card has gone."
        return f"{who}'s call came too late and counts for nothing."
    if t == "game-over":
        return result_words(d["winners"], h)
    return ""
