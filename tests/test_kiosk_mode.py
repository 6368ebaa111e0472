"""Kiosk mode's markup and settings: present only with KIOSK_MODE, never in an embed."""

from __future__ import annotations

import logging

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from kiosk import create_app
from kiosk.commands import run as run_command
from kiosk.config import FLOORS, from_environment, kiosk_timings

PAGES = [
    "/",
    "/sets/",
    "/sets/misc-869-1986",
    "/notes/golliwog",
    "/games/",
    "/games/snap",
    "/rules/",
    "/rules/snap/classic/1",
    "/sets/misc-869-1986/play",
    "/sets/twizzles-happy-families/play/happy-families",
    "/sets/snitchems-1797/play/snitchems",
    "/attract/1",
]


def kiosk_app(**config: object):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "KIOSK_MODE": True, **config})


def soup_of(client, path: str, **kwargs) -> BeautifulSoup:
    response = client.get(path, **kwargs)
    assert response.status_code in (200, 404), (path, response.status_code)
    return BeautifulSoup(response.get_data(as_text=True), "html.parser")


def kiosk_markup(soup: BeautifulSoup) -> dict[str, bool]:
    """Which pieces of kiosk mode a page carries."""
    return {
        "html class": "is-kiosk" in (soup.html.get("class") or []) if soup.html else False,
        "body class": "is-kiosk" in (soup.body.get("class") or []) if soup.body else False,
        "script": bool(soup.select('script[src*="js/kiosk-mode.js"]')),
        "dialog": bool(soup.select("dialog#kiosk-idle")),
        "attract layer": bool(soup.select("#kiosk-attract")),
        "text size": bool(soup.select("[data-set-text-size]")),
        "lock-down css": bool(soup.select('link[href*="css/kiosk-mode.css"]')),
    }


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page"])
def test_every_page_type_has_kiosk_mode_in_kiosk_mode(path):
    soup = soup_of(kiosk_app().test_client(), path)
    missing = [name for name, there in kiosk_markup(soup).items() if not there]
    assert not missing, f"{path} lacks {missing}"
    viewport = soup.find("meta", attrs={"name": "viewport"})["content"]
    assert "user-scalable" not in viewport  # zoom is stopped by touch-action, not the viewport


@pytest.mark.parametrize("path", PAGES)
def test_no_kiosk_mode_markup_on_the_web(client, path):
    soup = soup_of(client, path)
    present = [name for name, there in kiosk_markup(soup).items() if there]
    assert not present, f"{path} has {present}"


@pytest.mark.parametrize("path", PAGES)
def test_no_kiosk_mode_markup_in_an_embed_even_in_kiosk_mode(path):
    soup = soup_of(kiosk_app().test_client(), "/embed" + path)
    present = [name for name, there in kiosk_markup(soup).items() if there]
    assert not present, f"/embed{path} has {present}"
    assert "is-embed" in soup.body["class"]


