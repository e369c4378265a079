"""The judge's guarantees against real servers (``standoff serve`` in subprocesses,
real uvicorn, real HTTP), on SQLite and on PostgreSQL:

* many clients submitting at once to one game lose no answered order;
* two server processes on one database process each phase exactly once;
* a server SIGKILLed in the middle of processing a phase leaves it unprocessed
  with every order, and the next server processes it once, with all of them;
* a server started after a deadline passed while none ran processes the phase.

(Secrecy of pending orders and the master's actions are in test_judge_orders.py
and test_judge_games.py.)
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update

from judge_fixtures import Api, ServerProcess, Table, settings_for

HOUR = {"movement": 3600, "retreat": 3600, "adjustment": 3600}


def _db(db_url: str) -> Any:
    from standoff.judge.db import Database

    return Database(settings_for(db_url))


def _expire_deadlines(db_url: str) -> None:
    """Move every active game's deadline into the past, as if it had passed."""
    from standoff.judge.db import utcnow
    from standoff.judge.models import GameRow

    db = _db(db_url)
    with db.write() as s:
        s.execute(update(GameRow).where(GameRow.status == "active")
                  .values(deadline=utcnow() - timedelta(seconds=1)))
    db.dispose()


def _stored(db_url: str, game_id: int) -> tuple[int, dict[str, list[str]], int]:
    """(turn, pending orders by power, number of phase records) straight from the database."""
    from standoff.judge.models import GameRow, PendingOrdersRow, PhaseRow

    db = _db(db_url)
    with db.read() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        pending = {r.power: list(r.orders) for r in s.scalars(
            select(PendingOrdersRow).where(PendingOrdersRow.game_id == game_id))}
        records = s.scalar(select(func.count()).select_from(PhaseRow)
                           .where(PhaseRow.game_id == game_id)) or 0
        turn = game.turn
    db.dispose()
    return turn, pending, records


def _random_orders(api: Api, table: Table, rng: random.Random) -> dict[str, list[str]]:
    """One legal order set per power."""
    out = {}
    for power, token in table.players.items():
        legal = api.json("GET", f"/games/{table.id}/legal", token)
        out[power] = [rng.choice(options) for _loc, options in sorted(legal.items())]
    return out


def _submit_all(api: Api, table: Table, orders: dict[str, list[str]]) -> None:
    for power, texts in orders.items():
        api.call("PUT", f"/games/{table.id}/orders", table.players[power], {"orders": texts},
                 expect=200)


def _processed_lines(servers: list[ServerProcess], game_id: int) -> int:
    return sum(1 for s in servers for line in s.lines
               if f"game {game_id}: processed S1901M " in line)


def test_concurrent_clients_lose_no_order(db_url: str, servers: list[ServerProcess]) -> None:
    """21 players of three games submit 12 times each, all at once, while readers
    poll; each power's stored orders are exactly its last answered submission,
    and processing adjudicates exactly those."""
    server = ServerProcess(db_url).start()
    servers.append(server)
    api = server.client()
    tables = [api.full_game(deadlines=HOUR) for _ in range(3)]
    legal = {(t.id, p): api.json("GET", f"/games/{t.id}/legal", tok)
             for t in tables for p, tok in t.players.items()}
    last: dict[tuple[int, str], list[str]] = {}
    errors: list[str] = []
    done = threading.Event()

    def player(table: Table, power: str, seed: int) -> None:
        rng = random.Random(seed)
        client = server.client()
        options = legal[(table.id, power)]
        for _ in range(12):
            orders = [rng.choice(opts) for _loc, opts in sorted(options.items())]
            got = client.call("PUT", f"/games/{table.id}/orders", table.players[power],
                              {"orders": orders})
            if got.status_code == 200:
                last[(table.id, power)] = got.json()["orders"]
            else:
                errors.append(f"{got.status_code} {got.text}")
        client.client.close()

    def reader(table: Table) -> None:
        client = server.client()
        while not done.is_set():
            got = client.call("GET", f"/games/{table.id}", table.master)
            if got.status_code != 200:
                errors.append(f"reader: {got.status_code} {got.text}")
        client.client.close()

    threads = [threading.Thread(target=player, args=(t, p, i))
               for i, (t, p) in enumerate((t, p) for t in tables for p in t.players)]
    readers = [threading.Thread(target=reader, args=(t,)) for t in tables]
    for th in threads + readers:
        th.start()
    for th in threads:
        th.join(120)
    done.set()
    for th in readers:
        th.join(30)
    assert not errors, errors[:5]
    assert len(last) == 21
    for table in tables:
        for power, token in table.players.items():
            assert api.json("GET", f"/games/{table.id}/orders", token)["orders"] == \
                last[(table.id, power)]
        api.json("POST", f"/games/{table.id}/master/process", table.master)
        record = api.phases(table)[0]
        assert record["orders"] == {p: last[(table.id, p)] for p in sorted(table.players)}


