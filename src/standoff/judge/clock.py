"""The deadline clock: when a phase is due, its reminder, and the master's hands
on the clock (pause, resume, extend).

A running phase has a ``deadline`` (UTC) and a ``remind_at`` (some time before
it, ``Settings.reminder_before``); a paused one has neither, only the seconds
that were left (``paused_remaining``), which resuming turns back into a
deadline. Extending adds time to whichever of the two the game has.

What is due is asked of the database, so every server process agrees:
:func:`due_games` (phases to process: deadline passed and not paused, or
processing requested) and :func:`due_reminders` (phases whose reminder time
has passed and whose reminder has not been claimed). The one loop that asks
both, and then processes the phases and has the reminders sent, is the
scheduler's (``scheduler.py``); the mail thread only sends.

The master's functions change a game row the caller has locked
(``access.master_game_for_update``) and raise 409 when the clock is not in a
state the action makes sense in.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import or_, select, update

from .context import Judge
from .db import utcnow
from .errors import conflict
from .models import GameRow
from .settings import DEFAULT_DEADLINES, Settings


def phase_seconds(game: GameRow, kind: str) -> float:
    """A phase's length: the game's for its kind, set when it was created; a game
    stored without one gets the default the create form offers (one default, in
    the settings, not a second one here)."""
    return float(game.deadlines.get(kind, DEFAULT_DEADLINES.get(kind, 24 * 3600)))


def clock_for(game: GameRow, kind: str, now: datetime) -> tuple[datetime | None, float | None]:
    """(deadline, seconds left while paused) for a phase of ``kind`` starting now: its
    length from now, or, in a game with a fixed deadline time, the nearest such
    time (:func:`fixed_deadline`)."""
    seconds = phase_seconds(game, kind)
    if game.deadline_time is not None:
        deadline = fixed_deadline(now, seconds, game.deadline_time, game.time_zone or "UTC")
        seconds = (deadline - now).total_seconds()
    if game.paused:
        return None, seconds
    return now + timedelta(seconds=seconds), None


def fixed_deadline(now: datetime, length: float, at: str, zone: str) -> datetime:
    """The ``at`` ("HH:MM") on the clocks of ``zone`` nearest to ``length`` seconds
    after ``now`` (UTC), but never less than half of ``length`` away: a daily game at
    20:00 Europe/Paris ends each phase at 20:00 there whenever it began (begun at
    21:00, the next day's 20:00; at 19:59, not a minute later but the next day's),
    summer time or not; a three-day phase ends at 20:00 on the third day. On a day
    the clocks skip that time, the zone's rules read it (``fold=0``)."""
    hour, minute = (int(part) for part in at.split(":"))
    tz = ZoneInfo(zone)
    target = now + timedelta(seconds=length)
    earliest = now + timedelta(seconds=length / 2)
    day = target.astimezone(tz).date()
    candidates = []
    for offset in range(-1, 3):
        d = day + timedelta(days=offset)
        when = datetime(d.year, d.month, d.day, hour, minute, tzinfo=tz).astimezone(UTC)
        if when >= earliest:
            candidates.append(when)
    # the nearest to the phase's length; of two as near, the later
    return min(candidates,
               key=lambda when: (abs((when - target).total_seconds()), -when.timestamp()))


def remind_time(settings: Settings, game: GameRow, kind: str,
                deadline: datetime | None) -> datetime | None:
    """When the powers that have not ordered get their reminder: some time before
    ``deadline`` (see ``Settings.reminder_before``); None without a running clock
    or with reminders off."""
    before = settings.reminder_before(phase_seconds(game, kind))
    if deadline is None or before <= 0:
        return None
    return deadline - timedelta(seconds=before)


# -- the master's hands on the clock -----------------------------------------------------

def pause(game: GameRow, now: datetime) -> None:
    """Stop the clock, keeping the time that was left (and no reminder while stopped)."""
    if game.paused:
        raise conflict(f"game {game.id} is already paused")
    left = (game.deadline - now).total_seconds() if game.deadline is not None else 0.0
    game.paused, game.paused_remaining, game.deadline = True, max(left, 0.0), None
    game.remind_at = None


def resume(game: GameRow, now: datetime, settings: Settings, kind: str) -> None:
    """Restart a paused clock with the time that was left; the phase (of ``kind``)
    gets its reminder again."""
    if not game.paused:
        raise conflict(f"game {game.id} is not paused")
    left = game.paused_remaining or 0.0
    game.paused, game.paused_remaining = False, None
    game.deadline = now + timedelta(seconds=left)
    game.remind_at = remind_time(settings, game, kind, game.deadline)


def extend(game: GameRow, now: datetime, seconds: int) -> None:
    """Give the phase ``seconds`` more: to the time left of a paused clock, else to
    the deadline (from now, if it has passed); the reminder moves with it."""
    if game.paused:
        game.paused_remaining = (game.paused_remaining or 0.0) + seconds
        return
    before = game.deadline
    game.deadline = max(game.deadline or now, now) + timedelta(seconds=seconds)
    if game.remind_at is not None and before is not None:
        game.remind_at += game.deadline - before


# -- what is due ---------------------------------------------------------------------------

def due_games(j: Judge, limit: int = 50) -> list[tuple[int, int]]:
    """(game id, turn) of active games whose phase is due: deadline passed and not
    paused, or processing requested; never a game set aside (its phase failed)."""
    now = utcnow()
    with j.db.read() as s:
        rows = s.execute(
            select(GameRow.id, GameRow.turn).where(
                GameRow.status == "active",
                GameRow.failed_turn.is_(None) | (GameRow.failed_turn != GameRow.turn),
                ((GameRow.deadline <= now) & GameRow.paused.is_(False))
                | GameRow.process_requested.is_(True))
            .order_by(GameRow.deadline).limit(limit)).all()
    return [(r[0], r[1]) for r in rows]


def due_reminders(j: Judge, now: datetime, limit: int = 200) -> list[tuple[int, int]]:
    """(game id, turn) of running phases whose reminder time has passed and whose
    reminder nobody has claimed yet (``games.reminded_turn``)."""
    with j.db.read() as s:
        rows = s.execute(select(GameRow.id, GameRow.turn).where(
            GameRow.status == "active", GameRow.paused.is_(False), GameRow.remind_at <= now,
            or_(GameRow.reminded_turn.is_(None), GameRow.reminded_turn < GameRow.turn))
            .limit(limit)).all()
    return [(r[0], r[1]) for r in rows]


def claim_reminder(j: Judge, game_id: int, turn: int) -> bool:
    """Claim the reminder of the game's ``turn`` for this process (a guarded UPDATE
    of ``games.reminded_turn``): True once, whatever the number of processes
    asking; False when another process has it or the phase moved on. (A process
    killed between the claim and the sending loses those reminders: better one
    reminder missed than players reminded twice.)"""
    with j.db.write() as s:
        claimed = s.execute(update(GameRow).where(
            GameRow.id == game_id, GameRow.turn == turn, GameRow.status == "active",
            or_(GameRow.reminded_turn.is_(None), GameRow.reminded_turn < turn))
            .values(reminded_turn=turn)).rowcount  # type: ignore[attr-defined]
    return bool(claimed == 1)
