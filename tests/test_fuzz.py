"""Hypothesis fuzz of every route: malformed paths, parameters, tokens and forms never give 5xx."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk import create_app

SLUGS = [
    "misc-869-1986",
    "twizzles-happy-families",
    "jaques-happy-families",
    "snitchems-1797",
    "snap-standard-deck",
]
GAMES = ["", "/snap", "/happy-families", "/snitchems"]

# Printable text including the characters that trouble routers, templates and parsers.
junk = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
segment = st.one_of(
    st.sampled_from([*SLUGS, "snap", "classic", "1", "0", "-1", "..", "%2e%2e", "%00", "x" * 300]),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.~%", max_size=20),
)
prefix = st.sampled_from(["", "/embed"])
FIXTURE = [HealthCheck.function_scoped_fixture]


def _app():
    return create_app({"TESTING": True, "SECRET_KEY": "fuzz-secret", "GAME_MAX_AGE": 600})


@pytest.fixture(scope="module")
def fuzz_client():
    return _app().test_client()


def templates() -> list[str]:
    """Every rule of the app with its variables as ``{}``: new routes are fuzzed too."""
    rules = []
    for rule in _app().url_map.iter_rules():
        path = rule.rule
        for name in rule.arguments:
            for converter in ("", "int:", "path:"):
                path = path.replace(f"<{converter}{name}>", "{}")
        rules.append(path)
    return sorted(set(rules))


RULES = templates()


def check(response, deliberate: int | None = None) -> None:
    """No 5xx, but for ``deliberate`` (oEmbed's 501 for a format other than JSON)."""
    with response:
        ok = response.status_code < 500 or response.status_code == deliberate
        assert ok, response.get_data(as_text=True)[:300]


@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE)
@given(
    prefix=prefix,
    rule=st.sampled_from(RULES),
    parts=st.lists(segment, min_size=4, max_size=4),
    query=st.dictionaries(
        st.sampled_from(["view", "url", "format", "maxwidth", "maxheight", "token", "n", "v"]),
        junk,
        max_size=3,
    ),
    headers=st.sampled_from([{}, {"HX-Request": "true"}, {"If-None-Match": '"x", *'}]),
)
def test_get_any_route(fuzz_client, prefix, rule, parts, query, headers):
    path = rule.format(*parts[: rule.count("{}")])
    other_format = rule == "/oembed" and query.get("format", "json") not in ("", "json")
    check(
        fuzz_client.get(prefix + path, query_string=query, headers=headers),
        deliberate=501 if other_format and query.get("url", "").strip() else None,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE)
@given(
    prefix=prefix,
    slug=st.sampled_from([*SLUGS, "nope"]),
    game=st.sampled_from(GAMES),
    action=st.sampled_from(["", "/act"]),
    form=st.dictionaries(
        st.sampled_from(
            [
                "token",
                "act",
                "bots",
                "level",
                "variant",
                "penalty",
                "ms",
                "card",
                "family",
                "member",
                "target",
                "player",
                "auto",
            ]
        ),
        st.one_of(junk, st.sampled_from(["1", "2", "turn", "snap", "next", "ask", "medium"])),
        max_size=6,
    ),
)
def test_post_any_form(fuzz_client, prefix, slug, game, action, form):
    check(fuzz_client.post(f"{prefix}/sets/{slug}/play{game}{action}", data=form))


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE)
@given(token=st.one_of(junk, st.binary(max_size=60).map(lambda b: b.hex()), st.just("")))
def test_tampered_tokens(fuzz_client, token):
    started = fuzz_client.post("/sets/snap-standard-deck/play", data={"bots": "1"})
    text = started.get_data(as_text=True)
    marker = 'name="token" value="'
    real = text[text.index(marker) + len(marker) :].split('"', 1)[0]
    for spoilt in (token, real[:-3] + token, token + real):
        check(
            fuzz_client.post(
                "/sets/snap-standard-deck/play/act", data={"token": spoilt, "act": "turn"}
            )
        )


@settings(max_examples=80, deadline=None, suppress_health_check=FIXTURE)
@given(path=junk)
def test_any_raw_path(fuzz_client, path):
    check(fuzz_client.get("/" + path.lstrip("/")))
