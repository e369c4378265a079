"""Who plays each seat now, and what the judge does for the seats no person plays.

A seat is played, at any moment, by one of (:func:`stand`):

* its **person** (``user_id``), as ever;
* a **bot**: for good (a bot was seated at creation or when the join period
  ended: no ``user_id``), or after a takeover (the person missed
  ``takeover_after`` phases in a row: ``bot`` set beside ``user_id`` until the
  person sends orders again or a replacement takes the seat);
* **away**: its person declared an absence (``away_from`` to ``away_until``); the
  bot they chose plays meanwhile, or, if they chose none, the seat holds (ready,
  nothing sent, no missed phase counted). It begins (:func:`begin_absence`) by its
  declaration, by the opening of a phase, or, when its start falls within a phase,
  at the scheduler's next look (``absences.py``), and ends (:func:`end_absence`)
  when its person ends it or at its ``until``;
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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import BotJob, GameRow, PendingOrdersRow, Seat

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


def counts_ready(seat: Seat, turn: int, now: datetime) -> bool:
    """Whether the seat is ready for ``turn``: its flag is up, and not only because an
    absence whose ``until`` has now passed raised it. The scheduler gives such a seat
    back at its next look (lowering the flag); until then the absence's hold no longer
    counts, so no phase is made due on it after the person is back."""
    if seat.ready_turn != turn:
        return False
    return not (seat.away_started and not is_away(seat, now))


def all_ready(game: GameRow, seats: Mapping[str, Seat], turn: int, now: datetime) -> bool:
    """Every power that must order this phase has a seat that :func:`counts_ready`."""
    return all(p in seats and counts_ready(seats[p], turn, now) for p in game.to_order)


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
    stands = {power: stand(seat, now) for power, seat in seats.items()}
    bots = {power: st.bot for power, st in stands.items() if st.bot is not None}
    for power, st in stands.items():
        if st.kind == "away":  # handed over in this phase: the scheduler need not
            seats[power].away_started = True
    if bots:
        asked = set(game.to_order) | set(may_order())
        # a seat asked again within a phase (an absence starting, a seat opened) keeps
        # the job it has: one job, one set of orders, per seat and phase (the table's
        # uniqueness says so too); a job gone stale because the seat stopped being a
        # bot's before it finished (an absence cancelled, then declared again) stored
        # nothing, and is queued again
        jobs = {job.power: job for job in s.scalars(select(BotJob).where(
            BotJob.game_id == game.id, BotJob.turn == turn))}
        for power, bot in sorted(bots.items()):
            if power not in asked:
                continue
            job = jobs.get(power)
            if job is None:
                s.add(BotJob(game_id=game.id, turn=turn, phase=game.phase, power=power, bot=bot,
                             status="queued", claim=None, lease_until=None, attempts=0,
                             error=None, seconds=None, created_at=now, finished_at=None))
            elif job.status == "stale":
                job.bot, job.status, job.claim, job.lease_until = bot, "queued", None, None
                job.attempts, job.error, job.seconds, job.finished_at = 0, None, None, None
    for power in game.to_order:
        seat = seats.get(power)
        if seat is not None and stands[power].kind in ("away", "vacant") \
                and power not in bots:
            seat.ready_turn = turn
    s.flush()
    return all_ready(game, seats, turn, now)


def reopen_seat(s: Session, game: GameRow, power: str, now: datetime,
                may_order: Callable[[], list[str]]) -> None:
    """Who plays ``power`` changed within the phase (an absence began, the master
    opened the seat): ask its bot now, or make a holding or vacant seat ready, and
    mark the phase due when that made every power ready. Orders its person already
    sent stand (a bot's later orders never replace a person's)."""
    seats = _seats(s, game)
    if power in seats:
        # (open_phase's answer covers the one seat it was given: ask of them all)
        open_phase(s, game, {power: seats[power]}, now, may_order)
        _due_if_all_ready(game, seats, now)


def begin_absence(s: Session, game: GameRow, seat: Seat, now: datetime,
                  may_order: Callable[[], list[str]]) -> None:
    """The seat's absence has begun (declared from now, or its start came within a
    phase): hand the seat over for the phase under way, once (``away_started``).

    With no orders given yet for this phase, its bot is asked now (one job, as at a
    phase's opening), or a holding seat is made ready. Orders already given stand
    and no bot is asked this phase: the person's own (chosen before leaving, and a
    bot's must never replace them; the bot plays from the next phase), or those a
    bot gave earlier in it. The seat is then made ready, since nobody will come to
    say so: the phase is processed as soon as the people still here are ready.
    Outside a running game nothing is asked: the first phase opens with the seat
    away (:func:`open_phase`)."""
    seat.away_started = True
    if game.status != "active":
        return
    if s.get(PendingOrdersRow, (game.id, game.turn, seat.power)) is None:
        reopen_seat(s, game, seat.power, now, may_order)
        return
    if seat.power in game.to_order:
        seat.ready_turn = game.turn
    s.flush()
    _due_if_all_ready(game, _seats(s, game), now)


def end_absence(seat: Seat) -> None:
    """The seat's absence ends (its person ended it, or its ``until`` came): the seat
    is its person's again from now. If the absence had begun, the ready flag it
    raised is lowered, so the phase waits for the person to say they are done; the
    orders its bot gave for this phase stand until the person sends their own, and
    the person's own orders are never touched. An absence that never began leaves
    the seat as it was."""
    if seat.away_started:
        seat.ready_turn = None
    seat.away_from = seat.away_until = seat.away_bot = None
    seat.away_started = False


def _seats(s: Session, game: GameRow) -> dict[str, Seat]:
    return {seat.power: seat for seat in s.scalars(select(Seat).where(Seat.game_id == game.id))}


def _due_if_all_ready(game: GameRow, seats: dict[str, Seat], now: datetime) -> None:
    """Mark the phase for processing when every power that must order is ready."""
    if all_ready(game, seats, game.turn, now):
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
