"""Issue 26, items 1, 2, 7 and 10: designers' variant files cannot take the judge down.

Each test reproduces an attack the way it was found, against a real ``standoff
serve`` (on SQLite and on PostgreSQL), with the sizes the issue gives:

1. a 234-byte file whose ``[derive]`` applies ``twin_levels`` six times ate
   2.5 GiB and blocked every write for a minute: now refused before anything is
   built, in well under a second, the server growing by under 50 MiB;
2. 50 games that cannot be processed stopped deadline processing for the whole
   judge: now each is set aside on its first failure (logged once, shown to its
   master, retried by the master), and an ordinary game is processed within a
   scheduler look of its deadline;
7. uploads were checked inside the database's write lock: four concurrent
   uploads of a large file delayed an order by 12.3 s; now they are checked in a
   bounded worker before the transaction, and an account's uploads have a quota;
10. a variant name and the same name with a trailing space were two variants,
    one played on the other's map: names now have one canonical form, and a game
    plays its own file whatever its stored name says.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge_fixtures import Api, ServerProcess, settings_for

MIB = 1024 * 1024

#: the issue's variant bomb: six stacked-board transforms over Standard (each doubles it)
BOMB = """[variant]
name = "bomb"
title = "Bomb"
description = "every twin doubles the map: six of them make 64 boards of Standard"

[derive]
base = "standard"
levels = 2
transforms = ["twin_levels", "twin_levels", "twin_levels", "twin_levels", "twin_levels",
              "twin_levels"]
"""

#: a designer's small variant: Standard's map under a name of its own
SMALL = """[variant]
name = "{name}"
title = "{title}"

