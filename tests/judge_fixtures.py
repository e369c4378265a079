"""Fixtures and helpers shared by the judge's tests (``tests/test_judge_*.py``).

Every judge test runs twice, on SQLite and on PostgreSQL (the ``db_url``
fixture). PostgreSQL is a real server started once per test session
(``tests/pg.py``); each test gets a fresh database in it. If PostgreSQL cannot
be started the PostgreSQL half of the tests fails with the reason; set
``STANDOFF_TEST_PG=0`` to skip it on purpose.

``api`` is the app in-process (FastAPI's TestClient); ``ServerProcess`` starts
``standoff serve`` for real (uvicorn in a subprocess) for the reliability tests.
Both are driven through :class:`Api`, which knows the routes of the spec.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

#: settings that make the judge fast to test: a cheap password hash, a quick clock
FAST_ENV = {"STANDOFF_ARGON2_TIME_COST": "1", "STANDOFF_ARGON2_MEMORY_KIB": "1024",
            "STANDOFF_ARGON2_PARALLELISM": "1", "STANDOFF_POLL_INTERVAL": "0.1",
            # a test signs up many accounts from one address
            "STANDOFF_SIGNUP_MAX_PER_ADDRESS": "100000"}
PASSWORD = "correct horse"
_names = itertools.count(1)


# -- databases -------------------------------------------------------------------------

@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server for the session, or the reason there is none."""
    if os.environ.get("STANDOFF_TEST_PG", "1") == "0":
        yield None
        return
    from pg import PostgresServer, PostgresUnavailable

    try:
        server = PostgresServer().start()
    except PostgresUnavailable as exc:
        yield exc
        return
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh empty database: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'judge.db'}"
    server = request.getfixturevalue("postgres")
    if server is None:
        pytest.skip("PostgreSQL tests skipped on purpose: STANDOFF_TEST_PG=0")
    if isinstance(server, Exception):
        pytest.fail(f"PostgreSQL could not be started, so the PostgreSQL half of the judge's "
                    f"tests cannot run: {server}", pytrace=False)
    name: str = server.create_database()
    return str(server.url(name))


def settings_for(db_url: str, **changes: Any) -> Any:
    from standoff.judge.settings import Settings

    return Settings.from_env({**FAST_ENV, "STANDOFF_DATABASE_URL": db_url}, **changes)


@pytest.fixture
def api(db_url: str) -> Iterator[Api]:
    """The app in this process (TestClient), with its scheduler running."""
    with make_api(db_url) as made:
        yield made


@contextlib.contextmanager
def make_api(db_url: str, **changes: Any) -> Iterator[Api]:
    """An app in this process with its settings changed (``Settings`` fields)."""
    from fastapi.testclient import TestClient

    from standoff.judge import create_app

    app = create_app(settings_for(db_url, **changes))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Api(client)


def eliminate(db_url: str, game_id: int, power: str) -> None:
    """Take every unit and centre of ``power`` off the board of a game, in its stored
    state: a quick way to a power that is out of the game (the engine's view of a
    survivor is units or centres)."""
    from standoff.judge.db import Database
    from standoff.judge.models import GameRow

    db = Database(settings_for(db_url))
    try:
        with db.write() as s:
            game = s.get(GameRow, game_id)
            assert game is not None
            state = dict(game.state)
            position = dict(state["position"])
            position["units"] = {p: u for p, u in position["units"].items() if p != power}
            position["centres"] = {p: c for p, c in position["centres"].items() if p != power}
            game.state = {**state, "position": position}
    finally:
        db.dispose()


# -- driving the API -------------------------------------------------------------------

@dataclass
class Table:
    """A game and the tokens of its master and of each power's player."""

    id: int
    master: str
    players: dict[str, str] = field(default_factory=dict)


