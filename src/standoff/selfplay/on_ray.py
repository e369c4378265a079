"""Self-play on a Ray cluster, or on this machine through Ray (``standoff[ray]``).

The same batches and the same worker function as the local backend
(:func:`standoff.selfplay.games.play_batch`), each batch a Ray task, so a run
gives the same games on one laptop or on many machines. Ray is imported only
here and only when this backend is asked for: a missing extra is one clear
error, and ``import standoff.selfplay`` never pays Ray's start-up.

Without an address Ray is started on this machine with ``workers`` CPUs (Ray
2.x dropped ``local_mode``; a local Ray is real worker processes); with one
(``"auto"``, ``"ray://host:10001"``) the run joins that cluster. A Ray this
process had already started is used as it is and left running.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable, Generator
from typing import Any

from .games import WORKER_GC_THRESHOLDS, BatchResult, play_batch, tune_worker_gc
from .local import POLL, never
from .plan import SelfPlay, SelfPlayError


def _ray() -> Any:
    """The ``ray`` module, or the one-line error that names the extra."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SelfPlayError("the Ray backend needs the 'ray' extra: "
                            "pip install 'standoff[ray]'") from None


def _play_on_ray(settings: SelfPlay, first: int, count: int, keep: bool) -> BatchResult:
    """A Ray task: :func:`play_batch` in a Ray worker (its collector tuned once:
    the worker process is Ray's, kept for task after task)."""
    if gc.get_threshold() != WORKER_GC_THRESHOLDS:
        tune_worker_gc()
    return play_batch(settings, first, count, keep)


def run_ray(settings: SelfPlay, workers: int, keep: bool = True,
            stop: Callable[[], bool] = never, address: str | None = None
            ) -> Generator[BatchResult, None, None]:
    """Play every batch of ``settings`` as Ray tasks and yield each result as it
    arrives; when ``stop()`` turns true, or the consumer stops iterating, the
    tasks left are cancelled and nothing more is yielded. Bad settings and a
    missing Ray raise here, before Ray starts."""
    if workers < 1:
        raise SelfPlayError(f"--workers must be at least 1 (got {workers})")
    return _results(_ray(), settings, workers, keep, stop, address)


def _results(ray: Any, settings: SelfPlay, workers: int, keep: bool,
             stop: Callable[[], bool], address: str | None
             ) -> Generator[BatchResult, None, None]:
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers,
                 include_dashboard=False, log_to_driver=False, logging_level="error")
    task = ray.remote(num_cpus=1, max_retries=0)(_play_on_ray)
    pending = [task.remote(settings, first, count, keep) for first, count in settings.batches()]
    try:
        while pending:
            if stop():
                return
            done, pending = ray.wait(pending, num_returns=1, timeout=POLL)
            for ref in done:
                result: BatchResult = ray.get(ref)
                yield result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
