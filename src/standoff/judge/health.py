"""Readiness: can this process's database take a write, right now?

``/api/v1/status`` is *liveness*: the process answers, and it touches no
database, so a load balancer never restarts a judge because its database is
down (restarting would not help). ``/api/v1/ready`` is *readiness*: it upserts
this process's row of ``heartbeats`` and commits. A read would pass on a
database that is read-only, whose disk is full or whose PostgreSQL has stopped
accepting writes; a committed write proves the database takes orders.

The check is bounded in time (:data:`READY_TIMEOUT`), because a probe that hangs
is worse than one that fails: a load balancer waits on it, and SQLite's busy
timeout (a minute, for real writers) or a PostgreSQL that no longer answers
would hold it that long. Three bounds work together:

* the write itself gives up early: SQLite's busy timeout is lowered on the
  probe's connection, PostgreSQL's ``statement_timeout`` and ``lock_timeout``
  are set for its transaction;
* the probe runs on a daemon thread of its own and the answer waits for it at
  most :data:`READY_TIMEOUT` seconds, whatever the driver does (a connect to a
  host that does not answer);
* one probe at a time per process: while one is still stuck, others answer
  503 at once instead of piling up threads and connections.

Failures are logged when the state changes (ready to not ready and back), not
once per probe: a load balancer asks every few seconds.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import threading
import time
from concurrent.futures import Future
from datetime import timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import SQLAlchemyError

from .db import SQLITE_BUSY_MS, Database, utcnow
from .models import Base, Heartbeat

log = logging.getLogger("standoff.judge")

#: seconds a readiness probe may take before it answers 503
READY_TIMEOUT = 3.0
#: how long the write itself may wait for a lock (SQLite) or a statement (PostgreSQL)
WRITE_TIMEOUT_MS = 2000
#: heartbeats of processes silent this long are deleted (old workers, old deployments)
FORGET_AFTER = timedelta(days=7)


class NotReady(Exception):
    """The database did not take the probe's write (the message says why, in one line)."""


class Readiness:
    """The readiness probe of one process (one per app)."""

    def __init__(self, db: Database, timeout: float = READY_TIMEOUT) -> None:
        self.db = db
        self.timeout = timeout
        #: this process's row: host and pid, so each worker of each machine has one
        self.process = f"{socket.gethostname()}:{os.getpid()}"[:100]
        self._busy = threading.Lock()
        self._failing: str | None = None

    async def check(self) -> dict[str, Any]:
        """The probe's answer, or :class:`NotReady` within :attr:`timeout` seconds."""
        if not self._busy.acquire(blocking=False):
            raise self._failed("the previous readiness check has not finished: the database "
                               "is slow or does not answer")
        started = time.monotonic()
        future: Future[None] = Future()
        future.set_running_or_notify_cancel()  # so a timed-out wait cannot cancel it
        # a daemon thread of its own: a probe stuck in the driver never holds up the
        # server's thread pool, nor the process's exit
        threading.Thread(target=self._probe, args=(future,), daemon=True,
                         name="standoff-ready").start()
        try:
            await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except TimeoutError:
            raise self._failed(f"the database did not take a write within "
                               f"{self.timeout:g} s") from None
        except NotReady as exc:
            raise self._failed(str(exc)) from None
        if self._failing is not None:
            log.warning("ready again: the database takes writes")
            self._failing = None
        return {"ok": True, "database": self.db.dialect, "process": self.process,
                "ms": round((time.monotonic() - started) * 1000, 1)}

    def _failed(self, reason: str) -> NotReady:
        if self._failing is None:
            log.warning("not ready: %s", reason)
        self._failing = reason
        return NotReady(reason)

    def _probe(self, future: Future[None]) -> None:
        """Upsert this process's heartbeat and commit (on the probe's thread)."""
        failure: BaseException | None = None
        try:
            self._write()
        except SQLAlchemyError as exc:
            failure = NotReady(f"the database does not take writes: {_reason(exc)}")
        except BaseException as exc:  # anything else is the caller's to see, not lost here
            failure = exc
        # free for the next probe *before* answering: a caller that asks again as soon
        # as it has this answer must not find the probe still running
        self._busy.release()
        if failure is None:
            future.set_result(None)
        else:
            future.set_exception(failure)

    def _write(self) -> None:
        now = utcnow()
        table = Base.metadata.tables[Heartbeat.__tablename__]
        if self.db.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            upsert: Any = pg_insert(table)
        else:
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            upsert = sqlite_insert(table)
        upsert = upsert.values(process=self.process, at=now).on_conflict_do_update(
            index_elements=["process"], set_={"at": upsert.excluded.at})
        with self.db.engine.connect() as conn:
            sqlite = self.db.dialect == "sqlite"
            if sqlite:
                # lowered before BEGIN IMMEDIATE (the wait happens there), restored after
                _sqlite_busy(conn, WRITE_TIMEOUT_MS)
            try:
                conn = conn.execution_options(standoff_write=True)
                with conn.begin():
                    if not sqlite:
                        conn.exec_driver_sql(f"SET LOCAL statement_timeout = {WRITE_TIMEOUT_MS}")
                        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {WRITE_TIMEOUT_MS}")
                    conn.execute(upsert)
                    conn.execute(delete(table).where(table.c.at < now - FORGET_AFTER))
            finally:
                if sqlite:
                    try:
                        _sqlite_busy(conn, SQLITE_BUSY_MS)
                    except Exception:  # a broken connection: the pool must not keep it
                        conn.invalidate()


def _sqlite_busy(conn: Any, ms: int) -> None:
    """Set the busy timeout on the DBAPI connection itself (no SQLAlchemy transaction)."""
    raw = conn.connection.dbapi_connection
    raw.execute(f"PRAGMA busy_timeout={int(ms)}")


def _reason(exc: SQLAlchemyError) -> str:
    """The driver's first line (never the SQL or its parameters), at most 200 characters,
    without the quoted names and port numbers a connection error gives (the probe is
    anonymous: it says what is wrong, not where the database lives)."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    first = re.sub(r'\s*(?:at|on)?\s*(?:socket\s*)?"[^"]*"', "", first)
    first = re.sub(r",?\s*port \d+", "", first)
    return first[:200]
