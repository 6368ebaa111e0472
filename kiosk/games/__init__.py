"""Pure, deterministic rules engines and bots, one folder a game: no Flask, no I/O, no clock."""
