"""Pure, deterministic rules engines and bots: no Flask, no I/O, no clock.

Each game is a package (``snap``, ``happy_families``, ``snitchems``) whose top module follows
:class:`kiosk.games.core.Engine`; :mod:`kiosk.games.registry` finds them by slug.
"""
