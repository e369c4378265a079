"""Routes for the master's actions on a game: one function per action.

Each locks the game as its master (``access.master_game_for_update``: 404 for
no game, 403 for anyone but its master), checks the game is in a state the
action makes sense in (409 otherwise), changes it and answers the game
(``GameOut``). The clock's actions (pause, resume, extend) are ``clock.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter

from .. import clock
from ..access import get_game, master_game_for_update, require_active
from ..auth import Caller, CallerDep
from ..context import Judge, JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, conflict
from ..game_view import game_out, is_set_aside
from ..models import GameRow
from ..processing import request_processing
from ..schemas import ExtendIn, GameId, GameOut

router = APIRouter(prefix="/api/v1", tags=["games", "master"], responses=ERROR_RESPONSES)


def _change(j: Judge, game_id: int, who: Caller, act: Callable[[GameRow], None],
            *, active: bool = True) -> tuple[GameOut, int]:
    """Lock the game as its master, ``act`` on it, answer it: (the game, its turn)."""
    with j.db.write() as s:
        game = master_game_for_update(s, game_id, who)
        if active:
            require_active(game)
        act(game)
        s.flush()
        return game_out(s, game, who, j), game.turn


@router.post("/games/{game_id}/master/pause", response_model=GameOut)
def master_pause(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Stop the clock; ``resume`` restarts it with the time that was left."""
    return _change(j, game_id, who, lambda game: clock.pause(game, utcnow()))[0]


@router.post("/games/{game_id}/master/resume", response_model=GameOut)
def master_resume(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Restart a paused clock with the time that was left when it was paused."""
    def resume(game: GameRow) -> None:
        if not game.paused:  # before the variant is built for the phase's kind
            raise conflict(f"game {game_id} is not paused")
        kind = j.variants.rules(game).phase_of(game.state)[1]
        clock.resume(game, utcnow(), j.settings, kind)

    return _change(j, game_id, who, resume)[0]


@router.post("/games/{game_id}/master/extend", response_model=GameOut)
def master_extend(game_id: GameId, body: ExtendIn, who: CallerDep, j: JudgeDep) -> GameOut:
    """Give the current phase ``seconds`` more (from now, if its deadline has passed)."""
    return _change(j, game_id, who, lambda game: clock.extend(game, utcnow(), body.seconds))[0]


@router.post("/games/{game_id}/master/cancel", response_model=GameOut)
def master_cancel(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Call off a game that has not started (``"outcome": {"cancelled": true}``): its
    seats are freed, and it no longer counts among the master's forming games. A game
    that has started ends by play, votes or concession, never by cancelling."""
    def cancel(game: GameRow) -> None:
        if game.status != "forming":
            raise conflict(f"game {game_id} has started: it cannot be cancelled (vote a "
                           "draw, or concede)")
        game.status, game.outcome, game.finished_at = "finished", {"cancelled": True}, utcnow()

    return _change(j, game_id, who, cancel, active=False)[0]


@router.post("/games/{game_id}/master/retry", response_model=GameOut)
def master_retry(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Try again a phase that failed to process (``set_aside``: the error is in
    ``failure``): the scheduler takes it at its next look if it is due."""
    def retry(game: GameRow) -> None:
        if not is_set_aside(game):
            raise conflict(f"game {game_id} is not set aside: its phase has not failed")
        game.failed_turn, game.failed_at, game.failure = None, None, None

    out = _change(j, game_id, who, retry)[0]
    j.wake()
    return out


@router.post("/games/{game_id}/master/process", response_model=GameOut)
def master_process(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Process the current phase now, with the orders given so far."""
    def request(game: GameRow) -> None:
        game.process_requested = True

    _, turn = _change(j, game_id, who, request)
    request_processing(j, game_id, turn)
    with j.db.read() as s:
        return game_out(s, get_game(s, game_id), who, j)
