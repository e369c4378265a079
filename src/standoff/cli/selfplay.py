"""``standoff selfplay``: many games over worker processes, written as JSON lines.

The games are played by :mod:`standoff.selfplay` (multiprocessing, or Ray with
``--ray``), with random legal orders or, with ``--bot NAME``, by that bundled
bot at every power; this command checks the settings, opens the output before any
worker starts (an unwritable path is one error line, not a lost run), writes
each finished game as one line and flushes it, and draws a progress bar on
stderr. Ctrl-C stops the workers and keeps every game already written: the
file then holds only complete lines, each a whole game (exit 130).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from types import FrameType
from typing import TextIO

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from standoff.selfplay import BatchResult, SelfPlay, SelfPlayError, plan, run_local, run_ray

from .app import cli, friendly

#: the exit code of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)
INTERRUPTED = 130


class Interrupt:
    """Turns SIGINT into a flag the run looks at between games, so a line being
    written is never cut short; the previous handler is back afterwards."""

    def __init__(self) -> None:
        self.raised = False
        self._old: Callable[[int, FrameType | None], object] | int | None = None

    def __enter__(self) -> Interrupt:
        self._old = signal.signal(signal.SIGINT, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        signal.signal(signal.SIGINT, self._old)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.raised = True

    def __call__(self) -> bool:
        return self.raised


@cli.command()
@click.option("--games", "-n", type=int, default=100, show_default=True,
              help="Games to play.")
@click.option("--workers", "-w", type=int, default=None,
              help="Worker processes (Ray: CPUs). Default: this machine's CPU count.")
@click.option("--variant", default="standard", show_default=True,
              help="A bundled variant (see 'standoff variants').")
@click.option("--seed", type=int, default=1, show_default=True,
              help="The run's seed: game i is seeded from (seed, i).")
@click.option("--max-year", type=int, default=None,
              help="The last year played; a game still going after it ends in a draw. "
                   "Default: 20 years of play.")
@click.option("--move-bias", type=float, default=0.7, show_default=True,
              help="The chance a unit picks among its moves rather than any order.")
@click.option("--bot", default=None, metavar="NAME",
              help="The bundled bot playing every power (random, heuristic, search). "
                   "Default: random legal orders (--move-bias).")
@click.option("--batch", "batch_size", type=int, default=8, show_default=True,
              help="Games per batch (the unit of work sent to a worker).")
@click.option("--output", "-o", required=True, metavar="FILE",
              help="Where the games go, one JSON line each ('-': stdout).")
@click.option("--ray", "use_ray", is_flag=True,
              help="Play on Ray (the 'ray' extra) instead of local processes.")
@click.option("--ray-address", default=None, metavar="ADDRESS",
              help="Join this Ray cluster (implies --ray); default: a Ray on this machine.")
@click.option("--no-progress", is_flag=True, help="No progress bar; only the summary.")
@friendly
def selfplay(games: int, workers: int | None, variant: str, seed: int, max_year: int | None,
             move_bias: float, bot: str | None, batch_size: int, output: str, use_ray: bool,
             ray_address: str | None, no_progress: bool) -> None:
    """Play many games at once (random, or a bot at every power), each written as one
    JSON line."""
    settings = plan(games, variant, seed, max_year, move_bias, batch_size, bot)
    count = (os.cpu_count() or 1) if workers is None else workers
    if count < 1:
        raise SelfPlayError(f"--workers must be at least 1 (got {count})")
    with _open(output) as out, Interrupt() as interrupt:
        if use_ray or ray_address:
            results = run_ray(settings, count, stop=interrupt, address=ray_address)
        else:
            results = run_local(settings, count, stop=interrupt)
        done, ends, phases, seconds, refused = _write(settings, results, out, no_progress)
    where = "stdout" if output == "-" else output
    if interrupt.raised:
        click.echo(f"interrupted: {done} of {games} games written to {where}", err=True)
        sys.exit(INTERRUPTED)
    click.echo(_summary(settings, ends, phases, seconds, refused), err=True)


@contextlib.contextmanager
def _open(output: str) -> Iterator[TextIO]:
    """The output, opened (and so checked) before any worker starts."""
    if output == "-":
        yield sys.stdout
        return
    with open(output, "w", encoding="utf-8") as fh:
        yield fh


def _write(settings: SelfPlay, results: Generator[BatchResult, None, None], out: TextIO,
           quiet: bool) -> tuple[int, Counter[str], int, float, int]:
    """Write each game as it arrives; (games written, ends counted, phases, seconds,
    order sets refused)."""
    start = time.perf_counter()
    ends: Counter[str] = Counter()
    phases = done = refused = 0
    bar = Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games, {task.fields[phases]:,} phases, "
                              "{task.fields[rate]:,.0f} phases/s"),
                   TimeElapsedColumn(), console=Console(stderr=True), disable=quiet)
    with bar, contextlib.closing(results):
        task = bar.add_task("games", total=settings.games, phases=0, rate=0.0)
        for result in results:
            for game in result.games:
                assert game.line is not None
                out.write(game.line + "\n")
                out.flush()
                ends[game.end] += 1
                phases += game.phases
                refused += game.refused
                done += 1
            rate = phases / max(time.perf_counter() - start, 1e-9)
            bar.update(task, completed=done, phases=phases, rate=rate)
    return done, ends, phases, time.perf_counter() - start, refused


def _summary(settings: SelfPlay, ends: Counter[str], phases: int, seconds: float,
             refused: int = 0) -> str:
    games = sum(ends.values())
    parts = [f"{ends['win']} won", f"{ends['draw']} drawn at the {settings.max_year} cap"]
    if ends["no_winner"]:
        parts.append(f"{ends['no_winner']} ended with no winner")
    if ends["cap"]:
        parts.append(f"{ends['cap']} stopped at the cap with a lone survivor")
    if refused:
        parts.append(f"{refused} order sets refused by the rules (those powers sent nothing)")
    played = f"; the {settings.bot} bot at every power" if settings.bot else ""
    return (f"{games} games, {phases:,} phases in {seconds:.1f} s: "
            f"{phases / max(seconds, 1e-9):,.0f} phases/s; {', '.join(parts)}{played}")
