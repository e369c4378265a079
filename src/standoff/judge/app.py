"""The app factory: ``create_app(settings)`` assembles the judge.

On start (the ASGI lifespan) the app migrates its database to the newest
schema (idempotent, and locked, so any number of processes may do it at once)
and starts its scheduler thread; on shutdown it stops the scheduler, letting a
phase being processed finish, and closes the database.

Routes live in ``routes/``, one module per resource (accounts, games, master,
lobby, orders, history, press, votes). With SMTP settings the app also runs a
mail thread (``mail.Mailer``), listening to the judge's events.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from standoff import __version__

from .context import Judge
from .db import Database
from .docs import install_docs
from .errors import ApiError, BodyLimit, ErrorBody, install_error_handlers
from .headers import install_headers
from .health import NotReady, Readiness
from .logs import RequestLog
from .mail import Mailer
from .metrics import Metrics
from .routes import ROUTERS
from .scheduler import Scheduler
from .settings import Settings
from .web import install_pages
from .worker import BotWorker

DESCRIPTION = """The standoff judge: Diplomacy games of every bundled variant, played
through this API by people (the web pages), bots and scripts.

Authenticate with `Authorization: Bearer <token>` (`POST /api/v1/tokens`) or the
pages' session cookie (`POST /api/v1/session`; changes then need `X-CSRF-Token`).
Every error is `{"error": CODE, "detail": "one sentence"}`."""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    db = Database(settings)
    judge = Judge(settings, db)
    scheduler = Scheduler(judge)
    judge.wake = scheduler.wake
    workers = BotWorker(judge, settings.bot_workers) if settings.scheduler else None
    if workers is not None:
        judge.listeners.append(workers.on_event)
    mailer = Mailer(judge) if settings.mail_enabled else None
    if mailer is not None:
        judge.listeners.append(mailer.on_event)
    # counted here, served by `standoff serve` on their own address (metrics.py)
    metrics = Metrics() if settings.metrics_address else None
    if metrics is not None:
        judge.listeners.append(metrics.on_event)
        if mailer is not None:
            mailer.observer = metrics.on_mail

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(db.migrate)
        if settings.scheduler:
            scheduler.start()
        if workers is not None:
            workers.start()
        if mailer is not None:
            mailer.start()
        try:
            yield
        finally:
            await run_in_threadpool(scheduler.stop)
            if workers is not None:
                await run_in_threadpool(workers.stop)
            if mailer is not None:
                await run_in_threadpool(mailer.stop)
            if metrics is not None:
                metrics.process_exit()
            db.dispose()

    app = FastAPI(title="standoff judge", version=__version__, description=DESCRIPTION,
                  docs_url=None, redoc_url=None, lifespan=lifespan)
    app.state.judge = judge
    app.state.scheduler = scheduler
    app.state.bot_worker = workers
    app.state.mailer = mailer
    install_error_handlers(app)
    install_docs(app)
    for router in ROUTERS:
        app.include_router(router)
    install_pages(app)

    @app.get("/", include_in_schema=False, response_model=None)
    def root(request: Request) -> dict[str, Any] | RedirectResponse:
        # a browser opening the printed address gets the pages; clients the JSON
        if "text/html" in request.headers.get("accept", ""):
            return RedirectResponse("/lobby", status_code=303)
        return {"name": "standoff judge", "version": __version__, "api": "/api/v1",
                "docs": "/docs", "openapi": "/openapi.json"}

    @app.get("/api/v1/status", tags=["server"])
    def status() -> dict[str, Any]:
        """Liveness: the process answers (its version and database kind). It touches no
        database: see ``/api/v1/ready`` for that."""
        return {"ok": True, "version": __version__, "database": db.dialect}

    readiness = Readiness(db)

    @app.get("/api/v1/ready", tags=["server"],
             responses={503: {"model": ErrorBody, "description": "the database takes no writes"}})
    async def ready() -> dict[str, Any]:
        """Readiness: this process's database took a write just now (``health.py``);
        503 ``unavailable`` within a few seconds when it does not."""
        try:
            return await readiness.check()
        except NotReady as exc:
            raise ApiError(503, str(exc)) from None

    # a new game may carry a designer's variant file: a larger body there only
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes,
                       larger={("POST", "/api/v1/games"): settings.max_variant_bytes})
    install_headers(app)  # security headers on every answer (headers.py)
    # one log line per request, the request id, and the one 500 (logs.py): added last,
    # so outermost, it sees every answer
    app.add_middleware(RequestLog, observe=metrics.observe_request if metrics else None,
                       trusted_proxies=settings.trusted_proxies)
    return app
