"""``standoff demo``: a whole game played by random bots."""

from __future__ import annotations

import random

import click

from standoff import (
    Game,
    random_orders,
    storage,
)

from .app import cli, friendly, variant_flag


@cli.command()
@click.option("--seed", default=1, show_default=True, help="Random seed for the bots.")
@click.option("--max-year", default=1950, show_default=True)
@click.option("--save", "save_to", type=click.Path(), default=None,
              help="Save the finished game to this file.")
@click.option("--quiet", "-q", is_flag=True, help="Only print the summary.")
@variant_flag
@friendly
def demo(seed: int, max_year: int, save_to: str | None, quiet: bool, variant: str) -> None:
    """Play a whole game with random bots, start to finish."""
    rng = random.Random(seed)
    g = Game.new(storage.open_variant(variant))
    cal = g.variant.calendar
    while not g.is_over and g.position.phase.year <= max_year:
        for pid, picks in random_orders(g.position, rng, 0.7, g.options, g.variant).items():
            g.submit(pid, picks)
        phase = g.position.phase.long_name(cal)
        result = g.process()
        if not quiet:
            moved = sum(1 for r in result.results if r.success and r.order is not None
                        and r.order.kind in ("move", "retreat", "build"))
            counts = g.position.centre_counts()
            top = ", ".join(f"{p} {n}" for p, n in sorted(counts.items(), key=lambda kv: -kv[1]))
            click.echo(f"{phase:28} {len(result.results):3} orders, {moved:3} moved/built | {top}")
    if not g.is_over and len(g.survivors()) >= 2:
        g.declare_draw()
    if save_to:
        storage.save(g, save_to)
    outcome = (f"{g.variant.powers[g.winner].name} wins" if g.winner
               else "nobody wins" if g.no_winner
               else f"draw between {', '.join(g.draw)}" if g.draw
               else f"unfinished by {max_year}")
    click.echo(f"{len(g.history)} phases played; {outcome} "
               f"({g.position.phase.long_name(cal)})")
