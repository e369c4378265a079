"""``standoff serve``: run the web judge (the 'judge' extra)."""

from __future__ import annotations

import sys
from typing import Any

import click

from .app import cli

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
        from standoff.judge.serve import ServeError, run
        from standoff.judge.settings import Settings
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
