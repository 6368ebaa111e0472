"""Snitch'ems, the whole game: its rules engine (``engine``) and its web part (``web``)."""
