"""Backing up a judge's database while it runs, and restoring a backup into an empty one.

**The backup file is a SQLite database with the judge's schema** (and its
``alembic_version``), plus a small ``standoff_backup`` table saying when and from
what it was made. One format for both databases means a backup can be
restored into either (a SQLite judge that outgrew one machine moves to
PostgreSQL by a backup and a restore), it opens in any ``sqlite3`` shell for a
look, and it needs no PostgreSQL client tools of the same major version
(``pg_dump``'s archives do).

* **From SQLite** it is made with SQLite's online backup API
  (``sqlite3.Connection.backup``), in one step: the copy holds one read
  transaction, so it is one consistent moment of the database, and in WAL mode
  the judge's writers go on meanwhile.
* **From PostgreSQL** the rows are copied table by table inside one
  ``REPEATABLE READ READ ONLY`` transaction (one snapshot for every table, as
  ``pg_dump`` does it; nobody waits for it) into a fresh SQLite file migrated by
  the judge's own migrations, through the models' tables (SQLAlchemy Core), so
  JSON and datetime columns come back as they went in.

Either way the file is written under a temporary name beside the final one,
checked (``PRAGMA quick_check``), flushed to disk and only then renamed: a
crash leaves the previous backup under the final name, never half of a new one.

**Restore** reads such a file (or a judge's own SQLite database), and refuses,
in one sentence and before writing anything, what it cannot restore: not a
SQLite file, a SQLite file without the judge's schema, a damaged one, one from
a newer standoff, or a target database that already holds data. A backup from
an older standoff is migrated forward (on a private copy) first. The target is
migrated to the newest schema, then every table is copied in foreign-key order
in one transaction (on PostgreSQL with the tables locked, so nobody sees half a
judge), and PostgreSQL's id sequences are moved past the largest id restored.
Accounts come back with their password hashes and token hashes, so players log
in with the same passwords and bots keep their bearer tokens.

``heartbeats`` (the readiness probe's rows, one per server process) are
neither kept nor restored: they describe processes, not the judge.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Table, create_engine, func, insert, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from standoff import __version__

from .db import current_revision, make_engine, migrate, utcnow
from .models import Base
from .settings import Settings, normalise_database_url

#: the table a backup describes itself in (not part of the judge's schema)
MARKER = "standoff_backup"
#: the backup file's own format: raised if its layout ever changes
FORMAT = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
#: tables that describe server processes rather than the judge: not backed up
TRANSIENT = frozenset({"heartbeats"})
#: rows per INSERT batch while copying
BATCH = 1000
#: tables an operator recognises, for the summary line
SUMMARY_TABLES = ("users", "tokens", "games", "seats", "pending_orders", "phases", "messages")


class BackupError(Exception):
    """A backup or restore that cannot be done (the message is one sentence)."""


@dataclass
class Summary:
    """What a backup holds (or a restore brought back)."""

    path: Path
    source: str
    revision: str
    made_at: str
    rows: dict[str, int] = field(default_factory=dict)
    size: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        counts = ", ".join(f"{self.rows.get(t, 0)} {t}" for t in SUMMARY_TABLES)
        return (f"{counts} (schema {self.revision}, made {self.made_at} from "
                f"{self.source}; {self.size / 1024:.0f} KiB)")


def tables() -> list[Table]:
    """The judge's tables in foreign-key order (parents before children)."""
    return [t for t in Base.metadata.sorted_tables if t.name not in TRANSIENT]


def known_revisions() -> list[str]:
    """Every schema revision this standoff's migrations know, oldest first."""
    from alembic.script import ScriptDirectory

    from .db import alembic_config

    script = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


