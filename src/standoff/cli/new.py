"""``standoff new``: start a saved game."""

from __future__ import annotations

from pathlib import Path

import click

from standoff import (
    Game,
    GameStateError,
    StandoffError,
    load_variant,
    storage,
)

from .app import cli, friendly, option_flag, parse_options, variant_flag
from .io import read_position


@cli.command()
@click.argument("game", type=click.Path())
@variant_flag
@click.option("--variant-file", type=click.Path(dir_okay=False), default=None,
              help="Play your own variant file (any name; check it with check-variant). "
                   "The game keeps a copy of it.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
@option_flag
@friendly
@click.option("--position", "start_from", type=click.Path(allow_dash=True), default=None,
              help="Start from this position (JSON or compact text) instead of the "
                   "variant's opening.")
def new(game: str, variant: str, variant_file: str | None, force: bool,
        options: tuple[str, ...], start_from: str | None) -> None:
    """Start a new game in the file GAME."""
    if Path(game).exists() and not force:
        raise GameStateError(f"{game} exists; use --force to overwrite it")
    if variant_file is not None and variant != "standard":
        raise StandoffError("give --variant or --variant-file, not both")
    v = (storage.read_variant_file(variant_file) if variant_file is not None
         else storage.open_variant(variant))
    g = Game.new(v, parse_options(options))
    if start_from is not None:
        pos = read_position(start_from)
        if load_variant(pos.variant) is not g.variant:
            raise GameStateError(f"the position is a {pos.variant} position, not {v.name}")
        g.position = pos
    storage.create(g, game, overwrite=force)
    phase = g.position.phase.long_name(g.variant.calendar)
    click.echo(f"new {g.variant.title} game in {game}: {phase}")
