"""``standoff backup FILE`` and ``standoff restore FILE``: the judge's database to a file
and back (the 'judge' extra; how, and why this way: ``standoff/judge/backup.py``).

Both take the database as ``standoff serve`` does (``--database-url`` or
``STANDOFF_DATABASE_URL``, default the SQLite file ``standoff.db`` here). A
backup may be taken while the judge runs; a restore goes into an empty database,
before the judge is started on it. Anything that stops them is one line on
stderr and exit status 1.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .app import cli

_database_flag = click.option(
    "--database-url", envvar="STANDOFF_DATABASE_URL", default=None,
    help="The judge's database, as for 'standoff serve' (env STANDOFF_DATABASE_URL; "
         "default sqlite:///standoff.db).")


def _judge() -> Any:
    """The judge's backup module, or exit 2 naming the extra to install."""
    try:
        from standoff.judge import backup
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in {"sqlalchemy", "alembic", "psycopg", "fastapi",
                                                  "pydantic", "starlette"}:
            raise
        click.echo("error: backups need the 'judge' extra: pip install 'standoff[judge]'",
                   err=True)
        sys.exit(2)
    return backup


def _url(database_url: str | None) -> str:
    from standoff.judge.settings import Settings

    try:
        overrides: dict[str, Any] = {"database_url": database_url} if database_url else {}
        return Settings.from_env(**overrides).database_url
    except ValueError as exc:  # a STANDOFF_* value that is no value
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


@cli.command("backup")
@click.argument("file", type=click.Path(path_type=Path))
@_database_flag
def backup_command(file: Path, database_url: str | None) -> None:
    """Back up the judge's database to FILE (a SQLite file), while the judge runs.

    FILE is written under a temporary name and renamed when complete, so it is
    always a whole backup (an older FILE is replaced). Restore it with
    'standoff restore FILE', into SQLite or PostgreSQL.
    """
    module = _judge()
    url = _url(database_url)
    try:
        summary = module.backup(url, file)
    except module.BackupError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"backed up {module.describe(url)} to {file} in {summary.seconds:.1f} s: "
               f"{summary.line()}", err=True)


@cli.command("restore")
@click.argument("file", type=click.Path(path_type=Path))
@_database_flag
def restore_command(file: Path, database_url: str | None) -> None:
    """Restore the backup FILE into an empty database (then start the judge on it).

    Refused, with nothing written, when the database already holds data. A backup
    of an older standoff is migrated forward; one of a newer standoff is refused.
    """
    module = _judge()
    url = _url(database_url)
    try:
        summary = module.restore(file, url)
    except module.BackupError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"restored {file} into {module.describe(url)} in {summary.seconds:.1f} s: "
               f"{summary.line()}", err=True)
