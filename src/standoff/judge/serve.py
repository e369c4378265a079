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
import sys
from pathlib import Path

from fastapi import FastAPI
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .app import create_app
from .db import Database
from .settings import Settings


class ServeError(Exception):
    """The judge cannot start (the database cannot be reached or migrated)."""


def app_from_env() -> FastAPI:
    """The factory uvicorn's worker processes call."""
    configure_logging()
    return create_app(Settings.from_env())


def configure_logging() -> None:
    """The judge's own log lines (processed phases, errors) beside uvicorn's."""
    logger = logging.getLogger("standoff.judge")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def describe_database(url: str) -> str:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        where = parsed.database or ":memory:"
        return f"SQLite {Path(where).resolve() if where != ':memory:' else where}"
    return parsed.render_as_string(hide_password=True)


def run(settings: Settings) -> None:
    import uvicorn

    configure_logging()
    try:
        db = Database(settings)
        db.migrate()
        db.dispose()
    except SQLAlchemyError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ServeError(f"cannot open the database {describe_database(settings.database_url)}:"
                         f" {first}") from exc
    os.environ.update(settings.to_env())
    print(f"standoff judge on http://{settings.host}:{settings.port} "
          f"(API /api/v1, docs /docs; database: {describe_database(settings.database_url)}; "
          f"{settings.workers} worker{'s' if settings.workers > 1 else ''})",
          file=sys.stderr, flush=True)
    common = {"host": settings.host, "port": settings.port, "proxy_headers": False,
              "log_level": "info", "timeout_graceful_shutdown": 30}
    if settings.workers > 1:
        uvicorn.run("standoff.judge.serve:app_from_env", factory=True,
                    workers=settings.workers, **common)  # type: ignore[arg-type]
    else:
        uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
