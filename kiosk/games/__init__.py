"""Pure, deterministic rules engines and bots: no Flask, no I/O, no clock.

Each game module (``snap``, ``happy_families``, ``snitchems``) exposes the same
face, listed in :mod:`kiosk.games.core`; :mod:`kiosk.games.registry` finds them.
"""
