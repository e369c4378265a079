"""The scheduler: the one background thread in every server process that runs the
clock (``clock.py``).

Every ``poll_interval`` seconds (or at once when woken) it asks the database
for active games whose deadline has passed (and are not paused) or whose
processing was requested (all ready, master's "process"), and processes each
through :func:`processing.process_phase`, which makes that happen exactly once
however many processes look. Its first look is at start, so phases whose
deadline passed while no server ran are processed as soon as one starts.

At the same look, when the judge sends mail, it claims the reminders that have
fallen due (:func:`clock.claim_reminder`: once per phase, whatever the number
of processes) and tells the judge's listeners (``reminder_due``): the mail
thread writes and sends them. It also purges expired sessions (and finished bot
jobs) now and then, and at each look fills with bots the seats still empty in
games whose join period has ended (``processing.fill_and_start``).

Each look also runs the absence clock (``absences.look``), before it asks which
phases are due: an absence whose start comes within a phase hands its seat to its
bot (whose job is queued, and this process's workers woken) or makes it hold
(ready), and one whose ``until`` comes gives the seat back; a phase that this made
ready for processing is processed in the same look.

A phase that fails for a reason of its own game (its variant no longer loads,
the engine refuses its state) sets that game aside (``processing.set_aside``):
it is logged once, shown to its master, and never looked at again until the
master retries it, so a poisoned game delays no other game's deadline.

A thread rather than an asyncio task: processing is synchronous database and
engine work, and a thread keeps it off the event loop that serves requests.
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import SQLAlchemyError

from .absences import look as absence_look
from .auth import purge_expired
from .bot_jobs import purge_finished
from .clock import claim_reminder, due_games, due_reminders
from .context import Judge
from .db import utcnow
from .processing import fill_and_start, forming_games_due, process_phase

log = logging.getLogger("standoff.judge")

#: seconds between purges of expired sessions and throttle records
PURGE_SECONDS = 600.0


class Scheduler:
    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        #: when (time.monotonic) the next purge of expired rows is due: at start
        self._next_purge = 0.0

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="standoff-scheduler", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def wake(self) -> None:
        self._wake.set()

    def tick(self) -> int:
        """Process what is due now; how much this process did (phases processed,
        absences handed over or back), so the loop looks again while there is work."""
        done = self.absences()
        try:
            for game_id in forming_games_due(self.judge, utcnow()):
                done += fill_and_start(self.judge, game_id)
        except SQLAlchemyError as exc:
            log.error("filling seats at the end of join periods failed (%s); trying again "
                      "at the next look", str(exc).splitlines()[0] if str(exc) else
                      type(exc).__name__)
        for game_id, turn in due_games(self.judge):
            if self._stop.is_set():
                break
            try:
                done += process_phase(self.judge, game_id, turn, wait=False)
            except SQLAlchemyError as exc:
                # the database's trouble, not this game's: end the look, try again at the
                # next (one line, not one traceback per due game)
                log.error("processing game %s turn %s: the database failed (%s); trying "
                          "again at the next look", game_id, turn,
                          str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
                break
            except Exception:  # set_aside itself failed: say so, go on with the others
                log.exception("processing game %s turn %s failed", game_id, turn)
        return done

    def absences(self) -> int:
        """Hand over the absences that have begun and give back those that have ended
        (``absences.look``), waking the bot workers of the phases given a job; how
        many."""
        try:
            looked = absence_look(self.judge, utcnow())
        except SQLAlchemyError as exc:
            log.error("looking for absences that begin or end failed (%s); trying again "
                      "at the next look", str(exc).splitlines()[0] if str(exc) else
                      type(exc).__name__)
            return 0
        for game_id, turn in looked.queued:
            self.judge.notify("bots_queued", game_id, turn=turn)
        return looked.handled

    def purge(self) -> None:
        """Every ``PURGE_SECONDS``: delete expired sessions and throttle rows past their
        windows (``auth.purge_expired``), so the tables the log-in reads stay small."""
        now = time.monotonic()
        if now < self._next_purge:
            return
        self._next_purge = now + PURGE_SECONDS
        try:
            gone = purge_expired(self.judge)
            purge_finished(self.judge)
        except SQLAlchemyError as exc:
            log.error("purging expired sessions failed (%s); trying again later",
                      str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            return
        if gone:
            log.info("purged %s expired sessions and throttle records", gone)

    def remind(self) -> None:
        """Claim the reminders that are due and tell the listeners (the mail thread);
        only when the judge sends mail (without it nobody would read them)."""
        if not self.judge.settings.mail_enabled:
            return
        try:
            for game_id, turn in due_reminders(self.judge, utcnow()):
                if claim_reminder(self.judge, game_id, turn):
                    self.judge.notify("reminder_due", game_id, turn=turn)
        except SQLAlchemyError as exc:
            log.error("looking for due reminders failed (%s); trying again at the next look",
                      str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    def _run(self) -> None:
        interval = self.judge.settings.poll_interval
        while not self._stop.is_set():
            try:
                while self.tick() and not self._stop.is_set():
                    pass  # more may have fallen due meanwhile
            except Exception:  # the database is away, say: keep the clock running
                log.exception("the scheduler's look for due phases failed; retrying")
            self.remind()
            self.purge()
            self._wake.wait(interval)
            self._wake.clear()
