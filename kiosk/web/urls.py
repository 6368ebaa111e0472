"""The kiosk's application class: Flask's own, ``url_for`` included.

A memo in front of ``url_for`` stood here; measured under gunicorn it saved nothing a target
needs (issue 14, "plain before fast"), so it went. ``kiosk.app.create_app`` still names this
class; once it makes a ``Flask`` itself, this module goes too.
"""

from __future__ import annotations

from flask import Flask

KioskFlask = Flask
