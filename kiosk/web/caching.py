"""Static URLs versioned by their bytes and kept a year; catalogue pages with ETags (content,
code and request variant), answered 304 or from a Memo before rendering.
"""

from __future__ import annotations

import contextlib
import hashlib
from importlib import metadata
from pathlib import Path

from flask import Flask, Response, current_app, g, request
from werkzeug.security import safe_join

from kiosk.config import ROOT
from kiosk.memo import SIZE, Memo
from kiosk.web import content

STATIC_MAX_AGE = 365 * 24 * 60 * 60
ETAG_ENDPOINTS = "pages."
VARIANT_HEADERS = ("HX-Request", "HX-Request-Type", "HX-History-Restore-Request")
URL_PARTS = ("wsgi.url_scheme", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING")


def file_version(filename: str, endpoint: str = "static") -> str | None:
    """A short hash of a static file's bytes, None if absent."""
    blueprint = endpoint.rpartition(".")[0]  # "" for the app's static, a game's "<bp>.static"
    folder = (current_app.blueprints[blueprint] if blueprint else current_app).static_folder
    path = safe_join(folder, filename) if folder else None
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
    except OSError:  # absent, or a directory
        return None


def code_version() -> str:
    """A hash of the templates and the package version: a new release changes every ETag."""
    digest = hashlib.sha256()
    with contextlib.suppress(metadata.PackageNotFoundError):  # a bare checkout has none
        digest.update(metadata.version("kiosk").encode())
    games = (ROOT / "kiosk" / "games").glob("*/templates/**/*.html")  # each game's own
    for path in sorted([*(ROOT / "templates").rglob("*.html"), *games]):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def page_etag(version: str) -> str:
    """The ETag for the current request's page under code version ``version``."""
    parts = [
        version,
        content.current().version,
        str(current_app.config.get("KIOSK_MODE")),
        str(current_app.config.get("PREVIEW")),  # a preview shows drafts and the problems bar
        # The raw WSGI values (host_url and full_path re-quote on every request); the host and
        # scheme because the oEmbed discovery link names the page's absolute URL.
        *(str(request.environ.get(key, "")) for key in URL_PARTS),
        request.host,
        *(request.headers.get(name, "") for name in VARIANT_HEADERS),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def init_app(app: Flask) -> None:
    """Version static URLs, cache them long, and answer catalogue revalidations with 304."""
    version = code_version()
    # Debug serves edited templates and static files at once: nothing may be kept there.
    # Rendered pages by ETag (the ETag holds the content version, so an edit never meets one).
    pages: Memo[bytes] = Memo(0 if app.debug else SIZE)
    app.extensions["kiosk-pages"] = pages

    @app.url_defaults
    def _static_version(endpoint: str, values: dict[str, str]) -> None:
        if endpoint.endswith("static") and "filename" in values and "v" not in values:
            found = file_version(values["filename"], endpoint)
            if found:
                values["v"] = found

    @app.before_request
    def _not_modified() -> Response | None:
        if request.method not in ("GET", "HEAD") or not (request.endpoint or "").startswith(
            ETAG_ENDPOINTS
        ):
            return None
        g.page_etag = page_etag(version)
        tags = request.if_none_match
        # "*" is left to the view: a page that does not exist must still answer 404.
        # Weak comparison (RFC 9110): a compressed copy of the page carries W/"<etag>".
        if not tags.star_tag and tags.contains_weak(g.page_etag):
            response = Response(status=304)
            response.set_etag(g.page_etag)
            return response
        body = pages.get(g.page_etag)
        if body is not None:
            g.page_from_cache = True
            return Response(body, mimetype="text/html")
        return None

    @app.after_request
    def _cache_headers(response: Response) -> Response:
        endpoint = request.endpoint or ""
        if endpoint.endswith("static") and response.status_code in (200, 304):
            filename = (request.view_args or {}).get("filename", "")
            wanted = request.args.get("v")
            if wanted and wanted == file_version(filename, endpoint):
                response.cache_control.public = True
                response.cache_control.max_age = STATIC_MAX_AGE
                response.cache_control.immutable = True
                response.cache_control.no_cache = None
        etag = g.get("page_etag")
        if etag and response.status_code == 200 and response.mimetype == "text/html":
            response.set_etag(etag)
            response.cache_control.no_cache = True
            if pages.size and not g.get("page_from_cache") and not response.is_streamed:
                pages.put(etag, response.get_data())
        return response
