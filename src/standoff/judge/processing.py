"""Phase transitions, each exactly once: starting a game and processing a phase.

Processing a phase is one database transaction that

1. claims the game: locks its row (``SELECT ... FOR UPDATE`` on PostgreSQL; the
   write lock taken by ``BEGIN IMMEDIATE`` on SQLite) and checks that its
   ``turn`` (the count of processed phases, the game's version) is still the
   one the caller meant to process, and that the game is active;
2. adjudicates the turn's pending orders (rows keyed by game, turn and power)
   through the engine;
3. writes the phase record and the new state, ending with a guarded
   ``UPDATE games ... WHERE id = ? AND turn = ?`` that must touch one row;
4. deletes the turn's pending orders;

and commits. Killed anywhere before the commit, the database rolls all of it
back: the phase is still unprocessed with every order in place, and the next
server to look (its scheduler, on start) processes it. Two processes that try
at once are serialised by the lock, and the second finds ``turn`` moved on
and does nothing. An order submission locks the same row and checks the same
``turn``, so it either lands before the processing (and is adjudicated) or
after it (and is refused with 409): never accepted and then lost.

``STANDOFF_TEST_PROCESS_DELAY`` (seconds) is a test hook, read only here: the
transaction sleeps that long after step 4, before committing, and says so on
stderr, so the reliability tests can kill a server in the middle of
processing. Never set it in production.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from .access import lock_game
from .clock import clock_for, remind_time
from .context import Judge
from .db import utcnow
from .models import BotJob, GameRow, PendingOrdersRow, PhaseRow, Seat
from .rules import Rules
from .seating import close_phase, fill_with_bots, open_phase
from .settings import Settings

log = logging.getLogger("standoff.judge")

TEST_DELAY_ENV = "STANDOFF_TEST_PROCESS_DELAY"


def start_game(s: Session, game: GameRow, rules: Rules, now: datetime,
               settings: Settings) -> None:
    """Every power is seated: the first phase begins, its clock runs, and the bots
    seated are asked for their orders (``seating.open_phase``)."""
    phase, kind = rules.phase_of(game.state)
    game.status = "active"
    game.phase = phase
    game.phase_title = rules.phase_title(game.state)
    game.to_order = rules.powers_to_order(game.state)
    game.started_at = now
    game.join_by = None
    game.deadline, game.paused_remaining = clock_for(game, kind, now)
    game.remind_at = remind_time(settings, game, kind, game.deadline)
    state = game.state
    ready = open_phase(s, game, dict(_seats(s, game.id)), now,
                       lambda: rules.powers_that_may_order(state))
    game.process_requested = not game.to_order or ready


def start_if_full(s: Session, game: GameRow, rules: Rules, now: datetime,
                  settings: Settings) -> bool:
    """Start the forming game if every power has a seat (a person's or a bot's)."""
    if game.status != "forming" or set(_seat_powers(s, game.id)) < set(rules.powers):
        return False
    start_game(s, game, rules, now, settings)
    return True


def forming_games_due(j: Judge, now: datetime) -> list[int]:
    """Forming games whose join period has ended and whose empty seats go to a bot."""
    with j.db.read() as s:
        return list(s.scalars(select(GameRow.id).where(
            GameRow.status == "forming", GameRow.join_by <= now,
            GameRow.fill_bot.is_not(None)).order_by(GameRow.join_by)))


def fill_and_start(j: Judge, game_id: int, bot: str | None = None) -> int:
    """Seat a bot in every empty seat of a forming game and start it: the join period
    ended (the game's ``fill_bot``), or its master asked (``bot``). 1 if it started."""
    now = utcnow()
    with j.db.write() as s:
        game = lock_game(s, game_id, skip_locked=bot is None)
        if game is None or game.status != "forming":
            return 0
        if bot is None:
            if game.fill_bot is None or game.join_by is None or game.join_by > now:
                return 0
            bot = game.fill_bot
        rules = j.variants.rules(game)
        fill_with_bots(s, game, rules.powers, dict(_seats(s, game_id)), bot, now)
        start_if_full(s, game, rules, now, j.settings)
        turn, starting = game.turn, game.process_requested
    log.info("game %s: empty seats filled by bot %s; the game starts", game_id, bot)
    j.notify("game_started", game_id)
    if starting:
        request_processing(j, game_id, turn)
    return 1


def vote_outcome(rules: Rules, state: dict[str, Any], seats: dict[str, Seat]
                 ) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The game ended by its players' votes, if they say so: (new state, outcome).

    Only surviving powers' votes count (an eliminated power's standing vote
    lapses). Every other survivor conceding to one survivor makes that power the
    winner; otherwise every survivor voting draw ends it in a draw shared by all
    of them. A concession is looked at first: it is the narrower agreement.
    """
    alive = rules.surviving_powers(state)
    if len(alive) < 2:
        return None
    for winner in alive:
        rest = [p for p in alive if p != winner]
        if all(p in seats and seats[p].concede_to == winner for p in rest):
            return rules.concede(state, winner), {"winner": winner, "by": "concession"}
    if all(p in seats and seats[p].draw_vote for p in alive):
        new = rules.declare_draw(state, alive)
        return new, {**(new.get("outcome") or {"draw": alive}), "by": "draw vote"}
    return None


def finish_values(outcome: dict[str, Any], now: datetime) -> dict[str, object]:
    """The columns of a game that has just ended."""
    return {"status": "finished", "outcome": outcome, "deadline": None, "paused": False,
            "paused_remaining": None, "finished_at": now, "to_order": [],
            "process_requested": False, "remind_at": None}


def end_by_vote(s: Session, game: GameRow, voted: tuple[dict[str, Any], dict[str, Any]],
                now: datetime) -> dict[str, Any]:
    """End ``game`` as its players voted (:func:`vote_outcome`): its new state, the
    columns of a finished game, and the turn's pending orders deleted (they will never
    be adjudicated nor shown). The outcome, for the notice."""
    game.state, ended = voted
    for key, value in finish_values(ended, now).items():
        setattr(game, key, value)
    s.execute(delete(PendingOrdersRow).where(PendingOrdersRow.game_id == game.id,
                                          PendingOrdersRow.turn == game.turn))
    return ended


def process_phase(j: Judge, game_id: int, turn: int | None = None, *,
                  wait: bool = True) -> bool:
    """Process the game's current phase if it is still ``turn`` (any, if None).

    Returns whether this call processed it. Phases in which nobody has anything
    to do are processed at once after it, each in its own transaction.
    ``wait=False`` (the scheduler) skips a game whose row another transaction
    holds rather than queue behind it: that one is processing it or about to.
    """
    processed = _guarded(j, game_id, turn, wait)
    if processed:
        while _guarded(j, game_id, None, wait, only_if_requested=True):
            pass
    return processed


def _guarded(j: Judge, game_id: int, turn: int | None, wait: bool,
             only_if_requested: bool = False) -> bool:
    """:func:`_process_once`, with a failure of the game's own (its variant no longer
    loads, the engine refuses its state) setting the game aside (:func:`set_aside`)
    instead of being retried at every look. The database's failures are not the
    game's: they propagate, and the phase is tried again when the database is back."""
    try:
        return _process_once(j, game_id, turn, wait, only_if_requested)
    except SQLAlchemyError:
        raise
    except Exception as exc:
        set_aside(j, game_id, turn, exc)
        return False