def describe(url: str) -> str:
    """A database for messages: a SQLite file's path, or the URL without its password."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return "(an unreadable database URL)"
    if parsed.get_backend_name() == "sqlite":
        return f"SQLite {Path(parsed.database or '').resolve()}"
    return parsed.render_as_string(hide_password=True)


# -- backup ----------------------------------------------------------------------------

def backup(database_url: str, dest: Path | str) -> Summary:
    """Write a backup of the judge's database at ``database_url`` to ``dest``
    (replacing it atomically if it exists)."""
    started = time.monotonic()
    url = normalise_database_url(database_url)
    dest = Path(dest)
    if dest.is_dir():
        raise BackupError(f"{dest} is a directory: give the backup file's name")
    if not dest.parent.is_dir():
        raise BackupError(f"no directory {dest.parent} to write the backup in")
    partial = dest.parent / f".{dest.name}.partial-{os.getpid()}"
    try:
        with _errors(f"cannot back up {describe(url)}"):
            _remove(partial)
            source = _backend(url)
            # readable by its owner alone: it holds e-mail addresses and password hashes
            os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            if source == "sqlite":
                _copy_sqlite_file(_sqlite_path(url, must_exist=True), partial, read_only=False)
            else:
                _copy_postgres(url, partial)
            summary = _seal(partial, source)
            _fsync(partial)
            os.replace(partial, dest)
            _fsync(dest.parent)
    finally:
        _remove(partial)
    summary.path = dest
    summary.size = dest.stat().st_size
    summary.seconds = time.monotonic() - started
    return summary


def _copy_sqlite_file(src: Path, dst: Path, read_only: bool) -> None:
    """SQLite's online backup API, in one step: one consistent moment of ``src``."""
    mode = "ro" if read_only else "rw"
    source = sqlite3.connect(f"{src.resolve().as_uri()}?mode={mode}", uri=True, timeout=60)
    try:
        target = sqlite3.connect(dst)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _copy_postgres(url: str, dst: Path) -> None:
    """Every table of a PostgreSQL judge, from one snapshot, into a fresh SQLite file."""
    source = create_engine(url, poolclass=NullPool)
    target = _sqlite_engine(dst)
    try:
        head = known_revisions()[-1]
        revision = current_revision(source)
        if revision is None:
            raise BackupError(f"{describe(url)} holds no judge (no schema): nothing to back up")
        if revision != head:
            raise BackupError(
                f"{describe(url)} is at schema {revision} and this standoff's is {head}: back "
                f"it up with the standoff that serves it (or start this one on it, which "
                f"migrates it)")
        migrate(target)
        with source.connect() as sconn:
            sconn = sconn.execution_options(isolation_level="REPEATABLE READ",
                                            postgresql_readonly=True)
            with sconn.begin(), target.connect() as tconn, tconn.begin():
                for table in tables():
                    _copy_table(sconn, tconn, table)
    finally:
        source.dispose()
        target.dispose()


def _copy_table(sconn: Any, tconn: Any, table: Table) -> int:
    """Copy one table's rows in primary-key order, a batch at a time."""
    query = select(table).order_by(*table.primary_key.columns)
    result = sconn.execution_options(yield_per=BATCH).execute(query)
    copied = 0
    for part in result.partitions():
        rows = [dict(row._mapping) for row in part]
        tconn.execute(insert(table), rows)
        copied += len(rows)
    return copied


