"""Routes for variants, games, seats and the master's actions.

Who sees what: a public game's details are open to every signed-in account; a
private game's only to its master and players (others get 403, the same as for
a game that is not theirs). A private game has an invite code, shown to its
master only; players give it when they take a seat. In an anonymous game
nobody sees who plays which power, except each player their own and the
master all of them.

Every change to a game locks its row first (``processing.lock_game``), so the
game's state, seats and phase move one step at a time whatever the number of
server processes.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Header, Query
from sqlalchemy import select
from sqlalchemy.orm import Session

from .auth import Caller, CallerDep, optional_caller
from .context import Judge, JudgeDep
from .db import utcnow
from .errors import ERROR_RESPONSES, ApiError, conflict, forbidden, not_found
from .lobby import check_game_limits
from .models import Game, PendingOrders, Seat, User
from .processing import lock_game, remind_time, request_processing, start_game
from .rules import bundled_variants, check_options, rule_options
from .schemas import (
    ExtendIn,
    GameId,
    GameIn,
    GameOut,
    OptionOut,
    PowerOut,
    SeatIn,
    SeatOut,
    VariantOut,
)
from .uploads import choose_variant, claim_names
from .variants import VariantUnavailable

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)

MaybeCaller = Annotated[Caller | None, Depends(optional_caller)]
Status = Literal["forming", "active", "finished"]


# -- helpers shared with the other route modules ------------------------------------

def get_game(s: Session, game_id: int) -> Game:
    game = s.get(Game, game_id)
    if game is None:
        raise not_found(f"there is no game {game_id}")
    return game


def seats_of(s: Session, game_id: int) -> dict[str, Seat]:
    return {seat.power: seat for seat in s.scalars(select(Seat).where(Seat.game_id == game_id))}


def seat_of(seats: dict[str, Seat], user_id: int) -> Seat | None:
    return next((seat for seat in seats.values() if seat.user_id == user_id), None)


def invited(game: Game, who: Caller, invite: str | None) -> bool:
    """May the caller join this game? A public one: anyone; a private one: its
    master, or whoever gives its invite code (compared in constant time)."""
    return not game.private or who.user_id == game.master_id or hmac.compare_digest(
        (invite or "").encode(), (game.invite_code or "").encode())


def require_view(game: Game, who: Caller, seats: dict[str, Seat],
                 invite: str | None = None) -> None:
    """403 unless the caller may see this game: a private one, its master and
    players, and while it is forming, whoever holds its invite code (to pick a
    power)."""
    if game.private and seat_of(seats, who.user_id) is None and not (
            game.status == "forming" and invite and invited(game, who, invite)) \
            and who.user_id != game.master_id:
        raise forbidden(f"game {game.id} is private: only its master and players see it")


def require_master(game: Game, who: Caller) -> None:
    if who.user_id != game.master_id:
        raise forbidden(f"only the master of game {game.id} may do that")


def require_active(game: Game) -> None:
    if game.status == "forming":
        raise conflict(f"game {game.id} has not started: it waits for players")
    if game.status == "finished":
        raise conflict(f"game {game.id} is over")


def game_out(s: Session, game: Game, who: Caller, j: Judge) -> GameOut:
    seats = seats_of(s, game.id)
    names = {uid: name for uid, name in s.execute(select(User.id, User.username).where(
        User.id.in_([seat.user_id for seat in seats.values()] + [game.master_id])))}
    submitted = set(s.scalars(select(PendingOrders.power).where(
        PendingOrders.game_id == game.id, PendingOrders.turn == game.turn)))
    mine = seat_of(seats, who.user_id)
    is_master = who.user_id == game.master_id
    active = game.status == "active"
    powers = {}
    for power in _powers(j, game, seats):
        seat = seats.get(power)
        shown = seat is not None and (not game.anonymous or is_master or seat is mine)
        powers[power] = PowerOut(
            player=names.get(seat.user_id) if seat is not None and shown else None,
            submitted=active and power in submitted,
            ready=active and seat is not None and seat.ready_turn == game.turn,
            nmr=seat.nmr if seat is not None else 0,
            to_order=active and power in game.to_order)
    return GameOut(
        id=game.id, name=game.name, variant=game.variant, status=_status(game.status),
        phase=game.phase, deadline=game.deadline, position=game.state["position"],
        powers=powers, outcome=game.outcome, options=game.options, deadlines=game.deadlines,
        press=game.press, anonymous=game.anonymous, private=game.private, paused=game.paused,
        remaining=game.paused_remaining, turn=game.turn,
        master=names.get(game.master_id) if not game.anonymous or is_master else None,
        your_power=mine.power if mine is not None else None,
        invite=game.invite_code if is_master else None, created_at=game.created_at,
        variant_sha256=game.variant_sha256, set_aside=_set_aside(game),
        failure=game.failure if is_master and _set_aside(game) else None)


def _powers(j: Judge, game: Game, seats: dict[str, Seat]) -> list[str]:
    """The game's powers; for a game whose variant file no longer loads (set aside
    until its master retries), those the table and the board still name, so its
    master and players can see it and why it stopped."""
    try:
        return j.variants.rules(game).powers
    except VariantUnavailable:
        position = game.state.get("position", {})
        return sorted({*seats, *position.get("units", {}), *position.get("centres", {})})


def _set_aside(game: Game) -> bool:
    """The current phase failed to process and waits for the master's retry."""
    return game.failed_turn is not None and game.failed_turn == game.turn


