"""The route of a game's event stream (server-sent events): ``events.py`` says what
it sends and why it is safe to send."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sse_starlette import EventSourceResponse
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from ..auth import Caller, CallerDep
from ..context import Judge, JudgeDep
from ..errors import ERROR_RESPONSES, ApiError
from ..events import Look, changes, encode, look
from ..schemas import GameId
from ..streams import Place

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)

#: seconds between comment lines that keep proxies from closing a quiet stream
KEEPALIVE_SECONDS = 15
#: the longest a stream lasts: its look at the database is bounded in time too
MAX_SECONDS = 3600


@router.get("/games/{game_id}/events", response_class=EventSourceResponse,
            responses={200: {"content": {"text/event-stream": {}}}})
async def game_events(game_id: GameId, request: Request, who: CallerDep, j: JudgeDep,
                      seconds: Annotated[int, Query(ge=0, le=MAX_SECONDS, description=(
                          "close the stream after this many seconds (a client reconnects, "
                          "as EventSource does by itself); 0: only the first event"))
                      ] = MAX_SECONDS) -> EventSourceResponse:
    """The game's events as they happen, for whoever may see the game (server-sent
    events: ``text/event-stream``; in a browser, ``new EventSource(url)``): first a
    ``game`` event with the whole view (as ``GET /games/{id}``), then ``phase``,
    ``game``, ``power`` and ``press`` events as they change, never anyone's orders
    nor press the reader may not read. ``end`` says the reader lost sight of the
    game; the stream then closes. 429 when the account (or this server) follows
    too many streams already. A stream lasts at most an hour (``seconds``)."""
    first = await run_in_threadpool(look, j, game_id, who)  # 404/403 before streaming
    place = j.streams.take(who.user_id)
    # the place is given back when the stream ends, and at the latest when the response
    # is over (a client gone before the first event, or a HEAD request)
    return EventSourceResponse(_stream(request, j, game_id, who, first, place, seconds),
                               ping=KEEPALIVE_SECONDS, background=BackgroundTask(place.release),
                               headers={"Cache-Control": "no-store",
                                        "X-Accel-Buffering": "no"})


async def _stream(request: Request, j: Judge, game_id: int, who: Caller,
                  first: Look, place: Place, seconds: int) -> AsyncIterator[dict[str, Any]]:
    number = 1
    end = time.monotonic() + seconds
    try:
        yield encode("game", first.view, number)
        last = first
        while time.monotonic() < end:
            await asyncio.sleep(j.settings.events_interval)
            if await request.is_disconnected():
                return
            try:
                now = await run_in_threadpool(look, j, game_id, who)
            except ApiError as exc:
                number += 1
                yield encode("end", {"detail": exc.detail}, number)
                return
            for kind, data in changes(last, now):
                number += 1
                yield encode(kind, data, number)
            last = now
    finally:
        place.release()
