"""``standoff serve``: the judge on uvicorn, migrated and ready in one command.

With one worker the app runs in this process. With ``--workers N`` uvicorn
starts N processes that each build the app from the environment
(:func:`app_from_env`, which is why the settings are exported to ``STANDOFF_*``
variables first); they share the database, and each runs a scheduler, which
the exactly-once processing makes safe.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from pathlib import Path

from fastapi import FastAPI
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from . import logs
from .app import create_app
from .db import Database
from .metrics import MULTIPROC_ENV
from .settings import Settings

log = logging.getLogger("standoff.judge")


class ServeError(Exception):
    """The judge cannot start (the database cannot be reached or migrated)."""


def app_from_env() -> FastAPI:
    """The factory uvicorn's worker processes call (uvicorn has applied our
    ``log_config`` in them already)."""
    return create_app(Settings.from_env())


def configure_logging(log_format: str = "text") -> None:
    """The judge's log lines and uvicorn's, one format on stderr (logs.py)."""
    logs.configure(log_format)


def describe_database(url: str) -> str:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        where = parsed.database or ":memory:"
        return f"SQLite {Path(where).resolve() if where != ':memory:' else where}"
    return parsed.render_as_string(hide_password=True)


def run(settings: Settings) -> None:
    import uvicorn

    configure_logging(settings.log_format)
    try:
        db = Database(settings)
        db.migrate()
        db.dispose()
    except SQLAlchemyError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServeError(f"cannot open the database {describe_database(settings.database_url)}:"
                         f" {first}") from exc
    os.environ.update(settings.to_env())
    metrics_dir = _metrics_dir() if settings.metrics_address else None
    server = None
    if metrics_dir is not None:
        from .metrics import MetricsServer

        try:
            server = MetricsServer(settings)
            server.start()
        except OSError as exc:
            shutil.rmtree(metrics_dir, ignore_errors=True)
            raise ServeError(f"cannot serve metrics on {settings.metrics_address}: "
                             f"{exc.strerror or exc}") from exc
        log.info("metrics on http://%s/metrics", settings.metrics_address)
    # logged, not printed: with --log-format json every line of stderr is JSON
    log.info("standoff judge on http://%s:%s (API /api/v1, docs /docs; database: %s; "
             "%s worker%s)", settings.host, settings.port,
             describe_database(settings.database_url), settings.workers,
             "s" if settings.workers > 1 else "")
    # uvicorn's access log is replaced by logs.RequestLog (no query strings, a request id);
    # log_config is applied again in each worker process
    common = {"host": settings.host, "port": settings.port, "proxy_headers": False,
              "log_level": "info", "timeout_graceful_shutdown": 30, "access_log": False,
              "log_config": logs.logging_config(settings.log_format)}
    try:
        if settings.workers > 1:
            uvicorn.run("standoff.judge.serve:app_from_env", factory=True,
                        workers=settings.workers, **common)  # type: ignore[arg-type]
        else:
            uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
    finally:
        if server is not None:
            server.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def _metrics_dir() -> str:
    """A new directory for the processes' metric files, named in the environment before
    prometheus_client is first imported here or in any worker (it reads it then; see
    metrics.py). Always a new one: files left by an earlier run would count twice."""
    path = tempfile.mkdtemp(prefix="standoff-metrics-")
    os.environ[MULTIPROC_ENV] = path
    return path


def run_worker(settings: Settings) -> None:
    """``standoff worker``: bot workers alone (no HTTP), on this machine or another
    sharing the database, until SIGTERM or Ctrl-C; the jobs it holds then are
    finished first (at most the bots' time limit)."""
    import signal
    import threading

    from .context import Judge
    from .mail import Mailer
    from .worker import BotWorker

    configure_logging(settings.log_format)
    db = Database(settings)
    try:
        db.migrate()
    except SQLAlchemyError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        db.dispose()
        raise ServeError(f"cannot open the database {describe_database(settings.database_url)}:"
                         f" {first}") from exc
    judge = Judge(settings, db)
    workers = BotWorker(judge, max(1, settings.bot_workers))
    # a phase the bots' orders complete is processed here: its results mail is sent
    # from here too, as from the server that processes a phase
    mailer = Mailer(judge) if settings.mail_enabled else None
    if mailer is not None:
        judge.listeners.append(mailer.on_event)
        mailer.start()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    workers.start()
    log.info("standoff bot worker: %s thread%s on %s", workers.threads,
             "s" if workers.threads > 1 else "", describe_database(settings.database_url))
    try:
        stop.wait()
    finally:
        workers.stop(settings.bot_prepare_seconds + settings.bot_seconds + 5)
        if mailer is not None:
            mailer.stop()
        db.dispose()
        log.info("standoff bot worker stopped: %s jobs done, %s failed", workers.done,
                 workers.failed)
