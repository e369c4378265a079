"""Routes for bots and for seats that never die: the bots on offer, a player's
absence, the master opening a seat for a replacement or filling the empty ones.

Who plays a seat at any moment is ``seating.stand``'s: a person, a bot (seated
for good, or standing in after a takeover), an absence (a chosen bot, or holds),
or nobody (a seat opened for a replacement, in civil disorder until taken).
Taking an open seat is ``POST .../seats`` (``games.py``), as for any seat.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import APIRouter

from ..access import (
    game_for_update,
    get_game,
    master_game_for_update,
    player_seat,
    require_active,
    require_master,
    seats_of,
)
from ..auth import CallerDep
from ..bots import bot_name, bots_on_offer
from ..context import JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, conflict, invalid
from ..game_view import game_out
from ..processing import fill_and_start, request_processing
from ..schemas import AwayIn, AwayOut, BotOut, FillIn, GameId, GameOut, OpenSeatIn
from ..seating import begin_absence, end_absence, reopen_seat

router = APIRouter(prefix="/api/v1", tags=["bots"], responses=ERROR_RESPONSES)

#: the longest absence one declaration covers
MAX_AWAY = timedelta(days=60)


@router.get("/bots", response_model=list[BotOut])
def list_bots() -> list[BotOut]:
    """The bots a game may seat, weakest first, each with a sentence a player reads."""
    return [BotOut(name=name, description=text) for name, text in bots_on_offer()]


# -- absence ---------------------------------------------------------------------------

@router.put("/games/{game_id}/away", response_model=AwayOut)
def declare_away(game_id: GameId, body: AwayIn, who: CallerDep, j: JudgeDep) -> AwayOut:
    """Declare an absence: from ``start`` (default now) until ``until`` the seat is
    played by ``bot`` (or, without one, holds: ready, nothing sent, no phase counted
    as missed), and returns to you afterwards. Other players see that the seat is
    on leave, not why. When it begins (now, or at ``start`` within a phase) the bot
    plays the current phase too, unless you already sent orders for it: those stand
    (the seat is then ready) and the bot plays from the next phase."""
    now = utcnow()
    start = body.start or now
    if body.bot is not None:
        bot_name(body.bot)
    if body.until <= max(start, now):
        raise invalid("an absence must end after it starts, and in the future")
    if body.until - start > MAX_AWAY:
        raise invalid(f"an absence may last at most {MAX_AWAY.days} days; declare another "
                      "when it ends")
    with j.db.write() as s:
        game = game_for_update(s, game_id)
        seat = player_seat(s, game, who, ": only players go on leave")
        if game.status == "finished":
            raise conflict(f"game {game_id} is over")
        if seat.away_started and start > now:
            end_absence(seat)  # an absence under way moved to later: it ends now
        seat.away_from, seat.away_until, seat.away_bot = start, body.until, body.bot
        seat.away_started = False
        s.flush()
        if start <= now:  # else the scheduler hands it over when it begins (absences.py)
            state = game.state
            begin_absence(s, game, seat, now,
                          lambda: j.variants.rules(game).powers_that_may_order(state))
        due, turn = game.process_requested, game.turn
        out = AwayOut(power=seat.power, start=start, until=body.until, bot=body.bot)
    _after_change(j, game_id, due, turn)
    return out


@router.delete("/games/{game_id}/away", response_model=AwayOut)
def end_away(game_id: GameId, who: CallerDep, j: JudgeDep) -> AwayOut:
    """End (or cancel) your absence: the seat is yours again from now; orders a bot
    already gave for this phase stand until you send your own, and the phase waits
    for you to say you are ready (the bot's ready flag is lowered). At ``until`` the
    judge does the same by itself."""
    with j.db.write() as s:
        game = game_for_update(s, game_id)
        seat = player_seat(s, game, who, ": only players go on leave")
        end_absence(seat)
        return AwayOut(power=seat.power, start=None, until=None, bot=None)


# -- the master -------------------------------------------------------------------------

@router.post("/games/{game_id}/master/seats/{power}/open", response_model=GameOut)
def open_seat(game_id: GameId, power: str, body: OpenSeatIn, who: CallerDep,
              j: JudgeDep) -> GameOut:
    """Open a power's seat for a replacement: its player (if any) leaves the game;
    ``bot`` plays it meanwhile (or it is in civil disorder). Whoever takes it
    (``POST .../seats {"power": ...}``) plays on with the power's history, orders
    and press."""
    if body.bot is not None:
        bot_name(body.bot)
    now = utcnow()
    with j.db.write() as s:
        game = master_game_for_update(s, game_id, who)
        require_active(game)
        rules = j.variants.rules(game)
        pid = rules.power_id(power[:40])
        seat = seats_of(s, game_id).get(pid)
        if seat is None:
            raise conflict(f"{pid} has no seat in game {game_id}")
        seat.user_id, seat.bot, seat.open, seat.missed = None, body.bot, True, 0
        seat.away_from = seat.away_until = seat.away_bot = None
        seat.draw_vote, seat.concede_to = False, None
        s.flush()
        state = game.state
        reopen_seat(s, game, pid, now, lambda: rules.powers_that_may_order(state))
        due, turn = game.process_requested, game.turn
        out = game_out(s, game, who, j)
    _after_change(j, game_id, due, turn)
    return out


@router.post("/games/{game_id}/master/fill", response_model=GameOut)
def fill_seats(game_id: GameId, body: FillIn, who: CallerDep, j: JudgeDep) -> GameOut:
    """Seat ``bot`` in every empty seat of a forming game, and start it now."""
    bot_name(body.bot)
    with j.db.read() as s:
        game = get_game(s, game_id)
        require_master(game, who)
        if game.status != "forming":
            raise conflict(f"game {game_id} has already started")
    fill_and_start(j, game_id, body.bot)
    with j.db.read() as s:
        return game_out(s, get_game(s, game_id), who, j)


def _after_change(j: JudgeDep, game_id: int, due: bool, turn: int) -> None:
    """A seat's player changed: wake the bot workers, process the phase if it is due."""
    j.notify("bots_queued", game_id, turn=turn)
    if due:
        request_processing(j, game_id, turn)