def test_two_servers_process_each_phase_once(db_url: str,
                                             servers: list[ServerProcess]) -> None:
    """Two server processes share one database. Two games fall due at once (both
    schedulers race for them); in two more every player says ready at the same
    moment, half through each server. Each phase is processed exactly once, with
    every order."""
    a, b = ServerProcess(db_url).start(), ServerProcess(db_url).start()
    servers += [a, b]
    apis = [a.client(), b.client()]
    rng = random.Random(7)
    tables = [apis[i % 2].full_game(deadlines=HOUR) for i in range(4)]
    submitted = {}
    for i, table in enumerate(tables):
        submitted[table.id] = _random_orders(apis[i % 2], table, rng)
        _submit_all(apis[(i + 1) % 2], table, submitted[table.id])
    _expire_deadlines_of = tables[:2]
    barrier = threading.Barrier(14)
    errors: list[str] = []

    def ready(table: Table, power: str, server: ServerProcess) -> None:
        client = server.client()
        barrier.wait()
        got = client.call("POST", f"/games/{table.id}/ready", table.players[power],
                          {"ready": True})
        if got.status_code != 200:
            errors.append(got.text)
        client.client.close()

    threads = [threading.Thread(target=ready, args=(t, p, (a, b)[j % 2]))
               for t in tables[2:] for j, p in enumerate(sorted(t.players))]
    for th in threads:
        th.start()
    # the other two games: their deadline passes while both schedulers poll
    from standoff.judge.db import utcnow
    from standoff.judge.models import GameRow

    db = _db(db_url)
    with db.write() as s:
        s.execute(update(GameRow).where(GameRow.id.in_([t.id for t in _expire_deadlines_of]))
                  .values(deadline=utcnow()))
    db.dispose()
    for th in threads:
        th.join(60)
    assert not errors, errors
    for table in tables:
        apis[0].wait_phase(table, "S1901M")
    time.sleep(1.0)  # a second processing would have happened by now
    for table in tables:
        turn, pending, records = _stored(db_url, table.id)
        assert (turn, pending, records) == (1, {}, 1)
        assert apis[1].phases(table)[0]["orders"] == dict(sorted(submitted[table.id].items()))
        assert _processed_lines([a, b], table.id) == 1


def test_kill_in_the_middle_of_processing(db_url: str, servers: list[ServerProcess]) -> None:
    """A server is SIGKILLed while its processing transaction is open (the test
    hook holds it): the phase stays unprocessed with all 7 accepted orders; a new
    server processes it once, with every one of them."""
    first = ServerProcess(db_url, STANDOFF_TEST_PROCESS_DELAY="60").start()
    servers.append(first)
    api = first.client()
    table = api.full_game(deadlines=HOUR)
    orders = _random_orders(api, table, random.Random(3))
    _submit_all(api, table, orders)
    powers = sorted(table.players)
    for power in powers[:-1]:
        api.call("POST", f"/games/{table.id}/ready", table.players[power], {"ready": True},
                 expect=200)

    def last_ready() -> None:  # hangs in the processing; the kill ends it
        with contextlib.suppress(Exception):
            api.call("POST", f"/games/{table.id}/ready", table.players[powers[-1]],
                     {"ready": True})

    hanging = threading.Thread(target=last_ready, daemon=True)
    hanging.start()
    first.wait_for_line("standoff test hook: processing game")
    first.kill()
    hanging.join(30)
    turn, pending, records = _stored(db_url, table.id)
    assert (turn, records) == (0, 0)
    assert pending == orders
    second = ServerProcess(db_url).start()
    servers.append(second)
    after = second.client().wait_phase(table, "S1901M")
    assert after["phase"] == "F1901M" and after["turn"] == 1
    history = second.client().phases(table)
    assert [h["phase"] for h in history] == ["S1901M"]
    assert history[0]["orders"] == dict(sorted(orders.items()))
    assert _processed_lines([first, second], table.id) == 1


def test_restart_after_a_missed_deadline(db_url: str, servers: list[ServerProcess]) -> None:
    """The deadline passes while no server runs: the next one to start processes the
    phase at once, with the orders sent before, and counts the missing ones."""
    first = ServerProcess(db_url).start()
    servers.append(first)
    api = first.client()
    table = api.full_game(deadlines=HOUR)
    api.call("PUT", f"/games/{table.id}/orders", table.players["england"],
             {"orders": ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"]}, expect=200)
    first.stop()
    _expire_deadlines(db_url)
    assert _stored(db_url, table.id)[0] == 0
    second = ServerProcess(db_url).start()
    servers.append(second)
    game = second.client().wait_phase(table, "S1901M")
    assert game["phase"] == "F1901M"
    assert sorted(game["position"]["units"]["england"]) == ["A YOR", "F ENG", "F NTH"]
    assert game["powers"]["england"]["nmr"] == 0 and game["powers"]["russia"]["nmr"] == 1
    assert second.client().phases(table)[0]["orders"] == {
        "england": ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"]}