def test_a_boosted_fragment_leaves_the_dialog_and_control_where_they_are():
    client = kiosk_app().test_client()
    html = client.get("/sets/", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert html.lstrip().startswith("<title>")
    assert "kiosk-idle" not in html and "data-set-text-size" not in html


def test_the_dialog_is_accessible_and_carries_the_timings():
    soup = soup_of(kiosk_app(IDLE_SECONDS=45, COUNTDOWN_SECONDS=25).test_client(), "/games/")
    dialog = soup.select_one("dialog#kiosk-idle")
    title = soup.find(id=dialog["aria-labelledby"])
    assert title.get_text(strip=True) == "Are you still there?"
    assert soup.find(id=dialog["aria-describedby"]) is not None
    stay = dialog.select_one("button[data-idle-stay]")
    assert stay.get_text(strip=True) == "I'm still here" and stay.has_attr("autofocus")
    assert dialog.select_one("[data-idle-count]").get_text(strip=True) == "25"
    status = dialog.select_one("[data-idle-status]")
    assert status["aria-live"] == "polite" and status["role"] == "status"
    assert soup.html["data-kiosk-idle-ms"] == "45000"
    assert soup.html["data-kiosk-countdown-ms"] == "25000"
    assert soup.html["data-kiosk-home"] == "/"
    assert soup.html["data-kiosk-attract"] == "/attract/1"


def test_the_text_size_control_is_three_toggle_buttons():
    soup = soup_of(kiosk_app().test_client(), "/")
    group = soup.select_one(".site-header [role=group]")
    assert soup.find(id=group["aria-labelledby"]).get_text(strip=True) == "Text size"
    buttons = group.select("button[data-set-text-size]")
    assert [b["data-set-text-size"] for b in buttons] == ["standard", "large", "largest"]
    assert [b["aria-pressed"] for b in buttons] == ["true", "false", "false"]
    assert [b.get_text(" ", strip=True) for b in buttons] == [
        "A Standard text",
        "A Large text",
        "A Largest text",
    ]


def test_the_kiosk_script_runs_before_htmx():
    soup = soup_of(kiosk_app().test_client(), "/")
    scripts = [s["src"] for s in soup.head.find_all("script")]
    mode = next(i for i, s in enumerate(scripts) if "kiosk-mode.js" in s)
    htmx = next(i for i, s in enumerate(scripts) if "htmx" in s)
    assert mode < htmx
    assert not soup.head.find_all("script")[mode].has_attr("defer")


# ----------------------------------------------------------------- settings


def test_the_countdown_defaults_to_thirty_seconds():
    app = kiosk_app()
    assert app.config["COUNTDOWN_SECONDS"] == 30
    assert app.config["IDLE_SECONDS"] == 90


def test_a_short_countdown_is_raised_to_twenty_seconds_in_production(caplog):
    with caplog.at_level(logging.WARNING, logger="kiosk.web.attract"):
        app = create_app(
            {
                "SECRET_KEY": "a-real-secret",
                "KIOSK_MODE": True,
                "COUNTDOWN_SECONDS": 5,
                "IDLE_SECONDS": 2,
            }
        )
    assert app.config["COUNTDOWN_SECONDS"] == FLOORS["COUNTDOWN_SECONDS"]
    assert app.config["IDLE_SECONDS"] == 10
    assert "COUNTDOWN_SECONDS=5 is below the minimum of 20 s: using 20" in caplog.text


def test_short_timings_are_kept_when_testing():
    app = kiosk_app(COUNTDOWN_SECONDS=2, IDLE_SECONDS=1)
    assert (app.config["COUNTDOWN_SECONDS"], app.config["IDLE_SECONDS"]) == (2, 1)


@pytest.mark.parametrize(
    ("given", "testing", "expected"),
    [
        ({"COUNTDOWN_SECONDS": 45}, False, 45),
        ({"COUNTDOWN_SECONDS": 19}, False, 20),
        ({"COUNTDOWN_SECONDS": 0}, True, 1),
        ({"COUNTDOWN_SECONDS": "soon"}, False, 30),
    ],
)
def test_kiosk_timings(given, testing, expected):
    timings, said = kiosk_timings(given, testing=testing)
    assert timings["COUNTDOWN_SECONDS"] == expected
    assert bool(said) == (expected != given["COUNTDOWN_SECONDS"])


def test_the_timings_come_from_the_environment():
    found = from_environment({"KIOSK_IDLE_SECONDS": "120", "KIOSK_COUNTDOWN_SECONDS": " 40 "})
    assert found == {"IDLE_SECONDS": 120, "COUNTDOWN_SECONDS": 40}


def test_a_timing_that_is_not_a_number_is_named():
    with pytest.raises(ValueError, match="KIOSK_COUNTDOWN_SECONDS must be a whole number"):
        from_environment({"KIOSK_COUNTDOWN_SECONDS": "half a minute"})


@pytest.mark.parametrize(("args", "on"), [(["--kiosk"], True), ([], False)])
def test_kiosk_run_flag_turns_kiosk_mode_on(monkeypatch, args, on):
    served = {}
    monkeypatch.delenv("KIOSK_MODE", raising=False)
    monkeypatch.setattr("waitress.serve", lambda app, **kw: served.update(app=app, **kw))
    result = CliRunner().invoke(run_command.run, ["--port", "8123", *args])
    assert result.exit_code == 0, result.output
    assert served["app"].config["KIOSK_MODE"] is on
    assert served["port"] == 8123
    assert ("Kiosk mode" in result.output) is on
