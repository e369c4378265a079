"""``standoff draw``: end a saved game in a draw."""

from __future__ import annotations

import click

from standoff import (
    storage,
)

from .app import cli, friendly


@cli.command()
@click.argument("game", type=click.Path())
@click.argument("powers", nargs=-1)
@friendly
def draw(game: str, powers: tuple[str, ...]) -> None:
    """End the game in a draw among POWERS (default: every surviving power)."""
    with storage.editing(game) as g:
        chosen = g.declare_draw(list(powers) or None)
    click.echo(f"draw declared: {', '.join(chosen)}")
