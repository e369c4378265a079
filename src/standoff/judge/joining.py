"""A person takes a seat: a power of a forming game, or an open seat of a game under way.

Why a module of its own: taking a seat has rules of its own (a private game's
invite code, one seat per person and game, a chosen power or a free one drawn
at random, a replacement only where the master or a takeover opened the seat),
and the route that receives the request should only read it, call this and
answer. The route locks the game first (``access.game_for_update``), so two
people never take the same power; it starts the game when the last power of a
forming game is taken (``processing.start_if_full``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from .access import invited, seat_of, seats_of
from .auth import Caller
from .context import Judge
from .errors import conflict, forbidden
from .models import GameRow, Seat
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Taken:
    """The seat taken: its power, and the game's rules when the game is forming (it
    may now be full, and start), None for a replacement in a game under way."""

    power: str
    rules: Rules | None


def take_seat(s: Session, j: Judge, game: GameRow, who: Caller, power: str | None,
              invite: str | None, now: datetime) -> Taken:
    """Seat the caller in ``game`` (locked), as ``power`` or any free one: 403 for a
    private game without its invite code, 409 for a caller who already plays in it,
    a power taken, a game full or over or with no open seat."""
    if not invited(game, who, invite):
        raise forbidden(f"game {game.id} is private: give its invite code to join")
    seats = seats_of(s, game.id)
    mine = seat_of(seats, who.user_id)
    if mine is not None:
        raise conflict(f"you already play {mine.power} in game {game.id}")
    if game.status != "forming":
        taken = _take_over(game, seats, power, who.user_id, j)
        s.flush()
        return Taken(taken, None)
    rules = j.variants.rules(game)
    if power is not None:
        chosen = rules.power_id(power)
        if chosen in seats:
            raise conflict(f"{chosen} is taken in game {game.id}")
    else:
        free = [p for p in rules.powers if p not in seats]
        if not free:
            raise conflict(f"game {game.id} is full")
        chosen = secrets.choice(free)
    s.add(Seat(game_id=game.id, power=chosen, user_id=who.user_id, bot=None, open=False,
               missed=0, ready_turn=None, nmr=0, joined_at=now, draw_vote=False,
               concede_to=None))
    s.flush()
    return Taken(chosen, rules)


def _take_over(game: GameRow, seats: dict[str, Seat], power: str | None, user_id: int,
               j: Judge) -> str:
    """A person takes an open seat of a game under way (a replacement): they play on
    with the power's units, history, pending orders and press; a bot standing in
    stops. 409 unless the game is running and the seat (or, with no power named,
    some seat) is open."""
    if game.status != "active":
        raise conflict(f"game {game.id} is over")
    open_seats = sorted(p for p, seat in seats.items() if seat.open)
    if power is not None:
        chosen = j.variants.rules(game).power_id(power)
        if chosen not in open_seats:
            raise conflict(f"{chosen} is taken in game {game.id}: only a seat its master "
                           "or the game opened may be taken over")
    elif open_seats:
        chosen = open_seats[0]
    else:
        raise conflict(f"game {game.id} has already started and has no open seat")
    seat = seats[chosen]
    seat.user_id, seat.bot, seat.open, seat.missed = user_id, None, False, 0
    seat.away_from = seat.away_until = seat.away_bot = None
    seat.draw_vote, seat.concede_to = False, None
    return chosen
