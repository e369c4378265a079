"""E-mail from the judge, received by a real SMTP server on this machine (aiosmtpd):
game start, each phase's results, the end, deadline reminders (once per phase, also
with two server processes), retries, an unreachable server, and no SMTP at all.
No mail carries another power's pending orders or any press. SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest

from judge_fixtures import Api, ServerProcess, make_api

SECRET_PRESS = "the password is marmalade"
PENDING = "F MAO - NAO"


class Inbox:
    """An aiosmtpd handler keeping every mail; refuses the first ``refuse`` with 451."""

    def __init__(self, refuse: int = 0) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.refuse = refuse
        self.refused = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refused < self.refuse:
            self.refused += 1
            return "451 4.3.0 try again later"
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.mails.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def matching(self, subject: str) -> dict[str, EmailMessage]:
        """Mails whose subject holds ``subject``, by their one recipient."""
        found: dict[str, EmailMessage] = {}
        for rcpts, msg in self.mails:
            if subject in str(msg["Subject"]):
                assert len(rcpts) == 1 and rcpts[0] not in found, rcpts
                found[rcpts[0]] = msg
        return found

    def wait(self, subject: str, count: int, timeout: float = 20) -> dict[str, EmailMessage]:
        end = time.monotonic() + timeout
        while len(self.matching(subject)) < count:
            if time.monotonic() > end:
                raise AssertionError(f"{len(self.matching(subject))} of {count} mails "
                                     f"{subject!r}: {[str(m['Subject']) for _, m in self.mails]}")
            time.sleep(0.05)
        return self.matching(subject)


@contextlib.contextmanager
def smtp_server(refuse: int = 0) -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on this machine (aiosmtpd) keeping every mail: its inbox
    (refusing the first ``refuse`` mails with 451) and port."""
    from aiosmtpd.controller import Controller

    from pg import free_port

    inbox, port = Inbox(refuse=refuse), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as served:
        yield served


@pytest.fixture
def flaky_smtp() -> Iterator[tuple[Inbox, int]]:
    with smtp_server(refuse=2) as served:
        yield served


def mail_settings(port: int, **more: Any) -> dict[str, Any]:
    return {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_from": "judge@example.org",
            "mail_retry_seconds": 0.1, **more}


