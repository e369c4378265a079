"""The lobby's side of the games: the listing (``GET /api/v1/games``, one page of
it per request) and the per-account limits on creating games.

Why limits: an account costs nothing, and one made 520 games in 8.3 s. The
listing then held nothing but its games, pushing real open games out of the
lobby. So an account may master at most ``forming_games_max`` games that are
still forming (409 past that: it should fill or finish one first) and create
at most ``games_per_hour`` games in any rolling hour (429 with Retry-After).
Both are counted under a lock on the account's row, so concurrent requests
cannot all see "one left" and all create (PostgreSQL; SQLite has one writer
at a time anyway).

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

import math
from datetime import timedelta
from typing import Annotated, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request, Response
from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from .auth import Caller, optional_caller
from .context import Judge, JudgeDep
from .db import utcnow
from .errors import ERROR_RESPONSES, ApiError, conflict
from .models import Game, Seat, User
from .schemas import GameSummaryOut

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)

MaybeCaller = Annotated[Caller | None, Depends(optional_caller)]
Status = Literal["forming", "active", "finished"]
#: the most games one page of the listing holds (and the default page size)
PAGE_MAX = 500


def check_game_limits(s: Session, j: Judge, who: Caller) -> None:
    """Refuse a new game past the account's limits: 409 with a sentence when it
    masters ``forming_games_max`` forming games already, 429 with Retry-After
    when it created ``games_per_hour`` in the last hour (0 turns a limit off).
    Call it inside the write transaction that creates the game: it locks the
    account's row, so the count stays true until the game is added."""
    settings = j.settings
    if settings.forming_games_max <= 0 and settings.games_per_hour <= 0:
        return
    s.execute(select(User.id).where(User.id == who.user_id).with_for_update())
    if settings.forming_games_max > 0:
        forming = s.scalar(select(func.count()).select_from(Game).where(
            Game.master_id == who.user_id, Game.status == "forming")) or 0
        if forming >= settings.forming_games_max:
            raise conflict(f"you already master {forming} games that have not started (the "
                           f"most this judge allows at once is {settings.forming_games_max}): "
                           "fill one of them before creating another")
    if settings.games_per_hour > 0:
        since = utcnow() - timedelta(hours=1)
        recent = list(s.scalars(select(Game.created_at).where(
            Game.master_id == who.user_id, Game.created_at > since)
            .order_by(Game.created_at.desc()).limit(settings.games_per_hour)))
        if len(recent) >= settings.games_per_hour:
            wait = max(1, math.ceil((recent[-1] - since).total_seconds()))
            raise ApiError(429, f"you created {settings.games_per_hour} games in the last hour, "
                                f"the most this judge allows: try again in {wait} seconds",
                           {"Retry-After": str(wait)})


@router.get("/games", response_model=list[GameSummaryOut])
def list_games(request: Request, response: Response, who: MaybeCaller, j: JudgeDep,
               status: Annotated[Status | None, Query()] = None,
               limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description=(
                   "the most games in this answer (newest first); when there are more, "
                   'a Link header with rel="next" gives the next page'))] = PAGE_MAX,
               before: Annotated[int | None, Query(ge=1, le=2**31 - 1, description=(
                   "only games with a smaller id: the last id of the page before"))] = None,
               ) -> list[GameSummaryOut]:
    """Games the caller plays or masters, and public games still forming (without
    credentials: only those), newest first, one page at a time."""
    open_public: ColumnElement[bool] = (Game.status == "forming") & Game.private.is_(False)
    with j.db.read() as s:
        where: ColumnElement[bool]
        if who is None:
            where = open_public
        else:
            playing = select(Seat.game_id).where(Seat.user_id == who.user_id)
            where = or_(open_public, Game.master_id == who.user_id, Game.id.in_(playing))
        query = select(Game.id, Game.name, Game.variant, Game.status, Game.phase,
                       Game.deadline, Game.press, Game.anonymous, Game.private,
                       Game.master_id, Game.power_count).where(where)
        if status is not None:
            query = query.where(Game.status == status)
        if before is not None:
            query = query.where(Game.id < before)
        rows = list(s.execute(query.order_by(Game.id.desc()).limit(limit + 1)))
        more = len(rows) > limit
        rows = rows[:limit]
        ids = [r.id for r in rows]
        taken: dict[int, list[str]] = {}
        mine: dict[int, str] = {}
        for gid, power, user_id in s.execute(
                select(Seat.game_id, Seat.power, Seat.user_id).where(Seat.game_id.in_(ids))
                .order_by(Seat.game_id, Seat.power)):
            taken.setdefault(gid, []).append(power)
            if who is not None and user_id == who.user_id:
                mine[gid] = power
    if more:
        # a relative reference: right whatever host and scheme a proxy put in front
        params = urlencode({**request.query_params, "before": str(ids[-1])})
        response.headers["Link"] = f'<{request.url.path}?{params}>; rel="next"'
    return [GameSummaryOut(
        id=r.id, name=r.name, variant=r.variant, status=r.status, phase=r.phase,
        deadline=r.deadline, press=r.press, anonymous=r.anonymous, private=r.private,
        seats_taken=len(taken.get(r.id, [])), seats=r.power_count,
        taken_powers=taken.get(r.id, []) if r.status == "forming" else [],
        your_power=mine.get(r.id), master=who is not None and who.user_id == r.master_id)
        for r in rows]
