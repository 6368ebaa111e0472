"""Playing the games: the one flow (``flow``) and what a game plugs into it (``games``)."""
