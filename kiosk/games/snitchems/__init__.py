"""Snitch'ems, the whole game: its pure rules engine (``engine``) and its web part (``web``, its
``templates/`` and ``static/``)."""
