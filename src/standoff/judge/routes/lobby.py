"""The lobby's route: the listing of games (``GET /api/v1/games``), one page per request.

Which games, in which order, and what the listing shows of each are
``listing.py``; this route reads the query, asks for the page and, when there
is a next one, announces it in a ``Link: <...>; rel="next"`` header (RFC 8288):
``limit`` (1 to 500, default 500, the old fixed size, so old clients see what
they saw) and ``before`` (the last id of the page before). The per-account
limits on creating games are ``quotas.py``.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request, Response

from ..auth import MaybeCaller
from ..context import JudgeDep
from ..errors import ERROR_RESPONSES
from ..listing import PAGE_MAX, Status, games_page
from ..schemas import GameSummaryOut

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)


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
    with j.db.read() as s:
        page = games_page(s, who, status, limit, before)
    if page.next_before is not None:
        # a relative reference: right whatever host and scheme a proxy put in front
        params = urlencode({**request.query_params, "before": str(page.next_before)})
        response.headers["Link"] = f'<{request.url.path}?{params}>; rel="next"'
    return page.games
