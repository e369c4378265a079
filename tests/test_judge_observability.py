"""Watching the judge (issue 26): its logs and its metrics, from a real ``standoff serve``.

Logs: one line per request with a request id, a 500 logged once with its
traceback, no secret anywhere (password, token, session, invite code, a failed
statement's values), and ``--log-format json`` one object per line. Metrics:
exact request counts by route template and status, the latency histogram,
phases processed, the processing lag and the games set aside (read from the
database at scrape time), mail failures and queue, and with ``--workers 2`` one
count across both processes.

The 500s are real failures: the database refuses a write because its schema
was changed under the running judge (a CHECK constraint that no row passes on
PostgreSQL, a trigger that aborts on SQLite), as a botched manual change would.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from judge_fixtures import PASSWORD, Api, ServerProcess, settings_for

SECRET_INVITE = "Zq8-invite-code-that-must-not-be-logged"


def _sql(db_url: str, *statements: str) -> None:
    engine = create_engine(settings_for(db_url).database_url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def _break_token_writes(db_url: str) -> None:
    """Every new token or session row is refused by the database from now on."""
    if db_url.startswith("sqlite"):
        _sql(db_url, "CREATE TRIGGER broken_tokens BEFORE INSERT ON tokens "
                     "BEGIN SELECT RAISE(ABORT, 'tokens are broken'); END")
    else:
        _sql(db_url, "ALTER TABLE tokens ADD CONSTRAINT broken_tokens CHECK (false) NOT VALID")


def _output(server: ServerProcess) -> str:
    server.stop()
    return "".join(server.lines)


def _until(check: Callable[[], Any], timeout: float = 20, what: str = "") -> Any:
    """Polls ``check`` (a scrape, a look at the output) until it gives a true value."""
    end = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.05)


def _secrets_session(api: Api) -> dict[str, str]:
    """A known account used every way a secret travels: password, bearer token, page
    session cookie and CSRF token, an invite code in a URL. The secrets, by name."""
    name = f"watcher{time.monotonic_ns() % 10**9}"
    token = api.signup(name)
    api.call("GET", "/account", token, expect=200)
    login = api.call("POST", "/session", body={"username": name, "password": PASSWORD},
                     expect=201)
    session = login.cookies.get("standoff_session") or ""
    csrf = login.json().get("csrf_token", "")
    assert session and csrf
    api.client.cookies.set("standoff_session", session)
    api.call("GET", "/account", expect=200)
    api.call("PUT", "/account/email", body={"email": "w@example.org"},
             headers={"X-CSRF-Token": csrf}, expect=200)
    api.client.cookies.clear()
    game = api.new_game(token, private=True)
    api.client.get(f"/games/{game['id']}?invite={SECRET_INVITE}")
    api.call("GET", f"/games/{game['id']}?invite={SECRET_INVITE}", token)
    return {"password": PASSWORD, "token": token, "session": session, "csrf": csrf,
            "invite": SECRET_INVITE, "name": name}


# -- logs ------------------------------------------------------------------------------

def test_a_500_is_logged_once_and_no_secret_is_logged(db_url: str,
                                                      servers: list[ServerProcess]) -> None:
    server = ServerProcess(db_url)
    servers.append(server)
    api = server.start().client()
    secrets = _secrets_session(api)
    _break_token_writes(db_url)
    failed = api.call("POST", "/tokens", body={"username": secrets["name"],
                                               "password": PASSWORD})
    assert failed.status_code == 500
    assert failed.json()["error"] == "internal" and "Traceback" not in failed.text
    rid = failed.headers["x-request-id"]
    out = _output(server)
    # one ERROR line for the request, carrying the traceback, once
    failures = [ln for ln in out.splitlines() if ln.startswith("ERROR:")]
    assert len(failures) == 1, out[-3000:]
    assert "POST /api/v1/tokens 500" in failures[0] and f"id={rid}" in failures[0]
    assert out.count("sqlalchemy.exc.IntegrityError") == 1, out[-3000:]
    assert "Exception in ASGI application" not in out
    # no secret, no statement's values
    for what, secret in secrets.items():
        if what != "name":
            assert secret not in out, f"the {what} is in the log"
    assert "invite=[hidden]" in out
    assert "Failing row contains" not in out and "[parameters:" not in out, out[-3000:]
    # one line per request, with its id
    assert re.search(r"^INFO: +\S+ GET /api/v1/account 200 [\d.]+ms id=[0-9a-f]{32}$", out,
                     re.MULTILINE), out[-3000:]


def test_json_logs_parse_line_by_line(tmp_path: Path, servers: list[ServerProcess]) -> None:
    db_url = f"sqlite:///{tmp_path / 'judge.db'}"
    server = ServerProcess(db_url, args=("--log-format", "json", "--trusted-proxies",
                                         "127.0.0.1"))
    servers.append(server)
    api = server.start().client()
    secrets = _secrets_session(api)
    mine = api.call("GET", "/variants", headers={"X-Request-ID": "lb-7f3a.42"}, expect=200)
    assert mine.headers["x-request-id"] == "lb-7f3a.42"
    forged = api.call("GET", "/variants", headers={"X-Request-ID": "bad id\twith spaces"},
                      expect=200)
    assert re.fullmatch(r"[0-9a-f]{32}", forged.headers["x-request-id"])
    proxied = api.call("GET", "/variants", headers={"X-Forwarded-For": "198.51.100.9"},
                       expect=200)
    _break_token_writes(db_url)
    failed = api.call("POST", "/tokens", body={"username": secrets["name"],
                                               "password": PASSWORD}, expect=500)
    out = _output(server)
    objects = [json.loads(line) for line in out.splitlines()]  # every line is JSON
    assert any("standoff judge on" in o["message"] for o in objects)
    requests = [o for o in objects if o["logger"] == "standoff.judge.requests"]
    assert {"request_id", "method", "path", "route", "status", "duration_ms",
            "client"} <= set(requests[0])
    ids = {o["request_id"] for o in requests}
    assert {"lb-7f3a.42", forged.headers["x-request-id"],
            failed.headers["x-request-id"]} <= ids
    # the client as the throttles see it: the address a trusted proxy forwarded
    [behind] = [o for o in requests if o["request_id"] == proxied.headers["x-request-id"]]
    assert behind["client"] == "198.51.100.9"
    [failure] = [o for o in objects if "traceback" in o]
    assert failure["status"] == 500 and failure["route"] == "/api/v1/tokens"
    assert failure["level"] == "error"
    for what, secret in secrets.items():
        if what != "name":
            assert secret not in out, f"the {what} is in the log"


# -- metrics ---------------------------------------------------------------------------

def scrape(address: str) -> dict[str, float]:
    """The metrics at ``address`` as {'name{label="v",...}': value} (labels sorted)."""
    from prometheus_client.parser import text_string_to_metric_families

    body = httpx.get(f"http://{address}/metrics", timeout=10).text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


def requests_of(metrics: dict[str, float], route: str, status: int, method: str = "GET"
                ) -> float:
    return metrics.get(f'standoff_http_requests_total{{method="{method}",route="{route}",'
                       f'status="{status}"}}', 0.0)


def test_metrics(tmp_path: Path, servers: list[ServerProcess]) -> None:
    from pg import free_port

    db_url = f"sqlite:///{tmp_path / 'judge.db'}"
    address = f"127.0.0.1:{free_port()}"
    dead_smtp = free_port()  # nothing listens: every mail fails
    server = ServerProcess(db_url, args=("--metrics-address", address),
                           STANDOFF_SCHEDULER="0", STANDOFF_SMTP_HOST="127.0.0.1",
                           STANDOFF_SMTP_PORT=str(dead_smtp), STANDOFF_MAIL_ATTEMPTS="2",
                           STANDOFF_MAIL_RETRY_SECONDS="3600")
    servers.append(server)
    api = server.start().client()
    # not on the judge's port
    assert api.client.get("/metrics").status_code == 404
    table = api.full_game(emails=True)  # 7 players and a master with addresses
    for _ in range(3):
        api.call("GET", f"/games/{table.id}", table.master, expect=200)
    for missing in (999_999, 888_888):
        api.call("GET", f"/games/{missing}", table.master, expect=404)
    metrics = scrape(address)
    assert requests_of(metrics, "/api/v1/games/{game_id}", 200) == 3
    assert requests_of(metrics, "/api/v1/games/{game_id}", 404) == 2
    assert requests_of(metrics, "/api/v1/games/{game_id}/seats", 201, "POST") == 7
    assert not any("999999" in key or f"/games/{table.id}" in key for key in metrics)
    bucket = ('standoff_http_request_duration_seconds_bucket{le="%s",method="GET",'
              'route="/api/v1/games/{game_id}"}')
    assert metrics[bucket % "0.005"] <= metrics[bucket % "1.0"] <= metrics[bucket % "+Inf"] == 5
    assert metrics["standoff_phases_processed_total"] == 0
    assert metrics["standoff_database_up"] == 1
    assert metrics["standoff_processing_lag_seconds"] == 0
    assert metrics["standoff_games_set_aside"] == 0
    # the game's start: a mail to each of 8 people, each failing once, then waiting
    metrics = _until(lambda: (m := scrape(address)).get(
        'standoff_mail_total{outcome="failed"}') == 8 and m, what="8 failed mails")
    assert metrics["standoff_mail_queue"] == 8
    assert metrics['standoff_mail_total{outcome="sent"}'] == 0

    # a phase processed (the master forces it: the scheduler is off in this server)
    api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
    assert api.game(table)["phase"] != "S1901M"
    metrics = _until(lambda: (m := scrape(address)).get(
        'standoff_mail_total{outcome="failed"}') == 16 and m, what="the results' mails")
    assert metrics["standoff_phases_processed_total"] == 1
    assert metrics["standoff_mail_queue"] == 16

    # an hour overdue (nobody processes it: no scheduler), then set aside
    _sql(db_url, f"UPDATE games SET deadline = datetime('now', '-3600 seconds') "
                 f"WHERE id = {table.id}")
    metrics = scrape(address)
    assert 3599 <= metrics["standoff_processing_lag_seconds"] < 3700
    _sql(db_url, f"UPDATE games SET failed_turn = turn WHERE id = {table.id}")
    metrics = scrape(address)
    assert metrics["standoff_games_set_aside"] == 1
    assert metrics["standoff_processing_lag_seconds"] == 0  # a set-aside game is not late


def test_metrics_add_up_across_workers(db_url: str, servers: list[ServerProcess]) -> None:
    from pg import free_port

    address = f"127.0.0.1:{free_port()}"
    server = ServerProcess(db_url, args=("--workers", "2", "--metrics-address", address))
    servers.append(server)
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    workers = _until(lambda: _children(pid) if len(_children(pid)) >= 2 else None,
                     what="two workers")
    directory = _environ(workers[0])["PROMETHEUS_MULTIPROC_DIR"]
    sent = 0
    # fresh connections, until both workers have answered some (each writes its own file)
    while sent < 40 or len(_answering(directory)) < 2:
        assert sent < 2000, "one worker answered every request"
        with httpx.Client(base_url=server.url) as fresh:
            assert fresh.get("/api/v1/variants").status_code == 200
        sent += 1
    metrics = scrape(address)
    assert requests_of(metrics, "/api/v1/variants", 200) == sent
    server.stop()
    assert not Path(directory).exists()  # serve removes the directory it made


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(p) for p in found]


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode().partition("=")[::2] for item in raw if b"=" in item)


def _answering(directory: str) -> list[Path]:
    """The worker processes' counter files that count a request to /api/v1/variants."""
    from prometheus_client.mmap_dict import MmapedDict

    return [path for path in Path(directory).glob("counter_*.db")
            if any('"/api/v1/variants"' in key and value > 0
                   for key, value, *_ in MmapedDict.read_all_values_from_file(  # type: ignore[no-untyped-call]
                       str(path)))]