_STATUSES: dict[str, Status] = {"forming": "forming", "active": "active",
                                 "finished": "finished"}


def _status(text: str) -> Status:
    return _STATUSES[text]


# -- variants and options ------------------------------------------------------------

@router.get("/variants", response_model=list[VariantOut], tags=["variants"])
def list_variants() -> list[VariantOut]:
    """The bundled variants a game may be created with."""
    return [VariantOut(name=v.name, title=v.title, powers=v.powers, description=v.description)
            for v in bundled_variants()]


@router.get("/options", response_model=list[OptionOut], tags=["variants"])
def list_options() -> list[OptionOut]:
    """The rule options a game may set (``options`` when creating it); first value: default."""
    return [OptionOut(name=n, values=vs, default=vs[0], datc=issue, description=text)
            for n, vs, issue, text in rule_options()]


# -- games ---------------------------------------------------------------------------

@router.post("/games", status_code=201, response_model=GameOut)
def create_game(body: GameIn, who: CallerDep, j: JudgeDep) -> GameOut:
    """Create a game; the caller is its master (and may also take a seat). The game
    plays a bundled variant, or a designer's variant file sent as ``variant_file``
    (checked as ``standoff check-variant`` does: 422 with the problems)."""
    options = check_options(body.options or {})
    deadlines = dict(j.settings.default_deadlines)
    if body.deadlines is not None:
        deadlines.update({k: s for k, s in body.deadlines.model_dump().items() if s is not None})
    now = utcnow()
    # the variant is checked (a designer's file in a bounded worker) and built before
    # the write transaction: no other request waits for it
    chosen = choose_variant(j, who.user_id, body.variant, body.variant_file, now)
    state = chosen.rules.new_state(options)
    phase, _ = chosen.rules.phase_of(state)
    with j.db.write() as s:
        check_game_limits(s, j, who)
        if chosen.keys:
            claim_names(s, chosen, now)
        game = Game(name=body.name, variant=chosen.name, options=options, press=body.press,
                    anonymous=body.anonymous, private=body.private,
                    invite_code=secrets.token_urlsafe(12) if body.private else None,
                    master_id=who.user_id, status="forming", turn=0, phase=phase, state=state,
                    to_order=[], deadlines=deadlines, deadline=None, paused=False,
                    paused_remaining=None, process_requested=False, outcome=None,
                    created_at=now, started_at=None, finished_at=None,
                    variant_file=chosen.text, variant_sha256=chosen.sha256, remind_at=None,
                    reminded_turn=None, power_count=len(chosen.rules.powers))
        s.add(game)
        s.flush()
        return game_out(s, game, who, j)


# GET /games (the lobby's listing, paged) is in lobby.py, with the limits on creating


@router.get("/games/{game_id}", response_model=GameOut)
def show_game(game_id: GameId, who: CallerDep, j: JudgeDep,
              invite: Annotated[str | None, Query(max_length=64)] = None,
              invite_header: Annotated[str | None, Header(alias="X-Invite-Code",
                                                          max_length=64)] = None) -> GameOut:
    """The game: phase, deadline, position, and per power who plays it (unless
    anonymous), whether it has submitted orders and is ready, its NMRs. Never the
    pending orders themselves. A forming private game opens to the holder of its
    invite code, to choose a power: send it as the header ``X-Invite-Code: CODE``
    (better: a header stays out of access logs and Referer headers) or ``?invite=CODE``."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        require_view(game, who, seats_of(s, game_id), invite_header or invite)
        return game_out(s, game, who, j)


@router.post("/games/{game_id}/seats", status_code=201, response_model=SeatOut)
def take_seat(game_id: GameId, body: SeatIn, who: CallerDep, j: JudgeDep) -> SeatOut:
    """Play a chosen power, or any free one. When the last power is taken the game
    starts: its first phase begins and the clock runs."""
    now = utcnow()
    with j.db.write() as s:
        game = lock_game(s, game_id)
        if game is None:
            raise not_found(f"there is no game {game_id}")
        if not invited(game, who, body.invite):
            raise forbidden(f"game {game_id} is private: give its invite code to join")
        if game.status != "forming":
            raise conflict(f"game {game_id} has already started")
        seats = seats_of(s, game_id)
        mine = seat_of(seats, who.user_id)
        if mine is not None:
            raise conflict(f"you already play {mine.power} in game {game_id}")
        rules = j.variants.rules(game)
        everyone = rules.powers
        if body.power is not None:
            power = rules.power_id(body.power)
            if power in seats:
                raise conflict(f"{power} is taken in game {game_id}")
        else:
            free = [p for p in everyone if p not in seats]
            if not free:
                raise conflict(f"game {game_id} is full")
            power = secrets.choice(free)
        s.add(Seat(game_id=game_id, power=power, user_id=who.user_id, ready_turn=None, nmr=0,
                   joined_at=now, draw_vote=False, concede_to=None))
        started = len(seats) + 1 == len(everyone)
        if started:
            start_game(game, rules, now, j.settings)
        starting = game.process_requested
        turn = game.turn
    if started:
        j.notify("game_started", game_id)
    if starting:  # a first phase with nothing to do
        request_processing(j, game_id, turn)
    return SeatOut(power=power)


# -- the master's actions ------------------------------------------------------------

def _locked_as_master(s: Session, game_id: int, who: Caller) -> Game:
    """The game's row, locked, when the caller is its master (404, 403 otherwise)."""
    game = lock_game(s, game_id)
    if game is None:
        raise not_found(f"there is no game {game_id}")
    require_master(game, who)
    return game


