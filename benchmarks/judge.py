"""Load on the web judge: order submissions under concurrency, and a thousand deadlines.

Both parts run a real ``standoff serve`` (uvicorn, in a subprocess of this one) and
talk to it over HTTP from this process (asyncio + httpx), on the same machine:

* ``orders``: 500 simulated players seated in 100 Standard games (700 seats: 200
  players sit in two games) each submit their orders again and again, all players
  at once, each waiting a random think time between submissions; prints the p50,
  p90, p99 and max latency of ``PUT /orders`` as the client sees it, the rate, and
  every error. ``--think`` sets the mean pause (so the offered rate); ``--burst``
  drops the pauses: every player submits as fast as the server answers (the
  saturation case); ``--burst --rounds 1``: all 700 seats submit at the same moment,
  once. SQLite, ``STANDOFF_SQLITE_SYNCHRONOUS`` as given (FULL, the
  default: an answered order is on disk).
* ``deadlines``: 1,000 Standard games, each with every power's orders in, reach
  their deadline within the same minute (each game is paused as it starts and all
  are resumed together, so their deadlines fall ``--deadline`` seconds later,
  within the time the resuming takes); prints how long after the first deadline
  the last game was processed, and the lag after the last deadline. On SQLite and
  on PostgreSQL (a throwaway server started with ``tests/pg.py``'s helper).

Setting up (accounts, games, seats, orders) is not measured. Accounts use a cheap
password hash (``STANDOFF_ARGON2_*``) so the setup is quick; it changes nothing in
what is measured.

    .venv/bin/python benchmarks/judge.py orders [--players 500 --games 100 --seconds 60]
    .venv/bin/python benchmarks/judge.py deadlines [--games 1000 --database both]
    .venv/bin/python benchmarks/judge.py all
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import itertools
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

import standoff

HERE = Path(__file__).resolve().parent
FAST_HASH = {"STANDOFF_ARGON2_TIME_COST": "1", "STANDOFF_ARGON2_MEMORY_KIB": "1024",
             "STANDOFF_ARGON2_PARALLELISM": "1",
             # one benchmark client plays every seat from one address and one master
             # account makes hundreds of games: the per-account and per-address limits
             # that guard a public judge are lifted (0: no limit)
             "STANDOFF_SIGNUP_MAX_PER_ADDRESS": "1000000", "STANDOFF_FORMING_GAMES_MAX": "0",
             "STANDOFF_GAMES_PER_HOUR": "0"}
PASSWORD = "correct horse"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``standoff serve`` in a subprocess, its output in a log file."""

    def __init__(self, database_url: str, workdir: Path, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"server-{self.port}.log"
        self.env = {**os.environ, **FAST_HASH, **env}
        self.args = [sys.executable, "-m", "standoff", "serve", "--port", str(self.port),
                     "--database-url", database_url]
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(self.args, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/v1/status", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"the server did not start: {self.log.read_text()[-2000:]}")

    def __exit__(self, *_exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)

    def cpu_seconds(self) -> float:
        """CPU time the server process has used so far (Linux; 0 elsewhere)."""
        try:
            fields = Path(f"/proc/{self.proc.pid if self.proc else 0}/stat").read_text().split()
        except OSError:
            return 0.0
        return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

    def errors(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines()
                if "ERROR" in line or "Traceback" in line]


class Client:
    """The API over one shared connection pool; counts every unexpected answer."""

    def __init__(self, url: str, connections: int = 100) -> None:
        # idle connections are dropped before uvicorn's 5 s keep-alive ends, so a request
        # never races the server closing its connection
        limits = httpx.Limits(max_connections=connections,
                              max_keepalive_connections=connections, keepalive_expiry=3)
        self.http = httpx.AsyncClient(base_url=url + "/api/v1", timeout=120, limits=limits)
        self.errors: list[str] = []

    async def call(self, method: str, path: str, token: str | None = None,
                   body: Any = None, expect: int = 200) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            r = await self.http.request(method, path, headers=headers, json=body)
        except httpx.HTTPError as exc:
            self.errors.append(f"{method} {path}: {type(exc).__name__} {exc}")
            return None
        if r.status_code != expect:
            self.errors.append(f"{method} {path}: {r.status_code} {r.text[:200]}")
            return None
        return r.json() if r.content else None

    async def account(self, name: str) -> str:
        await self.call("POST", "/accounts", body={"username": name, "password": PASSWORD},
                        expect=201)
        got = await self.call("POST", "/tokens", body={"username": name, "password": PASSWORD},
                              expect=201)
        return str(got["token"])


async def gather(jobs: list[Callable[[], Awaitable[Any]]], parallel: int = 16) -> list[Any]:
    """Run the jobs with at most ``parallel`` at a time (setting up, not measured)."""
    gate = asyncio.Semaphore(parallel)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await job()

    return await asyncio.gather(*(one(j) for j in jobs))


POWERS = ["austria", "england", "france", "germany", "italy", "russia", "turkey"]


async def make_games(c: Client, games: int, players: list[str], master: str,
                     deadline: int, pause: bool = False) -> list[dict[str, str]]:
    """``games`` Standard games, every power seated (power i of game g by player
    (7g + i) mod len(players)); each game's {power: token}."""
    seating: list[dict[str, str]] = []

    async def one(g: int) -> None:
        game = await c.call("POST", "/games", master, {
            "variant": "standard", "name": f"bench {g}",
            "deadlines": {"movement": deadline, "retreat": deadline, "adjustment": deadline}},
            expect=201)
        seats = {}
        for i, power in enumerate(POWERS):
            token = players[(7 * g + i) % len(players)]
            await c.call("POST", f"/games/{game['id']}/seats", token, {"power": power},
                         expect=201)
            seats[power] = token
        if pause:
            await c.call("POST", f"/games/{game['id']}/master/pause", master)
        seats["id"] = str(game["id"])
        seating.append(seats)

    await gather([lambda g=g: one(g) for g in range(games)])  # type: ignore[misc]
    return sorted(seating, key=lambda s: int(s["id"]))


async def legal_sets(c: Client, seating: list[dict[str, str]]
                     ) -> dict[tuple[str, str], dict[str, list[str]]]:
    """Every seat's legal orders (to pick submissions from)."""
    found: dict[tuple[str, str], dict[str, list[str]]] = {}

    async def one(gid: str, power: str, token: str) -> None:
        found[gid, power] = await c.call("GET", f"/games/{gid}/legal", token)

    await gather([lambda s=s, p=p: one(s["id"], p, s[p])  # type: ignore[misc]
                  for s in seating for p in POWERS])
    return found


def pick(legal: dict[str, list[str]], rng: random.Random) -> list[str]:
    return [rng.choice(options) for options in legal.values()]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- (a) order submission -----------------------------------------------------------------

async def orders_load(server: Server, players: int, games: int, seconds: float, think: float,
                      burst: bool, rounds: int, seed: int) -> dict[str, Any]:
    url = server.url
    c = Client(url, connections=players + 10)
    rng = random.Random(seed)
    tokens = await gather([lambda n=n: c.account(f"p{n}-{seed}")  # type: ignore[misc]
                           for n in range(players)])
    master = await c.account(f"master-{seed}")
    seating = await make_games(c, games, tokens, master, deadline=7 * 24 * 3600)
    legal = await legal_sets(c, seating)
    setup_errors = list(c.errors)
    c.errors.clear()
    seats_of: dict[str, list[tuple[str, str]]] = {t: [] for t in tokens}
    for s in seating:
        for p in POWERS:
            seats_of[s[p]].append((s["id"], p))
    latencies: list[float] = []
    end = time.monotonic() + seconds

    async def player(token: str, prng: random.Random) -> None:
        mine = seats_of[token]
        for _ in range(rounds) if rounds else itertools.count():
            if time.monotonic() >= end:
                return
            for gid, power in mine:
                if not burst:
                    await asyncio.sleep(prng.uniform(0, 2 * think))
                if time.monotonic() >= end:
                    return
                body = {"orders": pick(legal[gid, power], prng)}
                t0 = time.perf_counter()
                await c.call("PUT", f"/games/{gid}/orders", token, body)
                latencies.append(time.perf_counter() - t0)

    started, cpu, own = time.monotonic(), server.cpu_seconds(), time.process_time()
    await asyncio.gather(*(player(t, random.Random(rng.random())) for t in tokens))
    took = time.monotonic() - started
    cpu, own = server.cpu_seconds() - cpu, time.process_time() - own
    await c.http.aclose()
    return {"latencies": latencies, "errors": c.errors, "setup_errors": setup_errors,
            "seconds": took, "seats": sum(len(v) for v in seats_of.values()),
            "server_cpu": cpu, "client_cpu": own}


def run_orders(args: argparse.Namespace, workdir: Path) -> None:
    db = workdir / "orders.db"
    with Server(f"sqlite:///{db}", workdir,
                STANDOFF_SQLITE_SYNCHRONOUS=args.synchronous) as server:
        got = asyncio.run(orders_load(server, args.players, args.games, args.seconds,
                                      args.think, args.burst, args.rounds, args.seed))
        logged = server.errors()
    lat = [x * 1000 for x in got["latencies"]]
    mode = "burst (no pauses)" if args.burst else f"think {args.think:g} s mean"
    if args.rounds:
        mode += f", {args.rounds} round(s) per seat"
    print(f"orders: {args.players} players, {args.games} Standard games ({got['seats']} seats),"
          f" SQLite synchronous={args.synchronous}, {mode}, {got['seconds']:.0f} s")
    if lat:
        print(f"  {len(lat)} submissions, {len(lat) / got['seconds']:.0f}/s; latency ms: "
              f"p50 {statistics.median(lat):.1f}, p90 {percentile(lat, 0.90):.1f}, "
              f"p99 {percentile(lat, 0.99):.1f}, max {max(lat):.1f}")
        print(f"  CPU per submission: server {got['server_cpu'] / len(lat) * 1000:.1f} ms, "
              f"these clients {got['client_cpu'] / len(lat) * 1000:.1f} ms; load average "
              f"{os.getloadavg()[0]:.1f} (other work on the machine shows here)")
    print(f"  errors: {len(got['errors'])}" + "".join(f"\n    {e}" for e in got["errors"][:10]))
    print(f"  setup errors: {len(got['setup_errors'])}; server log errors: {len(logged)}")


# -- (b) a thousand deadlines ---------------------------------------------------------------

async def deadlines_load(url: str, database_url: str, games: int, deadline: int,
                         orders: bool, seed: int) -> dict[str, Any]:
    from sqlalchemy import create_engine, func, select

    from standoff.judge.models import GameRow as Game
    from standoff.judge.settings import normalise_database_url

    c = Client(url, connections=32)
    rng = random.Random(seed)
    tokens = await gather([lambda n=n: c.account(f"d{n}-{seed}")  # type: ignore[misc]
                           for n in range(7)])
    master = await c.account(f"dmaster-{seed}")
    seating = await make_games(c, games, tokens, master, deadline=deadline, pause=True)
    if orders:
        legal = await legal_sets(c, seating)
        await gather([lambda s=s, p=p: c.call(  # type: ignore[misc]
            "PUT", f"/games/{s['id']}/orders", s[p], {"orders": pick(legal[s["id"], p], rng)})
            for s in seating for p in POWERS])
    setup_errors = list(c.errors)
    c.errors.clear()
    resumed = time.monotonic()
    await gather([lambda s=s: c.call("POST", f"/games/{s['id']}/master/resume",  # type: ignore[misc]
                                     master) for s in seating], parallel=32)
    resuming = time.monotonic() - resumed
    first_due = resumed + deadline
    last_due = resumed + resuming + deadline
    engine = create_engine(normalise_database_url(database_url))
    ids = [int(s["id"]) for s in seating]
    done_at = None
    while time.monotonic() < last_due + 600:
        with engine.connect() as conn:
            left = conn.execute(select(func.count()).select_from(Game).where(
                Game.id.in_(ids), Game.turn < 1)).scalar_one()
        if left == 0:
            done_at = time.monotonic()
            break
        await asyncio.sleep(0.2)
    engine.dispose()
    await c.http.aclose()
    return {"resuming": resuming, "first_due": first_due, "last_due": last_due,
            "done_at": done_at, "errors": c.errors, "setup_errors": setup_errors}


@contextlib.contextmanager
def database(kind: str, path: Path) -> Iterator[str]:
    """A fresh database's URL: a SQLite file at ``path``, or a throwaway PostgreSQL
    server (``tests/pg.py``'s helper), stopped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{path}"
        return
    sys.path.insert(0, str(HERE.parent / "tests"))
    pg = importlib.import_module("pg").PostgresServer().start()
    try:
        yield str(pg.url(pg.create_database()))
    finally:
        pg.stop()


def run_deadlines(args: argparse.Namespace, workdir: Path) -> None:
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    for kind in kinds:
        with database(kind, workdir / "deadlines.db") as url, \
                Server(url, workdir, STANDOFF_SQLITE_SYNCHRONOUS=args.synchronous) as server:
            got = asyncio.run(deadlines_load(server.url, url, args.games, args.deadline,
                                             not args.no_orders, args.seed))
            logged = server.errors()
        print(f"deadlines: {args.games} Standard games on {kind}"
              f"{' (synchronous=' + args.synchronous + ')' if kind == 'sqlite' else ''}, "
              f"{'with' if not args.no_orders else 'without'} orders; deadlines spread over "
              f"{got['resuming']:.1f} s")
        if got["done_at"] is None:
            print("  NOT all processed within 10 minutes of the last deadline")
        else:
            print(f"  all processed {got['done_at'] - got['first_due']:.1f} s after the first "
                  f"deadline ({got['done_at'] - got['last_due']:.1f} s after the last)")
        print(f"  errors: {len(got['errors'])}; setup errors: {len(got['setup_errors'])}; "
              f"server log errors: {len(logged)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=["orders", "deadlines", "all"])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=None,
                        help="games (orders: 100, deadlines: 1000)")
    parser.add_argument("--seconds", type=float, default=60, help="orders: how long")
    parser.add_argument("--think", type=float, default=5.0,
                        help="orders: mean seconds between a player's submissions")
    parser.add_argument("--burst", action="store_true", help="orders: no pauses at all")
    parser.add_argument("--rounds", type=int, default=0,
                        help="orders: each seat submits this many times, then stops (0: until "
                             "--seconds); --burst --rounds 1 is every seat at the same moment")
    parser.add_argument("--deadline", type=int, default=40,
                        help="deadlines: seconds from resuming to the deadline")
    parser.add_argument("--no-orders", action="store_true",
                        help="deadlines: process the phases without any orders")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"standoff {standoff.__version__}, {standoff.BUILD}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="standoff-bench-") as tmp:
        workdir = Path(tmp)
        if args.part in ("orders", "all"):
            run_orders(argparse.Namespace(**{**vars(args), "games": args.games or 100}),
                       workdir)
        if args.part in ("deadlines", "all"):
            run_deadlines(argparse.Namespace(**{**vars(args), "games": args.games or 1000}),
                          workdir)


if __name__ == "__main__":
    main()
