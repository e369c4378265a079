"""``standoff backup`` and ``standoff restore`` (issue 26, "Backup and restore").

The way an operator does it: a real judge (``standoff serve``) plays part of a
game through the API (accounts, seats, a processed phase, pending orders, ready
flags, press with read markers, a draw vote), ``standoff backup`` runs as a
command while the judge keeps taking orders, ``standoff restore`` puts the file
into an empty database, and a judge started on that database answers the same
API the same way (the same bearer tokens work) and play goes on: orders, a
processed phase, new accounts, games and press (PostgreSQL's id sequences).
SQLite to SQLite, PostgreSQL to PostgreSQL, and across both ways.

Then the refusals: a target that holds data (nothing written), a damaged file, a
text file, a SQLite file that is no backup, a backup of a newer schema, a missing
file, a wrong database URL: each one line on stderr, exit status 1, no traceback.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from judge_fixtures import (
    Api,
    ServerProcess,
    Table,
    bot_orders,
    make_api,
    play_phase,
    settings_for,
)

Database = Callable[[str], str]


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """``database(kind)``: a fresh empty SQLite file or PostgreSQL database's URL."""
    made = iter(range(1, 100))

    def make(kind: str) -> str:
        if kind == "sqlite":
            return f"sqlite:///{tmp_path / f'judge{next(made)}.db'}"
        server = request.getfixturevalue("postgres")
        if server is None:
            pytest.skip("PostgreSQL tests skipped on purpose: STANDOFF_TEST_PG=0")
        if isinstance(server, Exception):
            pytest.fail(f"PostgreSQL could not be started: {server}", pytrace=False)
        return str(server.url(server.create_database()))

    return make


