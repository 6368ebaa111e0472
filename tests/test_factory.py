import pytest

from kiosk import create_app
from kiosk.config import DEV_SECRET


def test_config_from_mapping():
    assert not create_app({"SECRET_KEY": "a-real-secret"}).testing
    assert create_app({"TESTING": True}).testing


def test_config_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KIOSK_CONTENT_DIR", str(tmp_path))
    monkeypatch.setenv("KIOSK_MODE", "1")
    monkeypatch.setenv("KIOSK_SECRET_KEY", "from-the-environment")
    app = create_app()
    assert app.config["CONTENT_DIR"] == str(tmp_path)
    assert app.config["KIOSK_MODE"] is True
    assert app.config["SECRET_KEY"] == "from-the-environment"


def test_speed_settings_from_environment(monkeypatch):
    monkeypatch.setenv("KIOSK_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("KIOSK_PLAY_STATE_CACHE", "0")
    monkeypatch.setenv("KIOSK_CONTENT_RESCAN_MS", "250")
    app = create_app()
    assert app.config["PLAY_STATE_CACHE"] == 0
    assert app.extensions["catalogue"].rescan_s == 0.25


def test_refuses_development_secret_outside_debug_and_testing(monkeypatch):
    monkeypatch.delenv("KIOSK_SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    with pytest.raises(RuntimeError, match="KIOSK_SECRET_KEY"):
        create_app()
    assert create_app({"DEBUG": True}).config["SECRET_KEY"] == DEV_SECRET
    assert create_app({"TESTING": True}).config["SECRET_KEY"] == DEV_SECRET


def test_kiosk_timings_from_environment(monkeypatch):
    monkeypatch.setenv("KIOSK_IDLE_SECONDS", "120")
    monkeypatch.setenv("KIOSK_COUNTDOWN_SECONDS", "45")
    app = create_app({"TESTING": True})
    assert (app.config["IDLE_SECONDS"], app.config["COUNTDOWN_SECONDS"]) == (120, 45)


def test_kiosk_timing_defaults(monkeypatch):
    for name in ("KIOSK_MODE", "KIOSK_IDLE_SECONDS", "KIOSK_COUNTDOWN_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    app = create_app({"TESTING": True})
    assert (app.config["IDLE_SECONDS"], app.config["COUNTDOWN_SECONDS"]) == (90, 30)
    assert app.config["KIOSK_MODE"] is False
