"""``standoff show``: a saved game's position, centres and pending orders."""

from __future__ import annotations

import json

import click

from standoff import (
    storage,
)

from .app import cli, friendly
from .io import echo_status


@cli.command()
@click.argument("game", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the whole saved game as JSON.")
@click.option("--history", is_flag=True, help="Also list every processed phase.")
@friendly
def show(game: str, as_json: bool, history: bool) -> None:
    """Show the current position, centre counts and pending orders."""
    g = storage.load(game)
    if as_json:
        click.echo(json.dumps(g.to_dict(), indent=1))
        return
    cal = g.variant.calendar
    if history:
        for rec in g.history:
            click.echo(f"{rec.position.phase.long_name(cal)}:")
            for r in rec.results:
                click.echo(f"  {r.power}: {r.describe()}")
    pos = g.position
    click.echo(pos.to_text())
    counts = pos.centre_counts()
    for pid, p in g.variant.powers.items():
        units = ", ".join(str(u) for u in pos.units_of(pid)) or "-"
        click.echo(f"{p.name:10} {counts.get(pid, 0):2} centres  {units}")
    for d in pos.dislodged:
        click.echo(f"dislodged: {d.unit.power} {d}")
    for power, os in g.pending().items():
        click.echo(f"orders from {power}: {', '.join(str(o) for o in os)}")
    echo_status(g)
