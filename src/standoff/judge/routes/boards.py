"""Routes of the planning boards (``boards.py`` says what a board is and why nothing of
it reaches a game). Anyone with a board's link sees it (signed in or not: a link
shared is a picture shared); only its owner changes it; anyone signed in may make
a board of their own from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from .. import boards, history
from ..access import get_game, require_view, seats_of
from ..auth import CallerDep, MaybeCaller
from ..context import Judge, JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, invalid, not_found
from ..models import BoardRow
from ..rules import Rules, bundled_rules
from ..schemas import (
    BoardIn,
    BoardOrdersIn,
    BoardOut,
    BoardStepIn,
    BoardStepOut,
    BoardUnitsIn,
    LegalOrderOut,
)

router = APIRouter(prefix="/api/v1", tags=["boards"], responses=ERROR_RESPONSES)

#: a board's key in a path: what ``secrets.token_urlsafe(16)`` makes (anything else is
#: refused before the database is asked)
BoardKey = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,40}$",
                               description="the board's key, from its link")]


def _adjustments(rules: Rules, state: dict[str, Any]) -> dict[str, int]:
    """A step's builds and removals as the rules count them (none once its game is
    over)."""
    return {} if state.get("outcome") else rules.adjustments(state)


def _out(board: BoardRow, user_id: int | None, rules: Rules) -> BoardOut:
    return BoardOut(
        key=board.key, title=board.title, variant=board.variant, at=board.at,
        powers=dict(rules.power_names),
        steps=[BoardStepOut(phase=str(state["position"]["phase"]),
                            phase_title=rules.phase_title_of(str(state["position"]["phase"])),
                            adjustments=_adjustments(rules, state), position=state["position"],
                            orders=orders, results=results, outcome=state.get("outcome"))
               for state, orders, results in zip(board.steps, board.orders, board.results,
                                                 strict=True)],
        yours=board.owner_id == user_id, created_at=board.created_at,
        updated_at=board.updated_at)


@router.post("/boards", status_code=201, response_model=BoardOut)
def new_board(body: BoardIn, who: CallerDep, j: JudgeDep) -> BoardOut:
    """A planning board of your own: from a game's phase you may see (``game``,
    ``phase``: default its current one; only the units on the map are copied, never
    anyone's orders), from the step another board shows (``board``), or from a
    variant's start (``variant``)."""
    given = [x for x in (body.game, body.board, body.variant) if x is not None]
    if len(given) != 1:
        raise invalid("say where the board starts: one of game, board or variant")
    now = utcnow()
    with j.db.write() as s:
        if body.game is not None:
            game = get_game(s, body.game)
            require_view(game, who, seats_of(s, game.id))
            phase = (body.phase or game.phase).strip().upper()
            if phase == game.phase.upper():
                position = game.state["position"]
            else:
                row = history.processed_phase(s, game.id, phase)
                if row is None:
                    raise not_found(f"game {game.id} has no phase {phase}")
                position = row.position
            state = {**game.state, "position": position, "outcome": None}
            title = game.name
            made = boards.make_board(s, j, who, title, game.variant, game.variant_file,
                                     game.variant_sha256, state, now)
        elif body.board is not None:
            source = boards.get_board(s, body.board)
            made = boards.make_board(s, j, who, source.title, source.variant,
                                     source.variant_file, source.variant_sha256,
                                     source.steps[source.at], now)
        else:
            rules = bundled_rules(body.variant or "")
            made = boards.make_board(s, j, who, rules.title, rules.name, None,
                                     None, rules.new_state({}), now)
        return _out(made, who.user_id, j.variants.rules(made))


@router.get("/boards/{key}", response_model=BoardOut)
def show_board(key: BoardKey, who: MaybeCaller, j: JudgeDep) -> BoardOut:
    """The board: every step, its orders and results, the step shown. Whoever has the
    link sees it."""
    with j.db.read() as s:
        board = boards.get_board(s, key[:40])
        return _out(board, who.user_id if who else None, j.variants.rules(board))


