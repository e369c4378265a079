"""Bot turns as jobs in the database: claimed with row locks, finished exactly once.

A job (``models.BotJob``) is one bot's orders for one power in one phase, queued
in the transaction that opened the phase (``seating.open_phase``). Any worker
(``worker.BotWorker``: threads of ``standoff serve`` or of ``standoff worker``
processes sharing the database) takes it in three steps, none of which holds a
lock while a bot thinks:

1. :func:`claim`: a short transaction takes the oldest ``queued`` job, or a
   ``running`` one whose lease has run out (its worker died), and the other such
   jobs of its game and phase, with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL
   (SQLite's write lock serialises it), and marks them ``running``, each with a
   fresh claim token and a lease;
2. the worker reads the game and asks the bots, with no transaction open;
3. :func:`finish`: under the game's row lock, each job's orders are stored only
   if the job still carries this worker's token (nobody reclaimed it), the game
   is still at the job's turn (not processed meanwhile) and a bot still plays the
   seat (its person did not come back and send orders); the power is then ready,
   and the phase is marked for processing when every power is.

Taking a game's jobs together stores its bots' orders in one transaction and
processes its phase once: with SQLite's synchronous commits, a third of the
time per job (measured: 15 ms a job one at a time).

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
from .models import BotJob, PendingOrdersRow
from .seating import all_ready, stand

log = logging.getLogger("standoff.judge")

#: a job is given up (civil disorder) after this many claims whose workers died
MAX_ATTEMPTS = 3
#: a claim's lease is renewed before each job of a batch for the time one job may
#: take (:func:`lease_seconds`) and these few seconds more; a job whose worker died is
#: taken again once it runs out
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


def lease_seconds(j: Judge) -> float:
    """How long one job may hold its claim: its bot's process preparing, the bot
    thinking twice over (reading the game and checking the orders take far less than
    the bot), and a few seconds more."""
    cfg = j.settings
    return cfg.bot_prepare_seconds + 2 * cfg.bot_seconds + LEASE_GRACE_SECONDS


def claim(j: Judge, now: datetime | None = None) -> list[Claimed]:
    """Take the next jobs: those of the game and phase of the oldest job that may be
    taken (a game's bots are asked together, so its phase is stored and processed
    once, not once per bot), or none. Their lease covers the first job; the worker
    renews it (:func:`renew`) before each other."""
    now = now or utcnow()
    lease = timedelta(seconds=lease_seconds(j))
    takeable = or_(BotJob.status == "queued",
                   (BotJob.status == "running") & (BotJob.lease_until < now))
    with j.db.write() as s:
        first = s.scalars(select(BotJob).where(takeable).order_by(BotJob.id).limit(1)
                          .with_for_update(skip_locked=True)).first()
        if first is None:
            return []
        jobs = s.scalars(select(BotJob).where(takeable, BotJob.game_id == first.game_id,
                                              BotJob.turn == first.turn)
                         .order_by(BotJob.id).with_for_update(skip_locked=True)).all()
        claimed = []
        for job in {first, *jobs}:
            job.status, job.claim = "running", secrets.token_hex(16)
            job.lease_until, job.attempts = now + lease, job.attempts + 1
            claimed.append(Claimed(job.id, job.claim, job.game_id, job.turn, job.power,
                                   job.bot, job.attempts))
        return sorted(claimed, key=lambda c: c.id)


def renew(j: Judge, jobs: list[Claimed], now: datetime | None = None) -> set[int]:
    """Extend the lease of jobs this worker still holds by one job's time (a batch of
    thirteen bots may take far longer than one lease, and must not be taken from a
    worker that is busy on it); the ids of those still held (the others were taken
    again after this worker stalled, and are not worth asking)."""
    now = now or utcnow()
    until = now + timedelta(seconds=lease_seconds(j))
    claims = {job.id: job.claim for job in jobs}
    held: set[int] = set()
    with j.db.write() as s:
        rows = s.scalars(select(BotJob).where(BotJob.id.in_(claims))
                         .with_for_update()).all()
        for row in rows:
            if row.status == "running" and row.claim == claims[row.id]:
                row.lease_until = until
                held.add(row.id)
    return held


def given_up(job: Claimed) -> str | None:
    """Why a job claimed once too often must fail rather than run again (workers
    that took it died, perhaps because of it), or None."""
    if job.attempts > MAX_ATTEMPTS:
        return f"its workers stopped {job.attempts - 1} times before it finished"
    return None


@dataclass(frozen=True, slots=True)
class JobOutcome:
    """What a claimed job came to: ``orders`` (canonical, checked; None when the game
    had moved on before the bot was asked) or the ``error`` that failed it."""

    job: Claimed
    orders: list[str] | None
    error: str | None
    seconds: float


def finish(j: Judge, outcomes: list[JobOutcome]) -> bool:
    """Store the outcomes of jobs of one game and phase, in one transaction under the
    game's row lock. Returns whether the phase became due for processing (the caller
    then processes it). A job no longer this worker's (its lease ran out and another
    took it), of a game that moved on, or of a seat no bot plays any more, stores
    nothing."""
    if not outcomes:
        return False
    now = utcnow()
    game_id, turn = outcomes[0].job.game_id, outcomes[0].job.turn
    with j.db.write() as s:
        game = lock_game(s, game_id)
        seats = seats_of(s, game_id)
        live = game is not None and game.status == "active" and game.turn == turn
        for outcome in outcomes:
            job = outcome.job
            row = s.get(BotJob, job.id, with_for_update=True, populate_existing=True)
            if row is None or row.claim != job.claim or row.status != "running":
                continue  # reclaimed by another worker after our lease ran out
            row.seconds, row.finished_at, row.lease_until = outcome.seconds, now, None
            seat = seats.get(job.power)
            if not live or seat is None or stand(seat, now).bot is None:
                # the phase was processed, its person came back, or a replacement came
                row.status = "stale"
                continue
            assert game is not None
            if outcome.error is not None:
                row.status, row.error = "failed", outcome.error[:2000]
                seat.ready_turn = turn
                log.warning("game %s: bot %s failed for %s in turn %s (civil disorder "
                            "this phase): %s", game_id, job.bot, job.power, turn,
                            outcome.error)
                continue
            row.status = "done"
            pending = s.get(PendingOrdersRow, (game_id, turn, job.power))
            if pending is not None and pending.by_bot is None:
                continue  # the person sent orders of their own meanwhile: theirs stand
            if pending is None:
                s.add(PendingOrdersRow(game_id=game_id, turn=turn, power=job.power,
                                       orders=outcome.orders or [], submitted_at=now,
                                       by_bot=job.bot))
            else:
                pending.orders, pending.submitted_at = outcome.orders or [], now
                pending.by_bot = job.bot
            if job.power in game.to_order:
                seat.ready_turn = turn
        if not live or game is None:
            return False
        s.flush()
        if all_ready(game, seats, turn, now):
            game.process_requested = True
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