def standoff(*args: str) -> subprocess.CompletedProcess[str]:
    """The command as an operator runs it."""
    return subprocess.run([sys.executable, "-m", "standoff", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def command(*args: str) -> subprocess.CompletedProcess[str]:
    """The same command run in this process (click's runner): the refusals need no
    process of their own to be seen the way an operator sees them."""
    from click.testing import CliRunner

    from standoff.cli import cli

    result = CliRunner().invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def refused(done: subprocess.CompletedProcess[str], words: str) -> None:
    """Exit 1, one line on stderr saying ``words``, no traceback."""
    assert done.returncode == 1, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert words in lines[0], lines[0]
    assert "Traceback" not in done.stderr + done.stdout


# -- a game in progress, and what the API says about it --------------------------------

def seed(api: Api) -> Table:
    """A started game with one processed phase, pending orders, a ready flag, public and
    private press (one conversation read), and a draw vote."""
    rng = random.Random(26)
    table = api.full_game(name="kept safe")
    play_phase(api, table, rng)
    game = api.game(table)
    for power in ("france", "england", "italy"):
        orders = bot_orders(api, table, power, game, rng)
        api.call("PUT", f"/games/{table.id}/orders", table.players[power], {"orders": orders},
                 expect=200)
    api.call("POST", f"/games/{table.id}/ready", table.players["france"], {"ready": True},
             expect=200)
    messages = f"/games/{table.id}/messages"
    api.call("POST", messages, table.players["france"], {"to": "all", "body": "hello all"},
             expect=201)
    api.call("POST", messages, table.players["france"], {"to": ["england"], "body": "psst"},
             expect=201)
    api.call("POST", messages, table.players["england"], {"to": ["france"], "body": "yes"},
             expect=201)
    api.call("POST", messages + "/read", table.players["england"], {}, expect=200)
    api.call("PUT", f"/games/{table.id}/vote", table.players["germany"], {"draw": True},
             expect=200)
    return table


def snapshot(api: Api, table: Table) -> dict[str, Any]:
    """Everything the API tells the master and each player about the game."""
    gid = table.id
    seen: dict[str, Any] = {"game": api.game(table), "phases": api.phases(table),
                            "lobby": api.json("GET", "/games", table.master),
                            "account": api.json("GET", "/account", table.master)}
    for power, token in sorted(table.players.items()):
        seen[power] = {
            "game": api.json("GET", f"/games/{gid}", token),
            "orders": api.json("GET", f"/games/{gid}/orders", token),
            "messages": api.json("GET", f"/games/{gid}/messages", token),
            "conversations": api.json("GET", f"/games/{gid}/conversations", token),
            "vote": api.json("GET", f"/games/{gid}/vote", token),
        }
    return seen


def backup_while_writing(api: Api, table: Table, url: str, file: Path) -> int:
    """``standoff backup`` while a player keeps replacing orders; the writes the judge
    answered (200) while the command ran."""
    game = api.game(table)
    orders = bot_orders(api, table, "italy", game, random.Random(1))
    stop = threading.Event()
    started = threading.Event()
    answered: list[float] = []
    failures: list[str] = []

    def writer() -> None:
        while not stop.is_set():
            response = api.call("PUT", f"/games/{table.id}/orders", table.players["italy"],
                                {"orders": orders})
            if response.status_code == 200:
                answered.append(time.monotonic())
            else:
                failures.append(response.text)
            started.set()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert started.wait(30)
        began = time.monotonic()
        done = standoff("backup", str(file), "--database-url", url)
        ended = time.monotonic()
    finally:
        stop.set()
        thread.join(30)
    assert done.returncode == 0, done.stderr
    assert "backed up" in done.stderr and "1 games" in done.stderr, done.stderr
    assert not failures, failures[:3]
    return sum(1 for t in answered if began <= t <= ended)


PAIRS = [("sqlite", "sqlite"), ("postgresql", "postgresql"), ("sqlite", "postgresql"),
         ("postgresql", "sqlite")]


@pytest.mark.parametrize(("source", "target"), PAIRS, ids=[f"{a}-to-{b}" for a, b in PAIRS])
def test_backup_while_playing_then_restore_and_play_on(
        source: str, target: str, database: Database, tmp_path: Path,
        servers: list[ServerProcess]) -> None:
    url = database(source)
    server = ServerProcess(url).start()
    servers.append(server)
    api = server.client()
    table = seed(api)
    file = tmp_path / "judge-backup.db"
    during = backup_while_writing(api, table, url, file)
    assert during >= 1  # the judge took orders while the backup ran
    before = snapshot(api, table)
    server.kill()
    assert sorted(p.name for p in tmp_path.glob("*backup*")) == [file.name]  # no partials

    restored_url = database(target)
    done = standoff("restore", str(file), "--database-url", restored_url)
    assert done.returncode == 0, done.stderr
    assert "restored" in done.stderr and "1 games" in done.stderr, done.stderr

    restored = ServerProcess(restored_url).start()
    servers.append(restored)
    api = restored.client()
    assert api.json("GET", "/ready")["ok"] is True
    assert snapshot(api, table) == before  # the same tokens, the same answers

    # play goes on: the phase is processed with the restored pending orders and ready
    # flag, and new rows get fresh ids (PostgreSQL: the sequences were moved on)
    phase = before["game"]["phase"]
    after = play_phase(api, table, random.Random(3))
    assert after["phase"] != phase and after["turn"] == before["game"]["turn"] + 1
    assert [p["phase"] for p in api.phases(table)][-1] == phase
    seen = api.json("GET", f"/games/{table.id}/messages", table.players["italy"])
    posted = api.json("POST", f"/games/{table.id}/messages", table.players["italy"],
                      {"to": "all", "body": "still here"}, expect=201)
    assert posted["id"] == len(seen) + 1  # Italy's own count (ids are per reader)
    newcomer = api.signup()
    assert api.new_game(newcomer)["id"] > table.id
    assert api.json("POST", "/tokens", body={"username": before["account"]["username"],
                                             "password": "correct horse"}, expect=201)


def test_a_backup_is_a_checked_self_contained_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'judge.db'}"
    with make_api(url) as api:
        seed(api)
    file = tmp_path / "out.db"
    file.write_text("the previous backup")
    done = command("backup", str(file), "--database-url", url)
    assert done.returncode == 0, done.stderr
    assert file.read_bytes()[18:20] == b"\x01\x01"  # rollback journal, not WAL: one file
    assert file.stat().st_mode & 0o777 == 0o600  # e-mail addresses, password hashes
    con = sqlite3.connect(file)
    try:
        info = dict(con.execute("SELECT key, value FROM standoff_backup").fetchall())
        assert info["source"] == "sqlite" and info["format"] == "1"
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("SELECT count(*) FROM heartbeats").fetchone() == (0,)
    finally:
        con.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "out" in p.name) == ["out.db"]


def test_a_failed_backup_leaves_the_previous_one(tmp_path: Path) -> None:
    file = tmp_path / "out.db"
    file.write_bytes(b"the previous backup")
    done = command("backup", str(file), "--database-url", f"sqlite:///{tmp_path / 'none.db'}")
    refused(done, "no SQLite database")
    assert file.read_bytes() == b"the previous backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.db"]


