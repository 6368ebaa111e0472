"""gzip for text responses, and revalidation of compressed copies."""

from __future__ import annotations

import gzip

import pytest

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def static_url(client, name: str) -> str:
    html = client.get("/").get_data(as_text=True)
    start = html.index(f"/static/{name}")
    return html[start : html.index('"', start)]


@pytest.mark.parametrize(
    "path", ["/", "/sets/misc-869-1986", "/rules/snap/classic/1", "/cards/standard/QH.svg"]
)
def test_text_is_gzipped_when_asked_for(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert packed.status_code == plain.status_code == 200
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.vary and "Accept-Encoding" in plain.vary
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(plain.get_data())


@pytest.mark.parametrize("name", ["css/kiosk.css", "vendor/htmx-4.0.1.min.js"])
def test_static_files_are_gzipped_once_and_revalidate(client, name):
    url = static_url(client, name)
    with client.get(url) as plain, client.get(url, headers=GZIP) as packed:
        assert gzip.decompress(packed.get_data()) == plain.get_data()
        assert packed.headers["ETag"].startswith('W/"')
        etag = packed.headers["ETag"]
        with client.get(url, headers={**GZIP, "If-None-Match": etag}) as again:
            assert again.status_code == 304
        with client.get(url, headers=GZIP) as later:
            assert later.get_data() == packed.get_data()


def test_a_compressed_page_revalidates_with_its_weak_etag(client):
    packed = client.get("/sets/", headers=GZIP)
    assert packed.headers["ETag"].startswith('W/"')
    again = client.get("/sets/", headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("accept", ["identity", "gzip;q=0", ""])
def test_no_gzip_for_clients_that_refuse_it(client, accept):
    response = client.get("/", headers={"Accept-Encoding": accept})
    assert "Content-Encoding" not in response.headers
    assert response.get_data().startswith(b"<!doctype html>")


def test_small_and_binary_responses_are_left_alone(client):
    for small in ("/healthz", "/cards/misc-869-1986/back.svg"):
        assert "Content-Encoding" not in client.get(small, headers=GZIP).headers
    missing = client.get("/no-such-page", headers=GZIP)
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