def set_aside(j: Judge, game_id: int, turn: int | None, exc: BaseException) -> None:
    """Mark the game's current phase as failed (``failed_turn``, ``failure``): the
    scheduler passes over it, so it delays no other game, and its master sees why
    and may retry (``POST .../master/retry``). Logged once, with the traceback."""
    detail = f"{type(exc).__name__}: {exc}"[:2000]
    with j.db.write() as s:
        game = lock_game(s, game_id)
        if game is None or game.status != "active" or (turn is not None and game.turn != turn):
            return
        if game.failed_turn == game.turn:
            return  # another process set it aside first
        failed = game.turn
        game.failed_turn, game.failed_at, game.failure = failed, utcnow(), detail
    log.error("game %s: processing turn %s failed; set aside until its master retries it",
              game_id, failed, exc_info=exc)
    j.notify("game_set_aside", game_id, turn=failed, failure=detail)


def _process_once(j: Judge, game_id: int, turn: int | None, wait: bool,
                  only_if_requested: bool = False) -> bool:
    with j.db.write() as s:
        game = lock_game(s, game_id, skip_locked=not wait)
        if game is None or game.status != "active":
            return False
        if (turn is not None and game.turn != turn) or (only_if_requested
                                                        and not game.process_requested):
            return False
        current = game.turn
        rows = s.scalars(select(PendingOrdersRow).where(PendingOrdersRow.game_id == game_id,
                                                     PendingOrdersRow.turn == current)).all()
        orders = {r.power: [str(o) for o in r.orders] for r in rows}
        rules = j.variants.rules(game)
        result = rules.process(game.state, orders)
        now = utcnow()
        rec = result.record
        s.add(PhaseRow(game_id=game_id, turn=current, phase=rec["phase"],
                          position=rec["position"], orders=rec["orders"],
                          results=rec["results"], events=rec["events"], report=result.report,
                          report_text=result.report_text, processed_at=now))
        seats = dict(_seats(s, game_id))
        by_bot = {r.power: r.by_bot for r in rows if r.by_bot is not None}
        bots = close_phase(s, game, seats, {p for p, given in orders.items() if given}, by_bot,
                           now)
        stored = s.get_one(PhaseRow, (game_id, current))
        stored.bots = bots or None
        stored.missed = sorted(p for p in game.to_order if not orders.get(p)) or None
        s.execute(delete(PendingOrdersRow).where(PendingOrdersRow.game_id == game_id,
                                              PendingOrdersRow.turn == current))
        s.execute(update(BotJob).where(BotJob.game_id == game_id, BotJob.turn == current,
                                       BotJob.status == "queued").values(status="stale"))
        values: dict[str, object] = {
            "turn": current + 1, "state": result.state, "phase": result.phase,
            "phase_title": rules.phase_title(result.state),
            "to_order": result.to_order, "process_requested": False,
            # processed after all (the master's "process now" once the cause was fixed)
            "failed_turn": None, "failed_at": None, "failure": None,
        }
        outcome = result.outcome
        if outcome is None:
            # an elimination this phase may have made the standing votes unanimous
            voted = vote_outcome(rules, result.state,
                                 {p: seat for p, seat in _seats(s, game_id)})
            if voted is not None:
                values["state"], outcome = voted
        if outcome is not None:
            values.update(finish_values(outcome, now))
        else:
            deadline, remaining = clock_for(game, result.kind, now)
            values.update(deadline=deadline, paused_remaining=remaining,
                          remind_at=remind_time(j.settings, game, result.kind, deadline),
                          process_requested=not result.to_order)
        claimed = s.execute(update(GameRow).where(GameRow.id == game_id, GameRow.turn == current)
                            .values(**values)).rowcount  # type: ignore[attr-defined]
        if claimed != 1:  # cannot happen under the lock; refuse rather than double-process
            raise RuntimeError(f"game {game_id} turn {current} was processed by another "
                               "transaction")
        if outcome is None:
            s.refresh(game)
            new_state = result.state
            if open_phase(s, game, seats, now, lambda: rules.powers_that_may_order(new_state)):
                game.process_requested = True
        _test_delay(game_id, current)
    log.info("game %s: processed %s (turn %s)%s", game_id, rec["phase"], current,
             f", game over: {outcome}" if outcome else "")
    j.notify("phase_processed", game_id, turn=current, phase=rec["phase"])
    if outcome is not None:
        j.notify("game_finished", game_id, outcome=outcome)
    return True


def _seat_powers(s: Session, game_id: int) -> list[str]:
    return list(s.scalars(select(Seat.power).where(Seat.game_id == game_id)))


def _seats(s: Session, game_id: int) -> list[tuple[str, Seat]]:
    return [(seat.power, seat) for seat in s.scalars(select(Seat).where(Seat.game_id == game_id))]


def _test_delay(game_id: int, turn: int) -> None:
    raw = os.environ.get(TEST_DELAY_ENV, "")
    if not raw:
        return
    seconds = float(raw)
    print(f"standoff test hook: processing game {game_id} turn {turn}, holding the "
          f"transaction {seconds:g}s", file=sys.stderr, flush=True)
    time.sleep(seconds)


def request_processing(j: Judge, game_id: int, turn: int) -> bool:
    """Process now a phase already marked ``process_requested`` (all ready, or the
    master forced it); the mark is committed first, so if this process dies the
    scheduler of any server finishes the job."""
    done = process_phase(j, game_id, turn)
    j.wake()
    return done
