"""The content schema (pydantic): every model forbids unknown keys, so a misspelling is said;
a fact not known is left out and shown as "not recorded", never invented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    model_validator,
)

from kiosk.games import registry

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=80)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


def _registered_game(name: str) -> str:
    """A game's engine must be one the registry lists (kiosk.games.registry)."""
    known = registry.names()
    if name not in known:
        quoted = [f"'{k}'" for k in known]
        either = " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
        raise ValueError(f"Input should be {either}")
    return name


Engine = Annotated[str, AfterValidator(_registered_game)]  # a registered game's name


def slug_from_accession(accession: str) -> str:
    """``MISC.869-1986`` → ``misc-869-1986``: lower-cased, dots (and other marks) to hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", accession.lower()).strip("-")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Source(Strict):
    """A work cited: a title, and where known its author, date, page or address."""

    title: Text
    author: str | None = None
    date: str | None = None
    page: str | None = None
    url: str | None = None
    note: str | None = None


SourceKey = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]*[a-z0-9]$", max_length=60)
]
# How sure the curators are of a source (facts.md's words); "disputed": pages give both or neither
Confidence = Literal["high", "medium-high", "medium", "low", "disputed"]


class CitedSource(Strict):
    """One work in the curators' sources file, cited in prose as ``[@key]``."""

    key: SourceKey  # what curators write after the @, e.g. vam-snap
    title: Text
    author: str | None = None  # a person or a body; else the site
    site: str | None = None  # the web site or journal it appears in
    publisher: str | None = None
    date: str | None = None  # when it was published, as historic text
    url: str | None = None
    accessed: str | None = None  # when the curators read it (e.g. 2026-12-02), or not recorded
    confidence: Confidence | None = None  # where sources disagree or only one gives a fact
    note: str | None = None  # what it is used for, what is not known about it

    @model_validator(mode="after")
    def _names_who(self) -> CitedSource:
        if not (self.author or self.site):
            raise ValueError("a source needs an author or a site: add 'author:' or 'site:'")
        return self


# A field stating a fact about the past: ``kiosk check`` wants a citation, or "not recorded"
CLAIM = {"claim": True}


class ContentNote(Strict):
    """The flag on a card whose picture is contested: what it shows, specifically, and the note."""

    shows: Text  # e.g. "a golliwog: a caricature of a Black person drawn from blackface minstrelsy"
    note: Slug  # slug of the contextual note, e.g. golliwog
    # the first words of the set page's warning (default: "This set contains a racist image.")
    banner: Text | None = None


# A rights statement: a rightsstatements.org or Creative Commons address anyone can follow
RIGHTS = re.compile(
    r"^https?://(rightsstatements\.org/(vocab|page)/[A-Za-z-]+/\d\.\d/?"
    r"|creativecommons\.org/(licenses|publicdomain)/[a-z-]+/\d\.\d(/[a-z]{2})?/?)$"
)


# What curators paste after a licence's address: its deed or legal code, a query string
RIGHTS_TAIL = re.compile(r"(deed(\.[A-Za-z-]+)?|legalcode(\.[A-Za-z-]+)?)?/?(\?.*)?$")


def _rights_address(value: str) -> str:
    """The statement's own address, from what a curator pasted (its deed or page too)."""
    if "creativecommons.org/" in value or "rightsstatements.org/" in value:
        value = RIGHTS_TAIL.sub("", value.strip()).rstrip("/")
        value = value.replace("rightsstatements.org/page/", "rightsstatements.org/vocab/") + "/"
    if not RIGHTS.match(value):
        raise ValueError(
            f"'{value}' is not a rights statement: give a rightsstatements.org or"
            " creativecommons.org address, e.g. http://rightsstatements.org/vocab/InC/1.0/"
            " or https://creativecommons.org/licenses/by/4.0/"
        )
    return value


Rights = Annotated[str, StringConstraints(strip_whitespace=True), AfterValidator(_rights_address)]

# What a set's picture shows of the object (a card's are its ``image`` and ``back_image``)
Shows = Literal["case", "box", "instruction-card", "pack", "card", "other"]


class Image(Strict):
    """A photograph or scan: what it shows, who made it, its rights; its flag covers the file."""

    src: Text  # a path relative to the content folder, e.g. images/misc-869-1986-box.jpg
    alt: Text  # what a visitor who cannot see it needs to know
    caption: str | None = None  # our own words, shown under it
    credit: Text  # who took or holds the photograph, e.g. "Victoria and Albert Museum, London"
    rights: Rights  # e.g. https://creativecommons.org/licenses/by/4.0/
    shows: Shows | None = None  # for a set's pictures: the case, the box, the pack laid out...
    content_note: ContentNote | None = None  # a picture that shows contested imagery


