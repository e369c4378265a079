"""Who plays each seat now, and what the judge does for the seats no person plays.

A seat is played, at any moment, by one of (:func:`stand`):

* its **person** (``user_id``), as ever;
* a **bot**: for good (a bot was seated at creation or when the join period
  ended: no ``user_id``), or after a takeover (the person missed
  ``takeover_after`` phases in a row: ``bot`` set beside ``user_id`` until the
  person sends orders again or a replacement takes the seat);
* **away**: its person declared an absence (``away_from`` to ``away_until``); the
  bot they chose plays meanwhile, or, if they chose none, the seat holds (ready,
  nothing sent, no missed phase counted);
* **vacant**: its master opened it for a replacement and no bot stands in: civil
  disorder, without waiting for anybody.

When a phase opens (:func:`open_phase`, in the transaction that started the game
or processed the previous phase), every bot-played power with something to do
gets a job (``bot_jobs``) that a worker takes; holding and vacant seats are made
ready at once, so a phase waits only for the people in it. When a phase is
processed (:func:`close_phase`), missed phases are counted for people only, and a
takeover happens if the game asks for one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import BotJob, GameRow, Seat

Kind = Literal["person", "bot", "away", "vacant"]


@dataclass(frozen=True, slots=True)
class Stand:
    """Who plays a seat at a moment: ``kind``, and the bot giving its orders (if any)."""

    kind: Kind
    bot: str | None = None


def is_away(seat: Seat, now: datetime) -> bool:
    """The seat's person declared an absence that covers ``now``."""
    return (seat.user_id is not None and seat.away_from is not None
            and seat.away_until is not None and seat.away_from <= now < seat.away_until)


def stand(seat: Seat, now: datetime) -> Stand:
    """Who plays ``seat`` at ``now`` (see the module's description)."""
    if is_away(seat, now):
        return Stand("away", seat.away_bot)
    if seat.bot is not None:
        return Stand("bot", seat.bot)
    if seat.user_id is None:
        return Stand("vacant")
    return Stand("person")


def open_phase(s: Session, game: GameRow, seats: dict[str, Seat], now: datetime,
               may_order: Callable[[], list[str]]) -> bool:
    """The phase ``game.turn`` has just opened (``game.to_order`` set): queue a job for
    every bot-played power that must or may order (``may_order``: the canal owners
    who may PERMIT passage, asked only when a bot plays some seat), make holding and
    vacant seats ready. Returns whether every power that must order is now ready
    (the phase can then be processed at once)."""
    turn = game.turn
    bots = {power: st.bot for power, st in ((p, stand(seat, now)) for p, seat in seats.items())
            if st.bot is not None}
    if bots:
        asked = set(game.to_order) | set(may_order())
        # a seat asked again within a phase (an absence starting, a seat opened) keeps
        # the job it has: one job, one set of orders, per seat and phase
        asked -= set(s.scalars(select(BotJob.power).where(BotJob.game_id == game.id,
                                                          BotJob.turn == turn)))
        for power, bot in sorted(bots.items()):
            if power in asked:
                s.add(BotJob(game_id=game.id, turn=turn, phase=game.phase, power=power, bot=bot,
                             status="queued", claim=None, lease_until=None, attempts=0,
                             error=None, seconds=None, created_at=now, finished_at=None))
    for power in game.to_order:
        seat = seats.get(power)
        if seat is not None and stand(seat, now).kind in ("away", "vacant") \
                and power not in bots:
            seat.ready_turn = turn
    s.flush()
    return all(p in seats and seats[p].ready_turn == turn for p in game.to_order)


def reopen_seat(s: Session, game: GameRow, power: str, now: datetime,
                may_order: Callable[[], list[str]]) -> None:
    """Who plays ``power`` changed within the phase (an absence began, the master
    opened the seat): ask its bot now, or make a holding or vacant seat ready, and
    mark the phase due when that made every power ready. Orders its person already
    sent stand (a bot's later orders never replace a person's)."""
    seats = {seat.power: seat for seat in s.scalars(select(Seat).where(
        Seat.game_id == game.id))}
    if power in seats and open_phase(s, game, {power: seats[power]}, now, may_order) and all(
            p in seats and seats[p].ready_turn == game.turn for p in game.to_order):
        game.process_requested = True


def close_phase(s: Session, game: GameRow, seats: dict[str, Seat], sent: set[str],
                by_bot: dict[str, str], now: datetime) -> dict[str, str]:
    """The phase ``game.turn`` is being processed with orders from ``sent``: count each
    missed phase (``nmr``: every power that had to order and sent nothing, but for a
    holding absence; ``missed``: people's phases in a row), hand the seat of a person
    who missed ``takeover_after`` phases in a row to the game's takeover bot (and
    open it for a replacement). Returns the powers a bot played this phase, and
    which bot (the phase record keeps them for the history): those whose orders a
    bot gave (``by_bot``, from the pending orders), and those whose bot failed (civil
    disorder)."""
    played = {job.power: job.bot for job in s.scalars(select(BotJob).where(
        BotJob.game_id == game.id, BotJob.turn == game.turn, BotJob.status == "failed"))}
    played.update(by_bot)
    for power in game.to_order:
        seat = seats.get(power)
        if seat is None:
            continue
        st = stand(seat, now)
        if power not in sent and not (st.kind == "away" and st.bot is None):
            seat.nmr += 1
        if st.kind != "person":
            continue
        seat.missed = 0 if power in sent else seat.missed + 1
        if game.takeover_after is not None and game.takeover_bot is not None \
                and seat.missed >= game.takeover_after:
            seat.bot, seat.open = game.takeover_bot, True
    s.flush()
    return played


def person_returns(seat: Seat) -> None:
    """The seat's person sent orders: a takeover ends (the seat is theirs again and no
    longer open for a replacement; the ready flag its bot raised is lowered, so the
    phase waits for the person to say they are done) and their missed phases start
    again from 0."""
    if seat.user_id is not None and seat.bot is not None:
        seat.bot, seat.open, seat.ready_turn = None, False, None
    seat.missed = 0


def fill_with_bots(s: Session, game: GameRow, powers: list[str], seats: dict[str, Seat],
                   bot: str, now: datetime) -> list[str]:
    """Seat ``bot`` in every power of ``powers`` still without a seat; the powers filled."""
    filled = [p for p in powers if p not in seats]
    for power in filled:
        seat = Seat(game_id=game.id, power=power, user_id=None, bot=bot, open=False, missed=0,
                    ready_turn=None, nmr=0, joined_at=now, draw_vote=False, concede_to=None)
        s.add(seat)
        seats[power] = seat
    s.flush()
    return filled
