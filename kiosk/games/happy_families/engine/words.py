"""Happy Families' events in words, for the visitor and an onlooker alike (rule steps too)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence

from kiosk.games.cards import Card
from kiosk.games.core import Event, Hearer, Phrasebook
from kiosk.games.happy_families.engine.state import State, names

REFUSAL = "I'm sorry, you can't"
UNRECORDED = "(article not recorded)"  # said after a card whose article the record lacks


def ask_words(thing: str) -> str:
    """What an asker says (rule 4's example): "Please may I have Broomstick Man's trowel?"."""
    return f"Please may I have {thing}?"


def family_words(fam: str) -> str:
    """How a whole family is named aloud: "the Twizzle family" (or "Family A" as it is)."""
    return fam if fam.lower().startswith("family") else f"the {fam} family"


def said(words: str) -> str:
    """Words spoken aloud, in curly quotes, as the page prints speech."""
    return f"\u201c{words}\u201d"


def spoken_name(name: str, family: str | None, master: bool = False) -> str:
    """How a card is asked for aloud: an unnamed or master card too, as what it is."""
    family = family or ""
    name = name.strip()
    if family and name.startswith(family + ":"):
        return f"{family}'s {name[len(family) + 1 :].strip()} {UNRECORDED}"
    if master or (family and name == family):
        return f"{family}'s master card"
    if family and re.search(rf"\b{re.escape(family)}\b", name, re.IGNORECASE):
        return name
    return f"{family}'s {name.lower()}" if family else name


def spoken_deck(deck: Sequence[Card], masters: Collection[str] = ()) -> list[Card]:
    """The cards named as they are asked for (a master: by ``role``, or its face in ``masters``)."""
    return [
        dataclasses.replace(
            c, name=spoken_name(c.name, c.family, c.role == "master" or c.face in masters)
        )
        for c in deck
    ]


def hearer_at(state: State, me: int | None) -> Hearer:
    """The player in seat ``me`` of a live game (None: an onlooker)."""
    return Hearer(names(state), me, extra={"hidden_tricks": state.options.tricks_face_down})


phrases = Phrasebook()


@phrases.says("deal")
def _deal(e: Event, h: Hearer) -> str:
    return f"{h.does(e.data['dealer'], 'deal', 'deals')} the cards round singly, face down."


@phrases.says("sort")
def _sort(e: Event, h: Hearer) -> str:
    return "Each player sorts their cards into families."


@phrases.says("ask", "claim")
def _ask(e: Event, h: Hearer) -> str:
    """An ask or a claim: who asked whom, and for what, in the asker's own words."""
    d = e.data
    return f"{h.does(d['player'], 'ask', 'asks')} {h.whom(d['target'])}: {said(d['words'])}"


@phrases.says("give", "hand-over")
def _hand_over(e: Event, h: Hearer) -> str:
    """A card or a whole trick handed over: the ask just said what, so this does not."""
    if e.data["player"] == h.me:
        return "You have it, so you hand it over."
    return f"{h.who(e.data['player'])}: {said('Here you are.')}"


@phrases.says("refuse")
def _refuse(e: Event, h: Hearer) -> str:
    reply = said(REFUSAL + ".")
    if e.data["player"] == h.me:
        return f"You haven't got it: {reply}"
    return f"{h.who(e.data['player'])}: {reply}"


@phrases.says("trick")
def _trick(e: Event, h: Hearer) -> str:
    p = e.data["player"]
    hidden = h.extra.get("hidden_tricks", False) and p != h.me and e.data.get("at_deal")
    what = "a whole family" if hidden else family_words(e.data["family"])
    return f"You lay down {what}!" if p == h.me else f"{h.who(p)} lays down {what}."


@phrases.says("pass")
def _pass(e: Event, h: Hearer) -> str:
    return f"{h.does(e.data['player'], 'have', 'has')} no cards left, so the turn passes on."


@phrases.says("variation")
def _variation(e: Event, h: Hearer) -> str:
    p = e.data["player"]
    return (
        f"Every family is down. {h.does(p, 'have', 'has')} the most tricks and "
        f"{'ask' if p == h.me else 'asks'} first for whole families."
    )


@phrases.says("bound")
def _bound(e: Event, h: Hearer) -> str:
    d = e.data
    return f"The kiosk stops a game after {d['limit']} {d['what']} (not a historic rule)."


def winners_words(winners: Sequence[int], h: Hearer) -> str:
    """Who won, in a sentence."""
    if h.me is not None and h.me in winners:
        others = " and ".join(h.names[p] for p in winners if p != h.me)
        return f"Game over: you share the win with {others}!" if others else "Game over: you win!"
    who = " and ".join(h.names[p] for p in winners)
    return f"Game over: {who} {'win' if len(winners) > 1 else 'wins'}."


@phrases.says("game-over")
def _game_over(e: Event, h: Hearer) -> str:
    return winners_words(e.data["winners"], h)


# The engine's sentences (:class:`~kiosk.games.core.Engine`): every event with a phrase.
sentences = phrases.sentences
