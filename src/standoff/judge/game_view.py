"""The game as one caller sees it (``GameOut``): who plays what (hidden in an
anonymous game, except each player's own and all of them for the master),
who has submitted and is ready, never the pending orders themselves; the
master's view adds the invite code, why a phase failed and the phases in which a
bot gave no orders. Every seat a bot plays says so (``bot``), to everyone.

Shared by the game's routes and the master's (``routes/games.py``,
``routes/master.py``) and the game page (``web/pages.py``).
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from .access import seat_of, seats_of
from .auth import Caller
from .bot_jobs import failures
from .context import Judge
from .db import utcnow
from .models import GameRow, PendingOrdersRow, Seat, User
from .schemas import AwayOut, BotFailureOut, GameOut, PowerOut
from .seating import counts_ready, stand
from .variants import VariantUnavailable

Status = Literal["forming", "active", "finished"]


def game_out(s: Session, game: GameRow, who: Caller, j: Judge) -> GameOut:
    seats = seats_of(s, game.id)
    names = {uid: name for uid, name in s.execute(select(User.id, User.username).where(
        User.id.in_([seat.user_id for seat in seats.values() if seat.user_id is not None]
                    + [game.master_id])))}
    submitted = set(s.scalars(select(PendingOrdersRow.power).where(
        PendingOrdersRow.game_id == game.id, PendingOrdersRow.turn == game.turn)))
    mine = seat_of(seats, who.user_id)
    is_master = who.user_id == game.master_id
    active = game.status == "active"
    now = utcnow()
    due = _adjustments(j, game)
    powers = {}
    for power in _powers(j, game, seats):
        seat = seats.get(power)
        shown = seat is not None and (not game.anonymous or is_master or seat is mine)
        # who plays a seat now: a bot is disclosed to everyone, anonymous games included
        st = stand(seat, now) if seat is not None else None
        powers[power] = PowerOut(
            player=names.get(seat.user_id) if seat is not None and shown
            and seat.user_id is not None else None,
            submitted=active and power in submitted,
            ready=active and seat is not None and counts_ready(seat, game.turn, now),
            nmr=seat.nmr if seat is not None else 0,
            to_order=active and power in game.to_order,
            adjustment=due.get(power, 0),
            bot=st.bot if st is not None else None,
            away=st is not None and st.kind == "away",
            open=seat is not None and seat.open)
    return GameOut(
        id=game.id, name=game.name, variant=game.variant, status=_status(game.status),
        phase=game.phase, phase_title=game.phase_title, variant_notes=_notes(j, game),
        your_away=AwayOut(power=mine.power, start=mine.away_from, until=mine.away_until,
                          bot=mine.away_bot)
        if mine is not None and mine.away_until is not None and mine.away_until > now else None,
        deadline=game.deadline,
        position=game.state["position"],
        powers=powers, outcome=game.outcome, options=game.options, deadlines=game.deadlines,
        press=game.press, anonymous=game.anonymous, private=game.private, paused=game.paused,
        remaining=game.paused_remaining, turn=game.turn,
        master_name=names.get(game.master_id) if not game.anonymous or is_master else None,
        your_power=mine.power if mine is not None else None,
        invite=game.invite_code if is_master else None, created_at=game.created_at,
        variant_sha256=game.variant_sha256, set_aside=is_set_aside(game),
        failure=game.failure if is_master and is_set_aside(game) else None,
        deadline_time=game.deadline_time, time_zone=game.time_zone,
        fill_bot=game.fill_bot, join_by=game.join_by, takeover_after=game.takeover_after,
        takeover_bot=game.takeover_bot,
        bot_failures=[BotFailureOut(turn=f.turn, phase=f.phase, power=f.power, bot=f.bot,
                                    error=f.error or "", at=f.finished_at)
                      for f in failures(s, game.id)] if is_master else [])


def _powers(j: Judge, game: GameRow, seats: dict[str, Seat]) -> list[str]:
    """The game's powers; for a game whose variant file no longer loads (set aside
    until its master retries), those the table and the board still name, so its
    master and players can see it and why it stopped."""
    try:
        return j.variants.rules(game).powers
    except VariantUnavailable:
        position = game.state.get("position", {})
        return sorted({*seats, *position.get("units", {}), *position.get("centres", {})})


def _adjustments(j: Judge, game: GameRow) -> dict[str, int]:
    """Each power's builds (positive) or removals (negative) due, in an adjustment
    phase of a running game (the rules build the position only then)."""
    if game.status != "active":
        return {}
    known = j.adjustments.get(game.id, game.turn)  # (a turn's position never changes)
    if known is not None:
        return dict(known)
    try:
        counted = j.variants.rules(game).adjustments(game.state)
    except VariantUnavailable:
        return {}
    j.adjustments.put(game.id, game.turn, counted)
    return dict(counted)


def _notes(j: Judge, game: GameRow) -> list[str]:
    """The variant's special rules (none for a game whose variant no longer loads)."""
    try:
        return j.variants.rules(game).notes
    except VariantUnavailable:
        return []


def is_set_aside(game: GameRow) -> bool:
    """The current phase failed to process and waits for the master's retry."""
    return game.failed_turn is not None and game.failed_turn == game.turn


_STATUSES: dict[str, Status] = {"forming": "forming", "active": "active",
                                 "finished": "finished"}


def _status(text: str) -> Status:
    return _STATUSES[text]
