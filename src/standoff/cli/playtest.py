"""``standoff playtest``: a variant designer's balance report from many bot games.

The games and the report are :mod:`standoff.playtest`'s; this command checks
everything it can before the first game (the settings, the bot, the variant
file, that the output folders exist, that Matplotlib is there for ``--plot``),
draws a progress bar on stderr, then prints the report as tables, and writes
``--json`` and ``--plot`` if asked. ``--json -`` writes the JSON to stdout and
the tables to stderr, so the JSON can be piped. Ctrl-C stops the workers: no
report (exit 130).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from standoff.playtest import (
    DEFAULT_BOT,
    DEFAULT_EVERY,
    DEFAULT_YEARS,
    GameSummary,
    Playtest,
    PlaytestError,
    Report,
    check_plotting,
    plan,
    playtest,
    write_plot,
)

from .app import cli, friendly
from .selfplay import INTERRUPTED, Interrupt

#: rows of the never-moved and stuck-place tables shown (the JSON has them all)
SHOWN = 12
#: the tables' width when the output is not a terminal (a file, a pipe)
WIDTH = 160


@cli.command("playtest")
@click.argument("variant", metavar="VARIANT_OR_FILE")
@click.option("--games", "-n", type=int, default=100, show_default=True, help="Games to play.")
@click.option("--bot", default=DEFAULT_BOT, show_default=True,
              help="The bot playing every power: a bundled one (random, heuristic, "
                   "search) or one installed by another package.")
@click.option("--max-year", type=int, default=None,
              help=f"The last year played; a game still going after it is a draw. "
                   f"Default: {DEFAULT_YEARS} years of play.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The run's seed: game i's bots are seeded from (seed, i).")
@click.option("--workers", "-w", type=int, default=None,
              help="Worker processes. Default: this machine's CPU count.")
@click.option("--every", type=int, default=DEFAULT_EVERY, show_default=True,
              help="Years between the centre checkpoints in the table.")
@click.option("--plot", "plot_to", default=None, metavar="PATH.png",
              help="Also draw the report as a PNG (the 'plot' extra).")
@click.option("--json", "json_to", default=None, metavar="PATH",
              help="Also write the report as JSON ('-': stdout, the tables then on stderr).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@friendly
def playtest_command(variant: str, games: int, bot: str, max_year: int | None, seed: int,
                     workers: int | None, every: int, plot_to: str | None,
                     json_to: str | None, no_progress: bool) -> None:
    """Play many games of a variant (a bundled name or a .toml file) with a bot at every
    power, and report on its balance: wins, draws, centres by power over time, game
    lengths, units never able to move."""
    settings = plan(variant, games, bot, seed, max_year, every)
    count = (os.cpu_count() or 1) if workers is None else workers
    if count < 1:
        raise PlaytestError(f"--workers must be at least 1 (got {count})")
    if plot_to is not None:
        if Path(plot_to).suffix.lower() != ".png":
            raise PlaytestError(f"--plot writes a PNG: give a path ending in .png, not {plot_to}")
        check_plotting()
        _writable(plot_to, "--plot")
    if json_to is not None and json_to != "-":
        _writable(json_to, "--json")
    aside = json_to == "-"  # the JSON takes stdout: the tables go to stderr
    terminal = (sys.stderr if aside else sys.stdout).isatty()
    tables = Console(stderr=aside, width=None if terminal else WIDTH)
    with Interrupt() as interrupt:
        report = _play(settings, count, no_progress, interrupt)
    if report is None:
        click.echo(f"interrupted: the playtest was stopped before its {games} games were "
                   "played; no report", err=True)
        sys.exit(INTERRUPTED)
    show(report, tables)
    if json_to == "-":
        click.echo(report.to_json())
    elif json_to is not None:
        Path(json_to).write_text(report.to_json() + "\n", encoding="utf-8")
    if plot_to is not None:
        from standoff.render import power_colours

        write_plot(report, plot_to, power_colours(settings.load()))
    written = [f"{what} {path}" for what, path in (("JSON", json_to), ("plot", plot_to))
               if path is not None and path != "-"]
    if written:
        click.echo(f"wrote the {' and the '.join(written)}", err=True)


def _writable(path: str, flag: str) -> None:
    """The folder ``path`` goes in exists and can be written, checked before playing."""
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise PlaytestError(f"cannot write {flag} {path}: no folder {folder}")
    if not os.access(folder, os.W_OK):
        raise PlaytestError(f"cannot write {flag} {path}: {folder} is not writable")


def _play(settings: Playtest, workers: int, quiet: bool, stop: Interrupt) -> Report | None:
    bar = Progress(TextColumn(f"playtest {settings.variant}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games, {task.fields[phases]:,} phases"), TimeElapsedColumn(),
                   console=Console(stderr=True), disable=quiet)
    phases = 0
    with bar:
        task = bar.add_task("games", total=settings.games, phases=0)

        def step(game: GameSummary) -> None:
            nonlocal phases
            phases += game.phases
            bar.update(task, advance=1, phases=phases)

        return playtest(settings, workers, step, stop)


def _pct(part: int, whole: int) -> str:
    return f"{part} ({100 * part / whole:.0f}%)" if whole else str(part)


def show(report: Report, console: Console) -> None:
    """The report as tables and lines (what the command prints)."""
    r = report
    table = Table(title=f"{r.title}: {r.games} games, the {r.bot} bot at every power, "
                        f"{r.first_year}-{r.max_year}, seed {r.seed}", title_justify="left")
    table.add_column("Power")
    for head in ("Solo wins", "Draws shared", "Eliminated", "Elim. year", "Balance",
                 "Centres start", *(str(y) for y in r.checkpoints), "End", "Never moved"):
        table.add_column(head, justify="right")
    drawn = r.ends["draw"]
    for p in r.powers:
        table.add_row(p.name, _pct(p.solo_wins, r.games), _pct(p.draws, drawn),
                      _pct(p.eliminated, r.games),
                      "-" if p.mean_elimination_year is None else f"{p.mean_elimination_year:.0f}",
                      f"{p.balance:.2f}", str(p.centres_start),
                      *(f"{p.centres_at[y]:.1f}" for y in r.checkpoints),
                      f"{p.centres_end:.1f}", str(p.never_moved))
    console.print(table)
    ends = r.ends
    console.print(f"Ends: {ends['win']} solo wins, {ends['draw']} draws, {ends['no_winner']} "
                  f"with no winner, {ends['unfinished']} unfinished (one survivor short of "
                  f"victory), of {r.games} games. Supply centres: {r.supply_centres}.",
                  highlight=False)
    ln = r.lengths
    console.print(f"Game lengths: mean {ln.mean_years:.1f} years, median {ln.median_years:g}, "
                  f"shortest {ln.min_years}, longest {ln.max_years}; "
                  f"{ln.mean_phases:.1f} phases on average.", highlight=False)
    console.print("Balance: the mean sum-of-squares score times the powers (1.00 is a fair "
                  "share); draws shared: % of the drawn games.", highlight=False)
    _stuck_tables(r, console)
    if r.refused:
        console.print(f"[bold red]{r.refused} order sets were refused by the rules[/] (those "
                      "powers sent nothing that phase): a bot's bug or the variant's.")
    run = r.run
    console.print(f"Played in {run.seconds:.1f} s on {run.workers} worker(s), {run.build}: "
                  f"{run.phases:,} phases, {run.phases_per_second:,.0f} phases/s.",
                  highlight=False)


def _stuck_tables(r: Report, console: Console) -> None:
    if not r.never_moved:
        console.print("Units never able to move: none.", highlight=False)
    else:
        console.print("Units never able to move (no legal move at any movement phase of "
                      "their lives):", highlight=False)
        units = Table()
        for head in ("Power", "Unit", "Games", "Units", "Movement phases (mean)"):
            units.add_column(head, justify="left" if head in ("Power", "Unit") else "right")
        names = {p.power: p.name for p in r.powers}
        for u in r.never_moved[:SHOWN]:
            units.add_row(names.get(u.power, u.power), u.unit, str(u.games), str(u.units),
                          f"{u.mean_movement_phases:.1f}")
        console.print(units)
        if len(r.never_moved) > SHOWN:
            console.print(f"... and {len(r.never_moved) - SHOWN} more (see --json)")
    if r.stuck:
        places = ", ".join(f"{s.unit_type} {s.location.upper()} ({s.power}): {s.unit_phases} in "
                           f"{s.games} games" for s in r.stuck[:SHOWN])
        more = f", and {len(r.stuck) - SHOWN} more places" if len(r.stuck) > SHOWN else ""
        console.print(f"Stuck unit-phases (a unit without a legal move at a movement phase), "
                      f"by place: {places}{more}.", highlight=False)