class CardFace(Strict):
    """One distinct card face in a set; ``copies`` of it are in the pack (Snap repeats faces)."""

    name: Text  # the name printed on the card, as historic text
    slug: Slug | None = None  # defaults to the name made into a slug
    family: str | None = None  # Happy Families: the family's name
    rank: str | None = None  # for sets that match by rank (match: rank)
    role: Literal["master", "article"] | None = None  # Happy Families: the family's card role
    caption: str | None = None  # our own words: what the card shows
    copies: int = Field(default=1, ge=1, le=8)
    missing: int = Field(default=0, ge=0)  # copies recorded as missing from the object
    recorded: bool = True  # False where the seed does not name this card (shown as "not recorded")
    content_note: ContentNote | None = None
    image: Image | None = None  # a photograph of the card's front: its face in games
    back_image: Image | None = None  # a photograph of its back
    emblem: Slug | None = None  # the object drawn on the kiosk's face (docs/curators.md list)
    colour: str | None = None  # the face's ink, "#rrggbb", dark enough for cream text

    @model_validator(mode="after")
    def _missing_not_more_than_copies(self) -> CardFace:
        if self.missing > self.copies:
            raise ValueError(f"missing ({self.missing}) is more than copies ({self.copies})")
        return self

    @property
    def key(self) -> str:
        """The face's slug: given, or made from the name ("Golly Oh Golly!" → golly-oh-golly)."""
        return self.slug or slug_from_accession(self.name)


class Back(Strict):
    """The card back, drawn by the kiosk: a pattern and colours."""

    pattern: Literal["woolworths-w", "lattice", "plain"] = "plain"
    colour: str = "#1d2c5e"
    description: Text


class SetRecord(Strict):
    """A catalogue record, modelled on a museum's object record (the V&A's fields)."""

    kind: Literal["set"]
    title: Text
    accession: str | None = None  # e.g. MISC.869-1986; the slug derives from it
    slug: Slug | None = None  # required where there is no accession number
    historic_title: str | None = None  # the title as printed, shown in quotation marks
    object_type: str | None = None
    date: str | None = Field(default=None, json_schema_extra=CLAIM)
    maker: str | None = Field(default=None, json_schema_extra=CLAIM)  # maker or publisher
    place: str | None = Field(default=None, json_schema_extra=CLAIM)
    materials: str | None = None  # materials and techniques
    physical_description: str | None = None
    dimensions: str | None = None
    card_count: int | None = Field(default=None, ge=0)
    marks: str | None = None  # marks and inscriptions
    credit_line: str | None = None
    summary: Text
    # the attract loop's summary, where ``summary`` names a contested image out of its context
    attract_summary: Text | None = None
    history: str | None = Field(default=None, json_schema_extra=CLAIM)  # provenance
    deck: Literal["cards", "standard-52"] = "cards"
    match: Literal["picture", "rank", "family"] = "picture"
    back: Back
    cards: list[CardFace] = Field(default_factory=list)
    families_recorded_note: str | None = None  # e.g. "nine of the twelve families are not recorded"
    games: list[Slug] = Field(default_factory=list)  # slugs of game files this set is played with
    # the set's own rules, played first (game slug -> variant), e.g. {snap: woolworths}
    own_rules: dict[Slug, Slug] = Field(default_factory=dict)
    images: list[Image] = Field(default_factory=list)
    # View card shows a flagged card's photograph behind its cover (off by default)
    view_flagged_photographs: bool = False
    sources: list[Source] = Field(default_factory=list)  # works consulted; cite with [@key]
    order: int = 100  # position in lists; lower first
    draft: bool = False  # served only in preview (KIOSK_PREVIEW), never to visitors

    @model_validator(mode="after")
    def _needs_a_slug(self) -> SetRecord:
        if not self.accession and not self.slug:
            raise ValueError("a set needs an accession number or a slug")
        if self.deck == "cards" and not self.cards and self.games:
            raise ValueError(
                "a set whose cards are not listed cannot be played: list its cards under"
                " 'cards:', or remove 'games:' (a record of the object alone needs no cards)"
            )
        return self

    @property
    def cards_listed(self) -> bool:
        """Whether the set has cards to show, play and print (an object's record alone has none)."""
        return self.deck != "cards" or bool(self.cards)

    _key: str = PrivateAttr("")

    def model_post_init(self, context: object, /) -> None:
        self._key = self.slug or slug_from_accession(self.accession or "")

    @property
    def key(self) -> str:
        """The set's address: its slug, else made from its accession number."""
        # read past pydantic's __getattr__ (about 9 µs a call; this is read on every action)
        return self.__pydantic_private__["_key"]  # type: ignore[index]