def _seal(path: Path, source: str) -> Summary:
    """Make the copy a self-contained backup: no WAL, no heartbeats, the marker table,
    checked. The summary of what it holds."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
        names = _table_names(con)
        if "alembic_version" not in names:
            raise BackupError("the database holds no judge (no schema): nothing to back up")
        revision = str(con.execute("SELECT version_num FROM alembic_version").fetchone()[0])
        made_at = utcnow().replace(microsecond=0).isoformat().replace("+00:00", "Z")
        con.execute("BEGIN")
        for name in TRANSIENT & names:
            con.execute(f'DELETE FROM "{name}"')
        con.execute(f'DROP TABLE IF EXISTS "{MARKER}"')
        con.execute(f'CREATE TABLE "{MARKER}" (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
        con.executemany(f'INSERT INTO "{MARKER}" VALUES (?, ?)', [
            ("format", str(FORMAT)), ("made_at", made_at), ("source", source),
            ("revision", revision), ("standoff", __version__)])
        con.execute("COMMIT")
        _quick_check(con, "the backup just written")
        rows = {n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0])
                for n in SUMMARY_TABLES if n in names}
    finally:
        con.close()
    return Summary(path, source, revision, made_at, rows)


# -- restore ---------------------------------------------------------------------------

def restore(src: Path | str, database_url: str) -> Summary:
    """Restore the backup ``src`` into the empty database at ``database_url``."""
    started = time.monotonic()
    src = Path(src)
    url = normalise_database_url(database_url)
    _check_header(src)
    with tempfile.TemporaryDirectory(prefix="standoff-restore-") as work:
        copy = Path(work) / "backup.db"
        with _errors(f"cannot read {src}"):
            try:
                _copy_sqlite_file(src, copy, read_only=True)
            except sqlite3.DatabaseError as exc:
                raise BackupError(f"{src} is damaged or not a SQLite database: {exc}") from None
        summary = _inspect_backup(src, copy)
        with _errors(f"cannot restore into {describe(url)}"):
            source = _sqlite_engine(copy)
            target = _target_engine(url)
            try:
                if summary.revision != known_revisions()[-1]:
                    migrate(source)  # an older backup: its private copy moves forward first
                _check_target(target, url)
                migrate(target)
                summary.rows = _copy_into(source, target, url)
            finally:
                source.dispose()
                target.dispose()
    summary.size = src.stat().st_size
    summary.seconds = time.monotonic() - started
    return summary


def _check_header(src: Path) -> None:
    try:
        with src.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError(f"no backup file {src}") from None
    except IsADirectoryError:
        raise BackupError(f"{src} is a directory, not a backup file") from None
    except OSError as exc:
        raise BackupError(f"cannot read {src}: {exc.strerror or exc}") from None
    if head != SQLITE_MAGIC:
        raise BackupError(f"{src} is not a standoff backup: it is not a SQLite database "
                          f"(a backup is one, written by 'standoff backup')")


def _inspect_backup(src: Path, copy: Path) -> Summary:
    """What the backup is, or why it cannot be restored."""
    try:
        con = sqlite3.connect(copy, isolation_level=None)
        try:
            _quick_check(con, str(src))
            names = _table_names(con)
            if "alembic_version" not in names or "games" not in names:
                raise BackupError(f"{src} is a SQLite database but not a standoff backup "
                                  f"(it holds no judge's tables)")
            found = con.execute("SELECT version_num FROM alembic_version").fetchone()
            info = (dict(con.execute(f'SELECT key, value FROM "{MARKER}"').fetchall())
                    if MARKER in names else {})
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{src} is damaged or not a SQLite database: {exc}") from None
    known = known_revisions()
    revision = str(found[0]) if found else ""
    if revision not in known:
        raise BackupError(f"{src} was made by a newer standoff (schema {revision or 'unknown'}; "
                          f"this one knows up to {known[-1]}): upgrade standoff to restore it")
    if int(info.get("format", FORMAT)) > FORMAT:
        raise BackupError(f"{src} is a backup of a newer format ({info['format']}): upgrade "
                          f"standoff to restore it")
    return Summary(src, info.get("source", "a judge's SQLite file"), revision,
                   info.get("made_at", "at an unknown time"))


def _target_engine(url: str) -> Engine:
    if _backend(url) == "sqlite":
        path = _sqlite_path(url, must_exist=False)
        if not path.parent.is_dir():
            raise BackupError(f"no directory {path.parent} for the database {path.name}")
    return make_engine(Settings(database_url=url))


def _check_target(target: Engine, url: str) -> None:
    """Refuse a target that holds data or a newer schema (before anything is written)."""
    revision = current_revision(target)
    if revision is not None and revision not in known_revisions():
        raise BackupError(f"{describe(url)} is at schema {revision}, newer than this "
                          f"standoff's: restore with the standoff that serves it")
    with target.connect() as conn:
        held = _rows_held(conn)
    if held:
        raise BackupError(f"{describe(url)} already holds data ({held}): restore only into an "
                          f"empty database; nothing was written")


def _rows_held(conn: Any) -> str:
    """'' for an empty judge, else a few of its counts ('3 users, 1 games')."""
    present = set(inspect(conn).get_table_names())
    held = []
    for table in tables():
        if table.name in present:
            count = conn.execute(select(func.count()).select_from(table)).scalar_one()
            if count:
                held.append(f"{count} {table.name}")
    return ", ".join(held[:4])


def _copy_into(source: Engine, target: Engine, url: str) -> dict[str, int]:
    """Every table, in foreign-key order, in one transaction of the target."""
    copied: dict[str, int] = {}
    with source.connect() as sconn, sconn.begin(), target.connect() as tconn:
        tconn = tconn.execution_options(standoff_write=True)  # SQLite: BEGIN IMMEDIATE
        with tconn.begin():
            postgres = target.dialect.name == "postgresql"
            if postgres:
                names = ", ".join(f'"{t.name}"' for t in tables())
                tconn.execute(text(f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE"))
            held = _rows_held(tconn)
            if held:  # someone wrote between the check and now
                raise BackupError(f"{describe(url)} already holds data ({held}): restore only "
                                  f"into an empty database; nothing was written")
            for table in tables():
                copied[table.name] = _copy_table(sconn, tconn, table)
            if postgres:
                _reset_sequences(tconn)
    return copied


def _reset_sequences(conn: Any) -> None:
    """Each serial id's sequence past the largest id restored (the next insert would
    otherwise collide with a restored row)."""
    for table in tables():
        pk = list(table.primary_key.columns)
        if len(pk) != 1 or pk[0].name != "id":
            continue
        conn.execute(text(
            f"SELECT setval(pg_get_serial_sequence(:t, 'id'), "
            f"COALESCE((SELECT MAX(id) FROM \"{table.name}\"), 0) + 1, false)"),
            {"t": table.name})


# -- helpers ---------------------------------------------------------------------------

def _backend(url: str) -> str:
    try:
        name = make_url(url).get_backend_name()
    except ArgumentError:
        raise BackupError(f"{url!r} is not a database URL (sqlite:///FILE or "
                          f"postgresql://user:password@host/db)") from None
    if name not in ("sqlite", "postgresql"):
        raise BackupError(f"the judge runs on SQLite or PostgreSQL, not {name}")
    return name


def _sqlite_path(url: str, must_exist: bool) -> Path:
    database = make_url(url).database or ""
    if database in ("", ":memory:") or database.startswith("file:"):
        raise BackupError(f"{url!r} names no SQLite file")
    path = Path(database)
    if must_exist and not path.is_file():
        raise BackupError(f"no SQLite database at {path.resolve()}")
    return path


def _sqlite_engine(path: Path) -> Engine:
    """The judge's own engine on a SQLite file (its BEGIN discipline, which the
    migrations rely on)."""
    return make_engine(Settings(database_url=f"sqlite:///{path}"))


def _table_names(con: sqlite3.Connection) -> set[str]:
    return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _quick_check(con: sqlite3.Connection, what: str) -> None:
    found = [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
    if found != ["ok"]:
        raise BackupError(f"{what} is damaged: {found[0] if found else 'no answer'}")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


@contextlib.contextmanager
def _errors(what: str) -> Iterator[None]:
    """A database's or the file system's error as one BackupError sentence."""
    try:
        yield
    except BackupError:
        raise
    except SQLAlchemyError as exc:
        raise BackupError(f"{what}: {_first_line(getattr(exc, 'orig', None) or exc)}") from None
    except sqlite3.Error as exc:
        raise BackupError(f"{what}: {_first_line(exc)}") from None
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        raise BackupError(f"{what}: {exc.strerror or exc}{where}") from None


def _first_line(exc: object) -> str:
    text_ = str(exc).strip()
    return text_.splitlines()[0][:300] if text_ else type(exc).__name__

