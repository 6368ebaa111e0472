"""``kiosk simulate``: run games with bots and print a summary or JSON Lines traces."""

from __future__ import annotations

import json

import click

from kiosk.games import registry
from kiosk.games import simulate as sim
from kiosk.games import trace as tr
from kiosk.games.cards import standard_deck
from kiosk.games.core import GameError, OptionsError


@click.command()
@click.argument("game")
@click.option("--variant", "-v", default=None, help="Variant name (default: the game's first).")
@click.option("--players", "-p", type=int, default=None, help="Number of players.")
@click.option("--seed", "-s", type=int, default=1, show_default=True, help="First game's seed.")
@click.option("--level", "-l", default=None, help="Bot level for every seat.")
@click.option("--games", "-n", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--trace", is_flag=True, help="Print JSON Lines traces instead of a summary.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--list-variants", is_flag=True, help="Print the variant names, one a line.")
@click.option(
    "--deck",
    type=click.Choice(["standard"]),
    default=None,
    help="Play with the standard 52-card deck (default: the game's own).",
)
@click.option(
    "--max-turns",
    type=click.IntRange(min=1),
    default=None,
    help="End each game after this many turns (Snap's kiosk bound).",
)
@click.option("--bound", is_flag=True, help="Apply the kiosk's bound on a game's length.")
def simulate(
    game: str,
    variant: str | None,
    players: int | None,
    seed: int,
    level: str | None,
    games: int,
    trace: bool,
    as_json: bool,
    list_variants: bool,
    deck: str | None,
    max_turns: int | None,
    bound: bool,
) -> None:
    """Run GAME with a bot in every seat and print a summary or JSON Lines traces."""
    try:
        module = registry.engine(game)
    except OptionsError as error:
        raise click.UsageError(str(error)) from None
    if list_variants:
        for name in module.VARIANTS:
            click.echo(name)
        return
    variant = variant or next(iter(module.VARIANTS))
    level = level or sim.default_level(module)
    if level not in module.LEVELS:
        raise click.UsageError(f"unknown level {level!r}: choose from {', '.join(module.LEVELS)}")
    extra = {}
    if bound:
        extra.update(module.kiosk_bound())
    if max_turns is not None:
        extra["max_turns"] = max_turns
    try:
        options = sim.make_options(module, variant, players, level, **extra)
    except OptionsError as error:
        raise click.UsageError(str(error)) from None
    cards = standard_deck() if deck == "standard" else sim.default_deck(module)
    try:
        if trace:
            n = options.players
            for i in range(games):
                choose = tr.bot_chooser(module, n, level, seed + i)
                for line in tr.trace_game(
                    module, cards, options, seed + i, choose, variant=variant
                ):
                    click.echo(tr.dumps(line))
            return
        runs = sim.run_games(module, cards, options, seed, games, level)
    except OptionsError as error:
        raise click.UsageError(str(error)) from None
    except GameError as error:
        raise click.ClickException(f"the engine failed: {error}") from None
    data = sim.summary(runs, options.players)
    if as_json:
        click.echo(json.dumps({"game": game, "variant": variant, "seed": seed, **data}))
    else:
        click.echo(sim.summary_text(game, variant, data))
