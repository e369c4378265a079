"""``standoff demo``: a whole game played by random orders or by bots.

Without ``--bots`` every power gives random legal orders (one per unit, seeded
by ``--seed``). ``--bots`` seats the bundled bots (:mod:`standoff.bots`):

* ``--bots heuristic``: that bot at every power;
* ``--bots france=search,*=heuristic``: the search bot at France, the heuristic
  bot everywhere else; ``*`` names every power not named, and a power left out
  with no ``*`` gives random orders as without ``--bots``. Powers are named as
  orders name them (id, name or adjective, any case).

Bots are asked as every front end asks them (:mod:`standoff.selfplay.with_bots`:
each about the same record before any order of the phase is given), seeded by
``--seed``; an order set the rules refuse (the bots' contract says it never
happens) is a warning, and that power sends nothing that phase.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import click

from standoff import Game, Order, StandoffError, Variant, random_orders, storage
from standoff.selfplay import Player, load_bot
from standoff.selfplay.plan import check_bot
from standoff.selfplay.with_bots import ask, submit

from .app import cli, friendly, variant_flag

#: what ``--bots`` looks like, for its help and its errors
BOTS_SYNTAX = "NAME, or POWER=NAME,...[,*=NAME]"


class BotsError(StandoffError):
    """A ``--bots`` value that names no bot, no power, or is not of its form."""


def parse_bots(spec: str, variant: Variant) -> dict[str, str]:
    """power id -> bot name for every power ``spec`` seats (see the module's
    description); one :class:`BotsError` naming the choices for a bad value."""
    entries = [e.strip() for e in spec.split(",")]
    if any(not e for e in entries):
        raise BotsError(f"--bots takes {BOTS_SYNTAX} (got {spec!r})")
    if len(entries) == 1 and "=" not in entries[0]:
        return dict.fromkeys(variant.powers, _bot(entries[0]))
    seats: dict[str, str] = {}
    rest: str | None = None
    for entry in entries:
        who, sep, name = (part.strip() for part in entry.partition("="))
        if not sep or not who or not name:
            raise BotsError(f"--bots takes {BOTS_SYNTAX}: {entry!r} is not POWER=NAME")
        if who == "*":
            if rest is not None:
                raise BotsError("--bots names '*' twice")
            rest = _bot(name)
            continue
        try:
            power = variant.power(who)
        except StandoffError as exc:
            raise BotsError(f"--bots: {exc}") from None
        if power in seats:
            raise BotsError(f"--bots seats {variant.powers[power].name} twice")
        seats[power] = _bot(name)
    if rest is not None:
        seats.update({p: rest for p in variant.powers if p not in seats})
    return seats


def _bot(name: str) -> str:
    try:
        return check_bot(name)
    except StandoffError as exc:
        raise BotsError(f"--bots: {exc}") from None


def _seating(seats: dict[str, str], variant: Variant) -> str:
    """Who plays what, in one line: ``France: search; the others: heuristic``."""
    by_bot: dict[str, list[str]] = {}
    for power in variant.powers:
        by_bot.setdefault(seats.get(power, "random orders"), []).append(power)
    if len(by_bot) == 1:
        return f"every power: {next(iter(by_bot))}"
    groups = sorted(by_bot.items(), key=lambda kv: len(kv[1]))  # the few named first
    parts = [f"{', '.join(variant.powers[p].name for p in powers)}: {bot}"
             for bot, powers in groups]
    return "; ".join(parts)


@cli.command()
@click.option("--seed", default=1, show_default=True, help="Random seed for the bots.")
@click.option("--max-year", default=1950, show_default=True)
@click.option("--bots", "bots_spec", default=None, metavar="SPEC",
              help="Bots at the powers: a bundled bot for all (e.g. heuristic), or "
                   "POWER=NAME pairs with '*' for the rest (france=search,*=heuristic). "
                   "Default: random orders.")
@click.option("--save", "save_to", type=click.Path(), default=None,
              help="Save the finished game to this file.")
@click.option("--quiet", "-q", is_flag=True, help="Only print the summary.")
@variant_flag
@friendly
def demo(seed: int, max_year: int, bots_spec: str | None, save_to: str | None, quiet: bool,
         variant: str) -> None:
    """Play a whole game with random orders or bots, start to finish."""
    rng = random.Random(seed)
    g = Game.new(storage.open_variant(variant))
    seats = parse_bots(bots_spec, g.variant) if bots_spec is not None else {}
    players: dict[str, Player] = {p: load_bot(name, seed) for p, name in seats.items()}
    cal = g.variant.calendar
    if seats and not quiet:
        click.echo(_seating(seats, g.variant))
    while not g.is_over and g.position.phase.year <= max_year:
        asked = g.record
        answers: list[tuple[str, Sequence[str | Order]]] = list(ask(asked, players))
        if len(players) < len(g.variant.powers):
            randoms = random_orders(g.position, rng, 0.7, g.options, g.variant)
            answers += [(p, picks) for p, picks in randoms.items() if p not in players]
        g.record, refused = submit(asked, answers)
        for r in refused:
            click.echo(f"warning: {r.phase}: {seats[r.power]} bot's orders for "
                       f"{g.variant.powers[r.power].name} refused ({r.reason}); "
                       "they send nothing this phase", err=True)
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
