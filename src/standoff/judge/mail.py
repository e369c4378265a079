"""E-mail to players: game start, deadline reminders, each phase's results, the game's end.

Nothing here runs unless an SMTP server is configured (``STANDOFF_SMTP_HOST``
or ``--smtp-host``); without one the judge sends nothing and nothing fails.

Off the request path: the judge's events (``game_started``, ``phase_processed``,
``game_finished``, told after their transaction committed) only put a small
job on a queue. One mail thread per server process takes the jobs, reads what
it needs from the database, writes the mails and sends them, so neither a
request nor the scheduler ever waits for an SMTP server. A mail that fails is
tried again later (``mail_attempts`` in all, the wait doubling from
``mail_retry_seconds``); one that never goes is logged and dropped. Nothing in
here may raise into the judge.

Who gets what (only accounts with an e-mail address):

* every player and the master: the game's start (a player learns their own
  power, and who plays the others unless the game is anonymous), each
  phase's results report (:func:`standoff.game_report`'s text: processed orders are
  public by then) and the game's end;
* each power that has something to order and has not submitted orders: one
  reminder per phase, ``Settings.reminder_before`` seconds before the
  deadline. The scheduler (``scheduler.py``, the one loop that watches the
  clock) claims each phase's reminders in the database and tells this thread
  (``reminder_due``), so however many server processes look, a phase's
  reminders go out once (``clock.claim_reminder``).

No mail ever holds a power's pending orders or any press: reminders say only
that orders are missing, and results come only after processing.

Each recipient gets a mail of their own: nobody learns another player's address.

Besides the games' mails, :meth:`Mailer.send` queues one mail written elsewhere:
a sign-in code (``sign_in_codes.py``), sent by the same thread, never by a request.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import logging
import queue
import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from sqlalchemy import select

from .context import Judge
from .db import utcnow
from .models import GameRow, PendingOrdersRow, PhaseRow, Seat, User

log = logging.getLogger("standoff.judge.mail")


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


def when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment is not None else "none (paused)"


def span(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds >= 2 * 3600:
        return f"{round(seconds / 3600)} hours"
    if seconds >= 120:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds} seconds"


class Mailer:
    """The mail thread of one server process."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.settings = judge.settings
        self.sender = self.settings.smtp_from or f"standoff@{socket.getfqdn()}"
        self._jobs: queue.Queue[tuple[str, int, dict[str, Any]] | None] = queue.Queue()
        #: mails waiting to be (re)tried: (when, tie-breaker, attempt, mail)
        self._later: list[tuple[float, int, int, Mail]] = []
        self._tie = itertools.count()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        #: told ``observer(outcome, backlog)`` as mails are queued, sent, failed (to be
        #: retried) or dropped, with how many then wait: the metrics, when on
        self.observer: Callable[[str, int], None] | None = None

    # -- the judge's side ------------------------------------------------------------

    def on_event(self, event: str, game_id: int, data: dict[str, Any]) -> None:
        """A listener of the judge's events: queues the job, nothing more."""
        self._jobs.put((event, game_id, dict(data)))

    def send(self, mail: Mail) -> None:
        """Queue one mail written elsewhere (a sign-in code): the thread sends it, and
        retries or drops it, like the others. Only its subject is ever logged."""
        self._jobs.put(("mail", 0, {"mail": mail}))

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="standoff-mail", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after sending what is queued now (for at most ``timeout`` seconds)."""
        if self._thread is None:
            return
        self._jobs.put(None)
        self._thread.join(timeout)
        self._stop.set()
        self._thread.join(1)
        self._thread = None
        if self._later:
            log.warning("%d mail(s) not sent before shutdown", len(self._later))

    # -- the thread ------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = self._later[0][0] - time.monotonic() if self._later else None
            try:
                job = self._jobs.get(timeout=max(wait, 0.0) if wait is not None else None)
            except queue.Empty:
                job = ("", 0, {})
            if job is None:  # stopping: send what is ready, then end
                self._guard(self._drain)
                self._send_due(force=True)
                return
            if job[0]:
                self._guard(functools.partial(self._compose, *job))
                self._guard(self._drain)
            self._send_due()

    def _guard(self, step: Callable[[], object]) -> None:
        try:
            step()
        except Exception:  # the database is away, a bug: log it, keep the thread alive
            log.exception("the mail thread's work failed; it goes on")

    def _drain(self) -> None:
        """Compose every job already queued (so one SMTP connection sends them all)."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is None:
                self._jobs.put(None)
                return
            self._compose(*job)

    def _queue(self, mails: Iterable[Mail]) -> None:
        for mail in mails:
            heapq.heappush(self._later, (0.0, next(self._tie), 1, mail))
            self._tell("queued")

    def _tell(self, outcome: str, count: int = 1) -> None:
        if self.observer is not None:
            for _ in range(count):
                try:
                    self.observer(outcome, len(self._later))
                except Exception:
                    log.exception("the mail observer failed")

    def _send_due(self, force: bool = False) -> None:
        now = time.monotonic()
        due: list[tuple[int, Mail]] = []
        while self._later and (force or self._later[0][0] <= now):
            _, _, attempt, mail = heapq.heappop(self._later)
            due.append((attempt, mail))
        if due:
            self._deliver(due, retry=not force)

    def _deliver(self, due: list[tuple[int, Mail]], retry: bool) -> None:
        """Send over one connection; what fails is tried again later (or dropped)."""
        cfg = self.settings
        failed: list[tuple[int, Mail, str]] = []
        sent = 0
        try:
            with smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=cfg.smtp_timeout) as smtp:
                if cfg.smtp_starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if cfg.smtp_user:
                    smtp.login(cfg.smtp_user, cfg.smtp_password)
                for attempt, mail in due:
                    try:
                        smtp.send_message(self._message(mail))
                    except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError,
                            smtplib.SMTPSenderRefused) as exc:
                        failed.append((attempt, mail, str(exc)))  # this mail only
                    sent += 1
        except (smtplib.SMTPException, OSError) as exc:
            # the connection failed: this mail and those after it did not go
            failed += [(a, m, f"{type(exc).__name__}: {exc}") for a, m in due[sent:]]
        self._tell("sent", len(due) - len(failed))
        for attempt, mail, reason in failed:
            if retry and attempt < cfg.mail_attempts:
                delay = cfg.mail_retry_seconds * 2 ** (attempt - 1)
                log.warning("mail to %s (%s) failed (%s); trying again in %gs", mail.to,
                            mail.subject, reason, delay)
                heapq.heappush(self._later, (time.monotonic() + delay, next(self._tie),
                                             attempt + 1, mail))
                self._tell("failed")
            else:
                log.error("mail to %s (%s) failed %d time(s) (%s); dropped", mail.to,
                          mail.subject, attempt, reason)
                self._tell("dropped")

    def _message(self, mail: Mail) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = mail.to
        msg["Subject"] = mail.subject
        msg["Date"] = formatdate(usegmt=True)
        msg["Message-ID"] = make_msgid(domain=self.sender.partition("@")[2] or None)
        msg.set_content(mail.body)
        return msg

    # -- what to send ----------------------------------------------------------------

    def _compose(self, event: str, game_id: int, data: dict[str, Any]) -> None:
        if event == "game_started":
            self._queue(self._started(game_id))
        elif event == "phase_processed":
            self._queue(self._results(game_id, int(data["turn"])))
        elif event == "game_finished":
            self._queue(self._finished(game_id))
        elif event == "reminder_due":
            self._queue(self._reminders(game_id, int(data["turn"])))
        elif event == "mail" and isinstance(data.get("mail"), Mail):
            self._queue([data["mail"]])

    def _people(self, s: Any, game: GameRow) -> tuple[dict[str, Seat], dict[int, str]]:
        """The game's seats, and the e-mail address of each player and the master."""
        seats = {seat.power: seat for seat in s.scalars(select(Seat).where(
            Seat.game_id == game.id))}
        ids = {seat.user_id for seat in seats.values() if seat.user_id is not None} | {
            game.master_id}
        emails = {uid: email for uid, email in s.execute(
            select(User.id, User.email).where(User.id.in_(ids))) if email}
        return seats, emails

    def _footer(self, game: GameRow) -> str:
        url = self.settings.public_url.rstrip("/")
        where = f"{url}/api/v1/games/{game.id}" if url else f"game {game.id} on the judge"
        return f"\n-- \nstandoff judge: {game.name} ({where})\n"

    def _each(self, game: GameRow, seats: dict[str, Seat], emails: dict[int, str],
              write: Callable[[str], tuple[str, str]]) -> list[Mail]:
        """One mail per player (and the master), each naming only the reader's power:
        ``write(who)`` gives the subject and body for the reader ``who``."""
        readers = [(seat.user_id, self._name(game, power))
                   for power, seat in sorted(seats.items()) if seat.user_id is not None]
        if game.master_id not in {uid for uid, _ in readers}:
            readers.append((game.master_id, "the master"))
        out = []
        for uid, who in readers:
            if uid in emails:
                subject, body = write(who)
                out.append(Mail(emails[uid], subject, body + self._footer(game)))
        return out

    def _name(self, game: GameRow, power: str) -> str:
        return self.judge.variants.rules(game).power_names.get(power, power)

    def _started(self, game_id: int) -> list[Mail]:
        with self.judge.db.read() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return []
            seats, emails = self._people(s, game)
            players = {uid: name for uid, name in s.execute(select(User.id, User.username).where(
                User.id.in_([seat.user_id for seat in seats.values()
                             if seat.user_id is not None])))}
            # a bot is disclosed even in an anonymous game; people are not
            lines = [f"  {self._name(game, p)}" + (
                f": the bot {seat.bot}" if seat.bot is not None and seat.user_id is None
                else "" if game.anonymous else
                f": {players.get(seat.user_id, '?') if seat.user_id is not None else '?'}")
                for p, seat in sorted(seats.items())]
            title = self.judge.variants.rules(game).title
            rest = (f"First phase: {game.phase}; orders are due by {when(game.deadline)}.\n\n"
                    f"The powers{' (the game is anonymous)' if game.anonymous else ''}:\n"
                    + "\n".join(lines) + "\n")

            def write(who: str) -> tuple[str, str]:
                return (f"[standoff] {game.name} has begun: you are {who}",
                        f"The game {game.name} ({title}) has begun; you are {who}.\n\n" + rest)

            return self._each(game, seats, emails, write)

    def _results(self, game_id: int, turn: int) -> list[Mail]:
        with self.judge.db.read() as s:
            game = s.get(GameRow, game_id)
            record = s.get(PhaseRow, (game_id, turn))
            if game is None or record is None:
                return []
            seats, emails = self._people(s, game)
            body = record.report_text or f"{record.phase} has been processed.\n"
            if record.bots:
                body += "\nPlayed by bots this phase: " + ", ".join(
                    f"{self._name(game, p)} ({bot})" for p, bot in sorted(record.bots.items())
                ) + ".\n"
            if game.status == "active" and game.turn == turn + 1:
                body += f"\nNext: {game.phase}, orders due by {when(game.deadline)}.\n"
            subject = f"[standoff] {game.name}: {record.phase} results"
            return self._each(game, seats, emails, lambda _who: (subject, body))

    def _finished(self, game_id: int) -> list[Mail]:
        with self.judge.db.read() as s:
            game = s.get(GameRow, game_id)
            if game is None or game.outcome is None:
                return []
            seats, emails = self._people(s, game)
            said = outcome_text(game, self.judge.variants.rules(game).power_names)
            centres = game.state.get("position", {}).get("centres", {})
            lines = [f"  {self._name(game, p)}: {len(cs)} centre(s)"
                     for p, cs in sorted(centres.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
            body = (f"The game {game.name} is over: {said}.\n\nCentres at the end:\n"
                    + "\n".join(lines) + "\n")
            subject = f"[standoff] {game.name} is over: {said}"
            return self._each(game, seats, emails, lambda _who: (subject, body))

    # -- reminders -------------------------------------------------------------------

    def _reminders(self, game_id: int, turn: int) -> list[Mail]:
        """The reminders of the game's ``turn``, which the scheduler claimed for this
        process (``clock.claim_reminder``); none when the phase has moved on since."""
        now = utcnow()
        with self.judge.db.read() as s:
            game = s.get(GameRow, game_id)
            if game is None or game.turn != turn or game.status != "active":
                return []
            seats, emails = self._people(s, game)
            submitted = set(s.scalars(select(PendingOrdersRow.power).where(
                PendingOrdersRow.game_id == game_id, PendingOrdersRow.turn == turn)))
            late = [p for p in game.to_order if p not in submitted]
            left = (game.deadline - now).total_seconds() if game.deadline else 0.0
            out = []
            for power in sorted(late):
                seat = seats.get(power)
                if seat is None or seat.user_id not in emails:
                    continue
                name = self._name(game, power)
                body = (f"{name} has not sent orders for {game.phase} in {game.name}.\n"
                        f"The deadline is {when(game.deadline)}, in about {span(left)}; "
                        "a power without orders holds (civil disorder).\n")
                out.append(Mail(emails[seat.user_id],
                                f"[standoff] {game.name}: {name}'s orders for {game.phase} "
                                f"are due in {span(left)}", body + self._footer(game)))
            return out


def outcome_text(game: GameRow, names: dict[str, str]) -> str:
    """How the game ended, with the powers' names (``names``: id -> name)."""
    outcome = game.outcome or {}
    if "winner" in outcome:
        by = " by concession" if outcome.get("by") == "concession" else ""
        return f"{names.get(outcome['winner'], outcome['winner'])} wins{by}"
    if "draw" in outcome:
        by = " (agreed by vote)" if outcome.get("by") == "draw vote" else ""
        return "a draw between " + ", ".join(names.get(p, p) for p in outcome["draw"]) + by
    return "nobody wins"
