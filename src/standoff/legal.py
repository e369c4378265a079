"""Every legal order in a position, as UIs and bots need to offer them.

``legal_orders(position)`` gives, per power, per location, the list of orders
the rules allow there (the same rules :mod:`standoff.legality` enforces, so
every order offered passes :func:`standoff.adjudicator.check_order`).

One order per meaning: a move to a non-adjacent province is offered once
(plain, the convoy being implied); a move to an adjacent province that a
convoy could also make is offered both plain and ``VIA CONVOY``. Supports are
offered without a coast (a coastless support matches a move to any coast).
Convoy routes depend only on where fleets stand, so they are memoised per
fleet layout: consecutive phases of a game mostly reuse them.
"""

from __future__ import annotations

from functools import lru_cache

from .adjustments import adjustment_counts, build_sites
from .geography import Board, UnitType, province_of
from .options import DEFAULT, Options
from .orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from .phase import PhaseKind
from .position import Position, Unit
from .retreats import retreat_options
from .variant import Variant, load_variant

LegalOrders = dict[str, dict[str, list[Order]]]


def legal_orders(position: Position, options: Options = DEFAULT,
                 variant: Variant | None = None) -> LegalOrders:
    """power -> location -> legal orders, for the position's phase."""
    v = variant or load_variant(position.variant)
    board = v.board_at(position.phase)
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement(board, position)
    if kind is PhaseKind.RETREAT:
        return _retreats(board, position, options)
    return _adjustments(board, v, position)


@lru_cache(maxsize=4096)
def _convoy_table(board: Board, fleets: frozenset[str], src: str
                  ) -> tuple[tuple[str, frozenset[str]], ...]:
    """(destination, seas needed by some route) for an army convoyed from ``src``."""
    if not board.is_coastal(src):
        return ()
    seas: set[str] = set()
    stack = [p for p in board.neighbours[src] if p in fleets and board.can_convoy_through(p)]
    seas.update(stack)
    while stack:
        for q in board.neighbours[stack.pop()]:
            if q in fleets and q not in seas and board.can_convoy_through(q):
                seas.add(q)
                stack.append(q)
    dests = {p for s in seas for p in board.neighbours[s]
             if p != src and board.is_coastal(p)}
    out = []
    for d in sorted(dests):
        route = board.convoy_route_seas(src, d, fleets)
        if route:
            out.append((d, route))
    return tuple(out)


def _movement(board: Board, position: Position) -> LegalOrders:
    fleets = position.convoy_seas
    units = position.units
    # who can move where (province level), for supports
    movers: dict[str, list[Unit]] = {}
    convoys: dict[str, tuple[tuple[str, frozenset[str]], ...]] = {}
    for u in units:
        if u.type is UnitType.ARMY:
            table = _convoy_table(board, fleets, province_of(u.location))
            convoys[u.location] = table
            reach = set(board.army_reach.get(u.location, ()))
            reach.update(d for d, _ in table)
        else:
            reach = set(board.fleet_reach.get(u.location, ()))
        for p in reach:
            movers.setdefault(p, []).append(u)
    out: LegalOrders = {}
    for u in units:
        loc, t = u.location, u.type
        prov = province_of(loc)
        orders: list[Order] = [Hold(t, loc)]
        if t is UnitType.ARMY:
            adjacent = board.army_links.get(loc, frozenset())
            orders.extend(Move(t, loc, d) for d in sorted(adjacent))
            for d, _ in convoys[loc]:
                orders.append(Move(t, loc, d, d in adjacent))
        else:
            orders.extend(Move(t, loc, d) for d in sorted(board.fleet_links.get(loc, ())))
        reach_of = board.army_reach if t is UnitType.ARMY else board.fleet_reach
        for p in sorted(reach_of.get(loc, ())):
            other = position._at.get(p)
            if other is not None:
                orders.append(SupportHold(t, loc, other.type, p))
            for m in movers.get(p, ()):
                if m is u or m.location == (other.location if other else None):
                    continue
                mprov = province_of(m.location)
                if (m.type is UnitType.ARMY and t is UnitType.FLEET
                        and p not in board.army_reach.get(m.location, ())
                        and not board.sea_path_exists(mprov, p, fleets, prov)):
                    continue  # only by convoy, and the supporter is a sea the route needs
                orders.append(SupportMove(t, loc, m.type, mprov, p))
        if t is UnitType.FLEET and prov in fleets:
            for a in units:
                if a.type is UnitType.ARMY:
                    for d, seas in convoys[a.location]:
                        if prov in seas:
                            orders.append(Convoy(t, loc, province_of(a.location), d))
        out.setdefault(u.power, {})[loc] = orders
    return out


def _retreats(board: Board, position: Position, options: Options) -> LegalOrders:
    occupied = {province_of(u.location) for u in position.units}
    out: LegalOrders = {}
    for d in position.dislodged:
        u = d.unit
        orders: list[Order] = [Disband(u.type, u.location)]
        orders.extend(Retreat(u.type, u.location, loc) for loc in
                      retreat_options(board, d, occupied, position.contested, options))
        out.setdefault(u.power, {})[u.location] = orders
    return out


def _adjustments(board: Board, v: Variant, position: Position) -> LegalOrders:
    out: LegalOrders = {}
    for power, delta in adjustment_counts(v, position).items():
        mine: dict[str, list[Order]] = {}
        if delta > 0:
            for prov in build_sites(v, position, power):
                orders: list[Order] = []
                if board.can_stand(UnitType.ARMY, prov):
                    orders.append(Build(UnitType.ARMY, prov))
                orders.extend(Build(UnitType.FLEET, loc) for loc in board.locations_of(prov)
                              if board.can_stand(UnitType.FLEET, loc))
                mine[prov] = [*orders, WAIVE]
        else:
            for u in position.units:
                if u.power == power:
                    mine[u.location] = [Remove(u.type, u.location)]
        out[power] = mine
    return out
