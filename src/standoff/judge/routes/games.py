"""Routes for variants, games and seats (the master's actions: ``master.py``; what a
new game is made of, checked and written: ``creation.py``; taking a seat:
``joining.py``).

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

from typing import Annotated

from fastapi import APIRouter, Header, Query

from .. import joining
from ..access import game_for_update, get_game, require_view, seats_of
from ..auth import CallerDep
from ..context import JudgeDep
from ..creation import add_game, plan_game
from ..db import utcnow
from ..errors import ERROR_RESPONSES
from ..game_view import game_out
from ..processing import request_processing, start_if_full
from ..quotas import check_game_limits
from ..rules import bundled_variants, check_options, rule_options
from ..schemas import GameId, GameIn, GameOut, OptionOut, SeatIn, SeatOut, VariantOut
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
    now = utcnow()
    # the variant is checked (a designer's file in a bounded worker) and built before
    # the write transaction: no other request waits for it
    chosen = choose_variant(j, who.user_id, body.variant, body.variant_file, now)
    plan = plan_game(body, chosen.rules, options, j.settings.default_deadlines)
    with j.db.write() as s:
        check_game_limits(s, j, who)
        if chosen.keys:
            claim_names(s, chosen, now)
        game = add_game(s, plan, who.user_id, chosen.name, chosen.text, chosen.sha256, now)
        started = start_if_full(s, game, chosen.rules, now, j.settings)
        out, game_id, turn, due = game_out(s, game, who, j), game.id, game.turn, \
            game.process_requested
    if started:
        j.notify("game_started", game_id)
        if due:
            request_processing(j, game_id, turn)
    return out


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
        taken = joining.take_seat(s, j, game, who, body.power, body.invite, now)
        if taken.rules is None:  # a replacement in a game under way
            return SeatOut(power=taken.power)
        started = start_if_full(s, game, taken.rules, now, j.settings)
        starting = game.process_requested
        turn = game.turn
    if started:
        j.notify("game_started", game_id)
    if starting:  # a first phase with nothing to do
        request_processing(j, game_id, turn)
    return SeatOut(power=taken.power)
