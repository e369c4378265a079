"""Playing a playtest's games: in this process, or shared among worker processes.

With one worker the games are played here, one after another (no process to
start: a short playtest, a test). With more, each game is one job for
:func:`standoff.selfplay.run_jobs`, self-play's pool of spawned workers (they
ignore Ctrl-C, tune their garbage collector, and are stopped when the consumer
stops or ``stop()`` turns true); a game is a job of its own, so a long
Twentieth Century game never holds up a batch. Either way a game depends only
on the settings and its index, so the report is the same for any ``workers``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from standoff.selfplay import run_jobs
from standoff.selfplay.local import never

from .games import GameSummary, play_game, play_job
from .report import Report, summarise
from .settings import Playtest, PlaytestError


def games(settings: Playtest, workers: int = 1,
          stop: Callable[[], bool] = never) -> Iterator[GameSummary]:
    """Every game of the playtest, each as it finishes (in no particular order
    with several workers); nothing more once ``stop()`` turns true."""
    if workers < 1:
        raise PlaytestError(f"--workers must be at least 1 (got {workers})")
    if workers == 1 or settings.games == 1:
        for index in range(settings.games):
            if stop():
                return
            yield play_game(settings, index)
        return
    jobs = [(settings, index) for index in range(settings.games)]
    yield from run_jobs(play_job, jobs, workers, stop)


def playtest(settings: Playtest, workers: int = 1,
             progress: Callable[[GameSummary], None] | None = None,
             stop: Callable[[], bool] = never) -> Report | None:
    """Play every game and report on them; None when ``stop()`` cut the run short.
    ``progress`` is called with each game as it finishes."""
    start = time.perf_counter()
    done: list[GameSummary] = []
    for game in games(settings, workers, stop):
        done.append(game)
        if progress is not None:
            progress(game)
    if len(done) < settings.games:
        return None
    return summarise(settings, settings.load(), done, time.perf_counter() - start, workers)
