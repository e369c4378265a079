"""What the kinds' legality checks share (DATC 4.E.1).

"A legal order is an order that, not knowing any orders yet, could be valid."
An illegal order is ignored and its unit holds. Each kind of order checks
itself (its ``check_movement``, ``check_retreat``, ``check_adjustment``, in
its module of :mod:`standoff.core.orders`); the questions several kinds ask
are here: whose unit is in the order's province, where
exactly a fleet's move goes, whether a convoy could carry an army, who
controls a canal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalOrderError, quote
from .geography import Board, UnitType, province_of
from .options import Options
from .position import Position, Unit

if TYPE_CHECKING:
    from .orders import Order


def illegal(order: Order, reason: str) -> IllegalOrderError:
    return IllegalOrderError(str(order), reason)


def own_unit(position: Position, power: str, order: Order) -> Unit:
    """The ordering power's unit in the order's province (coast and type ignored:
    DATC 4.B.5, 4.C.2)."""
    unit = position.unit_of(power, province_of(order.location))
    if unit is None:
        raise illegal(order, f"there is no unit in {province_of(order.location).upper()}")
    if unit.power != power:
        raise illegal(order, f"the unit in {province_of(unit.location).upper()} "
                              f"belongs to {unit.power}")
    return unit


def fleet_destination(board: Board, unit: Unit, dest: str, options: Options, order: Order) -> str:
    """Pick the exact location a fleet moves to, applying DATC 4.B.1-4.B.3."""
    links = board.links(UnitType.FLEET, unit.location)
    prov = board.provinces.get(province_of(dest))
    if prov is None:
        raise illegal(order, f"unknown province {quote(dest)}")
    if not prov.coasts:
        if prov.id in links or board.canal_through(unit.location, prov.id):
            return prov.id
        raise illegal(order, f"{unit} cannot move to {prov.id.upper()}"
                              f"{level_note(board, unit.location, prov.id)}")
    reachable = [c for c in prov.coasts if c in links]
    if dest in prov.coasts:
        if dest in reachable:
            return dest
        if reachable and options.impossible_coast == "ignore" and len(reachable) == 1:
            return reachable[0]
        raise illegal(order, f"{unit} cannot reach {dest.upper()}")
    if not reachable:
        raise illegal(order, f"{unit} cannot move to {prov.id.upper()}")
    if len(reachable) > 1:
        raise illegal(order, f"say which coast of {prov.id.upper()} "
                              f"({', '.join(c.upper() for c in reachable)})")
    if options.omitted_coast == "fail":
        raise illegal(order, f"the coast of {prov.id.upper()} must be given")
    return reachable[0]


def level_note(board: Board, src: str, dest: str) -> str:
    """Why a move between two levels of a stacked map is not a link."""
    a, b = board.provinces[province_of(src)], board.provinces.get(province_of(dest))
    if b is None or a.level == b.level:
        return ""
    return (f" ({a.name} and {b.name} are on different levels: between levels a unit "
            "moves or supports only to the corresponding space, or goes by a convoy "
            "that crosses between twin seas)")


def convoy_possible(board: Board, position: Position, src: str, dest: str,
                    avoid: str | None = None) -> bool:
    """Could the fleets on the board (all but ``avoid``) convoy an army src -> dest?

    With no fleets to form a route, a convoy move is illegal and ignored (DATC
    6.D.32); with fleets there but not ordered to convoy it is legal and fails (6.D.8).
    """
    return (
        board.is_coastal(src)
        and board.is_coastal(dest)
        and board.sea_path_exists(src, dest, position.convoy_seas_on(board), avoid)
    )


def army_can_reach(board: Board, position: Position, src: str, dest: str,
                   avoid: str | None = None) -> bool:
    """Overland, or by a convoy route the fleets on the board could form."""
    return dest in board.army_links.get(src, ()) or convoy_possible(
        board, position, src, dest, avoid)


def canal_owner(board: Board, position: Position, canal: str) -> str | None:
    """Who controls a canal: the owner of its supply centre (occupation alone does
    not change that until centres change hands); for a canal that is no centre,
    the power whose unit stands in it."""
    if board.provinces[canal].supply_centre:
        return position.centres.get(canal)
    unit = position.unit_at(canal)
    return unit.power if unit is not None else None
