"""Stage 5, decks: a set record → the cards the engines play with, and what they are called.
Flagged cards stay out of every playable deck: contested imagery is never a game piece.
"""

from __future__ import annotations

from kiosk.catalogue.schema import CardFace, SetRecord
from kiosk.games import registry
from kiosk.games.cards import Card, standard_deck
from kiosk.games.core import DeckRefused


def flagged_faces(set_record: SetRecord) -> list[CardFace]:
    """The faces carrying a content note, in the order the record lists them."""
    return [face for face in set_record.cards if face.content_note is not None]


def card_name(face: CardFace) -> str:
    """The name a child can say aloud: the printed name, or "Sally Cross's second card"."""
    family, _, card = face.name.partition(":")  # an unrecorded card: "Sally Cross: second card"
    if not face.recorded and face.family and face.family == family.strip() and card.strip():
        return f"{face.family}'s {card.strip()}"
    return face.name


def match_key(set_record: SetRecord, face: CardFace) -> str:
    """What Snap compares for this face under the set's ``match`` rule."""
    if set_record.match == "family":
        return face.family or face.key
    if set_record.match == "rank":
        return face.rank or face.key
    return face.key


def deck_for(set_record: SetRecord, include_flagged: bool = False) -> list[Card]:
    """The playable deck: every face × (copies − missing), flagged faces left out by default."""
    if set_record.deck == "standard-52":
        return standard_deck()
    deck: list[Card] = []
    for face in set_record.cards:
        if face.content_note is not None and not include_flagged:
            continue
        for n in range(1, face.copies - face.missing + 1):
            deck.append(
                Card(
                    id=f"{face.key}-{n}",
                    name=face.name,
                    match=match_key(set_record, face),
                    family=face.family,
                    rank=face.rank,
                    face=f"{set_record.key}/{face.key}",
                    role=face.role,
                )
            )
    return deck


def game_deck(set_record: SetRecord, game: str) -> list[Card]:
    """The deck ``game`` deals from the set's unflagged cards, or DeckRefused saying why not."""
    return registry.game(game).deck(deck_for(set_record, include_flagged=False))


def unplayable(set_record: SetRecord, game: str) -> str | None:
    """Why ``game`` cannot be played with this set's cards, or None when it can."""
    try:
        game_deck(set_record, game)
    except DeckRefused as refused:
        return str(refused)
    return None
