"""Prometheus metrics (``standoff serve --metrics-address HOST:PORT``; off by default).

What is measured, and where:

* in every server process, as things happen: requests by method, route
  *template* (``/api/v1/games/{game_id}``, never a raw path: a bounded set of
  series) and status, and their latency (told by :class:`logs.RequestLog`);
  phases processed and games finished (listeners of the judge's events); mail
  queued, sent, failed and dropped (``mail.Mailer.observer``);
* at scrape time, from the database, one indexed query each and bounded in
  time (:class:`DatabaseGauges`): how late the most overdue game is, how many
  games are set aside, whether the database answered.

Where it is served: on an address of its own, by the ``standoff serve`` process
itself (a small threaded HTTP server of ``prometheus_client``), never on the
judge's port. So a proxy that forwards the judge's port cannot expose it
whatever its configuration, and a scrape never queues behind players' requests.

Several worker processes (``--workers N``): ``serve`` makes a temporary
directory of its own and sets ``PROMETHEUS_MULTIPROC_DIR`` to it before any
worker starts (prometheus_client reads it when first imported, which is why
this module imports prometheus_client only when metrics are on). Each process
writes its counts to files there, and the scrape adds them up across
processes; counters of a worker that died stay counted, as they should. One
process is the same design with one writer.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, func, select, text
from sqlalchemy.exc import SQLAlchemyError

from .db import utcnow
from .models import GameRow
from .settings import Settings, parse_address

if TYPE_CHECKING:
    from prometheus_client.registry import CollectorRegistry

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
#: request latency buckets, seconds: 5 ms to a minute (an upload may take seconds)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: methods counted by name; anything else a client invents is counted as OTHER
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: the longest a scrape-time database query may take
DB_TIMEOUT_SECONDS = 2.0


class Metrics:
    """The metrics one server process records (made by ``create_app`` when on)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        #: this object's own registry: several apps in one process (tests) do not
        #: collide; with PROMETHEUS_MULTIPROC_DIR set, values go to its files anyway
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter("standoff_http_requests", "HTTP requests answered, by "
                                "method, route template and status",
                                ["method", "route", "status"], registry=r)
        self.latency = Histogram("standoff_http_request_duration_seconds", "Time to answer "
                                 "a request, by method and route template",
                                 ["method", "route"], buckets=LATENCY_BUCKETS, registry=r)
        self.phases = Counter("standoff_phases_processed", "Phases processed (by deadline, "
                              "all ready or the master)", registry=r)
        self.finished = Counter("standoff_games_finished", "Games that ended", registry=r)
        self.mail_queue = Gauge("standoff_mail_queue", "Mails waiting to be sent or tried "
                                "again", registry=r, multiprocess_mode="livesum")
        self.mail = Counter("standoff_mail", "Mails by outcome: sent, failed (an attempt "
                            "that will be retried) and dropped (every attempt failed)",
                            ["outcome"], registry=r)
        for outcome in ("sent", "failed", "dropped"):
            self.mail.labels(outcome)  # present at 0 before the first mail

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """logs.RequestLog's observer."""
        method = method if method in METHODS else "OTHER"
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)

    def on_event(self, event: str, _game_id: int, _data: dict[str, Any]) -> None:
        """A listener of the judge's events (context.Judge.listeners)."""
        if event == "phase_processed":
            self.phases.inc()
        elif event == "game_finished":
            self.finished.inc()

    def on_mail(self, outcome: str, backlog: int) -> None:
        """mail.Mailer's observer: ``outcome`` is queued, sent, failed or dropped."""
        if outcome != "queued":
            self.mail.labels(outcome).inc()
        self.mail_queue.set(backlog)

    def process_exit(self) -> None:
        """This process is ending: its live gauges (the mail queue) leave the sum."""
        directory = os.environ.get(MULTIPROC_ENV)
        if directory:
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid(), directory)  # type: ignore[no-untyped-call]


class DatabaseGauges:
    """Gauges read from the database at each scrape (a prometheus_client collector).

    Its own small engine (one connection, two at most): scrapes neither take a
    connection the judge's requests wait for nor wait long for one themselves.
    PostgreSQL's statement_timeout and connect_timeout, SQLite's busy timeout
    (a WAL reader never waits for the writer anyway) bound each query.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._engine: Engine | None = None
        self._lock = threading.Lock()

    def engine(self) -> Engine:
        with self._lock:
            if self._engine is None:
                if self.settings.is_sqlite:
                    args: dict[str, Any] = {"timeout": DB_TIMEOUT_SECONDS,
                                            "check_same_thread": False}
                else:
                    args = {"connect_timeout": max(1, int(DB_TIMEOUT_SECONDS))}
                self._engine = create_engine(self.settings.database_url, pool_size=1,
                                             max_overflow=1, pool_timeout=DB_TIMEOUT_SECONDS,
                                             pool_pre_ping=True, hide_parameters=True,
                                             connect_args=args)
            return self._engine

    def read(self) -> tuple[float, int]:
        """(seconds the most overdue game is late, games set aside)."""
        now = utcnow()
        with self.engine().connect() as conn, conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text(f"SET LOCAL statement_timeout = "
                                  f"{int(DB_TIMEOUT_SECONDS * 1000)}"))
            # the oldest passed deadline of a game the scheduler should process: games
            # set aside wait for their master, paused ones have no running clock
            oldest: datetime | None = conn.execute(
                select(func.min(GameRow.deadline)).where(
                    GameRow.status == "active", GameRow.paused.is_(False),
                    GameRow.failed_turn.is_(None), GameRow.deadline <= now)).scalar()
            aside = conn.execute(select(func.count()).select_from(GameRow).where(
                GameRow.status == "active", GameRow.failed_turn.is_not(None))).scalar() or 0
        late = 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds())
        return late, int(aside)

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        started = time.perf_counter()
        try:
            late, aside = self.read()
            up = 1.0
        except SQLAlchemyError:
            up = 0.0
        yield GaugeMetricFamily("standoff_database_up", "1 if the database answered this "
                                "scrape's queries, else 0", value=up)
        yield GaugeMetricFamily("standoff_database_scrape_seconds", "Time the scrape's "
                                "database queries took", value=time.perf_counter() - started)
        if up:
            yield GaugeMetricFamily("standoff_processing_lag_seconds", "How long past its "
                                    "deadline the most overdue active game is (games set "
                                    "aside and paused games not counted); 0 when none is",
                                    value=late)
            yield GaugeMetricFamily("standoff_games_set_aside", "Active games set aside "
                                    "after a processing failure, waiting for their master",
                                    value=aside)

    def dispose(self) -> None:
        if self._engine is not None:
            self._engine.dispose()


def scrape_registry(settings: Settings) -> tuple[CollectorRegistry, DatabaseGauges]:
    """What the metrics address serves: every process's counts (from the
    multiprocess directory) and the database gauges."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    gauges = DatabaseGauges(settings)
    registry.register(gauges)
    return registry, gauges


class MetricsServer:
    """``/metrics`` on its own address, in the ``standoff serve`` process."""

    def __init__(self, settings: Settings) -> None:
        self.host, self.port = parse_address(settings.metrics_address)
        self.registry, self.gauges = scrape_registry(settings)
        self._server: Any = None

    def start(self) -> None:
        from prometheus_client import start_http_server

        self._server, _thread = start_http_server(self.port, self.host, self.registry)

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        self.gauges.dispose()