def _body(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")  # type: ignore[attr-defined]


EVERYONE = {f"{p}@example.org" for p in ("austria", "england", "france", "germany", "italy",
                                        "russia", "turkey", "master")}


def test_start_results_and_end(db_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with make_api(db_url, **mail_settings(port)) as api:
        table = api.full_game(emails=True, deadlines={"movement": 3600})
        started = inbox.wait("has begun", 8)
        assert set(started) == EVERYONE
        assert str(started["france@example.org"]["Subject"]).endswith("you are France")
        assert started["france@example.org"]["From"] == "judge@example.org"
        body = _body(started["england@example.org"])
        assert "you are England" in body and "S1901M" in body and "France: user" in body
        assert "you are the master" in _body(started["master@example.org"])

        fr = table.players["france"]
        api.call("PUT", f"/games/{table.id}/orders", fr,
                 {"orders": ["A PAR - BUR", "F BRE - MAO"]}, expect=200)
        api.call("POST", f"/games/{table.id}/messages", fr,
                 {"to": ["england"], "body": SECRET_PRESS}, expect=201)
        api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
        results = inbox.wait("S1901M results", 8)
        report = api.phases(table)[0]["report_text"]
        assert report and "A PAR - BUR" in report
        for msg in results.values():
            assert _body(msg).startswith(report)
            assert "F1901M" in _body(msg)

        api.call("PUT", f"/games/{table.id}/orders", fr, {"orders": [PENDING]}, expect=200)
        for token in table.players.values():
            api.call("PUT", f"/games/{table.id}/vote", token, {"draw": True}, expect=200)
        ended = inbox.wait("is over", 8)
        assert "a draw between Austria, England, France" in str(
            ended["italy@example.org"]["Subject"])
        assert "Centres at the end" in _body(ended["italy@example.org"])
    for _rcpts, msg in inbox.mails:
        assert SECRET_PRESS not in msg.as_string() and PENDING not in msg.as_string()


def test_anonymous_start_mails_name_nobody(db_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    with make_api(db_url, **mail_settings(port)) as api:
        api.full_game(emails=True, anonymous=True)
        started = inbox.wait("has begun", 8)
        for msg in started.values():
            assert "user" not in _body(msg) and "anonymous" in _body(msg)


def test_reminders_once_to_powers_without_orders(db_url: str,
                                                 smtp: tuple[Inbox, int]) -> None:
    """Two server processes (two apps on one database) watch the same game; the
    phase's reminders go out once, to the five powers that sent no orders."""
    inbox, port = smtp
    settings = mail_settings(port, reminder_seconds=3600, reminder_fraction=0.9)
    with make_api(db_url, **settings) as api, make_api(db_url, **settings):
        # reminded 3 s after the start (0.9 of 30 s before the deadline): time enough to
        # submit France's and England's orders first, even on a slow machine
        table = api.full_game(emails=True, deadlines={"movement": 30})
        for power, orders in [("france", ["F BRE - PIC"]),
                              ("england", ["F LON - NTH"])]:
            api.call("PUT", f"/games/{table.id}/orders", table.players[power],
                     {"orders": orders}, expect=200)
        api.call("POST", f"/games/{table.id}/messages", table.players["france"],
                 {"to": ["germany"], "body": SECRET_PRESS}, expect=201)
        reminded = inbox.wait("are due in", 5, timeout=30)
        time.sleep(1.0)  # both processes looked again meanwhile
        assert set(inbox.matching("are due in")) == {
            f"{p}@example.org" for p in ("austria", "germany", "italy", "russia", "turkey")}
        msg = reminded["germany@example.org"]
        assert "Germany's orders for S1901M" in str(msg["Subject"])
        assert "has not sent orders" in _body(msg)
        for _rcpts, msg in inbox.mails:
            text = msg.as_string()
            assert "F BRE - PIC" not in text and "F LON - NTH" not in text
            assert SECRET_PRESS not in text


def test_failed_mails_are_tried_again(db_url: str, flaky_smtp: tuple[Inbox, int]) -> None:
    inbox, port = flaky_smtp
    with make_api(db_url, **mail_settings(port, mail_attempts=4)) as api:
        api.full_game(emails=True)
        inbox.wait("has begun", 8)
    assert inbox.refused == 2


def test_an_unreachable_smtp_server_stops_nothing(db_url: str,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    from pg import free_port

    caplog.set_level(logging.WARNING, logger="standoff.judge.mail")
    with make_api(db_url, **mail_settings(free_port(), mail_attempts=2)) as api:
        table = api.full_game(emails=True)
        api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
        assert api.game(table)["phase"] == "F1901M"
        end = time.monotonic() + 10
        while "dropped" not in caplog.text and time.monotonic() < end:
            time.sleep(0.05)
    assert "failed 2 time(s)" in caplog.text and "dropped" in caplog.text


def test_without_smtp_nothing_is_sent(api: Api) -> None:
    app = api.client.app
    assert app.state.mailer is None
    assert not any("Mailer" in repr(listener) for listener in app.state.judge.listeners)
    table = api.full_game(emails=True)
    api.call("POST", f"/games/{table.id}/master/process", table.master, expect=200)
    assert api.game(table)["phase"] == "F1901M"


def test_mail_settings_come_from_the_environment() -> None:
    from standoff.judge.settings import Settings

    env = {"STANDOFF_SMTP_HOST": "mail.example.org", "STANDOFF_SMTP_PORT": "587",
           "STANDOFF_SMTP_FROM": "judge@example.org", "STANDOFF_SMTP_USER": "judge",
           "STANDOFF_SMTP_PASSWORD": "secret", "STANDOFF_SMTP_STARTTLS": "1",
           "STANDOFF_REMINDER_SECONDS": "7200", "STANDOFF_REMINDER_FRACTION": "0.5"}
    settings = Settings.from_env(env)
    assert settings.mail_enabled and settings.smtp_starttls and settings.smtp_port == 587
    assert Settings.from_env(settings.to_env()) == settings
    assert settings.reminder_before(48 * 3600) == 7200  # two hours before a two-day phase
    assert settings.reminder_before(3600) == 1800  # half of a one-hour phase
    assert not Settings.from_env({}).mail_enabled
    assert Settings.from_env({"STANDOFF_REMINDER_SECONDS": "0"}).reminder_before(3600) == 0
    with pytest.raises(ValueError, match="REMINDER_FRACTION"):
        Settings.from_env({"STANDOFF_REMINDER_FRACTION": "2"})


def test_serve_takes_the_smtp_settings_as_flags(db_url: str, smtp: tuple[Inbox, int],
                                                servers: list[ServerProcess]) -> None:
    """``standoff serve --smtp-host ... --smtp-port ... --smtp-from ...``: a real
    server given its mail settings on the command line sends the start mails."""
    inbox, port = smtp
    server = ServerProcess(db_url, args=("--smtp-host", "127.0.0.1", "--smtp-port", str(port),
                                         "--smtp-from", "flags@example.org"))
    servers.append(server)
    server.start()
    server.client().full_game(emails=True)
    started = inbox.wait("has begun", 8)
    assert set(started) == EVERYONE
    assert {str(m["From"]) for m in started.values()} == {"flags@example.org"}


def test_mail_discloses_the_bots(db_url: str, smtp: tuple[Inbox, int]) -> None:
    """Issue 28: every bot seat is disclosed in mail too, anonymous games included:
    the start mail names each bot-played power's bot, each results mail the powers
    bots played that phase."""
    inbox, port = smtp
    with make_api(db_url, **mail_settings(port)) as api:
        me = api.signup(email="england@example.org")
        game = api.new_game(me, power="england", fill_bot="heuristic", join_seconds=0,
                            anonymous=True)
        started = inbox.wait("has begun", 1)
        body = _body(started["england@example.org"])
        assert "France: the bot heuristic" in body and "England: user" not in body
        end = time.monotonic() + 30
        while not api.json("GET", f"/games/{game['id']}", me)["powers"]["france"]["ready"]:
            assert time.monotonic() < end, "the bots never ordered"
            time.sleep(0.1)
        api.json("POST", f"/games/{game['id']}/ready", me, {"ready": True})
        results = _body(inbox.wait("S1901M results", 1)["england@example.org"])
        assert "Played by bots this phase: Austria (heuristic), France (heuristic)" in results
