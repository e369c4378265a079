"""Bot turns as jobs in the database: claimed with row locks, finished exactly once.

A job (``models.BotJob``) is one bot's orders for one power in one phase, queued
in the transaction that opened the phase (``seating.open_phase``). Any worker
(``worker.BotWorker``: threads of ``standoff serve`` or of ``standoff worker``
processes sharing the database) takes it in three steps, none of which holds a
lock while a bot thinks:

1. :func:`claim`: a short transaction takes the oldest ``queued`` job, or a
   ``running`` one whose lease has run out (its worker died), with ``FOR UPDATE
   SKIP LOCKED`` on PostgreSQL (SQLite's write lock serialises it), and marks it
   ``running`` with a fresh claim token and a lease;
2. the worker reads the game and asks the bot, with no transaction open;
3. :func:`finish`: under the game's row lock, the orders are stored only if the
   job still carries this worker's token (nobody reclaimed it), the game is
   still at the job's turn (not processed meanwhile) and a bot still plays the
   seat (its person did not come back and send orders); the power is then ready,
   and the phase is marked for processing when every power is.

So each seat's orders are given once per phase whatever the number of workers
and restarts. A job whose bot fails (raises, overruns its budget, gives an
order the rules refuse) or that was tried :data:`MAX_ATTEMPTS` times is
``failed`` (:func:`given_up`): the seat is in civil disorder for the phase (ready, nothing sent),
the reason is logged and shown to the game's master (:func:`failures`).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from .access import lock_game, seats_of
from .context import Judge
from .db import utcnow
from .models import BotJob, GameRow, PendingOrdersRow
from .seating import stand

log = logging.getLogger("standoff.judge")

#: a job is given up (civil disorder) after this many claims whose workers died
MAX_ATTEMPTS = 3
#: a claim's lease: twice the bot's own time limit (reading the game and checking its
#: orders take far less than the bot) and a few seconds more; a job whose worker died
#: is taken again once it runs out
LEASE_GRACE_SECONDS = 5.0
#: finished jobs are kept this long (the master sees recent failures), then purged
KEEP_FINISHED = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class Claimed:
    """A job this worker holds: what it needs to ask the bot and to finish the job."""

    id: int
    claim: str
    game_id: int
    turn: int
    power: str
    bot: str
    attempts: int


def claim(j: Judge, now: datetime | None = None) -> Claimed | None:
    """Take the next job (oldest first), or None when there is none to take."""
    now = now or utcnow()
    lease = timedelta(seconds=2 * j.settings.bot_seconds + LEASE_GRACE_SECONDS)
    with j.db.write() as s:
        job = s.scalars(
            select(BotJob)
            .where(or_(BotJob.status == "queued",
                       (BotJob.status == "running") & (BotJob.lease_until < now)))
            .order_by(BotJob.id).limit(1)
            .with_for_update(skip_locked=True)).first()
        if job is None:
            return None
        job.status, job.claim = "running", secrets.token_hex(16)
        job.lease_until, job.attempts = now + lease, job.attempts + 1
        return Claimed(job.id, job.claim, job.game_id, job.turn, job.power, job.bot,
                       job.attempts)


def given_up(job: Claimed) -> str | None:
    """Why a job claimed once too often must fail rather than run again (workers
    that took it died, perhaps because of it), or None."""
    if job.attempts > MAX_ATTEMPTS:
        return f"its workers stopped {job.attempts - 1} times before it finished"
    return None


def _make_ready(s: Session, game: GameRow, power: str) -> None:
    """``power`` is ready; when every power that must order is, the phase is due."""
    seats = seats_of(s, game.id)
    if power in seats:
        seats[power].ready_turn = game.turn
    s.flush()
    if all(p in seats and seats[p].ready_turn == game.turn for p in game.to_order):
        game.process_requested = True


def finish(j: Judge, job: Claimed, orders: list[str] | None, error: str | None,
           seconds: float) -> bool:
    """Store a claimed job's outcome: ``orders`` (canonical, checked) or the ``error``
    that failed it. Returns whether the phase became due for processing (the caller
    then processes it). Does nothing if the job is no longer this worker's, the game
    moved on, or no bot plays the seat any more."""
    now = utcnow()
    with j.db.write() as s:
        game = lock_game(s, job.game_id)
        row = s.get(BotJob, job.id, with_for_update=True, populate_existing=True)
        if row is None or row.claim != job.claim or row.status != "running":
            return False  # reclaimed by another worker after our lease ran out
        row.seconds, row.finished_at, row.lease_until = seconds, now, None
        if game is None or game.status != "active" or game.turn != job.turn:
            row.status = "stale"
            return False
        seat = seats_of(s, game.id).get(job.power)
        if seat is None or stand(seat, now).bot is None:
            row.status = "stale"  # its person came back, or a replacement took the seat
            return False
        if error is not None:
            row.status, row.error = "failed", error[:2000]
            _make_ready(s, game, job.power)
            log.warning("game %s: bot %s failed for %s in turn %s (civil disorder this "
                        "phase): %s", job.game_id, job.bot, job.power, job.turn, error)
            return game.process_requested
        row.status = "done"
        pending = s.get(PendingOrdersRow, (game.id, job.turn, job.power))
        if pending is not None and pending.by_bot is None:
            return False  # the person sent orders of their own meanwhile: theirs stand
        if pending is None:
            s.add(PendingOrdersRow(game_id=game.id, turn=job.turn, power=job.power,
                                   orders=orders or [], submitted_at=now, by_bot=job.bot))
        else:
            pending.orders, pending.submitted_at, pending.by_bot = orders or [], now, job.bot
        if job.power in game.to_order:
            _make_ready(s, game, job.power)
        return game.process_requested


def failures(s: Session, game_id: int, limit: int = 20) -> list[BotJob]:
    """The game's most recent failed bot jobs (the master's view)."""
    return list(s.scalars(select(BotJob).where(BotJob.game_id == game_id,
                                               BotJob.status == "failed")
                          .order_by(BotJob.id.desc()).limit(limit)))


def purge_finished(j: Judge, now: datetime | None = None) -> int:
    """Delete finished jobs older than :data:`KEEP_FINISHED`; how many."""
    cutoff = (now or utcnow()) - KEEP_FINISHED
    with j.db.write() as s:
        gone = s.execute(delete(BotJob).where(BotJob.status.in_(("done", "failed", "stale")),
                                              BotJob.created_at < cutoff))
        return int(gone.rowcount)  # type: ignore[attr-defined]
