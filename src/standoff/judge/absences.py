"""The absence clock: absences whose start or end falls within a phase.

A declared absence (``seats.away_from`` to ``away_until``) is handed over when it
begins and given back when it ends (``seating.begin_absence``,
``seating.end_absence``). One declared from now is handed over by its
declaration, one in force when a phase opens by the phase's opening
(``seating.open_phase``); the others, whose start or ``until`` comes while a
phase runs, are the scheduler's, which asks here at each look (:func:`look`):

* :func:`due`: the seats whose absence has reached its start and was not handed
  over (``away_started`` false), and those whose ``until`` has passed. Two index
  ranges (``ix_seats_away_start``, ``ix_seats_away_until``) over the few seats with
  an absence, at most ``limit`` rows each per look (the rest at the next), never a
  look at every game;
* each seat is then changed in a transaction of its own under its game's row lock,
  as every other seat change is, after reading it again under the lock: with two
  servers sharing a database, the second finds the work done (``away_started``
  set, or the absence gone) and does nothing, so the seat's bot job is queued once
  (``bot_jobs``' uniqueness on game, turn and power would refuse a second anyway).

Both are idempotent, and what is asked is the database's state, not the time of
the last look: an absence whose start came while no server ran is handed over at
the first look after one starts (or ends, if its ``until`` has passed too).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import TypeVar

from sqlalchemy import false, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .access import lock_game
from .context import Judge
from .models import Seat
from .seating import begin_absence, end_absence, is_away
from .variants import VariantUnavailable

log = logging.getLogger("standoff.judge")

#: at most this many starts and as many ends are handled per look
LIMIT = 100

T = TypeVar("T")


@dataclass
class Looked:
    """What a look did: how many absences it handed over or back, and the phases
    (game id, turn) in which it queued bot jobs (their workers are woken)."""

    handled: int = 0
    queued: list[tuple[int, int]] = field(default_factory=list)


def due(j: Judge, now: datetime, limit: int = LIMIT) -> tuple[list[tuple[int, str]],
                                                              list[tuple[int, str]]]:
    """((game id, power) of absences to hand over, (game id, power) of those to give
    back), oldest first."""
    with j.db.read() as s:
        starts = s.execute(select(Seat.game_id, Seat.power).where(
            Seat.away_started == false(), Seat.away_from <= now, Seat.away_until > now,
            Seat.user_id.is_not(None))
            .order_by(Seat.away_from).limit(limit)).all()
        ends = s.execute(select(Seat.game_id, Seat.power).where(Seat.away_until <= now)
                         .order_by(Seat.away_until).limit(limit)).all()
    return [(r[0], r[1]) for r in starts], [(r[0], r[1]) for r in ends]


def look(j: Judge, now: datetime) -> Looked:
    """Give back the absences that have ended and hand over those that have begun. A
    seat whose change fails for a reason of its own is logged and left for the next
    look; the database's failure ends the look (the caller logs it)."""
    looked = Looked()
    starts, ends = due(j, now)
    for game_id, power in ends:
        if _guarded(game_id, power, "end", partial(give_back, j, game_id, power, now)):
            looked.handled += 1
    for game_id, power in starts:
        turn = _guarded(game_id, power, "start", partial(hand_over, j, game_id, power, now))
        if turn is not None:
            looked.handled += 1
            looked.queued.append((game_id, turn))
    return looked


def hand_over(j: Judge, game_id: int, power: str, now: datetime) -> int | None:
    """Hand over the absence of ``power`` in the game if it has begun and nobody has
    handed it over yet; the game's turn then (its bots may have a new job), else None."""
    with j.db.write() as s:
        game = lock_game(s, game_id)
        seat = _seat(s, game_id, power) if game is not None else None
        if game is None or seat is None or seat.away_started or not is_away(seat, now):
            return None
        state = game.state

        def may_order() -> list[str]:
            try:
                return j.variants.rules(game).powers_that_may_order(state)
            except VariantUnavailable:  # a game set aside: those that must order will do
                return []

        begin_absence(s, game, seat, now, may_order)
        log.info("game %s: %s's absence began; %s", game_id, power,
                 f"{seat.away_bot} plays the seat" if seat.away_bot else "the seat holds")
        return game.turn


def give_back(j: Judge, game_id: int, power: str, now: datetime) -> bool:
    """Give back the seat of ``power`` in the game if its absence has ended and it was
    not given back yet; whether it was."""
    with j.db.write() as s:
        game = lock_game(s, game_id)
        seat = _seat(s, game_id, power) if game is not None else None
        if seat is None or seat.away_until is None or seat.away_until > now:
            return False
        end_absence(seat)
        log.info("game %s: %s's absence ended; the seat is its player's again", game_id, power)
        return True


def _seat(s: Session, game_id: int, power: str) -> Seat | None:
    """The seat, read afresh (after the game's lock: another server may have changed it)."""
    return s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.power == power)
                     .execution_options(populate_existing=True)).first()


def _guarded(game_id: int, power: str, what: str, change: Callable[[], T]) -> T | None:
    """Run one seat's change; a failure of its own is logged, not raised (None)."""
    try:
        return change()
    except SQLAlchemyError:
        raise
    except Exception:
        log.exception("game %s: the %s of %s's absence failed; trying again at the next "
                      "look", game_id, what, power)
        return None
