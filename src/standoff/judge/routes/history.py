"""Routes for a game's history: processed phases (all orders visible then) and maps.

Only processed phases are history: the current phase's pending orders are never
drawn nor listed here. A phase record carries the engine's results report
(``report``) when the core has one. The queries are ``history.py``'s.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response

from .. import history
from ..access import get_game, require_view, seats_of
from ..auth import CallerDep
from ..context import JudgeDep
from ..errors import ERROR_RESPONSES, not_found
from ..schemas import GameId, PhaseOut

router = APIRouter(prefix="/api/v1", tags=["history"], responses=ERROR_RESPONSES)


@router.get("/games/{game_id}/phases", response_model=list[PhaseOut])
def phases(game_id: GameId, who: CallerDep, j: JudgeDep,
           since: Annotated[int, Query(ge=0, le=2**31 - 1,
                                       description="skip the first N phases")] = 0
           ) -> list[PhaseOut]:
    """Every processed phase, oldest first: the position, every power's orders, the
    results, what a change of map did, and the results report."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        require_view(game, who, seats_of(s, game_id))
        return history.phases(s, game_id, since)


@router.get("/games/{game_id}/map.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
def map_svg(game_id: GameId, who: CallerDep, j: JudgeDep,
            phase: Annotated[str | None, Query(max_length=20, description="e.g. S1901M; "
                                               "default: the current phase")] = None,
            orders: Annotated[int, Query(ge=0, le=1, description="1: draw the phase's "
                                         "orders and results (processed phases)")] = 0,
            invite: Annotated[str | None, Query(max_length=64, description="a forming "
                                                "private game's invite code")] = None,
            invite_header: Annotated[str | None, Header(
                alias="X-Invite-Code", max_length=64,
                description="the invite code, better sent here than in the URL")] = None
            ) -> Response:
    """The map of a phase; with ``orders=1`` a processed phase's orders and results
    are drawn on it (the current phase's orders are secret and never drawn)."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        require_view(game, who, seats_of(s, game_id), invite_header or invite)
        wanted = (phase or game.phase).strip().upper()
        record = history.processed_phase(s, game_id, wanted)
        if record is not None:
            position, drawn, results = record.position, record.orders, record.results
        elif wanted == game.phase.upper():
            position, drawn, results = game.state["position"], {}, []
        else:
            raise not_found(f"game {game_id} has no phase {wanted}")
        title = f"{game.name}: {wanted}"
        rules = j.variants.rules(game)
    svg = rules.render_svg(position, drawn if orders else None, results if orders else None,
                           title=title)
    return Response(svg, media_type="image/svg+xml")


@router.get("/games/{game_id}/variant.toml", response_class=Response,
            responses={200: {"content": {"application/toml": {}}}})
def variant_file(game_id: GameId, who: CallerDep, j: JudgeDep) -> Response:
    """The designer's variant file a game plays (404 for a bundled variant)."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        require_view(game, who, seats_of(s, game_id))
        if game.variant_file is None:
            raise not_found(f"game {game_id} plays the bundled variant {game.variant!r}")
        return Response(game.variant_file, media_type="application/toml",
                        headers={"X-Variant-SHA256": game.variant_sha256 or ""})
