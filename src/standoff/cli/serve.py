"""``standoff serve``: run the web judge (the 'judge' extra)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import click

from .app import cli

#: top-level modules of the judge extra: missing, ``serve`` says which extra to install
_JUDGE_MODULES = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "argon2",
                  "pydantic", "swagger_ui_bundle", "psycopg"}


@contextlib.contextmanager
def _judge_extra(what: str) -> Iterator[None]:
    """Imports of the judge: without its extra, one line saying which to install."""
    try:
        yield
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _JUDGE_MODULES:
            raise
        click.echo(f"error: {what} needs the 'judge' extra: pip install 'standoff[judge]'",
                   err=True)
        sys.exit(2)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--database-url", envvar="STANDOFF_DATABASE_URL", default=None,
              help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (env "
                   "STANDOFF_DATABASE_URL). Default: sqlite:///standoff.db, a SQLite file "
                   "in the current directory, created on first start.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes (they share the database).")
@click.option("--smtp-host", default=None, help="SMTP server for e-mail (env "
              "STANDOFF_SMTP_HOST). Without one, nothing is sent and nothing fails.")
@click.option("--smtp-port", default=None, type=click.IntRange(1, 65535),
              help="SMTP port (env STANDOFF_SMTP_PORT; default 25).")
@click.option("--smtp-from", default=None, help="Sender address (env STANDOFF_SMTP_FROM).")
@click.option("--smtp-user", default=None, help="SMTP log-in (env STANDOFF_SMTP_USER).")
@click.option("--smtp-password", default=None,
              help="SMTP password (env STANDOFF_SMTP_PASSWORD; prefer the variable: a "
                   "command line is visible to other users of the machine).")
@click.option("--smtp-starttls/--no-smtp-starttls", default=None,
              help="Upgrade the SMTP connection with STARTTLS (env STANDOFF_SMTP_STARTTLS).")
@click.option("--trusted-proxies", default=None, metavar="ADDRESSES",
              help="Comma-separated addresses or networks (127.0.0.1, 10.0.0.0/8) of reverse "
                   "proxies whose X-Forwarded-For is believed (env STANDOFF_TRUSTED_PROXIES). "
                   "Default: none; every client is the connection's own address.")
@click.option("--log-format", default=None, type=click.Choice(["text", "json"]),
              help="text (default) or json: one JSON object per line, for machines (env "
                   "STANDOFF_LOG_FORMAT).")
@click.option("--metrics-address", default=None, metavar="HOST:PORT",
              help="Serve Prometheus metrics at http://HOST:PORT/metrics, an address of "
                   "their own (env STANDOFF_METRICS_ADDRESS). Default: no metrics.")
@click.option("--bot-workers", default=None, type=click.IntRange(0, 64),
              help="Threads giving the bots' orders in each server process (env "
                   "STANDOFF_BOT_WORKERS; default 1). 0: leave that to `standoff worker`.")
def serve(host: str, port: int, database_url: str | None, workers: int,
          smtp_host: str | None, smtp_port: int | None, smtp_from: str | None,
          smtp_user: str | None, smtp_password: str | None,
          smtp_starttls: bool | None, trusted_proxies: str | None, log_format: str | None,
          metrics_address: str | None, bot_workers: int | None) -> None:
    """Run the web judge (the 'judge' extra): the HTTP API at /api/v1, its docs at /docs.

    The database is migrated to the newest schema on start. Other settings come
    from STANDOFF_* variables (see standoff/judge/settings.py).
    """
    with _judge_extra("the judge"):
        from standoff.judge.serve import ServeError, run
        from standoff.judge.settings import Settings
    overrides: dict[str, Any] = {"host": host, "port": port, "workers": workers}
    if database_url:
        overrides["database_url"] = database_url
    smtp = {"smtp_host": smtp_host, "smtp_port": smtp_port, "smtp_from": smtp_from,
            "smtp_user": smtp_user, "smtp_password": smtp_password,
            "smtp_starttls": smtp_starttls}
    overrides.update({k: v for k, v in smtp.items() if v is not None})
    if trusted_proxies is not None:
        overrides["trusted_proxies"] = tuple(trusted_proxies.replace(",", " ").split())
    if log_format is not None:
        overrides["log_format"] = log_format
    if metrics_address is not None:
        overrides["metrics_address"] = metrics_address
    if bot_workers is not None:
        overrides["bot_workers"] = bot_workers
    try:
        run(Settings.from_env(**overrides))
    except (ServeError, ValueError) as exc:  # ValueError: a STANDOFF_* value that is no value
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


@cli.command()
@click.option("--database-url", envvar="STANDOFF_DATABASE_URL", default=None,
              help="The judge's database (env STANDOFF_DATABASE_URL): the same as its "
                   "servers'. Default: sqlite:///standoff.db.")
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Bot workers in this process (each with its own bot process).")
@click.option("--log-format", default=None, type=click.Choice(["text", "json"]),
              help="text (default) or json (env STANDOFF_LOG_FORMAT).")
def worker(database_url: str | None, threads: int, log_format: str | None) -> None:
    """Give the bots' orders for a judge (the 'judge' extra), beside its servers.

    Takes bot jobs from the judge's database with row locks, so any number of
    workers, here or on other machines sharing a PostgreSQL database, share the
    work and each seat's orders are given once per phase. Stops on SIGTERM or
    Ctrl-C after finishing the jobs in hand.
    """
    with _judge_extra("the worker"):
        from standoff.judge.serve import ServeError, run_worker
        from standoff.judge.settings import Settings
    overrides: dict[str, Any] = {"bot_workers": threads}
    if database_url:
        overrides["database_url"] = database_url
    if log_format is not None:
        overrides["log_format"] = log_format
    try:
        run_worker(Settings.from_env(**overrides))
    except (ServeError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
