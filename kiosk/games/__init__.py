"""Pure, deterministic rules engines and bots: no Flask, no I/O, no clock; one folder a game,
found by :mod:`kiosk.games.registry`."""
