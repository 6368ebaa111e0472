from kiosk import create_app


def test_config_from_mapping():
    assert not create_app().testing
    assert create_app({"TESTING": True}).testing


def test_config_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KIOSK_CONTENT_DIR", str(tmp_path))
    monkeypatch.setenv("KIOSK_MODE", "1")
    app = create_app()
    assert app.config["CONTENT_DIR"] == str(tmp_path)
    assert app.config["KIOSK_MODE"] is True
