"""Is a well-formed order legal here? (DATC 4.E.1)

"A legal order is an order that, not knowing any orders yet, could be valid."
An illegal order is ignored and its unit holds. The functions here return the
order *normalised* (destination coast filled in, coasts dropped where they do
not matter, DATC 4.B.2/4.B.5/4.B.6) or raise :class:`IllegalOrderError` with
the reason a player needs to fix it.
"""

from __future__ import annotations

from .errors import IllegalOrderError, quote
from .geography import Board, UnitType, province_of
from .options import Options
from .orders import Convoy, Hold, Move, NoConvert, Order, Permit, SupportHold, SupportMove
from .position import Position, Unit


def _illegal(order: Order, reason: str) -> IllegalOrderError:
    return IllegalOrderError(str(order), reason)


def own_unit(position: Position, power: str, order: Order) -> Unit:
    """The ordering power's unit in the order's province (coast and type ignored:
    DATC 4.B.5, 4.C.2)."""
    unit = position.unit_of(power, province_of(order.location))
    if unit is None:
        raise _illegal(order, f"there is no unit in {province_of(order.location).upper()}")
    if unit.power != power:
        raise _illegal(order, f"the unit in {province_of(unit.location).upper()} "
                              f"belongs to {unit.power}")
    return unit


def fleet_destination(board: Board, unit: Unit, dest: str, options: Options, order: Order) -> str:
    """Pick the exact location a fleet moves to, applying DATC 4.B.1-4.B.3."""
    links = board.links(UnitType.FLEET, unit.location)
    prov = board.provinces.get(province_of(dest))
    if prov is None:
        raise _illegal(order, f"unknown province {quote(dest)}")
    if not prov.coasts:
        if prov.id in links or board.canal_through(unit.location, prov.id):
            return prov.id
        raise _illegal(order, f"{unit} cannot move to {prov.id.upper()}"
                              f"{_level_note(board, unit.location, prov.id)}")
    reachable = [c for c in prov.coasts if c in links]
    if dest in prov.coasts:
        if dest in reachable:
            return dest
        if reachable and options.impossible_coast == "ignore" and len(reachable) == 1:
            return reachable[0]
        raise _illegal(order, f"{unit} cannot reach {dest.upper()}")
    if not reachable:
        raise _illegal(order, f"{unit} cannot move to {prov.id.upper()}")
    if len(reachable) > 1:
        raise _illegal(order, f"say which coast of {prov.id.upper()} "
                              f"({', '.join(c.upper() for c in reachable)})")
    if options.omitted_coast == "fail":
        raise _illegal(order, f"the coast of {prov.id.upper()} must be given")
    return reachable[0]


def _level_note(board: Board, src: str, dest: str) -> str:
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
        and board.sea_path_exists(src, dest, position.convoy_seas, avoid)
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


def check_permit(board: Board, position: Position, power: str, order: Permit) -> Permit:
    """A canal's owner may let another power's fleets through (this turn only)."""
    canal = province_of(order.location)
    if canal not in board.canals:
        raise _illegal(order, f"{canal.upper()} is not a canal or strait")
    owner = canal_owner(board, position, canal)
    if owner != power:
        who = f"{owner} controls it" if owner else "nobody controls it"
        raise _illegal(order, f"only the owner of {canal.upper()} may permit passage ({who})")
    if order.power == power:
        raise _illegal(order, f"{power}'s own fleets pass {canal.upper()} without permission")
    return order if order.location == canal else Permit(None, canal, order.power)


