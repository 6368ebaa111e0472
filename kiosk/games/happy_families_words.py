"""Happy Families events in words, as one person at the table hears them.

The live game speaks to the visitor ("You ask Dreamy Dan: …", "Dreamy Dan asks you: …");
the rule step-throughs speak to an onlooker ("Player 1 asks Player 2: …"). Both put every
event into words here, so a step says an ask exactly as the game does. No Flask, no I/O:
the names come in with the :class:`Hearer`, the cards' names with the events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.games import happy_families as hf
from kiosk.games.cards import Card

Event = Mapping[str, Any]


def said(words: str) -> str:
    """Words spoken aloud, in curly quotes, as the page prints speech."""
    return f"\u201c{words}\u201d"


def possessive(name: str) -> str:
    """ "Twizzle" → "Twizzle's", "Sally Cross" → "Sally Cross's" (as British print has it)."""
    return f"{name}'s"


def spoken_name(name: str, family: str | None, master: bool = False) -> str:
    """How a card is asked for aloud: "Broomstick Man's trowel", "Twizzle's master card".

    A master card is the one marked so, or named as its family; an unrecorded card keeps
    its honest name: "Sally Cross's article not recorded (1)".
    """
    family = family or ""
    name = name.strip()
    if family and name.startswith(family + ":"):
        return f"{possessive(family)} {name[len(family) + 1 :].strip()}"
    if master or (family and name == family):
        return f"{possessive(family)} master card"
    return f"{possessive(family)} {name.lower()}" if family else name


def spoken_deck(deck: Sequence[Card], masters: Collection[str] = ()) -> list[Card]:
    """The cards named as they are asked for (``masters``: faces marked as master cards)."""
    return [
        dataclasses.replace(c, name=spoken_name(c.name, c.family, c.face in masters)) for c in deck
    ]


@dataclass(frozen=True)
class Hearer:
    """Who the words are for: the seat that is "you" (None: an onlooker) and everyone's names."""

    names: Sequence[str]
    me: int | None = None
    hidden_tricks: bool = False  # tricks laid face down at the deal keep their family hidden

    @classmethod
    def at(cls, state: hf.State, me: int) -> Hearer:
        """The player in seat ``me`` of a live game."""
        return cls(hf.names(state), me, state.options["tricks_face_down"])

    def who(self, seat: int) -> str:
        """A player as the subject of a sentence: "You" or their name."""
        return "You" if seat == self.me else self.names[seat]

    def whom(self, seat: int) -> str:
        """A player as the object of a sentence: "you" or their name."""
        return "you" if seat == self.me else self.names[seat]

    def does(self, seat: int, verb: str, verbs: str) -> str:
        """The player and the verb that agrees with them: "You ask", "Dreamy Dan asks"."""
        return f"{self.who(seat)} {verb if seat == self.me else verbs}"


def _deal(e: Event, h: Hearer) -> str:
    return f"{h.does(e['dealer'], 'deal', 'deals')} the cards round singly, face down."


def _ask(e: Event, h: Hearer) -> str:
    """An ask or a claim: who asked whom, and for what, in the asker's own words."""
    return f"{h.does(e['player'], 'ask', 'asks')} {h.whom(e['target'])}: {said(e['words'])}"


def _hand_over(e: Event, h: Hearer) -> str:
    """A card or a whole trick handed over: the ask just said what, so this does not."""
    if e["player"] == h.me:
        return "You have it, so you hand it over."
    return f"{h.who(e['player'])}: {said('Here you are.')}"


def _refuse(e: Event, h: Hearer) -> str:
    reply = said(hf.REFUSAL + ".")
    if e["player"] == h.me:
        return f"You haven't got it: {reply}"
    return f"{h.who(e['player'])}: {reply}"


def _trick(e: Event, h: Hearer) -> str:
    p = e["player"]
    hidden = h.hidden_tricks and p != h.me and e.get("at_deal")
    what = "a whole family" if hidden else hf.family_words(e["family"])
    return f"You lay down {what}!" if p == h.me else f"{h.who(p)} lays down {what}."


def _pass(e: Event, h: Hearer) -> str:
    return f"{h.does(e['player'], 'have', 'has')} no cards left, so the turn passes on."


def _variation(e: Event, h: Hearer) -> str:
    p = e["player"]
    return (
        f"Every family is down. {h.does(p, 'have', 'has')} the most tricks and "
        f"{'ask' if p == h.me else 'asks'} first for whole families."
    )


def _bound(e: Event, h: Hearer) -> str:
    return f"The kiosk stops a game after {e['limit']} {e['what']} (not a historic rule)."


def winners_words(winners: Sequence[int], h: Hearer) -> str:
    """Who won, in a sentence."""
    if h.me is not None and h.me in winners:
        others = " and ".join(h.names[p] for p in winners if p != h.me)
        return f"Game over: you share the win with {others}!" if others else "Game over: you win!"
    names = " and ".join(h.names[p] for p in winners)
    return f"Game over: {names} {'win' if len(winners) > 1 else 'wins'}."


def _game_over(e: Event, h: Hearer) -> str:
    return winners_words(e["winners"], h)


_WORDS: dict[str, Callable[[Event, Hearer], str]] = {
    "deal": _deal,
    "ask": _ask,
    "claim": _ask,
    "give": _hand_over,
    "hand-over": _hand_over,
    "refuse": _refuse,
    "trick": _trick,
    "pass": _pass,
    "variation": _variation,
    "bound": _bound,
    "game-over": _game_over,
}


def event_words(event: Event, hearer: Hearer) -> str:
    """One event as ``hearer`` hears it ("" for what nobody says aloud: shuffling, sorting)."""
    say = _WORDS.get(event["type"])
    return say(event, hearer) if say else ""


def sentences(events: Sequence[Event], hearer: Hearer) -> list[str]:
    """Each event that says something, in words, in order."""
    return [w for e in events if (w := event_words(e, hearer))]
