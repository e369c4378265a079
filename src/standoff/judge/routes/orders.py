"""Routes for a player's orders: read and replace them, the legal ones, "ready".

A power's pending orders are reachable through these routes only, and only by
the account that plays the power (the master included: a master who does not
play has no orders to see). They become visible to all in the phase history
once processed.

A submission is checked against the phase's state outside any lock (the
engine's check is the slow part), then stored in a short transaction that
locks the game and confirms the phase is still the one checked: if it was
processed meanwhile the answer is 409 and nothing is stored, so a 200 always
means the orders are in the phase (see ``processing``). They are stored as one
``models.PendingOrdersRow`` per game, turn and power (table ``pending_orders``,
read and written by ``orders.py``); ``processing`` reads and deletes them in the
transaction that processes the phase.
"""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy.orm import Session

from .. import orders
from ..access import game_for_update, get_game, player_seat, require_active
from ..auth import Caller, CallerDep
from ..context import JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, conflict
from ..models import GameRow, Seat
from ..processing import request_processing
from ..schemas import GameId, LegalOrderOut, OrdersIn, OrdersOut, ReadyIn, ReadyOut

router = APIRouter(prefix="/api/v1", tags=["orders"], responses=ERROR_RESPONSES)



def _player(s: Session, game_id: int, who: Caller) -> tuple[GameRow, Seat]:
    """The game and the caller's seat in it: 404, then 403 for anyone who plays no
    power."""
    game = get_game(s, game_id)
    return game, player_seat(s, game, who)


def _processed(game_id: int, phase: str) -> Exception:
    return conflict(f"phase already processed: {phase} of game {game_id} was adjudicated "
                    "before your request landed; read the game and send orders for its "
                    "new phase")


@router.get("/games/{game_id}/orders", response_model=OrdersOut)
def my_orders(game_id: GameId, who: CallerDep, j: JudgeDep) -> OrdersOut:
    """The caller's own pending orders for the current phase (nobody else's, ever)."""
    with j.db.read() as s:
        game, seat = _player(s, game_id, who)
        return OrdersOut(power=seat.power, phase=game.phase,
                         orders=orders.pending(s, game_id, game.turn, seat.power))


@router.put("/games/{game_id}/orders", response_model=OrdersOut)
def submit_orders(game_id: GameId, body: OrdersIn, who: CallerDep, j: JudgeDep) -> OrdersOut:
    """Replace the caller's orders for this phase (or, with ``merge``, add to them,
    each replacing its unit's earlier order), all or nothing: one order that
    cannot be read (400 invalid) or that the rules forbid (422 illegal, with the
    reason) refuses the whole batch and keeps the orders sent before."""
    with j.db.read() as s:
        game, seat = _player(s, game_id, who)
        require_active(game)
        state, turn, phase, power = game.state, game.turn, game.phase, seat.power
        rules = j.variants.rules(game)
    if not body.merge:  # checked before the write lock: it needs nothing stored
        canonical = rules.check_orders(state, power, list(body.orders))
    with j.db.write() as s:
        locked = game_for_update(s, game_id)
        if locked.turn != turn:
            raise _processed(game_id, phase)
        require_active(locked)
        if body.merge:  # onto the stored orders, read under the lock: no lost update
            canonical = orders.merge(s, rules, state, game_id, turn, power, list(body.orders))
        else:
            orders.replace(s, game_id, turn, power, canonical)
    return OrdersOut(power=power, phase=phase, orders=canonical)


@router.get("/games/{game_id}/legal", response_model=dict[str, list[str]])
def legal_orders(game_id: GameId, who: CallerDep, j: JudgeDep) -> dict[str, list[str]]:
    """Every legal order of the caller's power this phase, by location."""
    with j.db.read() as s:
        game, seat = _player(s, game_id, who)
        require_active(game)
        state, power = game.state, seat.power
        rules = j.variants.rules(game)
    return rules.legal(state, power)


@router.get("/games/{game_id}/legal/options",
            response_model=dict[str, list[LegalOrderOut]])
def legal_options(game_id: GameId, who: CallerDep, j: JudgeDep
                  ) -> dict[str, list[LegalOrderOut]]:
    """Every legal order of the caller's power this phase, by location, each by its
    parts, so that a page builds its menus without reading order text. The
    orders are those of ``GET .../legal``, in the same order; ``order`` is the
    canonical text to send back (``PUT .../orders {"orders": [order], "merge":
    true}``: the engine decides which earlier order it replaces). Every field is
    always present (``null`` where it does not apply)::

        {"PAR": [
           {"order": "A PAR - BUR", "kind": "move", "location": "PAR",
            "unit": "A PAR", "unit_type": "A", "target": "BUR", "via": "land",
            "supported": null, "convoyed": null, "subject": null, "power": null}],
         "MAR": [
           {"order": "A MAR S A PAR - BUR", "kind": "support_move", "location": "MAR",
            "unit": "A MAR", "unit_type": "A", "target": "BUR", "via": null,
            "supported": "A PAR - BUR", "convoyed": null, "subject": "PAR",
            "power": null}],
         "ENG": [
           {"order": "F ENG C A LON - BEL", "kind": "convoy", "location": "ENG",
            "unit": "F ENG", "unit_type": "F", "target": "BEL", "via": null,
            "supported": null, "convoyed": "A LON - BEL", "subject": "LON",
            "power": null}]}

    ``kind`` is the engine's: ``hold``, ``move``, ``support_hold``,
    ``support_move``, ``convoy``, ``no_convert``, ``permit`` (movement),
    ``retreat``, ``disband`` (retreat), ``build``, ``remove``, ``waive``
    (adjustment). ``target``: where a move or retreat goes, or a supported or
    convoyed move; the supported unit's location for ``support_hold``.
    ``via`` (armies' moves only): ``land`` when the order asks no convoy and
    the army can walk there, ``convoy`` for ``VIA CONVOY`` or a destination
    only a convoy reaches; where both are legal both are listed, the player
    chooses (what a plain move to an adjacent province does when a convoy is
    also ordered is the game's ``adjacent_convoy`` option, DATC 4.A.3).
    ``subject``: the location of the supported or convoyed unit. ``power``:
    the power a ``permit`` lets through the canal (``location``). Builds list
    one order per unit type and coast, and ``WAIVE`` (``location`` null)."""
    with j.db.read() as s:
        game, seat = _player(s, game_id, who)
        require_active(game)
        state, power = game.state, seat.power
        rules = j.variants.rules(game)
    return {loc: [LegalOrderOut.model_validate(o) for o in options]
            for loc, options in rules.legal_options(state, power).items()}


@router.post("/games/{game_id}/ready", response_model=ReadyOut)
def set_ready(game_id: GameId, body: ReadyIn, who: CallerDep, j: JudgeDep) -> ReadyOut:
    """Say the caller's power is (or is no longer) done with this phase. When every
    power with something to do is ready, the phase is processed at once."""
    with j.db.write() as s:
        game = game_for_update(s, game_id)
        seat = player_seat(s, game, who)
        require_active(game)
        orders.say_ready(s, game, seat, body.ready, utcnow())
        requested, turn, phase, power = game.process_requested, game.turn, game.phase, seat.power
    processed = False
    if requested:
        request_processing(j, game_id, turn)  # or another process did, meanwhile
        with j.db.read() as s:
            after = get_game(s, game_id)
            processed, phase = after.turn > turn, after.phase
    return ReadyOut(power=power, ready=body.ready, processed=processed, phase=phase)
