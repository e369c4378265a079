"""``standoff legal``: every legal order of a saved game or position."""

from __future__ import annotations

import click

from standoff import (
    Options,
    legal_orders,
    load_variant,
    storage,
)

from .app import cli, friendly
from .io import read_position, read_text


@cli.command()
@click.argument("source", type=click.Path(allow_dash=True))
@click.option("--power", default=None, help="Only this power's orders.")
@friendly
def legal(source: str, power: str | None) -> None:
    """List every legal order in SOURCE (a saved game or a position file)."""
    text = read_text(source)
    if '"standoff-game"' in text:
        g = storage.loads(text, source)
        pos, opts = g.position, g.options
    else:
        pos, opts = read_position(source), Options()
    v = load_variant(pos.variant)
    only = v.power(power) if power else None
    for pid, locs in legal_orders(pos, opts, v).items():
        if only and pid != only:
            continue
        for loc, os in locs.items():
            click.echo(f"{pid} {loc.upper()}: {' | '.join(str(o) for o in os)}")
