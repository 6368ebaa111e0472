"""Snitch'ems' events in words, for the visitor and for an onlooker alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kiosk.games.cards import Card
from kiosk.games.core import Event, Hearer, Phrasebook
from kiosk.games.snitchems.engine.captures import Capture

NUMBERS = ("no", "one", "two", "three", "four", "five", "six")


def card_words(card: Card) -> str:
    """A card in a sentence: "the 6 of Hearts", or a picture card's own name in quotes."""
    return f"the {card.name}" if card.suit else f"\u201c{card.name}\u201d"


def hearer(
    cards: Mapping[str, Card], names: Sequence[str], me: int | None = None, **extra: Any
) -> Hearer:
    """Who hears the words, with the cards' words (``extra``: ``deals``, for "Deal 2 of 8")."""
    return Hearer(names, me, card_name=lambda cid: card_words(cards[cid]), extra=extra)


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _count(n: int, word: str = "card") -> str:
    number = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{number} {word}" if n == 1 else f"{number} {word}s"


def describe(capture: Capture, name: Callable[[str], str]) -> str:
    """A capture in plain words: "the 6 of Hearts makes a pair with the 6 of Clubs"."""
    played = name(capture.card)
    taken = _and([name(c) for c in capture.take])
    if capture.kind == "pairing":
        what = "a pair-royal with" if capture.pair_royal else "a pair with"
        return f"{played} makes {what} {taken}"
    target = capture.kind.split("-")[1]
    if capture.kind.startswith("making"):
        return f"{played} makes {target} with {taken}"
    return f"{played} makes {target} and pairs it: it takes {taken}"


def catch_words(e: Event, h: Hearer) -> str:
    """A capture in the few words the live table shows beside it: "You capture 3 cards"."""
    p, n = e.data["player"], len(e.data["take"])
    if e.type == "capture":
        return f"{h.does(p, 'capture', 'captures')} {n + 1} card{'s' * (n > 0)}"
    return f"{n} card{'s' * (n != 1)} left on the table: to {h.whom(p)}"


def result_words(scores: Sequence[int], h: Hearer) -> str:
    """Who won, in a sentence: most cards wins, the same number is a draw."""
    if scores[0] == scores[1]:
        return f"Game over: a draw, {scores[0]} cards each."
    winner = 0 if scores[0] > scores[1] else 1
    most, fewest = scores[winner], scores[1 - winner]
    if winner == h.me:
        return f"Game over: you win, {most} cards to {fewest}!"
    return f"Game over: {h.names[winner]} wins, {most} cards to {fewest}."


phrases = Phrasebook()


@phrases.says("deal")
def _deal(e: Event, h: Hearer) -> str:
    d = e.data
    dealer = d["dealer"]
    counts: dict[str, int] = {}
    for move in d.get("moves", ()):
        counts[move["to"]] = counts.get(move["to"], 0) + len(move["cards"])
    table = counts.pop("table", 0)
    each = set(counts.values())
    given = (
        f"{_count(each.pop())} to each player"
        if len(each) == 1 and len(counts) == 2
        else f"the last {_count(sum(counts.values()))}"
    )
    laid = (
        f", and {'lay' if dealer == h.me else 'lays'} {NUMBERS[table]} face up on the table"
        if table
        else ""
    )
    of = f" of {h.extra['deals']}" if "deals" in h.extra else ""
    deals = h.does(dealer, "deal", "deals")
    return f"Deal {d['number']}{of}: {deals} {given}, one at a time{laid}."


@phrases.says("play")
def _play(e: Event, h: Hearer) -> str:
    card = h.card_name(e.data["card"])
    return f"{h.does(e.data['player'], 'lay', 'lays')} {card} on the table."


@phrases.says("capture")
def _capture(e: Event, h: Hearer) -> str:
    d = e.data
    cap = Capture(d["card"], d["kind"], tuple(d["take"]), d.get("pair_royal", False))
    took = _count(len(d["take"]) + 1)
    return f"{h.does(d['player'], 'capture', 'captures')}: {describe(cap, h.card_name)} ({took})."


@phrases.says("sweep")
def _sweep(e: Event, h: Hearer) -> str:
    return f"{h.does(e.data['player'], 'sweep', 'sweeps')} the table clear!"


@phrases.says("last-capture")
def _last_capture(e: Event, h: Hearer) -> str:
    n = len(e.data["take"])
    what = "The card left on the table goes" if n == 1 else f"The {_count(n)} left on the table go"
    return f"{what} to {h.whom(e.data['player'])}, the last to capture."


@phrases.says("game-over")
def _game_over(e: Event, h: Hearer) -> str:
    return result_words(e.data["scores"], h)


def sentences(events: Sequence[Event], hearer: Hearer) -> list[str]:
    """Each event that says something, in order (a card played and captured: by the capture)."""
    captured = {e.data["card"] for e in events if e.type == "capture"}
    said = [e for e in events if not (e.type == "play" and e.data["card"] in captured)]
    return phrases.sentences(said, hearer)
