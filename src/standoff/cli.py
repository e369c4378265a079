"""The ``standoff`` command line (click): a thin adapter over the rules core.

Exit codes: 0 success; 1 a case file had failures; 2 bad usage or unreadable
input (invalid order text, unreadable position); 3 an illegal order; 4 a saved
game that is corrupt, missing or of an unknown version; 5 an operation the
game's state does not allow (e.g. the game is over). Errors are one line on
stderr, never a traceback.
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from . import BUILD, storage
from .adjudicator import PhaseResult, adjudicate
from .casefile import run_files
from .errors import (
    CorruptGameError,
    GameStateError,
    IllegalOrderError,
    InvalidOrderError,
    NotationError,
    StandoffError,
)
from .game import Game
from .legal import legal_orders, random_orders
from .options import CHOICES, Options
from .position import Position
from .report import game_report
from .results import Reason
from .variant import available_variants, load_variant
from .variant_check import check_variant, variant_summary

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CODES: list[tuple[type[StandoffError], int]] = [
    (CorruptGameError, 4),
    (IllegalOrderError, 3),
    (GameStateError, 5),
    (InvalidOrderError, 2),
    (NotationError, 2),
    (StandoffError, 2),
]


def friendly(func: F) -> F:
    """Turn standoff errors into one line on stderr and a documented exit code."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", storage.VariantChangedWarning)
                warnings.showwarning = _show_warning
                return func(*args, **kwargs)
        except StandoffError as exc:
            click.echo(f"error: {exc}", err=True)
            code = next(c for t, c in EXIT_CODES if isinstance(exc, t))
            sys.exit(code)
        except UnicodeDecodeError as exc:
            click.echo(f"error: input is not UTF-8 text ({exc.reason} at byte {exc.start})",
                       err=True)
            sys.exit(2)
        except BrokenPipeError:
            sys.exit(0)  # output cut short by e.g. `| head`: not an error
        except OSError as exc:
            click.echo(f"error: {exc.strerror or exc}: {getattr(exc, 'filename', '')}", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as one line on stderr, like the errors (not Python's file:line form)."""
    click.echo(f"warning: {message}", err=True)


def _options(items: tuple[str, ...]) -> Options:
    return Options.parse(list(items))


option_flag = click.option(
    "--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
    help="Rule option, e.g. paradox=1982 (see 'standoff options').",
)


@click.group()
@click.version_option(package_name="standoff", message=f"%(prog)s %(version)s ({BUILD})")
def cli() -> None:
    """standoff: a Diplomacy adjudicator and judge."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--variant", default=None, help="Override the variant of every case.")
@click.option("--verbose", "-v", is_flag=True, help="Also list passing and skipped cases.")
@option_flag
@friendly
def cases(files: tuple[str, ...], variant: str | None, verbose: bool,
          options: tuple[str, ...]) -> None:
    """Run adjudication case files (jDip/godip format) and report failures.

    Rule options given with -o apply to every case; a case's own OPTIONS win."""
    _options(options)  # a bad option is one error up front, not a failure per case
    report = run_files(list(files), variant, verbose, options, echo=click.echo)
    click.echo(report.summary())
    sys.exit(0 if report.failed == 0 else 1)


@cli.command("options")
def list_options() -> None:
    """List the rule options, their values (default first) and DATC issues."""
    for key, (values, issue, what) in CHOICES.items():
        source = issue if not issue[0].isdigit() else f"DATC {issue}"
        click.echo(f"{key} = {' | '.join(values)}   ({source}) {what}")


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    return Path(path).read_text(encoding="utf-8")


def read_position(path: str) -> Position:
    """A position file in JSON or compact text form."""
    text = _read_text(path).strip()
    return Position.from_json(text) if text.startswith("{") else Position.from_text(text)


def read_orders_file(path: str) -> dict[str, list[str]]:
    """Orders as JSON ``{"power": ["A PAR - BUR", ...]}`` or ``Power: order`` lines."""
    return parse_orders_text(_read_text(path), path)


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
    result = adjudicate(pos, read_orders_file(orders), _options(options))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
    else:
        _echo_result(result, "")
        click.echo(result.next_position.to_text())
    unread = [r for r in result.results if r.reason is Reason.INVALID]
    if unread:  # adjudicated as holds (DATC 4.E.1), but the input had a mistake: exit 2
        first = unread[0]
        more = f" (and {len(unread) - 1} more)" if len(unread) > 1 else ""
        click.echo(f"error: {len(unread)} order(s) could not be read and were treated as "
                   f"holds: {first.power}: {InvalidOrderError(first.text, first.detail)}"
                   f"{more}", err=True)
        sys.exit(2)


variant_flag = click.option(
    "--variant", default="standard", show_default=True,
    help="A bundled variant (see 'standoff variants') or a variant file (path ending in .toml).")


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
    g = Game.new(v, _options(options))
    if start_from is not None:
        pos = read_position(start_from)
        if load_variant(pos.variant) is not g.variant:
            raise GameStateError(f"the position is a {pos.variant} position, not {v.name}")
        g.position = pos
    storage.create(g, game, overwrite=force)
    phase = g.position.phase.long_name(g.variant.calendar)
    click.echo(f"new {g.variant.title} game in {game}: {phase}")


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
        text = _read_text(from_file)
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


def _echo_result(result: PhaseResult, indent: str) -> None:
    """Every order's result, what a map change did, and the units disbanded."""
    for r in result.results:
        click.echo(f"{indent}{r.power}: {r.describe()}")
    for e in result.events:
        click.echo(f"{indent}map: {e}")
    for u in result.disbanded:
        click.echo(f"{indent}{u.power}: {u} disbanded (no retreat)")


def _status(g: Game) -> None:
    cal = g.variant.calendar
    if g.winner:
        click.echo(f"game over: {g.variant.powers[g.winner].name} wins "
                   f"({g.variant.victory.describe(cal)})")
    elif g.draw:
        click.echo(f"game over: draw between {', '.join(g.draw)}")
    elif g.no_winner:
        click.echo(f"game over: nobody wins ({g.variant.victory.describe(cal)})")
    else:
        waiting = ", ".join(p for p in g.powers_to_order() if p not in g.orders) or "nobody"
        click.echo(f"now: {g.position.phase.long_name(cal)} (waiting for orders from {waiting})")


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
    _status(g)


@cli.command()
@click.argument("game", type=click.Path())
@click.argument("powers", nargs=-1)
@friendly
def draw(game: str, powers: tuple[str, ...]) -> None:
    """End the game in a draw among POWERS (default: every surviving power)."""
    with storage.editing(game) as g:
        chosen = g.declare_draw(list(powers) or None)
    click.echo(f"draw declared: {', '.join(chosen)}")


@cli.command()
@click.argument("source", type=click.Path(allow_dash=True))
@click.option("--power", default=None, help="Only this power's orders.")
@friendly
def legal(source: str, power: str | None) -> None:
    """List every legal order in SOURCE (a saved game or a position file)."""
    text = _read_text(source)
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


@cli.command()
@click.argument("game", type=click.Path())
@click.option("--phase", default=None, metavar="PHASE",
              help="Phase to draw, e.g. S1902M (default: the current phase).")
@click.option("--orders", "with_orders", is_flag=True,
              help="Draw the phase's orders (and their results, once processed).")
@click.option("--controllers", is_flag=True,
              help="Also fill land by the power standing in it (centres: by owner).")
@click.option("--all", "all_phases", is_flag=True,
              help="One picture per phase into directory OUT, plus index.html to step through.")
@click.option("--width", type=click.IntRange(1, 20000), default=None,
              help="PNG width in pixels.")
@click.option("-o", "--out", required=True, type=click.Path(),
              help="map.svg or map.png (with --all: a directory).")
@friendly
def render(game: str, phase: str | None, with_orders: bool, controllers: bool,
           all_phases: bool, width: int | None, out: str) -> None:
    """Draw a saved game's board as SVG or PNG (or every phase, with a viewer)."""
    from .render import game_viewer, phase_pictures, render_png, render_svg

    g = storage.load(game)
    if all_phases:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        pictures = phase_pictures(g, orders=True)
        for i, pic in enumerate(pictures):
            (folder / f"{i:03d}-{pic.phase}.svg").write_text(pic.svg)
        (folder / "index.html").write_text(game_viewer(g))
        click.echo(f"wrote {len(pictures)} pictures and index.html to {folder}")
        return
    suffix = Path(out).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise StandoffError(f"the output must end in .svg or .png, not {suffix or 'nothing'!r}")
    cal = g.variant.calendar
    records = {r.position.phase.name(cal): r for r in g.history}
    current = g.position.phase.name(cal)
    wanted = (phase or current).upper()
    if wanted == current:
        svg = render_svg(g.position, orders=g.pending() if with_orders else None,
                         controllers=controllers)
    elif wanted in records:
        rec = records[wanted]
        svg = render_svg(rec.position, orders=rec.orders if with_orders else None,
                         results=rec.results, controllers=controllers)
    else:
        raise GameStateError(f"no phase {wanted} in this game (played: "
                             f"{', '.join([*records, current])})")
    if suffix == ".png":
        Path(out).write_bytes(render_png(svg, width))
    else:
        Path(out).write_text(svg)
    click.echo(f"wrote {out}")


@cli.command("variants")
@friendly
def variants_cmd() -> None:
    """List the bundled variants."""
    seen: set[str] = set()
    for path in available_variants().values():
        v = load_variant(str(path))
        if v.name in seen:
            continue
        seen.add(v.name)
        aliases = f" (also: {', '.join(v.aliases)})" if v.aliases else ""
        click.echo(f"{v.name:14} {v.title}{aliases}")
        click.echo(f"{'':14} {v.description}")


def _plain(value: object) -> str:
    """A summary figure for people: lists and tables without Python's brackets."""
    if isinstance(value, dict):
        return ", ".join(f"{k.upper()} ({_plain(v)})" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(str(x).upper() for x in value)
    return str(value)


@cli.command("check-variant")
@click.argument("names", nargs=-1, required=True)
@friendly
def check_variant_cmd(names: tuple[str, ...]) -> None:
    """Validate variants (by name, alias or .toml file): links, coasts, reachability,
    centres and homes, the starting position and any schedules."""
    failed = 0
    for name in names:
        v = load_variant(name)
        problems = check_variant(v)
        info = variant_summary(v)
        counts: dict[str, int] = info["terrain"]  # type: ignore[assignment]
        terrain = ", ".join(f"{n} {t}" for t, n in sorted(counts.items()))
        click.echo(f"{v.name}: {info['spaces']} spaces ({terrain}), {info['centres']} centres, "
                   f"{len(v.powers)} powers, {info['units']} starting units, "
                   f"{info['boards']} board(s); starts {info['start']}; "
                   f"victory: {info['victory']}")
        extras = [f"{k}: {_plain(info[k])}" for k in ("neutral units", "high seas", "canals",
                                                       "build centres") if info[k]]
        if extras:
            click.echo("  " + "; ".join(extras))
        for p in problems:
            click.echo(f"  problem: {p}")
        click.echo(f"  {'ok' if not problems else f'{len(problems)} problem(s)'}")
        failed += bool(problems)
    if failed:
        sys.exit(1)


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


#: top-level modules of the judge extra: missing, ``serve`` says which extra to install
_JUDGE_MODULES = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "argon2",
                  "pydantic", "swagger_ui_bundle", "psycopg"}


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--database-url", envvar="STANDOFF_DATABASE_URL", default=None,
              help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (env "
                   "STANDOFF_DATABASE_URL). Default: sqlite:///standoff.db, a SQLite file "
                   "in the current directory, created on first start.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes (they share the database).")
def serve(host: str, port: int, database_url: str | None, workers: int) -> None:
    """Run the web judge (the 'judge' extra): the HTTP API at /api/v1, its docs at /docs.

    The database is migrated to the newest schema on start. Other settings come
    from STANDOFF_* variables (see standoff/judge/settings.py).
    """
    try:
        from .judge.serve import ServeError, run
        from .judge.settings import Settings
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _JUDGE_MODULES:
            raise
        click.echo("error: the judge needs the 'judge' extra: pip install 'standoff[judge]'",
                   err=True)
        sys.exit(2)
    overrides: dict[str, Any] = {"host": host, "port": port, "workers": workers}
    if database_url:
        overrides["database_url"] = database_url
    try:
        run(Settings.from_env(**overrides))
    except (ServeError, ValueError) as exc:  # ValueError: a STANDOFF_* value that is no value
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


def main() -> None:
    cli()