def _master_change(j: Judge, game_id: int, who: Caller, action: str,
                   seconds: int = 0) -> tuple[GameOut, bool, int]:
    now = utcnow()
    with j.db.write() as s:
        game = _locked_as_master(s, game_id, who)
        require_active(game)
        if action == "pause":
            if game.paused:
                raise conflict(f"game {game_id} is already paused")
            left = (game.deadline - now).total_seconds() if game.deadline is not None else 0.0
            game.paused, game.paused_remaining, game.deadline = True, max(left, 0.0), None
            game.remind_at = None
        elif action == "resume":
            if not game.paused:
                raise conflict(f"game {game_id} is not paused")
            left = game.paused_remaining or 0.0
            game.paused, game.paused_remaining = False, None
            game.deadline = now + timedelta(seconds=left)
            kind = j.variants.rules(game).phase_of(game.state)[1]
            game.remind_at = remind_time(j.settings, game, kind, game.deadline)
        elif action == "extend":
            if game.paused:
                game.paused_remaining = (game.paused_remaining or 0.0) + seconds
            else:
                before = game.deadline
                game.deadline = max(game.deadline or now, now) + timedelta(seconds=seconds)
                if game.remind_at is not None and before is not None:
                    game.remind_at += game.deadline - before
        elif action == "process":
            game.process_requested = True
        elif action == "retry":
            if not _set_aside(game):
                raise conflict(f"game {game_id} is not set aside: its phase has not failed")
            game.failed_turn, game.failed_at, game.failure = None, None, None
        else:  # pragma: no cover - the routes name every action
            raise ApiError(404, f"no master action {action!r}")
        s.flush()
        return game_out(s, game, who, j), game.process_requested, game.turn


@router.post("/games/{game_id}/master/pause", response_model=GameOut, tags=["master"])
def master_pause(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Stop the clock; ``resume`` restarts it with the time that was left."""
    return _master_change(j, game_id, who, "pause")[0]


@router.post("/games/{game_id}/master/resume", response_model=GameOut, tags=["master"])
def master_resume(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Restart a paused clock with the time that was left when it was paused."""
    return _master_change(j, game_id, who, "resume")[0]


@router.post("/games/{game_id}/master/extend", response_model=GameOut, tags=["master"])
def master_extend(game_id: GameId, body: ExtendIn, who: CallerDep, j: JudgeDep) -> GameOut:
    """Give the current phase ``seconds`` more (from now, if its deadline has passed)."""
    return _master_change(j, game_id, who, "extend", body.seconds)[0]


@router.post("/games/{game_id}/master/cancel", response_model=GameOut, tags=["master"])
def master_cancel(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Call off a game that has not started (``"outcome": {"cancelled": true}``): its
    seats are freed, and it no longer counts among the master's forming games. A game
    that has started ends by play, votes or concession, never by cancelling."""
    now = utcnow()
    with j.db.write() as s:
        game = _locked_as_master(s, game_id, who)
        if game.status != "forming":
            raise conflict(f"game {game_id} has started: it cannot be cancelled (vote a "
                           "draw, or concede)")
        game.status, game.outcome, game.finished_at = "finished", {"cancelled": True}, now
        s.flush()
        return game_out(s, game, who, j)


@router.post("/games/{game_id}/master/retry", response_model=GameOut, tags=["master"])
def master_retry(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Try again a phase that failed to process (``set_aside``: the error is in
    ``failure``): the scheduler takes it at its next look if it is due."""
    out = _master_change(j, game_id, who, "retry")[0]
    j.wake()
    return out


@router.post("/games/{game_id}/master/process", response_model=GameOut, tags=["master"])
def master_process(game_id: GameId, who: CallerDep, j: JudgeDep) -> GameOut:
    """Process the current phase now, with the orders given so far."""
    _, _, turn = _master_change(j, game_id, who, "process")
    request_processing(j, game_id, turn)
    with j.db.read() as s:
        return game_out(s, get_game(s, game_id), who, j)
