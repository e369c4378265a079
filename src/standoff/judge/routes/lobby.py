"""The lobby's side of the games: the listing (``GET /api/v1/games``, one page of
it per request). The per-account limits on creating games are ``quotas.py``.

Why pages: the contract answers a list, so the page is chosen by query
parameters and the next page is announced in a ``Link: <...>; rel="next"``
header (RFC 8288): ``limit`` (1 to 500, default 500, the old fixed size, so old
clients see what they saw) and ``before`` (only games with a smaller id: the
last id of the page before). Newest first.

Why one request: the lobby shows, per game, its seats taken and in all
(``seats_taken``, ``seats`` from ``games.power_count``, stored at creation)
and which powers are taken (``taken_powers``), so the page needs no request
per game, and listing never builds a variant nor reads a game's state or
variant file (only the columns shown are selected).
"""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy import ColumnElement, or_, select

from ..auth import MaybeCaller
from ..context import JudgeDep
from ..errors import ERROR_RESPONSES
from ..models import GameRow, PendingOrdersRow, Seat
from ..press_access import unread_counts
from ..schemas import GameSummaryOut

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)

Status = Literal["forming", "active", "finished"]
#: the most games one page of the listing holds (and the default page size)
PAGE_MAX = 500


@router.get("/games", response_model=list[GameSummaryOut])
def list_games(request: Request, response: Response, who: MaybeCaller, j: JudgeDep,
               status: Annotated[Status | None, Query()] = None,
               limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description=(
                   "the most games in this answer (newest first); when there are more, "
                   'a Link header with rel="next" gives the next page'))] = PAGE_MAX,
               before: Annotated[int | None, Query(ge=1, le=2**31 - 1, description=(
                   "only games with a smaller id: the last id of the page before"))] = None,
               ) -> list[GameSummaryOut]:
    """Games the caller plays or masters, public games still forming, and public
    games under way with a seat open for a replacement (without credentials: only
    those), newest first, one page at a time."""
    open_public: ColumnElement[bool] = GameRow.private.is_(False) & (
        (GameRow.status == "forming") | ((GameRow.status == "active") & GameRow.id.in_(
            select(Seat.game_id).where(Seat.open.is_(True)))))
    with j.db.read() as s:
        where: ColumnElement[bool]
        if who is None:
            where = open_public
        else:
            playing = select(Seat.game_id).where(Seat.user_id == who.user_id)
            where = or_(open_public, GameRow.master_id == who.user_id, GameRow.id.in_(playing))
        query = select(GameRow.id, GameRow.name, GameRow.variant, GameRow.status, GameRow.phase,
                       GameRow.deadline, GameRow.press, GameRow.anonymous, GameRow.private,
                       GameRow.master_id, GameRow.power_count, GameRow.phase_title,
                       GameRow.turn, GameRow.to_order).where(where)
        if status is not None:
            query = query.where(GameRow.status == status)
        if before is not None:
            query = query.where(GameRow.id < before)
        rows = list(s.execute(query.order_by(GameRow.id.desc()).limit(limit + 1)))
        more = len(rows) > limit
        rows = rows[:limit]
        ids = [r.id for r in rows]
        taken: dict[int, list[str]] = {}
        mine: dict[int, str] = {}
        opened: dict[int, list[str]] = {}
        bots: dict[int, dict[str, str]] = {}
        for gid, power, user_id, bot, is_open in s.execute(
                select(Seat.game_id, Seat.power, Seat.user_id, Seat.bot, Seat.open)
                .where(Seat.game_id.in_(ids)).order_by(Seat.game_id, Seat.power)):
            taken.setdefault(gid, []).append(power)
            if who is not None and user_id == who.user_id:
                mine[gid] = power
            if is_open:
                opened.setdefault(gid, []).append(power)
            if bot is not None:
                bots.setdefault(gid, {})[power] = bot
        # for the caller's own running games: orders still to give, and unread press
        needs: set[int] = set()
        unread: dict[int, int] = {}
        if who is not None:
            running = [r for r in rows if r.status == "active"
                       and (r.id in mine or r.master_id == who.user_id)]
            turns = {r.id: r.turn for r in running}
            sent = {(gid, p) for gid, p, turn in s.execute(
                select(PendingOrdersRow.game_id, PendingOrdersRow.power,
                       PendingOrdersRow.turn).where(PendingOrdersRow.game_id.in_(list(turns))))
                if turn == turns[gid]}
            for r in running:
                played = mine.get(r.id)
                if played is not None and played in (r.to_order or []) \
                        and (r.id, played) not in sent:
                    needs.add(r.id)
            unread = unread_counts(s, who, {r.id: mine.get(r.id) for r in running})
    if more:
        # a relative reference: right whatever host and scheme a proxy put in front
        params = urlencode({**request.query_params, "before": str(ids[-1])})
        response.headers["Link"] = f'<{request.url.path}?{params}>; rel="next"'
    return [GameSummaryOut(
        id=r.id, name=r.name, variant=r.variant, status=r.status, phase=r.phase,
        deadline=r.deadline, press=r.press, anonymous=r.anonymous, private=r.private,
        seats_taken=len(taken.get(r.id, [])), seats=r.power_count,
        taken_powers=taken.get(r.id, []) if r.status == "forming" else [],
        your_power=mine.get(r.id), you_master=who is not None and who.user_id == r.master_id,
        open_powers=opened.get(r.id, []) if r.status == "active" else [],
        phase_title=r.phase_title, needs_orders=r.id in needs, unread=unread.get(r.id, 0),
        bots=bots.get(r.id, {}))
        for r in rows]