class Api:
    """The spec's routes over a TestClient or an httpx.Client."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def call(self, method: str, path: str, token: str | None = None, body: Any = None,
             expect: int | None = None, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if body is not None:
            kwargs["json"] = body
        response = self.client.request(method, "/api/v1" + path, headers=headers, **kwargs)
        if expect is not None:
            assert response.status_code == expect, (method, path, response.status_code,
                                                    response.text[:500])
        return response

    def json(self, method: str, path: str, token: str | None = None, body: Any = None,
             expect: int = 200) -> Any:
        return self.call(method, path, token, body, expect).json()

    def signup(self, name: str | None = None, email: str | None = None) -> str:
        """A new account (with ``email``, if given); its bearer token."""
        name = name or f"user{next(_names)}-{os.getpid()}"
        account = {"username": name, "password": PASSWORD}
        if email is not None:
            account["email"] = email
        self.call("POST", "/accounts", body=account, expect=201)
        return str(self.json("POST", "/tokens", body={"username": name, "password": PASSWORD},
                             expect=201)["token"])

    def new_game(self, token: str, **fields: Any) -> dict[str, Any]:
        body = {"variant": "standard", "name": "a game", **fields}
        game: dict[str, Any] = self.json("POST", "/games", token, body, expect=201)
        return game

    def full_game(self, variant: str = "standard", emails: bool = False,
                  **fields: Any) -> Table:
        """A game of ``variant`` with every power seated (so started); with ``emails``
        the master is master@example.org and each player <power>@example.org."""
        master = self.signup(email="master@example.org" if emails else None)
        game = self.new_game(master, variant=variant, **fields)
        table = Table(game["id"], master)
        for power in game["powers"]:
            token = self.signup(email=f"{power}@example.org" if emails else None)
            body: dict[str, Any] = {"power": power}
            if game.get("invite"):
                body["invite"] = game["invite"]
            self.call("POST", f"/games/{table.id}/seats", token, body, expect=201)
            table.players[power] = token
        return table

    def game(self, table: Table, token: str | None = None) -> dict[str, Any]:
        got: dict[str, Any] = self.json("GET", f"/games/{table.id}", token or table.master)
        return got

    def phases(self, table: Table) -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = self.json("GET", f"/games/{table.id}/phases", table.master)
        return got

    def wait_phase(self, table: Table, phase: str, timeout: float = 20) -> dict[str, Any]:
        """Poll until the game has left ``phase``; the game."""
        end = time.monotonic() + timeout
        while True:
            game = self.game(table)
            if game["phase"] != phase or game["status"] == "finished":
                return game
            if time.monotonic() > end:
                raise AssertionError(f"game {table.id} still in {phase} after {timeout}s")
            time.sleep(0.1)


def bot_orders(api: Api, table: Table, power: str, game: dict[str, Any],
               rng: random.Random) -> list[str]:
    """Random legal orders for ``power`` from ``/legal``, preferring moves; in an
    adjustment phase as many builds as allowed, or exactly the removals due."""
    legal: dict[str, list[str]] = api.json("GET", f"/games/{table.id}/legal",
                                           table.players[power])
    phase = game["phase"]
    if phase.endswith("A"):
        pos = game["position"]
        count = len(pos["centres"].get(power, [])) - len(pos["units"].get(power, []))
        sites = sorted(legal)
        rng.shuffle(sites)
        if count > 0:
            picks = []
            for site in sites[:count]:
                builds = [o for o in legal[site] if o != "WAIVE"]
                if builds:
                    picks.append(rng.choice(builds))
            return picks
        return [legal[site][0] for site in sites[:-count]]
    picks = []
    for _loc, options in sorted(legal.items()):
        moves = [o for o in options if " - " in o or " R " in o]
        picks.append(rng.choice(moves) if moves and rng.random() < 0.7 else rng.choice(options))
    return picks


def play_phase(api: Api, table: Table, rng: random.Random) -> dict[str, Any]:
    """Every power with something to do sends bot orders and says ready; the game
    after the phase is processed."""
    game = api.game(table)
    phase = game["phase"]
    for power in sorted(p for p, info in game["powers"].items() if info["to_order"]):
        orders = bot_orders(api, table, power, game, rng)
        api.call("PUT", f"/games/{table.id}/orders", table.players[power], {"orders": orders},
                 expect=200)
        api.call("POST", f"/games/{table.id}/ready", table.players[power], {"ready": True},
                 expect=200)
    return api.wait_phase(table, phase)


# -- real servers ----------------------------------------------------------------------

class ServerProcess:
    """``standoff serve`` in a subprocess on a free port (real uvicorn)."""

    def __init__(self, db_url: str | None, port: int | None = None, args: tuple[str, ...] = (),
                 cwd: Path | None = None, **env: str) -> None:
        from pg import free_port

        self.db_url = db_url
        self.args = args
        self.cwd = cwd
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, **FAST_ENV, **env}
        self.proc: subprocess.Popen[str] | None = None
        self.lines: list[str] = []
        self._reader: threading.Thread | None = None

    def start(self, timeout: float = 30) -> ServerProcess:
        database = ["--database-url", self.db_url] if self.db_url else []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "standoff", "serve", "--port", str(self.port), *database,
             *self.args],
            env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            cwd=self.cwd, start_new_session=True)  # its own process group: see kill()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        import httpx

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {''.join(self.lines)[-2000:]}")
            try:
                if httpx.get(self.url + "/api/v1/status", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not start: {''.join(self.lines)[-2000:]}")

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def wait_for_line(self, text: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            if time.monotonic() > end:
                raise AssertionError(f"no {text!r} in the server's output: "
                                     f"{''.join(self.lines)[-2000:]}")
            time.sleep(0.05)

    def client(self) -> Api:
        import httpx

        return Api(httpx.Client(base_url=self.url, timeout=60))

    def kill(self) -> None:
        """SIGKILL to the server and its workers (its process group): no shutdown, no
        rollback by the server, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def servers() -> Iterator[list[ServerProcess]]:
    """A list the test appends its ServerProcess objects to; all stopped at the end."""
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.kill()


# -- the app's own routes ----------------------------------------------------------------

#: what a route is never fuzzed with (a route of another part of the app, not an API)
SKIPPED = {"/docs", "/openapi.json"}
CREDENTIALS = ("/api/v1/account", "/api/v1/tokens", "/api/v1/session")


def app_routes(app: Any) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path, path parameters, query parameters) of every route of the app
    (the API's and the pages'), read from the app. Routes that change the caller's
    own credentials (password, tokens, session) come last, so they cannot log the
    other routes' callers out before their turn."""
    try:  # FastAPI 0.165 keeps included routers as such: walk them
        from fastapi.routing import iter_route_contexts

        contexts: list[Any] = list(iter_route_contexts(app.routes))
    except ImportError:  # pragma: no cover - older FastAPI: the routes are flat
        contexts = list(app.routes)
    found = []
    for route in contexts:
        path, methods = getattr(route, "path", None), getattr(route, "methods", None)
        if path is None or not methods or path in SKIPPED:
            continue
        names = re.findall(r"{(\w+)(?::\w+)?}", path)
        dependant = getattr(route, "dependant", None)
        query = sorted({p.alias for p in dependant.query_params}) if dependant else []
        for method in sorted(set(methods) - {"HEAD", "OPTIONS"}):
            found.append((method, path, names, query))
    return sorted(found, key=lambda r: r[1].startswith(CREDENTIALS))
