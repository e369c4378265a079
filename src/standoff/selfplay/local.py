"""Self-play on one machine: batches shared among worker processes.

The workers are started with ``spawn`` (a fresh interpreter each, safe
whatever threads the parent runs, e.g. a progress bar's, and the same on every
platform) and ignore SIGINT: a Ctrl-C at the terminal reaches the whole
process group, and it is the parent's to decide what happens (keep what was
written, stop the workers). Each tunes its garbage collector
(:func:`~standoff.selfplay.games.tune_worker_gc`). Results come back as each batch finishes, in no
particular order; a game's index says which it is.

:func:`run_jobs` is that machinery for any work of the same shape (a top-level
function of plain values, one call a job): ``standoff playtest`` hands it its
games, played by bots, so both commands stop, poll and clean up alike.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Generator, Sequence
from typing import TypeVar

from .games import BatchResult, play_batch, tune_worker_gc
from .plan import SelfPlay, SelfPlayError

#: how often the parent looks whether it was asked to stop, in seconds
POLL = 0.1

Job = TypeVar("Job")
Result = TypeVar("Result")


def never() -> bool:
    return False


def _start_worker() -> None:
    """A worker ignores SIGINT (the parent decides) and tunes its collector."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tune_worker_gc()


def _play(job: tuple[SelfPlay, int, int, bool]) -> BatchResult:
    return play_batch(*job)


def run_local(settings: SelfPlay, workers: int, keep: bool = True,
              stop: Callable[[], bool] = never) -> Generator[BatchResult, None, None]:
    """Play every batch of ``settings`` in ``workers`` processes and yield each
    result as it arrives. When ``stop()`` turns true, or the consumer stops
    iterating, the workers are terminated and nothing more is yielded. Bad
    settings raise here, before any process starts."""
    if workers < 1:
        raise SelfPlayError(f"--workers must be at least 1 (got {workers})")
    return run_jobs(_play, [(settings, first, count, keep) for first, count in settings.batches()],
                    workers, stop)


def run_jobs(work: Callable[[Job], Result], jobs: Sequence[Job], workers: int,
             stop: Callable[[], bool] = never) -> Generator[Result, None, None]:
    """``work(job)`` for every job, in up to ``workers`` spawned processes, each
    result yielded as it arrives (in no particular order). ``work`` must be a
    module-level function and the jobs plain values: both are pickled to the
    workers. When ``stop()`` turns true, or the consumer stops iterating, the
    workers are terminated and nothing more is yielded."""
    if workers < 1:
        raise SelfPlayError(f"--workers must be at least 1 (got {workers})")
    return _results(work, list(jobs), workers, stop)


def _results(work: Callable[[Job], Result], jobs: list[Job], workers: int,
             stop: Callable[[], bool]) -> Generator[Result, None, None]:
    if not jobs:
        return
    pool = multiprocessing.get_context("spawn").Pool(min(workers, len(jobs)),
                                                      initializer=_start_worker)
    try:
        results = pool.imap_unordered(work, jobs)
        for _ in jobs:
            while True:
                if stop():
                    return
                try:
                    result = results.next(timeout=POLL)
                except multiprocessing.TimeoutError:
                    continue
                break
            yield result
    finally:
        # Every result is in (or the consumer stopped): the workers have nothing
        # left to do, so they are stopped rather than left to tear their
        # interpreters down (their children's CPU time fell by 0.1 s a 2.5-second run).
        pool.terminate()
        pool.join()