@pytest.mark.parametrize("address", ["nowhere", "1.2.3.4:99999", "host:"])
def test_a_bad_metrics_address_is_refused(address: str) -> None:
    from standoff.judge.settings import Settings

    with pytest.raises(ValueError, match="HOST:PORT"):
        Settings(metrics_address=address)


@pytest.mark.parametrize(("path", "query", "params", "logged"), [
    ("/games/3", b"invite=abc&since=4", {}, "/games/3?invite=[hidden]&since=4"),
    ("/x", b"next=/lobby&t=" + b"A" * 43, {}, "/x?next=/lobby&t=[hidden]"),
    ("/x", b"api_key=1&session_id=2&csrf=3", {}, "/x?api_key=[hidden]&session_id=[hidden]"
                                                  "&csrf=[hidden]"),
    ("/reset/s3cr3t", b"", {"token": "s3cr3t"}, "/reset/[hidden]"),
    ("/api/v1/games/\nINFO:     forged", b"", {}, "/api/v1/games/%0AINFO:%20%20%20%20%20forged"),
])
def test_logged_paths_hide_secrets_and_cannot_forge_lines(path: str, query: bytes,
                                                           params: dict[str, str],
                                                           logged: str) -> None:
    from standoff.judge.logs import safe_path

    scope = {"type": "http", "path": path, "query_string": query, "path_params": params}
    assert safe_path(scope) == logged


