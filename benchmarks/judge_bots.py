"""Bot games on the web judge: how fast phases come back when bots fill the seats.

Issue 28's measurement: 100 Standard games, each of one person and six heuristic
bots, on a real ``standoff serve`` (no bot workers of its own) and 1, then 2,
``standoff worker`` processes sharing its database. Each round, all 100 people say
they are ready at once (over HTTP, from this process); the round ends when every
game has processed that phase and its bots have given their orders for the next
(each game waits for its person again). Prints per round and in all, with 1 and 2
workers: the time until the last game was back to its person, the median game's,
and the bot jobs done and failed.

The end of a round is read from the database (not by polling the API, which
would load the server being measured). Setting up (accounts, games, the bots'
first orders) is not measured. On PostgreSQL (a throwaway server started with
``tests/pg.py``'s helper, as ``benchmarks/judge.py deadlines`` does) by default,
or SQLite.

    .venv/bin/python benchmarks/judge_bots.py [--games 100 --rounds 4 --workers 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judge import FAST_HASH, Client, Server, database, gather
from sqlalchemy import create_engine, text

import standoff

HERE = Path(__file__).resolve().parent
PERSON = "england"


def start_workers(n: int, database_url: str, workdir: Path) -> list[subprocess.Popen[bytes]]:
    procs = []
    for i in range(n):
        log = (workdir / f"worker-{i}.log").open("wb")
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "standoff", "worker", "--database-url", database_url],
            env={**os.environ, **FAST_HASH}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True))
    return procs


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


class Watch:
    """Reads from the database which games wait for their person again."""

    def __init__(self, database_url: str) -> None:
        url = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
        self.engine = create_engine(url)

    def waiting(self, turns: dict[int, int]) -> set[int]:
        """Games past ``turns[id]`` whose bots have all given orders (the person's
        own phase, or over)."""
        with self.engine.connect() as c:
            games = {gid: (turn, status, to_order) for gid, turn, status, to_order in c.execute(
                text("SELECT id, turn, status, to_order FROM games"))}
            ready = {(gid, power) for gid, power, rt, t in c.execute(text(
                "SELECT s.game_id, s.power, s.ready_turn, g.turn FROM seats s "
                "JOIN games g ON g.id = s.game_id")) if rt == t}
        out = set()
        for gid, since in turns.items():
            turn, status, to_order = games[gid]
            if isinstance(to_order, str):  # SQLite's JSON is text
                to_order = json.loads(to_order)
            if status == "finished" or (turn > since and all(
                    (gid, p) in ready for p in to_order if p != PERSON)):
                out.add(gid)
        return out

    def jobs(self) -> tuple[int, int]:
        with self.engine.connect() as c:
            rows: dict[str, int] = {str(k): int(v) for k, v in c.execute(
                text("SELECT status, COUNT(*) FROM bot_jobs GROUP BY status"))}
        return int(rows.get("done", 0)), int(rows.get("failed", 0))

    def turns(self) -> dict[int, int]:
        with self.engine.connect() as c:
            return {int(k): int(v) for k, v in c.execute(text("SELECT id, turn FROM games"))}


async def setup(url: str, games: int) -> list[tuple[int, str]]:
    c = Client(url)
    try:
        people = await gather([lambda i=i: c.account(f"person{i}")  # type: ignore[misc]
                               for i in range(games)], parallel=4)
    except TypeError as exc:  # an account was refused: say why
        raise SystemExit(f"setting up failed: {c.errors[:3]}") from exc
    made = await gather([lambda t=t, i=i: c.call(  # type: ignore[misc]
        "POST", "/games", t, {"variant": "standard", "name": f"bots {i}", "power": PERSON,
                              "fill_bot": "heuristic", "join_seconds": 0}, expect=201)
        for i, t in enumerate(people)])
    await c.http.aclose()
    if c.errors:
        raise SystemExit(f"setting up failed: {c.errors[:3]}")
    return [(g["id"], t) for g, t in zip(made, people, strict=True)]


async def ready_all(url: str, seats: list[tuple[int, str]]) -> list[str]:
    c = Client(url)
    await asyncio.gather(*(c.call("POST", f"/games/{gid}/ready", token, {"ready": True})
                           for gid, token in seats))
    await c.http.aclose()
    return c.errors


def wait_until(watch: Watch, turns: dict[int, int], started: float, timeout: float
               ) -> dict[int, float]:
    back: dict[int, float] = {}
    end = time.monotonic() + timeout
    while len(back) < len(turns) and time.monotonic() < end:
        for gid in watch.waiting(turns) - set(back):
            back[gid] = time.monotonic() - started
        time.sleep(0.05)
    return back


def run(kind: str, workers: int, args: argparse.Namespace, workdir: Path) -> None:
    procs: list[subprocess.Popen[bytes]] = []
    with database(kind, workdir / f"bots-{workers}.db") as url, \
            Server(url, workdir, STANDOFF_BOT_WORKERS="0") as server:
        try:
            watch = Watch(url)
            procs = start_workers(workers, url, workdir)
            seats = asyncio.run(setup(server.url, args.games))
            first = {gid: -1 for gid, _ in seats}
            got = wait_until(watch, first, time.monotonic(), 600)
            if len(got) < len(seats):
                raise SystemExit("the bots' first orders never came")
            print(f"{kind}, {workers} worker process{'es' if workers > 1 else ''}, "
                  f"{args.games} games of one person and six heuristic bots:")
            total = 0.0
            for r in range(args.rounds):
                turns = watch.turns()
                started = time.monotonic()
                errors = asyncio.run(ready_all(server.url, seats))
                back = wait_until(watch, turns, started, 600)
                last = max(back.values()) if back else float("nan")
                total += last
                print(f"  round {r + 1}: every game back to its person in {last:.2f} s "
                      f"(median game {statistics.median(back.values()):.2f} s; "
                      f"{len(back)}/{len(seats)} games; request errors {len(errors)})")
            done, failed = watch.jobs()
            print(f"  all {args.rounds} rounds: {total:.2f} s; bot jobs done {done}, failed "
                  f"{failed}; server log errors {len(server.errors())}")
            watch.engine.dispose()
        finally:
            stop_workers(procs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", default="1,2", help="worker process counts to compare")
    parser.add_argument("--database", choices=["postgresql", "sqlite"], default="postgresql")
    args = parser.parse_args()
    print(f"standoff {standoff.__version__}, {standoff.BUILD}; {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="standoff-bench-") as tmp:
        for n in (int(w) for w in args.workers.split(",")):
            run(args.database, n, args, Path(tmp))


if __name__ == "__main__":
    main()
