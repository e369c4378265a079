"""``standoff process``: adjudicate a saved game's phase and print the results report."""

from __future__ import annotations

import json

import click

from standoff import (
    game_report,
    storage,
)

from .app import cli, friendly


@cli.command()
@click.argument("game", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@friendly
def process(game: str, as_json: bool) -> None:
    """Adjudicate the current phase with the orders submitted so far and print
    the results a game master sends out: every order's result, NMRs, dislodged
    units and their retreats, centres that changed hands, counts, what comes next."""
    with storage.editing(game) as g:
        g.process()
    report = game_report(g)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=1))
    else:
        click.echo(report.to_text(), nl=False)
