"""Playing the games against the computer: the one flow (``flow``), the plug-in protocol
(``games``) and one module per game holding what is that game's own (docs/play.md)."""
