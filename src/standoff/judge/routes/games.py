"""Routes for variants, games and seats (the master's actions: ``master.py``).

Who sees what: a public game's details are open to every signed-in account; a
private game's only to its master and players (others get 403, the same as for
a game that is not theirs). A private game has an invite code, shown to its
master only; players give it when they take a seat. In an anonymous game
nobody sees who plays which power, except each player their own and the
master all of them (``game_view``).

Every change to a game locks its row first (``access.game_for_update``), so the
game's state, seats and phase move one step at a time whatever the number of
server processes.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Header, Query

from ..access import game_for_update, get_game, invited, require_view, seat_of, seats_of
from ..auth import CallerDep
from ..bots import DEFAULT_STAND_IN, bot_name
from ..context import Judge, JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, conflict, forbidden, invalid
from ..game_view import game_out
from ..models import GameRow, Seat
from ..processing import request_processing, start_if_full
from ..quotas import check_game_limits
from ..rules import Rules, bundled_variants, check_options, rule_options
from ..schemas import GameId, GameIn, GameOut, OptionOut, SeatIn, SeatOut, VariantOut
from ..seating import fill_with_bots
from ..uploads import choose_variant, claim_names

router = APIRouter(prefix="/api/v1", tags=["games"], responses=ERROR_RESPONSES)


# -- variants and options ------------------------------------------------------------

@router.get("/variants", response_model=list[VariantOut], tags=["variants"])
def list_variants() -> list[VariantOut]:
    """The bundled variants a game may be created with."""
    return [VariantOut(name=v.name, title=v.title, powers=v.powers, description=v.description,
                       notes=v.notes) for v in bundled_variants()]


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
    rules = chosen.rules
    state = rules.new_state(options)
    phase, _ = rules.phase_of(state)
    seated = _seated_at_creation(body, rules)
    with j.db.write() as s:
        check_game_limits(s, j, who)
        if chosen.keys:
            claim_names(s, chosen, now)
        game = GameRow(name=body.name, variant=chosen.name, options=options, press=body.press,
                    anonymous=body.anonymous, private=body.private,
                    invite_code=secrets.token_urlsafe(12) if body.private else None,
                    master_id=who.user_id, status="forming", turn=0, phase=phase,
                    phase_title=rules.phase_title(state), state=state,
                    to_order=[], deadlines=deadlines, deadline=None, paused=False,
                    paused_remaining=None, process_requested=False, outcome=None,
                    created_at=now, started_at=None, finished_at=None,
                    variant_file=chosen.text, variant_sha256=chosen.sha256, remind_at=None,
                    reminded_turn=None, power_count=len(rules.powers),
                    fill_bot=body.fill_bot,
                    join_by=now + timedelta(seconds=body.join_seconds if body.join_seconds
                                            is not None else DEFAULT_JOIN_SECONDS)
                    if body.fill_bot else None,
                    takeover_after=body.takeover_after,
                    takeover_bot=(body.takeover_bot or DEFAULT_STAND_IN)
                    if body.takeover_after is not None else None,
                    deadline_time=body.deadline_time,
                    time_zone=_time_zone(body.time_zone) if body.deadline_time else None)
        s.add(game)
        s.flush()
        for power, bot in seated.items():
            s.add(Seat(game_id=game.id, power=power, user_id=who.user_id if bot is None
                       else None, bot=bot, open=False, missed=0, ready_turn=None, nmr=0,
                       joined_at=now, draw_vote=False, concede_to=None))
        s.flush()
        if body.fill_bot is not None and body.join_seconds == 0:
            fill_with_bots(s, game, rules.powers, seats_of(s, game.id), body.fill_bot, now)
        started = start_if_full(s, game, rules, now, j.settings)
        out, game_id, turn, due = game_out(s, game, who, j), game.id, game.turn, \
            game.process_requested
    if started:
        j.notify("game_started", game_id)
        if due:
            request_processing(j, game_id, turn)
    return out


def _time_zone(name: str | None) -> str:
    """An IANA time zone's name, checked (400 for one the judge does not know)."""
    if name is None:
        return "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise invalid(f"there is no time zone {name!r}: give an IANA name such as "
                      "Europe/Paris or America/New_York") from exc
    return name


#: how long a game with ``fill_bot`` waits for people when it does not say
DEFAULT_JOIN_SECONDS = 24 * 3600


def _seated_at_creation(body: GameIn, rules: Rules) -> dict[str, str | None]:
    """The seats a new game has at once: {power: bot}, None for the creator's own
    (``power``). 422 for an unknown bot or power, 409 for a power given twice."""
    for bot in (body.fill_bot, body.takeover_bot, *(body.bots or {}).values()):
        if bot is not None:
            bot_name(bot)
    seated: dict[str, str | None] = {}
    for text, bot in (body.bots or {}).items():
        power = rules.power_id(text)
        if power in seated:
            raise conflict(f"{power} is given a bot twice")
        seated[power] = bot
    if body.power is not None:
        mine = rules.power_id(body.power)
        if mine in seated:
            raise conflict(f"{mine} is given to a bot: you cannot play it too")
        seated[mine] = None
    return seated


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
    """Play a chosen power, or any free one. When the last power is taken (by people
    and bots) the game starts: its first phase begins and the clock runs. In a game
    under way, take a seat that is open for a replacement (``powers[p]["open"]``)."""
    now = utcnow()
    with j.db.write() as s:
        game = game_for_update(s, game_id)
        if not invited(game, who, body.invite):
            raise forbidden(f"game {game_id} is private: give its invite code to join")
        seats = seats_of(s, game_id)
        mine = seat_of(seats, who.user_id)
        if mine is not None:
            raise conflict(f"you already play {mine.power} in game {game_id}")
        if game.status != "forming":
            power = _take_over(game, seats, body, who.user_id, j)
            s.flush()
            return SeatOut(power=power)
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
        s.add(Seat(game_id=game_id, power=power, user_id=who.user_id, bot=None, open=False,
                   missed=0, ready_turn=None, nmr=0, joined_at=now, draw_vote=False,
                   concede_to=None))
        s.flush()
        started = start_if_full(s, game, rules, now, j.settings)
        starting = game.process_requested
        turn = game.turn
    if started:
        j.notify("game_started", game_id)
    if starting:  # a first phase with nothing to do
        request_processing(j, game_id, turn)
    return SeatOut(power=power)


def _take_over(game: GameRow, seats: dict[str, Seat], body: SeatIn, user_id: int,
               j: Judge) -> str:
    """A person takes an open seat of a game under way (a replacement): they play on
    with the power's units, history, pending orders and press; a bot standing in
    stops. 409 unless the game is running and the seat (or, with no power named,
    some seat) is open."""
    if game.status != "active":
        raise conflict(f"game {game.id} is over")
    open_seats = sorted(p for p, seat in seats.items() if seat.open)
    if body.power is not None:
        power = j.variants.rules(game).power_id(body.power)
        if power not in open_seats:
            raise conflict(f"{power} is taken in game {game.id}: only a seat its master "
                           "or the game opened may be taken over")
    elif open_seats:
        power = open_seats[0]
    else:
        raise conflict(f"game {game.id} has already started and has no open seat")
    seat = seats[power]
    seat.user_id, seat.bot, seat.open, seat.missed = user_id, None, False, 0
    seat.away_from = seat.away_until = seat.away_bot = None
    seat.draw_vote, seat.concede_to = False, None
    return power