def _change(j: Judge, key: str, user_id: int, act: Callable[[BoardRow, Rules], None]
            ) -> BoardOut:
    """Lock the caller's own board, ``act`` on it with its rules, answer it."""
    with j.db.write() as s:
        board = boards.own_board(s, key[:40], user_id)
        rules = j.variants.rules(board)
        act(board, rules)
        board.updated_at = utcnow()
        return _out(board, user_id, rules)


@router.put("/boards/{key}/orders", response_model=BoardOut)
def board_orders(key: BoardKey, body: BoardOrdersIn, who: CallerDep, j: JudgeDep) -> BoardOut:
    """Orders for any powers at the step shown (each power's replace its earlier ones,
    or with ``merge`` are added to them, each replacing its unit's earlier order as
    a game's ``PUT .../orders`` does; 400 unreadable, 422 illegal, naming the power,
    and nothing changes). The steps after it go."""
    return _change(j, key, who.user_id,
                   lambda board, rules: boards.set_orders(board, rules, body.orders,
                                                          body.merge))


@router.put("/boards/{key}/units", response_model=BoardOut)
def board_units(key: BoardKey, body: BoardUnitsIn, who: CallerDep, j: JudgeDep) -> BoardOut:
    """Put any units (and centres) on the board at the step shown, for any power: the
    rules check the position (422 with their reason). The step's orders go, and the
    steps after it."""
    return _change(j, key, who.user_id,
                   lambda board, rules: boards.set_units(board, rules, body.units, body.centres))


@router.post("/boards/{key}/adjudicate", response_model=BoardOut)
def board_adjudicate(key: BoardKey, who: CallerDep, j: JudgeDep) -> BoardOut:
    """Adjudicate the step shown with the real rules and show the next."""
    most = j.settings.board_steps_max
    return _change(j, key, who.user_id,
                   lambda board, rules: boards.adjudicate(board, rules, most))


@router.put("/boards/{key}/step", response_model=BoardOut)
def board_step(key: BoardKey, body: BoardStepIn, who: CallerDep, j: JudgeDep) -> BoardOut:
    """Show another step (back or forward)."""
    return _change(j, key, who.user_id, lambda board, _rules: boards.go_to(board, body.step))


@router.get("/boards/{key}/legal/options", response_model=dict[str, list[LegalOrderOut]])
def board_legal(key: BoardKey, who: MaybeCaller, j: JudgeDep,
                power: Annotated[str, Query(min_length=1, max_length=40)],
                step: Annotated[int | None, Query(ge=0, le=100_000)] = None
                ) -> dict[str, list[LegalOrderOut]]:
    """Every legal order of ``power`` at a step (default: the one shown), by location,
    each by its parts: the same answer as a game's ``GET .../legal/options``, so a
    page builds its menus for any power of the board."""
    with j.db.read() as s:
        board = boards.get_board(s, key[:40])
        n = board.at if step is None else step
        if n >= len(board.steps):
            raise not_found(f"this board has steps 0 to {len(board.steps) - 1}")
        state = board.steps[n]
        rules = j.variants.rules(board)
    pid = rules.power_id(power)
    return {loc: [LegalOrderOut.model_validate(o) for o in options]
            for loc, options in rules.legal_options(state, pid).items()}


@router.get("/boards/{key}/map.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def board_map(key: BoardKey, who: MaybeCaller, j: JudgeDep,
              step: Annotated[int | None, Query(ge=0, le=100_000)] = None,
              orders: Annotated[int, Query(ge=0, le=1)] = 1) -> Response:
    """A step's map (default: the step shown), with its orders and results drawn."""
    with j.db.read() as s:
        board = boards.get_board(s, key[:40])
        n = board.at if step is None else step
        if n >= len(board.steps):
            raise not_found(f"this board has steps 0 to {len(board.steps) - 1}")
        state, drawn, results = board.steps[n], board.orders[n], board.results[n]
        rules = j.variants.rules(board)
        title = f"{board.title}: {rules.phase_title_of(str(state['position']['phase']))}"
    svg = rules.render_svg(state["position"], drawn if orders else None,
                           results if orders else None, title=title)
    return Response(svg, media_type="image/svg+xml")