class Slugged(Strict):
    """A record whose address is its ``slug``."""

    @property
    def key(self) -> str:
        return self.slug  # type: ignore[attr-defined]


class Words(Strict):
    """What visitors read for a rule variant or a computer player's level: a name and a line."""

    title: Text
    description: Text


class LevelWords(Words):
    """A computer level's name and line, and its players' names at the table, one a seat."""

    names: list[Text] = Field(default_factory=list)


class GameRecord(Slugged):
    """A game: history and rules in the body, the engine, each variant's and level's words."""

    kind: Literal["game"]
    slug: Slug
    title: Text
    engine: Engine
    summary: Text
    players: str | None = None
    date: str | None = Field(default=None, json_schema_extra=CLAIM)
    sources: list[Source] = Field(default_factory=list)  # works consulted; cite with [@key]
    variants: dict[str, Words] = Field(default_factory=dict)
    levels: dict[str, LevelWords] = Field(default_factory=dict)
    order: int = 100
    draft: bool = False  # served only in preview (KIOSK_PREVIEW), never to visitors


class NoteRecord(Slugged):
    """A contextual note, e.g. on golliwog imagery."""

    kind: Literal["note"]
    slug: Slug
    title: Text
    summary: Text
    sources: list[Source] = Field(default_factory=list)  # works consulted; cite with [@key]
    written_by: str | None = None  # who wrote the note (shown on it)
    reviewed: str | None = None  # when it was last reviewed, e.g. 2026-12-02 (shown on it)
    draft: bool = False  # served only in preview (KIOSK_PREVIEW), never to visitors


class PageRecord(Slugged):
    """A plain page: about, sources."""

    kind: Literal["page"]
    slug: Slug
    title: Text
    summary: str | None = None
    sources: list[Source] = Field(default_factory=list)
    order: int = 100
    draft: bool = False  # served only in preview (KIOSK_PREVIEW), never to visitors


class TermsRecord(Slugged):
    """The curators' list of contested terms: a card naming one must carry a content_note."""

    kind: Literal["terms"]
    slug: Slug
    title: Text
    terms: list[Text] = Field(min_length=1)  # whole words or phrases, e.g. golliwog, jim crow
    sources: list[Source] = Field(min_length=1)


class SourcesRecord(Slugged):
    """The curators' sources file: every work the kiosk cites, each under its key."""

    kind: Literal["sources"]
    slug: Slug
    title: Text
    sources: list[CitedSource] = Field(min_length=1)


class WordsRecord(Slugged):
    """Visitor-facing words a curator rewords (keys and defaults: kiosk/catalogue/words.py)."""

    kind: Literal["words"]
    slug: Slug
    title: Text
    words: dict[str, Text] = Field(min_length=1)


class StepCaption(Strict):
    """A curator's caption for one step: plain words, and optionally the rule quoted."""

    text: Text
    quote: str | None = None  # the historic rule's words, without quotation marks
    source: str | None = None  # who wrote them: e.g. "Woolworths Snap, instruction card"


class ScenarioRecord(Strict):
    """A rule shown step by step: a scripted game the engine plays (docs/scenarios.md)."""

    kind: Literal["scenario"]
    game: Slug  # the slug of a game file, e.g. snap
    slug: Slug  # the URL part: /rules/<game>/<slug>
    variant: Slug  # the engine's variant, e.g. snap-pool
    title: Text
    summary: Text  # one sentence: what this example shows
    shows: list[str] = Field(default_factory=list)  # points checked in the run, e.g. sweep
    deck: Slug  # the set whose pack is used, e.g. misc-869-1986
    cards: list[str] = Field(min_length=2)  # card ids, the first dealt first
    players: int = Field(default=2, ge=2, le=8)
    options: dict[str, bool | int | str | None] = Field(default_factory=dict)
    seed: int = 0
    actions: list[dict[str, int | float | str | list[str]] | str] = Field(default_factory=list)
    steps: dict[int, Text | StepCaption] = Field(default_factory=dict)
    order: int = 100
    draft: bool = False  # served only in preview (KIOSK_PREVIEW), never to visitors

    @property
    def key(self) -> str:
        return f"{self.game}/{self.slug}"


AnyRecord = (  # any one record, as the checks and the store hold it
    SetRecord
    | GameRecord
    | NoteRecord
    | PageRecord
    | ScenarioRecord
    | TermsRecord
    | WordsRecord
    | SourcesRecord
)

Record = Annotated[AnyRecord, Field(discriminator="kind")]


def dotted(loc: Iterable[str | int]) -> str:
    """``("cards", 3, "content_note")`` → ``cards[3].content_note``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out
