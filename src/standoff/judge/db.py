"""The database: one engine per process, read and write transactions, migrations.

Two databases are supported, with one discipline for both:

* **PostgreSQL** (psycopg 3): several server processes, even on several
  machines, share it. A write to a game locks the game's row
  (``SELECT ... FOR UPDATE``), so submissions, readiness and processing of one
  game are serialised while different games proceed in parallel.
* **SQLite** (the embedded default): the file is opened in WAL mode (readers
  never wait for the writer) with a generous busy timeout, and write
  transactions start with ``BEGIN IMMEDIATE``: the writer takes SQLite's one
  write lock before it reads, so two processes can never both read the same
  game state and both act on it. (pysqlite's own deferred ``BEGIN`` would take
  the lock only at the first write, and a read-then-write race ends in
  ``database is locked`` instead of waiting.)

Migrations (Alembic, shipped in ``standoff/judge/migrations``) run in one
transaction holding the write lock (SQLite) or an advisory lock (PostgreSQL),
so servers started at the same moment on one database migrate it once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from .settings import Settings

#: PostgreSQL advisory lock key held while migrating ("standoff" in ASCII, roughly)
MIGRATION_LOCK = 0x7374616E646F6666 & 0x7FFFFFFFFFFFFFFF
#: milliseconds SQLite waits for another connection's write lock before giving up
SQLITE_BUSY_MS = 60_000


def utcnow() -> datetime:
    """Now, in UTC, to the microsecond: the one clock of the judge."""
    return datetime.now(UTC)


def make_engine(settings: Settings) -> Engine:
    """``hide_parameters``: an error's text (and so a logged traceback) shows a failed
    statement without its values, which may be a token's hash or a player's press."""
    url = settings.database_url
    if settings.is_sqlite:
        engine = create_engine(url, connect_args={"check_same_thread": False,
                                                  "timeout": SQLITE_BUSY_MS / 1000},
                               hide_parameters=True)
        _sqlite_discipline(engine, settings.sqlite_synchronous.upper())
        return engine
    return create_engine(url, pool_size=settings.pool_size, max_overflow=settings.pool_size * 2,
                         pool_pre_ping=True, hide_parameters=True)


def _sqlite_discipline(engine: Engine, synchronous: str) -> None:
    """WAL, foreign keys, a busy timeout, and BEGIN IMMEDIATE for writers (see above)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        # FULL (the default): a transaction is on disk when COMMIT returns, so an
        # answered order survives even a power cut, not only a killed process
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        immediate = conn.get_execution_options().get("standoff_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Database:
    """The engine and the two kinds of transaction every module uses."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: SQLite: the threads of this process take turns writing (see ``write``)
        self._writer: AbstractContextManager[object] = (
            threading.RLock() if settings.is_sqlite else nullcontext())

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only transaction: one consistent snapshot on both databases (WAL on
        SQLite; REPEATABLE READ on PostgreSQL, whose default would let each statement
        see a different moment)."""
        with self._sessions() as session, session.begin():
            if self.dialect == "postgresql":
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction: committed when the block ends, rolled back on an error.

        On SQLite it holds the database's write lock from its first statement;
        on PostgreSQL callers lock the rows they change (``lock_game``).

        On SQLite the threads of one process also queue for a lock of their own
        before ``BEGIN IMMEDIATE``: SQLite has one writer at a time anyway, and a
        writer that finds the database locked waits in its busy handler, which
        sleeps and retries (1, 2, 5, 10, ... 100 ms), so under load most of a
        write's time would be spent asleep after the lock was already free. The
        queue hands the lock on at once. (Processes still meet in SQLite's lock.)
        """
        with self._writer, self._sessions() as session, session.begin():
            session.connection(execution_options={"standoff_write": True})
            yield session

    def migrate(self) -> None:
        """Bring the schema to the newest migration (creating it in an empty database)."""
        migrate(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(connection: Connection | None = None) -> Any:
    """Alembic's configuration for the migrations shipped in this package."""
    from alembic.config import Config

    cfg = Config()
    location = resources.files("standoff.judge") / "migrations"
    cfg.set_main_option("script_location", str(location))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Run Alembic's upgrade to ``revision`` inside one locked transaction."""
    from alembic import command

    started = time.monotonic()
    while True:
        try:
            with engine.connect() as conn:
                conn = conn.execution_options(standoff_write=True)
                with conn.begin():
                    if engine.dialect.name == "postgresql":
                        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                     {"k": MIGRATION_LOCK})
                    command.upgrade(alembic_config(conn), revision)
            return
        except OperationalError:
            # a database that is still starting (PostgreSQL after a restart) gets a
            # few seconds; anything else is reported at once
            if time.monotonic() - started > 10 or engine.dialect.name != "postgresql":
                raise
            time.sleep(0.5)


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
