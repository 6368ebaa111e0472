"""gzip for text responses (waitress and gunicorn send bodies as given); a gzipped body's ETag
becomes weak (RFC 9110 8.8.1), which revalidation still matches.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/plain",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
}
MIN_BYTES = 1024  # below this the headers cost more than the saving
LEVEL = 6


def compress(response: Response) -> Response:
    """The response gzipped when the client accepts it and it is text worth compressing."""
    if response.mimetype not in COMPRESSIBLE or response.status_code != 200:
        return response
    response.vary.add("Accept-Encoding")
    if "Content-Encoding" in response.headers or request.accept_encodings["gzip"] <= 0:
        return response
    if response.is_streamed and not response.direct_passthrough:
        return response  # a generator: leave it to stream
    response.direct_passthrough = False  # a static file: read it (small, text)
    data = response.get_data()
    if len(data) < MIN_BYTES:
        return response
    etag = response.get_etag()[0]
    response.set_data(gzip.compress(data, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    if etag:
        response.set_etag(etag, weak=True)
    return response


def init_app(app: Flask) -> None:
    """Compress last: register this before every other ``after_request`` (they run reversed)."""
    app.after_request(compress)
