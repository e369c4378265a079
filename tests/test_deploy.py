"""The deployment in ``deploy/``, started as a host would run it, on loopback.

* ``systemd-analyze verify`` checks the units (in a copy whose ``ExecStart``
  names this venv's ``standoff``, since verify insists the program exists), and
  their offline security exposure stays low.
* Caddy (Debian's package, ``.ci/deploy.sh``) runs ``deploy/Caddyfile`` itself,
  imported unchanged behind a block of test-only global options: its internal
  CA instead of ACME, a free high port, its data in a temporary directory, its
  admin endpoint off. Two ``standoff serve`` processes share one PostgreSQL (the
  suite's), started with the active lines of ``deploy/standoff.env``.
* httpx trusts only Caddy's root certificate, read from Caddy's data directory,
  so the TLS in front of the judges is checked, not waved through.

Loopback has a whole /8, which lets one machine play three parties: Caddy
reaches the judges from 127.0.0.1 (the trusted proxy), while the test's clients
connect from 127.0.0.2, .3 and .4, so the address the judge sees tells whether
it believed a forged ``X-Forwarded-For`` or the proxy's.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from judge_fixtures import PASSWORD, Api, ServerProcess, play_phase
from pg import free_port
from programs import program

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
INSTALLED_STANDOFF = "/opt/standoff/venv/bin/standoff"
FORGED = "203.0.113.9"  # TEST-NET-3: an address no client here has


def _need(name: str) -> str:
    return program(name, ".ci/deploy.sh (installs Debian's caddy and systemd)")


def env_file_settings(path: Path = DEPLOY / "standoff.env") -> dict[str, str]:
    """The active ``KEY=VALUE`` lines of an EnvironmentFile."""
    out: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


# -- the units -------------------------------------------------------------------------

def _units_for_this_machine(tmp_path: Path) -> list[Path]:
    """deploy/'s units copied with ExecStart pointing at this venv's standoff."""
    standoff = Path(sys.executable).parent / "standoff"
    assert standoff.exists(), standoff
    units = sorted(DEPLOY.glob("*.service")) + sorted(DEPLOY.glob("*.timer"))
    copies = []
    for unit in units:
        text = unit.read_text()
        copy = tmp_path / unit.name
        copy.write_text(text.replace(INSTALLED_STANDOFF, str(standoff)))
        copies.append(copy)
    return copies


def test_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = _need("systemd-analyze")
    units = _units_for_this_machine(tmp_path)
    names = {u.name for u in units}
    assert {"standoff@.service", "standoff-backup.service", "standoff-backup.timer"} <= names
    done = subprocess.run([analyze, "verify", *map(str, units)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    for unit in units:
        if unit.suffix != ".service":
            continue
        text = unit.read_text()
        for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes",
                     "User=standoff", "EnvironmentFile=/etc/standoff/standoff.env",
                     "ReadWritePaths=/var/lib/standoff"):
            assert line in text, (unit.name, line)
        # systemd's own score of what the sandbox leaves open (0 best, 10 worst)
        score = subprocess.run([analyze, "security", "--offline=true", str(unit)],
                               capture_output=True, text=True, timeout=60, check=False)
        level = re.search(r"Overall exposure level for \S+: ([\d.]+)", score.stdout)
        assert level is not None, score.stdout[-500:] + score.stderr[-500:]
        assert float(level.group(1)) <= 2.0, (unit.name, level.group(0))
    assert "Restart=on-failure" in (tmp_path / "standoff@.service").read_text()


def test_the_example_environment_names_real_settings() -> None:
    """Every STANDOFF_* the example names (commented or not) is a setting, and its
    active lines make valid settings: a typo there would be silently ignored."""
    from dataclasses import fields

    from standoff.judge.settings import Settings

    known = {"STANDOFF_" + f.name.upper() for f in fields(Settings)}
    named = set(re.findall(r"^#?(STANDOFF_[A-Z0-9_]+)=", (DEPLOY / "standoff.env").read_text(),
                           re.M))
    assert named and named <= known, named - known
    active = Settings.from_env(env_file_settings())
    assert active.trusted_proxies == ("127.0.0.1/32", "::1/128")
    assert active.secure_cookies and not active.is_sqlite
    # --workers N hands the settings to each worker process through the environment
    assert Settings.from_env(active.to_env()) == active


# -- Caddy in front of two judges ------------------------------------------------------

@dataclass
class Stack:
    url: str
    root_cert: Path
    judges: list[ServerProcess]
    caddy: subprocess.Popen[bytes]
    caddy_log: Path

    def client(self, source: str) -> httpx.Client:
        """A client of the HTTPS front, connecting from ``source`` (a loopback address)
        and trusting Caddy's root certificate alone."""
        tls = ssl.create_default_context(cafile=str(self.root_cert))
        transport = httpx.HTTPTransport(verify=tls, local_address=source)
        return httpx.Client(base_url=self.url, transport=transport, timeout=60)