def check_movement_order(
    board: Board, position: Position, power: str, order: Order, options: Options
) -> Order:
    """Return the normalised legal order, or raise :class:`IllegalOrderError`.

    An order that is already normalised is returned as it is (no copy): this
    runs for every order of every phase. (Verdicts are not memoised: keyed by
    order and units, a memo costs more than these checks, measured in the
    compiled core when orders come as in a replayed game.)
    """
    cls = type(order)
    if cls is Permit:
        return check_permit(board, position, power, order)  # type: ignore[arg-type]
    src_prov = province_of(order.location)
    unit = position._at.get(src_prov)
    if unit is None or unit.power != power:
        unit = own_unit(position, power, order)  # raises with the reason
    same_unit = order.unit is unit.type and order.location == unit.location
    if cls is Hold:
        return order if same_unit else Hold(unit.type, unit.location)
    if isinstance(order, Move):
        dest = province_of(order.dest)
        if dest == src_prov:
            raise _illegal(order, "a unit cannot move to its own province")
        if unit.type is UnitType.FLEET:
            if order.via_convoy:
                raise _illegal(order, "only armies can be convoyed")
            if same_unit and order.dest in board.fleet_links.get(unit.location, ()):
                return order
            dest = fleet_destination(board, unit, order.dest, options, order)
            return Move(unit.type, unit.location, dest)
        if dest not in board.provinces:
            raise _illegal(order, f"unknown province {quote(order.dest)}")
        if not army_can_reach(board, position, unit.location, dest):
            raise _illegal(order, f"{unit} cannot reach {dest.upper()}, not even by convoy"
                                  f"{_level_note(board, unit.location, dest)}")
        if order.via_convoy and not convoy_possible(board, position, src_prov, dest) and not (
                options.adjacent_convoy == "2000" and dest in board.army_links.get(src_prov, ())):
            # like DATC 6.D.32: no fleets could convoy it, so the order is ignored; but
            # under the 2000 rule an adjacent army with no convoy goes over land (DATC 2.x
            # 6.G.8), fleets on the board or not
            raise _illegal(order, f"no fleets could convoy {unit} to {dest.upper()}")
        if same_unit and dest == order.dest:
            return order
        return Move(unit.type, unit.location, dest, order.via_convoy)
    if isinstance(order, (SupportHold, SupportMove)):
        if src_prov in board.high_seas:
            raise _illegal(order, f"a fleet on a high sea ({src_prov.upper()}) "
                                  "cannot give support")
        tprov = province_of(order.target)
        target = position._at.get(tprov)
        if target is None:
            raise _illegal(order, f"there is no unit in {tprov.upper()} to support")
        if tprov == src_prov:
            raise _illegal(order, "a unit cannot support itself")
        if isinstance(order, SupportHold):
            if not board.reaches_province(unit.type, unit.location, tprov):
                raise _illegal(order, f"{unit} cannot reach {tprov.upper()}, "
                                      "so cannot support there"
                                      f"{_level_note(board, unit.location, tprov)}")
            if same_unit and order.target_unit is target.type and order.target == tprov:
                return order
            return SupportHold(unit.type, unit.location, target.type, tprov)
        dprov = province_of(order.dest)
        if dprov == src_prov:
            raise _illegal(order, "a unit cannot support a move into its own province")
        if dprov == tprov:
            raise _illegal(order, "a move to its own province cannot be supported")
        if not board.reaches_province(unit.type, unit.location, dprov):
            raise _illegal(order, f"{unit} cannot reach {dprov.upper()}, so cannot support "
                                  f"there{_level_note(board, unit.location, dprov)}")
        if target.type is UnitType.FLEET:
            if not board.reaches_province(UnitType.FLEET, target.location, dprov) and \
                    not board.canal_through(target.location, dprov):
                raise _illegal(order, f"{target} cannot reach {dprov.upper()}")
            if order.dest != dprov and order.dest not in board.links(UnitType.FLEET,
                                                                     target.location):
                # 2023 rulebook: a coast named in a support must be reachable (DATC 4.B.4)
                raise _illegal(order, f"{target} cannot reach {order.dest.upper()}")
        else:
            avoid = src_prov if unit.type is UnitType.FLEET else None
            if not army_can_reach(board, position, target.location, dprov, avoid):
                raise _illegal(order, f"{target} cannot reach {dprov.upper()}")
        # A coast named in the support must match the move's coast (DATC 6.B.9).
        dest = order.dest if target.type is UnitType.FLEET and "/" in order.dest else dprov
        if same_unit and order.target_unit is target.type and order.target == tprov and \
                order.dest == dest:
            return order
        return SupportMove(unit.type, unit.location, target.type, tprov, dest)
    if isinstance(order, Convoy):
        if unit.type is not UnitType.FLEET:
            raise _illegal(order, "only fleets can convoy")
        if not board.can_convoy_through(src_prov):
            raise _illegal(order, f"a fleet in {src_prov.upper()} cannot convoy "
                                  "(only fleets at sea can)")
        tprov, dprov = province_of(order.target), province_of(order.dest)
        target = position.unit_at(tprov)
        if target is None:
            raise _illegal(order, f"there is no unit in {tprov.upper()} to convoy")
        if target.type is not UnitType.ARMY:
            raise _illegal(order, "only armies can be convoyed")
        if dprov == tprov:
            raise _illegal(order, "a convoy must go somewhere else")
        if dprov not in board.provinces or not (board.is_coastal(tprov)
                                                and board.is_coastal(dprov)):
            raise _illegal(order, "convoys go from a coastal province to a coastal province")
        if src_prov not in board.convoy_route_seas(tprov, dprov, position.convoy_seas):
            raise _illegal(order, f"{unit} is on no convoy route from {tprov.upper()} "
                                  f"to {dprov.upper()}")
        return Convoy(unit.type, unit.location, tprov, dprov)
    if cls is NoConvert:
        if unit.type is not UnitType.FLEET:
            raise _illegal(order, "only a fleet can be told not to convert")
        return order if same_unit else NoConvert(unit.type, unit.location)
    raise _illegal(order, f"a {order.kind} order is not allowed in a movement phase")
