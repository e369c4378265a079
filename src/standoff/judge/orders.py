"""A person's pending orders: read, replaced, or merged into those already sent.

One ``PendingOrdersRow`` per game, turn and power holds a power's orders for the
phase until ``processing`` adjudicates them and deletes the row. A bot's orders
are stored by ``bot_jobs``; these functions are the person's side, called by
``routes/orders.py`` inside a transaction: reading needs none in particular,
writing needs the game's row locked (``access.game_for_update``) and its turn
confirmed, so that orders are never stored into a phase already processed.

Why the merge is checked here and a replacement is not: a replacement needs
nothing stored, so the route checks it against the rules before taking the lock
(the engine's check is the slow part); a merge is checked against the orders
stored, read under the lock, so that two merges at once lose neither.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from .access import seats_of
from .db import utcnow
from .models import GameRow, PendingOrdersRow, Seat
from .rules import Rules
from .seating import all_ready, end_absence, is_away, person_returns


def pending(s: Session, game_id: int, turn: int, power: str) -> list[str]:
    """The power's orders for the turn as sent so far ([] for none)."""
    row = s.get(PendingOrdersRow, (game_id, turn, power))
    return [str(o) for o in row.orders] if row is not None else []


def replace(s: Session, game_id: int, turn: int, power: str, canonical: list[str]) -> None:
    """Store ``canonical`` (already checked) as the power's orders: the person's
    alone, even where a bot had sent some."""
    row = s.get(PendingOrdersRow, (game_id, turn, power))
    _write(s, row, game_id, turn, power, canonical, merged=False)


def merge(s: Session, rules: Rules, state: dict[str, Any], game_id: int, turn: int,
          power: str, given: list[str]) -> list[str]:
    """Add ``given`` to the power's stored orders, each replacing its unit's earlier
    order, checked by the rules (400 or 422, nothing stored, when one is refused);
    the orders now stored."""
    row = s.get(PendingOrdersRow, (game_id, turn, power))
    stored = [str(o) for o in row.orders] if row is not None else []
    canonical = rules.check_orders(state, power, given, stored)
    _write(s, row, game_id, turn, power, canonical, merged=True)
    return canonical


def say_ready(s: Session, game: GameRow, seat: Seat, ready: bool, now: datetime) -> None:
    """The person says their power is (or is no longer) done with this phase, the
    game's row locked. An absence whose ``until`` has passed is given back first, as
    the scheduler's next look would (so the look cannot lower the flag the person
    has just raised); when every power that must order is then ready, the phase is
    made due."""
    if seat.away_started and not is_away(seat, now):
        end_absence(seat)
    seat.ready_turn = game.turn if ready else None
    s.flush()
    if ready and not game.process_requested \
            and all_ready(game, seats_of(s, game.id), game.turn, now):
        game.process_requested = True


def _write(s: Session, row: PendingOrdersRow | None, game_id: int, turn: int, power: str,
           canonical: list[str], merged: bool) -> None:
    if row is None:
        s.add(PendingOrdersRow(game_id=game_id, turn=turn, power=power, orders=canonical,
                               submitted_at=utcnow(), by_bot=None))
    else:
        # orders added to a bot's (merge) leave the bot's others standing: the phase
        # still says a bot played (the history discloses it); replaced, they are the
        # person's alone
        row.orders, row.submitted_at = canonical, utcnow()
        row.by_bot = row.by_bot if merged else None
    # a person who sends orders is back: a bot standing in after a takeover stops
    person_returns(s.get_one(Seat, (game_id, power)))
