"""Reading positions and orders files, and printing results: shared by the commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from standoff import (
    Game,
    NotationError,
    PhaseResult,
    Position,
)


def read_text(path: str) -> str:
    """A file's text, or standard input's for ``-`` (which can be read only once)."""
    if path == "-":
        return sys.stdin.read()
    return Path(path).read_text(encoding="utf-8")


def read_position(path: str) -> Position:
    """A position file in JSON or compact text form."""
    text = read_text(path).strip()
    return Position.from_json(text) if text.startswith("{") else Position.from_text(text)


def read_orders_file(path: str) -> dict[str, list[str]]:
    """Orders as JSON ``{"power": ["A PAR - BUR", ...]}`` or ``Power: order`` lines."""
    return parse_orders_text(read_text(path), path)


def parse_orders_text(text: str, path: str) -> dict[str, list[str]]:
    """:func:`read_orders_file` on text already read (``-`` can be read only once)."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"{path}: not valid JSON: {exc}") from exc
        if not isinstance(data, dict) or not all(
            isinstance(v, list) and all(isinstance(o, str) for o in v) for v in data.values()
        ):
            raise NotationError(f"{path}: expected {{\"power\": [\"order\", ...]}}")
        return {str(k): list(v) for k, v in data.items()}
    orders: dict[str, list[str]] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        power, sep, order = line.partition(":")
        if not sep:
            raise NotationError(f"{path}:{no}: expected 'Power: order', found {line!r}")
        orders.setdefault(power.strip(), []).append(order.strip())
    return orders


def echo_result(result: PhaseResult, indent: str) -> None:
    """Every order's result, what a map change did, and the units disbanded."""
    for r in result.results:
        click.echo(f"{indent}{r.power}: {r.describe()}")
    for e in result.events:
        click.echo(f"{indent}map: {e}")
    for u in result.disbanded:
        click.echo(f"{indent}{u.power}: {u} disbanded (no retreat)")


def echo_status(g: Game) -> None:
    """How the game stands: who won or drew, or the phase and who still owes orders."""
    cal = g.variant.calendar
    if g.winner:
        click.echo(f"game over: {g.variant.powers[g.winner].name} wins "
                   f"({g.variant.victory.describe(cal)})")
    elif g.draw:
        click.echo(f"game over: draw between {', '.join(g.draw)}")
    elif g.no_winner:
        click.echo(f"game over: nobody wins ({g.variant.victory.describe(cal)})")
    else:
        sent = g.pending()
        waiting = ", ".join(p for p in g.powers_to_order() if p not in sent) or "nobody"
        click.echo(f"now: {g.position.phase.long_name(cal)} (waiting for orders from {waiting})")