[derive]
base = "{base}"
"""


def grid_variant(side: int, name: str, pad: int = 0) -> str:
    """A large valid variant file: a side x side grid of land provinces, seven powers
    with two armies each (``pad``: longer province names, to make the file larger)."""
    ids = [[f"p{r}x{c}" for c in range(side)] for r in range(side)]
    lines = ["[variant]", f'name = "{name}"', ""]
    for r in range(side):
        for c in range(side):
            pid = ids[r][c]
            aliases = ", ".join(f'"{pid}al{k}"' for k in range(8))
            centre = "true" if (r + c) % 3 == 0 else "false"
            lines.append(f'[provinces.{pid}]\nname = "Province {r} {c} {"x" * pad}"\n'
                         f'terrain = "land"\ncentre = {centre}\naliases = [{aliases}]')
    army = [f"{ids[r][c]}-{ids[r][c + 1]}" for r in range(side) for c in range(side - 1)]
    army += [f"{ids[r][c]}-{ids[r + 1][c]}" for r in range(side - 1) for c in range(side)]
    lines.append('[adjacency]\narmy = """' + " ".join(army) + '"""\nfleet = ""')
    for k in range(7):
        homes = [ids[0][3 * k], ids[3][3 * k]]
        lines.append(f'[powers.power{k}]\nname = "Power {k}"\n'
                     f'home_centres = {json.dumps(homes)}\n'
                     f'units = {json.dumps(["A " + h for h in homes])}')
    lines.append("[victory]\ncentres = 100")
    return "\n".join(lines) + "\n"


def sea_grid(side: int, name: str) -> str:
    """A variant file of side x side spaces, a quarter of them seas and the rest coasts,
    every neighbour linked (90: 8,100 spaces in 868 KB, over the core's bound of
    1,500, and what took the judge of the issue seconds to check while it held the
    database's write lock)."""
    ids = [[f"p{r}x{c}" for c in range(side)] for r in range(side)]

    def kind(r: int, c: int) -> str:
        return "sea" if (r * 7 + c * 3) % 4 == 0 else "coast"

    lines = ["[variant]", f'name = "{name}"', ""]
    for r in range(side):
        for c in range(side):
            centre = "true" if kind(r, c) == "coast" and (r + c) % 3 == 0 else "false"
            lines.append(f'[provinces.{ids[r][c]}]\nname = "P{r} {c}"\n'
                         f'terrain = "{kind(r, c)}"\ncentre = {centre}')
    army, fleet = [], []
    for r in range(side):
        for c in range(side):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < side and c2 < side:
                    fleet.append(f"{ids[r][c]}-{ids[r2][c2]}")
                    if kind(r, c) == kind(r2, c2) == "coast":
                        army.append(f"{ids[r][c]}-{ids[r2][c2]}")
    lines.append(f'[adjacency]\narmy = """{" ".join(army)}"""\nfleet = """{" ".join(fleet)}"""')
    homes = [ids[r][c] for r in range(side) for c in range(side)
             if kind(r, c) == "coast" and (r + c) % 3 == 0]
    for k in range(7):
        mine = homes[2 * k:2 * k + 2]
        lines.append(f'[powers.power{k}]\nname = "Power {k}"\nhome_centres = {json.dumps(mine)}'
                     f'\nunits = {json.dumps(["F " + h for h in mine])}')
    lines.append("[victory]\ncentres = 100")
    return "\n".join(lines) + "\n"


def rss(pid: int) -> int:
    """The resident size of a process, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.fixture
def server(db_url: str, servers: list[ServerProcess]) -> Iterator[ServerProcess]:
    started = ServerProcess(db_url).start()
    servers.append(started)
    yield started


# -- item 1: the variant bomb ---------------------------------------------------------------

def test_the_variant_bomb_is_refused_at_once_and_costs_the_server_nothing(
        server: ServerProcess) -> None:
    """Issue 26 item 1: the 234-byte bomb took 57 s and 2.6 GiB, and blocked every
    order submission for as long. Now: 422 with the reason at once (well under 10 s), the
    server growing by under 50 MiB, an order submitted meanwhile not delayed."""
    assert len(BOMB.encode()) < 400
    api = server.client()
    token = api.signup()
    api.call("GET", "/games", expect=200)  # the process's first request costs what it costs
    assert server.proc is not None
    before = rss(server.proc.pid)
    started = time.monotonic()
    got = api.call("POST", "/games", token, {"name": "boom", "variant_file": BOMB},
                   expect=422).json()
    took = time.monotonic() - started
    assert got["error"] == "illegal"
    assert "twice" in got["detail"] and "transform" in got["detail"]
    assert took < 10.0, took  # the bomb took 57 s; a loaded CI machine needs slack
    assert rss(server.proc.pid) - before < 50 * MIB
    # the listing never builds a variant: it answers at once, anonymous or not
    started = time.monotonic()
    api.call("GET", "/games", expect=200)
    assert time.monotonic() - started < 10.0


def test_the_cli_refuses_eight_transforms_before_building(tmp_path: Path) -> None:
    """Issue 26 item 1: eight transforms ran ``standoff check-variant`` into a 6 GB
    limit. Now it says why in a line, at once, under a 512 MiB address-space limit."""
    eight = BOMB.replace('"twin_levels"]', '"twin_levels", "twin_levels", "twin_levels"]')
    assert eight.count("twin_levels") == 8
    path = tmp_path / "eight.toml"
    path.write_text(eight)
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20));"
            "from standoff.cli import main; sys.argv = ['standoff', 'check-variant', "
            f"{str(path)!r}]; main()")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert time.monotonic() - started < 10
    assert done.returncode != 0
    assert "twice" in done.stderr and "Traceback" not in done.stderr


# -- item 7: uploads never hold the write lock, and have a quota ----------------------------

def _timed_orders(api: Api, token: str, game_id: int, stop: threading.Event,
                  took: list[float]) -> None:
    while not stop.is_set():
        started = time.monotonic()
        api.call("PUT", f"/games/{game_id}/orders", token, {"orders": ["A PAR - BUR"]},
                 expect=200)
        took.append(time.monotonic() - started)
        time.sleep(0.05)


def test_uploads_are_checked_outside_the_write_lock(server: ServerProcess) -> None:
    """Issue 26 item 7: four concurrent uploads of a large file delayed an order
    submission by 12.3 s (each held the write lock for its 3.7 s check). Now the
    orders sent meanwhile each answer within a second, and every upload answers:
    the files within the core's bounds are played, those over them refused."""
    api = server.client()
    table = api.full_game()
    uploaders = [api.signup() for _ in range(4)]
    # two files at the core's bounds (played) and two far over them (refused)
    files = [grid_variant(36, f"gridworld{k}", pad=360) for k in range(2)]
    files += [sea_grid(90, f"seagrid{k}") for k in range(2)]
    assert all(700 * 1024 < len(f.encode()) < 1024 * 1024 for f in files)
    answers: list[int] = []
    took: list[float] = []
    stop = threading.Event()
    orders = threading.Thread(target=_timed_orders,
                              args=(server.client(), table.players["france"], table.id, stop,
                                    took))
    orders.start()

    def upload(k: int) -> None:
        client = server.client()
        answers.append(client.call("POST", "/games", uploaders[k],
                                   {"name": f"grid {k}", "variant_file": files[k]}).status_code)

    threads = [threading.Thread(target=upload, args=(k,)) for k in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        stop.set()
        orders.join(30)
    assert sorted(answers) == [201, 201, 422, 422], answers
    assert took and max(took) < 1.0, sorted(took)[-5:]


def test_an_accounts_uploads_have_a_daily_quota(db_url: str,
                                                 servers: list[ServerProcess]) -> None:
    """Issue 26 item 7: 60 uploads by one account added 48 MB. An account may create
    ``uploads_per_day`` games with variant files a day (here 3), then 429 with a
    sentence; another account is not affected."""
    server = ServerProcess(db_url, STANDOFF_UPLOADS_PER_DAY="3").start()
    servers.append(server)
    api = server.client()
    token, other = api.signup(), api.signup()
    text = SMALL.format(name="quota", title="Quota", base="standard")
    for k in range(3):
        api.call("POST", "/games", token, {"name": f"q{k}", "variant_file": text}, expect=201)
    got = api.call("POST", "/games", token, {"name": "q3", "variant_file": text},
                   expect=429)
    assert "24 hours" in got.json()["detail"] and got.headers["retry-after"]
    api.call("POST", "/games", token, {"name": "bundled", "variant": "standard"}, expect=201)
    api.call("POST", "/games", other, {"name": "q", "variant_file": text}, expect=201)


# -- item 10: one name, one text --------------------------------------------------------------

def test_a_name_with_surrounding_spaces_is_refused(server: ServerProcess) -> None:
    """Issue 26 items 2 and 10: ``"poisonbase "`` was stored beside ``"poisonbase"``.
    Variant names have one canonical form: one with spaces around it is refused."""
    api = server.client()
    token = api.signup()
    api.call("POST", "/games", token, {
        "name": "a", "variant_file": SMALL.format(name="poisonbase", title="P", base="standard")},
        expect=201)
    got = api.call("POST", "/games", token, {
        "name": "b", "variant_file": SMALL.format(name="poisonbase ", title="P", base="sahara")},
        expect=422).json()
    assert "'poisonbase '" in got["detail"] and "start and end" in got["detail"]


def _set_columns(db_url: str, game_id: int, **values: Any) -> None:
    from standoff.judge.db import Database
    from standoff.judge.models import GameRow

    db = Database(settings_for(db_url))
    try:
        with db.write() as s:
            game = s.get(GameRow, game_id)
            assert game is not None
            for key, value in values.items():
                setattr(game, key, value)
    finally:
        db.dispose()


def test_a_stored_game_plays_its_own_file_whatever_its_name(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 26 items 9 and 10: a game stored (before this fix) under ``"collide "``
    was played on another user's ``"collide"`` map, and after a restart its
    ``legal`` and ``map.svg`` answered 500. Each game now plays its own text."""
    server = ServerProcess(db_url).start()
    servers.append(server)
    api = server.client()
    theirs = SMALL.format(name="collide", title="Standard copy", base="standard")
    mine = SMALL.format(name="collide2", title="Sahara copy", base="sahara")
    api.new_game(api.signup(), variant_file=theirs, variant=None)
    table = api.full_game(variant="collide2", variant_file=mine)
    # the row as the judge stored it before names had one form
    _set_columns(db_url, table.id, variant="collide ")
    server.kill()
    server = ServerProcess(db_url).start()
    servers.append(server)
    api = server.client()
    power = sorted(table.players)[0]
    legal = api.json("GET", f"/games/{table.id}/legal", table.players[power])
    sahara = api.game(table)["position"]["units"]
    assert set(legal) == {u.split()[1].upper() for u in sahara.get(power, [])}
    svg = api.call("GET", f"/games/{table.id}/map.svg", table.master, expect=200).text
    assert svg.startswith("<svg") or svg.startswith("<?xml")


def test_a_restarted_judge_lists_games_without_building_their_variants(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 26 item 1: after a restart, the first anonymous ``GET /games`` took 56 s
    and 2.3 GiB, because the listing rebuilt a stored upload. Here two stored games
    carry files no engine could build (the bomb, as a game stored before the size
    bound would hold it, and text that is not a variant at all): a listing that built
    either would fail. After a restart, the first anonymous listing names both games
    and the server grows by under 50 MiB."""
    server = ServerProcess(db_url).start()
    servers.append(server)
    api = server.client()
    token = api.signup()
    ids = [api.json("POST", "/games", token, {
        "name": f"heavy {k}", "variant_file": SMALL.format(name=f"heavy{k}", title="Heavy",
                                                         base="standard")}, expect=201)["id"]
           for k in range(2)]
    for game_id, text in zip(ids, (BOMB, "this is not a variant file ["), strict=True):
        _set_columns(db_url, game_id, variant_file=text,
                     variant_sha256=hashlib.sha256(text.encode()).hexdigest())
    server.kill()
    server = ServerProcess(db_url).start()
    servers.append(server)
    assert server.proc is not None
    before = rss(server.proc.pid)
    listed = server.client().json("GET", "/games")
    names = {g["name"] for g in listed}
    assert {"heavy 0", "heavy 1"} <= names
    assert rss(server.proc.pid) - before < 50 * MIB


def test_the_upload_checks_limits_of_time_and_memory_are_applied(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 26 item 1: uploads are checked "in a bounded worker (time and memory)".
    A server told to give the check 0.05 s refuses a large valid file with the limit
    it reached; one told to give it 20 MiB (less than any check needs) refuses even a
    small file, saying so; both go on serving."""
    text = grid_variant(36, "gridworld", pad=360)
    limits: list[tuple[dict[str, str], str]] = [
        ({"STANDOFF_UPLOAD_CHECK_SECONDS": "0.05"}, "took longer than 0.05 s"),
        ({"STANDOFF_UPLOAD_CHECK_MEMORY_MIB": "20"}, "needed more than 20 MiB")]
    for env, said in limits:
        server = ServerProcess(db_url, None, (), None, **env).start()
        servers.append(server)
        api = server.client()
        token = api.signup()
        got = api.call("POST", "/games", token, {"name": "grid", "variant_file": text},
                       expect=422).json()
        assert said in got["detail"], got
        api.call("POST", "/games", token, {"name": "plain", "variant": "standard"}, expect=201)
        server.kill()


# -- item 2: a game that fails to process delays no other ------------------------------------

def _poison(db_url: str, game_id: int, copies: int) -> list[int]:
    """``copies`` active games cloned from ``game_id``, each playing a variant file that
    no longer loads, their deadlines an hour ago: the issue's 50 poisoned games."""
    from datetime import timedelta

    from sqlalchemy.orm import make_transient

    from standoff.judge.db import Database, utcnow
    from standoff.judge.models import GameRow

    db = Database(settings_for(db_url))
    made = []
    try:
        with db.write() as s:
            for k in range(copies):
                game = s.get(GameRow, game_id)
                assert game is not None
                s.expunge(game)
                make_transient(game)
                game.id = None  # type: ignore[assignment]
                text = f"[variant]\nname = 'gone{k}'\n# a file this engine no longer reads\n"
                game.variant_file = text
                game.variant_sha256 = hashlib.sha256(text.encode()).hexdigest()
                game.variant = f"gone{k} "
                game.deadline = utcnow() - timedelta(hours=1)
                s.add(game)
                s.flush()
                made.append(game.id)
    finally:
        db.dispose()
    return made


def test_poisoned_games_are_set_aside_and_delay_no_other(
        db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 26 item 2: 50 games that could not be processed were retried at every
    look (850 tracebacks in 20 s) and kept an ordinary game an hour past its
    deadline. Now each is set aside on its first failure, logged once, shown to
    its master; the ordinary game is processed within a look of its deadline."""
    server = ServerProcess(db_url, STANDOFF_POLL_INTERVAL="0.5").start()
    servers.append(server)
    api = server.client()
    ordinary = api.full_game()
    poisoned = _poison(db_url, ordinary.id, 50)
    from datetime import timedelta

    from standoff.judge.db import utcnow

    _set_columns(db_url, ordinary.id, deadline=utcnow() + timedelta(seconds=1))
    due = time.monotonic() + 1
    game = api.wait_phase(ordinary, "S1901M", timeout=30)
    late = time.monotonic() - due
    assert game["phase"] == "F1901M"
    assert late < 0.5 + 2.0, late  # one look (0.5 s) and the phase's own processing
    views = [api.json("GET", f"/games/{gid}", ordinary.master) for gid in poisoned]
    assert all(v["set_aside"] and "no longer loads" in v["failure"] for v in views)
    time.sleep(2)  # four more looks: nobody retries a set-aside game
    log = "".join(server.lines)
    assert log.count("set aside until its master retries it") == 50
    assert "failed; will retry" not in log
    # a player sees that the phase is stuck, never the error itself
    player = api.json("GET", f"/games/{poisoned[0]}", ordinary.players["france"])
    assert player["set_aside"] and player["failure"] is None
    # the master repairs nothing and retries: it fails again, and is set aside again once
    api.call("POST", f"/games/{poisoned[0]}/master/retry", ordinary.master, expect=200)
    server.wait_for_line(f"game {poisoned[0]}: processing turn 0 failed")
    end = time.monotonic() + 10
    while "".join(server.lines).count("set aside until its master retries it") < 51:
        assert time.monotonic() < end
        time.sleep(0.1)
    assert api.json("GET", f"/games/{poisoned[0]}", ordinary.master)["set_aside"]
    time.sleep(1)
    assert "".join(server.lines).count("set aside until its master retries it") == 51
    api.call("POST", f"/games/{ordinary.id}/master/retry", ordinary.master, expect=409)
    api.call("POST", f"/games/{poisoned[1]}/master/retry", ordinary.players["france"],
             expect=403)


def test_a_set_aside_game_goes_on_when_its_master_retries(
        db_url: str, servers: list[ServerProcess]) -> None:
    """A game set aside for a file that no longer loads plays on once the file
    loads again (an engine upgrade, say) and its master retries."""
    server = ServerProcess(db_url, STANDOFF_POLL_INTERVAL="0.2").start()
    servers.append(server)
    api = server.client()
    good = SMALL.format(name="fixable", title="Fixable", base="standard")
    table = api.full_game(variant="fixable", variant_file=good)
    sha = api.game(table)["variant_sha256"]
    server.kill()
    # the file stops loading (what an incompatible engine would say)...
    _set_columns(db_url, table.id, variant_file="[variant]\nname = 'fixable'\n")
    server = ServerProcess(db_url, STANDOFF_POLL_INTERVAL="0.2").start()
    servers.append(server)
    api = server.client()
    api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
    end = time.monotonic() + 10
    while not api.game(table)["set_aside"]:
        assert time.monotonic() < end, "never set aside"
        time.sleep(0.1)
    assert api.game(table)["phase"] == "S1901M"
    # ...and loads again
    _set_columns(db_url, table.id, variant_file=good, variant_sha256=sha)
    api.call("POST", f"/games/{table.id}/master/retry", table.master, expect=200)
    game = api.wait_phase(table, "S1901M", timeout=20)
    assert game["phase"] == "F1901M" and not game["set_aside"]


def test_the_scheduler_purges_expired_sessions(db_url: str,
                                               servers: list[ServerProcess]) -> None:
    """Issue 26 item 12: expired sessions were never purged. A server's scheduler
    deletes them (and throttle rows past their windows) at its first look."""
    from datetime import timedelta

    from sqlalchemy import func, select

    from standoff.judge.db import Database, utcnow
    from standoff.judge.models import Token

    server = ServerProcess(db_url).start()
    servers.append(server)
    api = server.client()
    token = api.signup()
    api.call("POST", "/session", body={"username": api.json("GET", "/account", token)[
        "username"], "password": "correct horse"}, expect=201)
    server.kill()
    db = Database(settings_for(db_url))
    try:
        with db.write() as s:
            for row in s.scalars(select(Token).where(Token.kind == "session")):
                row.expires_at = utcnow() - timedelta(seconds=1)
        server = ServerProcess(db_url).start()
        servers.append(server)
        server.wait_for_line("purged 1 expired sessions")
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(Token)
                            .where(Token.kind == "session")) == 0
            assert s.scalar(select(func.count()).select_from(Token)) == 1  # the bearer token
    finally:
        db.dispose()


def test_maps_of_uploaded_variants_answer_never_500(server: ServerProcess) -> None:
    """Issue 26 item 9: ``map.svg`` of an uploaded game with stacked levels or a map of
    its own answered 500 (VariantError). Three levels are drawn side by side; a map
    with no drawing is 404 with a sentence."""
    api = server.client()
    three = ('[variant]\nname = "three worlds"\ntitle = "Three worlds"\n[derive]\n'
             'base = "standard"\nlevels = 3\ntransforms = ["twin_levels"]\n')
    token = api.signup()
    game = api.json("POST", "/games", token, {"name": "3", "variant_file": three}, expect=201)
    svg = api.call("GET", f"/games/{game['id']}/map.svg", token, expect=200).text
    assert ">III<" in svg and "mun3" in svg
    own = grid_variant(21, "drawless")
    game = api.json("POST", "/games", token, {"name": "own", "variant_file": own}, expect=201)
    got = api.call("GET", f"/games/{game['id']}/map.svg", token, expect=404).json()
    assert got["error"] == "not_found" and "no map drawing" in got["detail"]


def test_refused_files_are_checked_at_a_bounded_rate(db_url: str,
                                                      servers: list[ServerProcess]) -> None:
    """A refused file makes no game, so the daily quota never sees it; each new one costs
    a worker's check. An account gets ``upload_checks_per_hour`` checks (here 3), then
    429; a file checked before is answered from memory and counts nothing."""
    server = ServerProcess(db_url, STANDOFF_UPLOAD_CHECKS_PER_HOUR="3").start()
    servers.append(server)
    api = server.client()
    token, other = api.signup(), api.signup()
    bad = [f'[variant]\nname = "bad{k}"\n' for k in range(4)]
    for text in bad[:3]:
        api.call("POST", "/games", token, {"name": "b", "variant_file": text}, expect=422)
    got = api.call("POST", "/games", token, {"name": "b", "variant_file": bad[3]}, expect=429)
    assert "checked in the last hour" in got.json()["detail"] and got.headers["retry-after"]
    api.call("POST", "/games", token, {"name": "b", "variant_file": bad[0]}, expect=422)
    api.call("POST", "/games", other, {"name": "b", "variant_file": bad[3]}, expect=422)
