"""Every page the kiosk serves, written to a folder, so two trees can be compared byte for byte.

    .venv/bin/python benchmarks/dump_pages.py OUT        # then: diff -r OUT-before OUT-after

It crawls the shipped content from ``/`` (and ``/embed/``) in kiosk and normal mode, following
every internal link and submitting every form once (tests/test_kiosk_crawl.py's crawl, with no
cap per URL shape), with the deal fixed (PLAY_NONCE). A game's token carries the time it was
signed, so only its payload is kept.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kiosk import create_app
from tests import test_kiosk_crawl as crawler

# itsdangerous: [.]payload.timestamp.signature (a leading dot: the payload is compressed)
TOKEN = re.compile(r"(\.?[A-Za-z0-9_\-]{20,})\.[A-Za-z0-9_\-]{4,8}\.[A-Za-z0-9_\-]{20,}")


STARTS = ("/", "/embed/", "/attract/", "/patterns", "/curators/emblems", "/curators/problems")


def dump(out: Path) -> int:
    crawler.PER_SHAPE = 10**6
    crawler.MAX_REQUESTS = 10**5
    for kiosk in (False, True):
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "dump", "KIOSK_MODE": kiosk, "PLAY_NONCE": "n" * 16}
        )
        client = app.test_client()
        for start in STARTS:
            for (method, url), visit in crawler.crawl(client, start).visits.items():
                if url.startswith("/static/") or (
                    method != "GET" and visit.mimetype != "text/html"
                ):
                    continue
                mode = "kiosk" if kiosk else "web"
                if method == "POST":
                    write(out, f"{mode}POST {url}", visit.status, visit.html)
                    continue
                for htmx in (False, True):  # the page, and the region htmx asks for
                    response = client.get(url, headers={"HX-Request": "true"} if htmx else {})
                    body = response.get_data(as_text=response.mimetype != "image/png")
                    if isinstance(body, bytes):
                        body = hashlib.sha256(body).hexdigest()
                    write(out, f"{mode}{'HX' if htmx else ''} {url}", response.status_code, body)
    return len(list(out.iterdir()))


def write(out: Path, key: str, status: int, text: str) -> None:
    name = quote(key, safe="")
    if len(name) > 200:
        name = name[:150] + hashlib.sha1(name.encode()).hexdigest()
    text = TOKEN.sub(r"\1.T.S", text)
    (out / name).write_text(f"{status}\n{text}", encoding="utf-8")


if __name__ == "__main__":
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    print(dump(folder), "responses in", folder)
