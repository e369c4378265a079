"""The lobby's listing of games, one page at a time (``GET /api/v1/games``).

Who sees which games: the caller's own (played or mastered), public games still
forming, and public games under way with a seat open for a replacement; without
credentials only those open ones. Newest first.

Why pages: the contract answers a list, so the page is chosen by query
parameters (``limit`` and ``before``: only games with a smaller id) and the
route announces the next page in a ``Link`` header when :func:`games_page` says
there is one.

Why one request: the lobby shows, per game, its seats taken and in all
(``seats_taken``, ``seats`` from ``games.power_count``, stored at creation),
which powers are taken, open and played by bots, and, for the caller's running
games, whether they still owe orders and how much press they have not read. So
the page needs no request per game, and listing never builds a variant nor
reads a game's state or variant file (only the columns shown are selected): a
fixed handful of queries, whatever the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from .auth import Caller
from .models import GameRow, PendingOrdersRow, Seat
from .press_access import unread_counts
from .schemas import GameSummaryOut

Status = Literal["forming", "active", "finished"]
#: the most games one page of the listing holds (and the default page size)
PAGE_MAX = 500


@dataclass(frozen=True, slots=True)
class Page:
    """One page of the listing, and the ``before`` of the next one (None: the last)."""

    games: list[GameSummaryOut]
    next_before: int | None


@dataclass(slots=True)
class _Seats:
    """What the listing shows of the listed games' seats, by game id."""

    taken: dict[int, list[str]]
    mine: dict[int, str]
    opened: dict[int, list[str]]
    bots: dict[int, dict[str, str]]


def _listed(who: Caller | None) -> ColumnElement[bool]:
    """The games the caller may see in the listing (see the module's description)."""
    open_public: ColumnElement[bool] = GameRow.private.is_(False) & (
        (GameRow.status == "forming") | ((GameRow.status == "active") & GameRow.id.in_(
            select(Seat.game_id).where(Seat.open.is_(True)))))
    if who is None:
        return open_public
    playing = select(Seat.game_id).where(Seat.user_id == who.user_id)
    return or_(open_public, GameRow.master_id == who.user_id, GameRow.id.in_(playing))


def games_page(s: Session, who: Caller | None, status: Status | None, limit: int,
               before: int | None) -> Page:
    """At most ``limit`` games the caller may see (with ``status``, and an id below
    ``before``, if given), newest first."""
    query = select(GameRow.id, GameRow.name, GameRow.variant, GameRow.status, GameRow.phase,
                   GameRow.deadline, GameRow.press, GameRow.anonymous, GameRow.private,
                   GameRow.master_id, GameRow.power_count, GameRow.phase_title,
                   GameRow.turn, GameRow.to_order).where(_listed(who))
    if status is not None:
        query = query.where(GameRow.status == status)
    if before is not None:
        query = query.where(GameRow.id < before)
    rows = list(s.execute(query.order_by(GameRow.id.desc()).limit(limit + 1)))
    more = len(rows) > limit
    rows = rows[:limit]
    seats = _seats(s, who, [r.id for r in rows])
    needs: set[int] = set()
    unread: dict[int, int] = {}
    if who is not None:
        running = [r for r in rows if r.status == "active"
                   and (r.id in seats.mine or r.master_id == who.user_id)]
        needs = _needing_orders(s, running, seats.mine)
        unread = unread_counts(s, who, {r.id: seats.mine.get(r.id) for r in running})
    games = [GameSummaryOut(
        id=r.id, name=r.name, variant=r.variant, status=r.status, phase=r.phase,
        deadline=r.deadline, press=r.press, anonymous=r.anonymous, private=r.private,
        seats_taken=len(seats.taken.get(r.id, [])), seats=r.power_count,
        taken_powers=seats.taken.get(r.id, []) if r.status == "forming" else [],
        your_power=seats.mine.get(r.id),
        you_master=who is not None and who.user_id == r.master_id,
        open_powers=seats.opened.get(r.id, []) if r.status == "active" else [],
        phase_title=r.phase_title, needs_orders=r.id in needs, unread=unread.get(r.id, 0),
        bots=seats.bots.get(r.id, {}))
        for r in rows]
    return Page(games, rows[-1].id if more else None)


def _seats(s: Session, who: Caller | None, ids: list[int]) -> _Seats:
    """The listed games' seats, in one query: taken, the caller's, open, bots'."""
    out = _Seats({}, {}, {}, {})
    for gid, power, user_id, bot, is_open in s.execute(
            select(Seat.game_id, Seat.power, Seat.user_id, Seat.bot, Seat.open)
            .where(Seat.game_id.in_(ids)).order_by(Seat.game_id, Seat.power)):
        out.taken.setdefault(gid, []).append(power)
        if who is not None and user_id == who.user_id:
            out.mine[gid] = power
        if is_open:
            out.opened.setdefault(gid, []).append(power)
        if bot is not None:
            out.bots.setdefault(gid, {})[power] = bot
    return out


def _needing_orders(s: Session, running: list[Any], mine: dict[int, str]) -> set[int]:
    """The caller's running games where the power they play must order this phase and
    has sent nothing yet (one query for them all)."""
    turns = {r.id: r.turn for r in running}
    sent = {(gid, p) for gid, p, turn in s.execute(
        select(PendingOrdersRow.game_id, PendingOrdersRow.power,
               PendingOrdersRow.turn).where(PendingOrdersRow.game_id.in_(list(turns))))
        if turn == turns[gid]}
    return {r.id for r in running
            if (played := mine.get(r.id)) is not None and played in (r.to_order or [])
            and (r.id, played) not in sent}