# -- refusals --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def backup_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A backup of a judge with one game in it (read, never changed, by the tests)."""
    where = tmp_path_factory.mktemp("backup")
    url = f"sqlite:///{where / 'source.db'}"
    with make_api(url) as api:
        seed(api)
    file = where / "backup.db"
    done = command("backup", str(file), "--database-url", url)
    assert done.returncode == 0, done.stderr
    return file


def rows(url: str) -> dict[str, int]:
    from sqlalchemy import func, inspect, select

    from standoff.judge.backup import tables
    from standoff.judge.db import Database as Db

    db = Db(settings_for(url))
    try:
        with db.engine.connect() as conn:
            present = set(inspect(conn).get_table_names())
            return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                    for t in tables() if t.name in present}
    finally:
        db.dispose()


def test_restore_refuses_a_database_that_holds_data(db_url: str, backup_file: Path) -> None:
    with make_api(db_url) as api:
        api.signup()
    held = rows(db_url)
    done = standoff("restore", str(backup_file), "--database-url", db_url)
    refused(done, "already holds data (")
    assert "1 users" in done.stderr
    assert "nothing was written" in done.stderr
    assert rows(db_url) == held


def test_restore_twice_is_refused_the_second_time(db_url: str, backup_file: Path) -> None:
    assert command("restore", str(backup_file), "--database-url", db_url).returncode == 0
    held = rows(db_url)
    assert held["games"] == 1 and held["users"] == 8
    refused(command("restore", str(backup_file), "--database-url", db_url),
            "already holds data")
    assert rows(db_url) == held


def test_restore_refuses_what_is_no_good_backup(db_url: str, backup_file: Path,
                                                tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("this is not a backup\n" * 100)
    refused(command("restore", str(text), "--database-url", db_url),
            "is not a standoff backup: it is not a SQLite database")

    refused(command("restore", str(tmp_path / "missing.db"), "--database-url", db_url),
            "no backup file")

    cut = tmp_path / "cut.db"
    cut.write_bytes(backup_file.read_bytes()[: backup_file.stat().st_size // 2])
    refused(command("restore", str(cut), "--database-url", db_url), "damaged")

    scrambled = tmp_path / "scrambled.db"
    data = bytearray(backup_file.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    noise = random.Random(5).randbytes(page * 3)
    data[page * 4: page * 7] = noise  # three pages of the tables' b-trees overwritten
    scrambled.write_bytes(bytes(data))
    refused(command("restore", str(scrambled), "--database-url", db_url), "damaged")

    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (body TEXT)")
    con.commit()
    con.close()
    refused(command("restore", str(other), "--database-url", db_url),
            "is a SQLite database but not a standoff backup")

    future = tmp_path / "future.db"
    future.write_bytes(backup_file.read_bytes())
    con = sqlite3.connect(future)
    con.execute("UPDATE alembic_version SET version_num = '9999'")
    con.commit()
    con.close()
    refused(command("restore", str(future), "--database-url", db_url),
            "made by a newer standoff (schema 9999")

    assert rows(db_url) == {}  # nothing was written by any of them


def test_wrong_database_urls_are_one_line(backup_file: Path, tmp_path: Path) -> None:
    from pg import free_port

    nowhere = f"postgresql://judge:secret@127.0.0.1:{free_port()}/judge"
    done = command("restore", str(backup_file), "--database-url", nowhere)
    refused(done, "cannot restore into")
    assert "secret" not in done.stderr
    refused(command("backup", str(tmp_path / "b.db"), "--database-url", nowhere),
            "cannot back up")
    refused(command("backup", str(tmp_path / "b.db"), "--database-url", "mysql://x/y"),
            "SQLite or PostgreSQL")
    refused(command("restore", str(backup_file), "--database-url",
                     f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}"), "no directory")


def test_an_older_backup_is_migrated_forward(tmp_path: Path, database: Database) -> None:
    """A judge's SQLite file of schema 0002 (before this issue) restores into today's
    schema: its private copy is migrated first."""
    from sqlalchemy import create_engine, text

    from standoff.judge.db import migrate

    old = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{old}")
    migrate(engine, "0002")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO users (id, username, username_key, email, password_hash,"
                          " created_at) VALUES (1, 'Ada', 'ada', NULL, 'x', "
                          "'2026-01-01 00:00:00')"))
    engine.dispose()
    target = database("postgresql")
    done = command("restore", str(old), "--database-url", target)
    assert done.returncode == 0, done.stderr
    assert "schema 0002" in done.stderr
    assert rows(target)["users"] == 1
    assert os.path.exists(old)
