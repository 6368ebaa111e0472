"""``url_for`` that remembers what it built: a game's table names the same URLs every action.

Building a URL walks werkzeug's rules (about 20 µs each); the Snap table builds half a dozen
per action (its form, the card faces, the set's back). A relative URL depends only on the
endpoint, its values and where the app is mounted (``SCRIPT_NAME``: ``/embed`` or not), so
those are the key. Static URLs (their version comes from the file), external URLs and debug
mode (edited routes) are never kept.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, has_request_context, request

MEMO_SIZE = 4096  # far more than the distinct URLs of every page; cleared when full


class KioskFlask(Flask):
    """Flask with a memo in front of ``url_for`` for relative URLs built during requests."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._url_memo: dict[tuple, str] = {}
        self._url_memo_lock = threading.Lock()

    def url_for(  # type: ignore[override]
        self,
        endpoint: str,
        *,
        _anchor: str | None = None,
        _method: str | None = None,
        _scheme: str | None = None,
        _external: bool | None = None,
        **values: Any,
    ) -> str:
        """As Flask's, but a relative URL built in a request is kept for the next one."""
        simple = (
            _anchor is None
            and _method is None
            and _scheme is None
            and not _external
            and endpoint != "static"
            and not self.debug
            and has_request_context()
        )
        if not simple:
            return super().url_for(
                endpoint,
                _anchor=_anchor,
                _method=_method,
                _scheme=_scheme,
                _external=_external,
                **values,
            )
        blueprint = request.blueprint if endpoint.startswith(".") else None
        # with the values' types: True == 1 as keys, but they build "True" and "1"
        types = tuple(map(type, values.values()))
        key = (request.script_root, blueprint, endpoint, types, *values.items())
        try:
            return self._url_memo[key]
        except KeyError:
            pass
        except TypeError:  # a value that cannot be a key: build it every time
            return super().url_for(endpoint, _external=_external, **values)
        url = super().url_for(endpoint, _external=_external, **values)
        with self._url_memo_lock:
            if len(self._url_memo) >= MEMO_SIZE:
                self._url_memo.clear()
            self._url_memo[key] = url
        return url