def test_the_smtp_password_is_never_printed(db_url: str, servers: list[ServerProcess]) -> None:
    """Issue 26, logs: "never a password, token, SMTP password or SQL parameters". The
    settings' repr leaves it out, and a judge whose mail server refuses its log-in
    (a real aiosmtpd server without AUTH) logs the failed mail without it."""
    from standoff.judge.settings import Settings
    from test_judge_mail import smtp_server

    secret = "smtp-Secret-7d1e"
    assert secret not in repr(Settings(smtp_password=secret))
    with smtp_server() as (inbox, port):
        server = ServerProcess(db_url, None, (), None, STANDOFF_SMTP_HOST="127.0.0.1",
                               STANDOFF_SMTP_PORT=str(port), STANDOFF_SMTP_USER="judge",
                               STANDOFF_SMTP_PASSWORD=secret, STANDOFF_MAIL_ATTEMPTS="1")
        servers.append(server)
        api = server.start().client()
        name = f"mailed{time.monotonic_ns()}"
        api.signup(name, email=f"{name}@example.org")
        api.call("POST", "/session/code", body={"username": name}, expect=202)
        server.wait_for_line("sign-in code", timeout=30)
        out = _output(server)
        assert "failed" in out and "AUTH" in out, out[-2000:]
        assert secret not in out
        assert not inbox.mails
