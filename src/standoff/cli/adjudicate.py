"""``standoff adjudicate``: one phase from a position file and an orders file."""

from __future__ import annotations

import json
import sys

import click

from standoff import (
    InvalidOrderError,
    Reason,
    adjudicate,
)

from .app import cli, friendly, option_flag, parse_options
from .io import echo_result, read_orders_file, read_position


@cli.command("adjudicate")
@click.argument("position", type=click.Path(allow_dash=True))
@click.argument("orders", type=click.Path(allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print results and next position as JSON.")
@option_flag
@friendly
def adjudicate_cmd(position: str, orders: str, as_json: bool, options: tuple[str, ...]) -> None:
    """Adjudicate one phase: POSITION (JSON or compact text), ORDERS ('Power: order' lines
    or JSON). Prints every order's result and the next position."""
    pos = read_position(position)
    result = adjudicate(pos, read_orders_file(orders), parse_options(options))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
    else:
        echo_result(result, "")
        click.echo(result.next_position.to_text())
    unread = [r for r in result.results if r.reason is Reason.INVALID]
    if unread:  # adjudicated as holds (DATC 4.E.1), but the input had a mistake: exit 2
        first = unread[0]
        more = f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""
        click.echo(f"error: {len(unread)} order(s) could not be read and were treated as "
                   f"holds: {first.power}: {InvalidOrderError(first.text, first.detail)}"
                   f"{more}", err=True)
        sys.exit(2)