def _start_caddy(tmp: Path, https_port: int, upstreams: list[str]
                 ) -> tuple[subprocess.Popen[bytes], Path]:
    caddy = _need("caddy")
    data = tmp / "caddy-data"
    config = tmp / "Caddyfile"
    # test-only global options; the site is deploy/Caddyfile, imported as it is
    config.write_text(f"""{{
\tadmin off
\tdefault_bind 127.0.0.1
\thttps_port {https_port}
\tauto_https disable_redirects
\tlocal_certs
\tskip_install_trust
\tstorage file_system {data}
}}

import {DEPLOY / "Caddyfile"}
""")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp),
           "XDG_DATA_HOME": str(tmp / "xdg-data"), "XDG_CONFIG_HOME": str(tmp / "xdg-config"),
           "STANDOFF_DOMAIN": f"https://127.0.0.1:{https_port}",
           "STANDOFF_UPSTREAMS": " ".join(upstreams)}
    log = tmp / "caddy.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter",
                                 "caddyfile"], env=env, stdout=out, stderr=subprocess.STDOUT,
                                cwd=tmp, start_new_session=True)
    return proc, data / "pki" / "authorities" / "local" / "root.crt"


def _wait_for_https(stack: Stack, timeout: float = 30) -> None:
    """Until Caddy answers over TLS with a certificate its root signed (it issues the
    certificate in the background after starting). ``/metrics`` is answered by Caddy
    itself (404), so this waits for Caddy alone, whatever the judges do."""
    end = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < end:
        if stack.caddy.poll() is not None:
            raise AssertionError(f"caddy exited: {stack.caddy_log.read_text()[-3000:]}")
        if stack.root_cert.exists():
            try:
                with stack.client("127.0.0.2") as client:
                    if client.get("/metrics").status_code == 404:
                        return
            except (httpx.HTTPError, ssl.SSLError) as exc:
                last = exc
        time.sleep(0.1)
    raise AssertionError(f"no HTTPS from caddy in {timeout}s ({last!r}): "
                         f"{stack.caddy_log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def stack(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if postgres is None:
        pytest.skip("PostgreSQL tests skipped on purpose: STANDOFF_TEST_PG=0")
    if isinstance(postgres, Exception):
        pytest.fail(f"PostgreSQL could not be started: {postgres}", pytrace=False)
    tmp = tmp_path_factory.mktemp("deploy")
    url = postgres.url(postgres.create_database())
    settings = {k: v for k, v in env_file_settings().items() if k != "STANDOFF_DATABASE_URL"}
    judges = [ServerProcess(url, None, (), None, **settings) for _ in range(2)]
    caddy: subprocess.Popen[bytes] | None = None
    try:
        for judge in judges:  # one after the other: the first one migrates the database
            judge.start()
        port = free_port()
        caddy, root = _start_caddy(tmp, port, [f"127.0.0.1:{j.port}" for j in judges])
        built = Stack(f"https://127.0.0.1:{port}", root, judges, caddy, tmp / "caddy.log")
        _wait_for_https(built)
        yield built
    finally:
        if caddy is not None:
            _stop(caddy)
        for judge in judges:
            judge.kill()


def _stop(caddy: subprocess.Popen[bytes]) -> None:
    if caddy.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(caddy.pid, signal.SIGTERM)
        try:
            caddy.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(caddy.pid, signal.SIGKILL)
            caddy.wait(10)


def test_with_no_judge_answering_caddy_answers_in_the_judges_error_format(
        tmp_path: Path) -> None:
    """Both judges down (an upgrade, a crash): after its 5 s of retries Caddy answers
    503 as the judge would, so a bot reads it like any other refusal."""
    port, nobody = free_port(), free_port()
    caddy, root = _start_caddy(tmp_path, port, [f"127.0.0.1:{nobody}"])
    try:
        front = Stack(f"https://127.0.0.1:{port}", root, [], caddy, tmp_path / "caddy.log")
        _wait_for_https(front)
        with front.client("127.0.0.2") as client:
            started = time.monotonic()
            got = client.get("/api/v1/games")
            waited = time.monotonic() - started
        assert got.status_code == 503, got.text
        assert got.json()["error"] == "unavailable"
        assert got.headers["retry-after"] == "30"
        assert 4 < waited < 9, waited
    finally:
        _stop(caddy)


def _requests_seen(judge: ServerProcess, path: str) -> int:
    return sum(path in line for line in judge.lines)


def test_a_phase_played_through_https_on_two_judges(stack: Stack) -> None:
    """Sign-ups, a game, seats, orders, processing and the result read back, all
    through Caddy; then one judge dies and play goes on through the other."""
    with stack.client("127.0.0.2") as client:
        api = Api(client)
        rng = random.Random(26)
        table = api.full_game()
        assert api.game(table)["status"] == "active"
        after = play_phase(api, table, rng)
        assert after["phase"] == "F1901M"
        phases = api.phases(table)
        assert [p["phase"] for p in phases] == ["S1901M"]
        assert set(phases[0]["orders"]) == set(table.players)
        assert phases[0]["results"]
        # round robin: both judges served the game
        for judge in stack.judges:
            assert _requests_seen(judge, "/api/v1/games") > 0, judge.lines[-20:]

        # a judge dies (SIGKILL, as in a crash): Caddy retries the other one
        stack.judges[0].kill()
        after = play_phase(api, table, rng)
        assert after["phase"] in ("F1901R", "W1901A", "S1902M"), after["phase"]
        assert [p["phase"] for p in api.phases(table)][:2] == ["S1901M", "F1901M"]


def test_the_proxy_blocks_metrics(stack: Stack) -> None:
    with stack.client("127.0.0.2") as client:
        got = client.get("/metrics")
        assert got.status_code == 404
        assert got.json()["error"] == "not_found"
        assert client.get("/metrics/anything").status_code == 404


def test_session_cookies_are_secure_and_csrf_passes_through_caddy(stack: Stack) -> None:
    """Caddy keeps the Host header, so the judge's origin check (Origin's host against
    Host) accepts the site's own pages and still refuses another origin."""
    with stack.client("127.0.0.2") as client:
        api = Api(client)
        name = f"cookie-{os.getpid()}"
        api.call("POST", "/accounts", body={"username": name, "password": PASSWORD}, expect=201)
        login = api.call("POST", "/session", body={"username": name, "password": PASSWORD},
                         expect=201)
        cookies = login.headers.get_list("set-cookie")
        assert len(cookies) == 2 and all("secure" in c.lower() for c in cookies), cookies
        session = login.cookies["standoff_session"]
        csrf = login.json()["csrf_token"]
        headers = {"Cookie": f"standoff_session={session}", "X-CSRF-Token": csrf}
        api.call("DELETE", "/session", headers={**headers, "Origin": "https://evil.example"},
                 expect=403)
        api.call("DELETE", "/session", headers={**headers, "Origin": stack.url}, expect=204)


def test_the_throttles_see_the_client_not_the_proxy_nor_a_forged_header(stack: Stack) -> None:
    """Eleven wrong log-ins through Caddy from 127.0.0.3, each claiming to come from
    elsewhere in X-Forwarded-For: the eleventh is throttled, keyed on 127.0.0.3.
    Another client behind the same proxy is not throttled, and a forged header sent
    to a judge directly is not believed, either way."""
    wrong = {"password": "not the password"}
    with stack.client("127.0.0.3") as attacker:
        for i in range(10):
            got = attacker.post("/api/v1/tokens", json={"username": f"nobody-a{i}", **wrong},
                                headers={"X-Forwarded-For": f"203.0.113.{10 + i}"})
            assert got.status_code == 401, (i, got.status_code, got.text)
        got = attacker.post("/api/v1/tokens", json={"username": "nobody-a10", **wrong},
                            headers={"X-Forwarded-For": FORGED})
        assert got.status_code == 429, got.text
    with stack.client("127.0.0.4") as neighbour:
        # the proxy's address is not the key: a second client of Caddy logs in freely
        got = neighbour.post("/api/v1/tokens", json={"username": "nobody-b0", **wrong})
        assert got.status_code == 401, got.text
    live = next(j for j in stack.judges if j.proc is not None and j.proc.poll() is None)
    direct = f"http://127.0.0.1:{live.port}"
    # straight to a judge, not through the proxy: the header is the client's own claim
    with httpx.Client(base_url=direct, transport=httpx.HTTPTransport(local_address="127.0.0.4"),
                      timeout=60) as forger:
        got = forger.post("/api/v1/tokens", json={"username": "nobody-b1", **wrong},
                          headers={"X-Forwarded-For": "127.0.0.3"})
        assert got.status_code == 401, got.text  # not taken for the throttled 127.0.0.3
    with httpx.Client(base_url=direct, transport=httpx.HTTPTransport(local_address="127.0.0.3"),
                      timeout=60) as escaper:
        got = escaper.post("/api/v1/tokens", json={"username": "nobody-a11", **wrong},
                           headers={"X-Forwarded-For": FORGED})
        assert got.status_code == 429, got.text  # nor can the throttled one hide behind it


# -- the rule itself -------------------------------------------------------------------

@pytest.mark.parametrize(("peer", "header", "trusted", "client"), [
    # nobody trusted (the default): the header is never read
    ("127.0.0.1", ["203.0.113.9"], (), "127.0.0.1"),
    # a client that is not a trusted proxy cannot claim another address
    ("198.51.100.7", ["203.0.113.9"], ("127.0.0.1",), "198.51.100.7"),
    # Caddy's replaced header: its one hop is the client
    ("127.0.0.1", ["198.51.100.7"], ("127.0.0.1",), "198.51.100.7"),
    # an appending proxy: whatever the client put further left is ignored
    ("127.0.0.1", ["203.0.113.9, 198.51.100.7"], ("127.0.0.1",), "198.51.100.7"),
    # two trusted proxies in a row (a CDN in 10/8, then Caddy), header on two lines
    ("127.0.0.1", ["203.0.113.9, 198.51.100.7", "10.1.2.3"], ("127.0.0.1", "10.0.0.0/8"),
     "198.51.100.7"),
    # IPv6, and a peer written as an IPv4-mapped IPv6 address
    ("::1", ["2001:db8::5"], ("::1",), "2001:db8::5"),
    ("::ffff:127.0.0.1", ["198.51.100.7"], ("127.0.0.1",), "198.51.100.7"),
    # a trusted proxy sending no header, or garbage: its own address, never a claim
    ("127.0.0.1", [], ("127.0.0.1",), "127.0.0.1"),
    ("127.0.0.1", ["203.0.113.9, not-an-address"], ("127.0.0.1",), "127.0.0.1"),
    # every hop trusted: the left-most is the client
    ("127.0.0.1", ["10.0.0.9"], ("127.0.0.1", "10.0.0.0/8"), "10.0.0.9"),
])
def test_the_client_is_the_right_most_untrusted_hop(peer: str, header: list[str],
                                                     trusted: tuple[str, ...],
                                                     client: str) -> None:
    from standoff.judge.proxies import client_address
    from standoff.judge.settings import Settings

    networks = Settings(trusted_proxies=trusted).trusted_proxies
    assert client_address(peer, header, networks) == client


def test_a_bad_trusted_proxy_stops_the_judge_from_starting(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from standoff.cli import cli

    done = CliRunner().invoke(cli, ["serve", "--database-url", f"sqlite:///{tmp_path}/j.db",
                                    "--trusted-proxies", "127.0.0.1,10.0.0.300"])
    assert done.exit_code == 2, done.output
    assert "10.0.0.300" in done.output


def _unit_commands(unit: Path, *keys: str) -> list[list[str]]:
    """The command lines of a unit's ``KEY=`` lines, as systemd would split them
    (``%%`` is a literal ``%``)."""
    import shlex

    out = []
    for line in unit.read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and key in keys:
            out.append(shlex.split(value.replace("%%", "%")))
    return out


def test_the_backup_units_commands_back_up_the_running_judge(stack: Stack,
                                                             tmp_path: Path) -> None:
    """standoff-backup.service's own command lines, run against the two judges'
    PostgreSQL while they serve, give a file that ``standoff restore`` puts back."""
    with stack.client("127.0.0.5") as client:
        api = Api(client)
        game = api.new_game(api.signup(), name="kept by the backup")
    backups = tmp_path / "backups"
    backups.mkdir()
    copy = tmp_path / "standoff-backup.service"
    copy.write_text((DEPLOY / "standoff-backup.service").read_text()
                    .replace(INSTALLED_STANDOFF, str(Path(sys.executable).parent / "standoff"))
                    .replace("/var/lib/standoff/backups", str(backups)))
    env = {**os.environ, **env_file_settings(),
           "STANDOFF_DATABASE_URL": stack.judges[1].db_url or ""}
    for command in _unit_commands(copy, "ExecStart", "ExecStartPost"):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    made = list(backups.glob("judge-*.sqlite"))
    assert len(made) == 1, made
    restored = tmp_path / "restored.db"
    done = subprocess.run([sys.executable, "-m", "standoff", "restore", str(made[0]),
                           "--database-url", f"sqlite:///{restored}"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    import sqlite3

    with contextlib.closing(sqlite3.connect(restored)) as db:
        names = {row[0] for row in db.execute("SELECT name FROM games WHERE id = ?",
                                              (game["id"],))}
    assert names == {"kept by the backup"}
