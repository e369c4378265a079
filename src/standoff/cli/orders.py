"""``standoff orders``: submit a power's orders to a saved game (under its lock)."""

from __future__ import annotations

import click

from standoff import (
    GameStateError,
    StandoffError,
    storage,
)

from .app import cli, friendly
from .io import parse_orders_text, read_text


@cli.command()
@click.argument("game", type=click.Path())
@click.argument("power")
@click.argument("orders", nargs=-1)
@click.option("--file", "-f", "from_file", type=click.Path(allow_dash=True),
              help="Read orders from a file: one per line, or JSON {\"power\": [...]} "
                   "naming only POWER; '-' for stdin.")
@click.option("--replace", is_flag=True, help="Drop POWER's earlier orders first.")
@friendly
def orders(game: str, power: str, orders: tuple[str, ...], from_file: str | None,
           replace: bool) -> None:
    """Submit ORDERS for POWER (each order one argument, e.g. 'A PAR - BUR').

    All or nothing: one invalid or illegal order rejects the lot and the saved
    game is not touched. Orders replace earlier ones for the same unit until
    the phase is processed. The game file is locked while it changes, so
    orders sent at the same moment by several players are all kept."""
    items = list(orders)
    named: list[str] = []  # the powers a JSON orders file gives orders for
    if from_file:
        text = read_text(from_file)
        if text.lstrip().startswith("{"):
            for who, given in parse_orders_text(text, from_file).items():
                named.append(who)
                items += given
        else:
            items += [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        items = [i for i in items if i.strip()]
    if not items and not replace:
        raise GameStateError("no orders given")
    with storage.editing(game) as g:
        pid = g.variant.power(power)
        others = [who for who in named if g.variant.power(who) != pid]
        if others:
            raise StandoffError(f"{from_file} gives orders for {', '.join(others)}: this "
                                f"command submits {g.variant.powers[pid].name}'s only "
                                "(send each power's orders with its own command)")
        accepted = g.submit(pid, items, replace_all=replace)
    for o in accepted:
        click.echo(f"accepted: {o}")
