"""Every legal order in a position, as UIs and bots need to offer them.

``legal_orders(position)`` gives, per power, per location, the list of orders
the rules allow there (the same checks each kind makes in :mod:`standoff.core.orders`,
so every order offered passes :func:`standoff.core.adjudicator.check_order`).

One order per meaning: a move to a non-adjacent province is offered once
(plain, the convoy being implied); a move to an adjacent province that a
convoy could also make is offered both plain and ``VIA CONVOY``. Supports are
offered without a coast (a coastless support matches a move to any coast).
Everything else a unit may be ordered is fixed by the map and built once per
unit type and location; an army's convoy routes depend only on the fleets a
chain links to it, and are memoised by them: the phases of a game mostly
reuse them.

Orders are listed per location, so a power with several fleets on one high
sea (1939 IV) gets one list for that sea and picks from it once per fleet.
Units in civil disorder get none; a canal's owner gets its PERMIT orders under
the canal's id.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Final, TypeVar, assert_never

from .adjustments import adjustment_counts, build_sites
from .buckets import bucket, subtable
from .geography import Board, UnitType, province_of
from .options import DEFAULT, Options
from .order_checks import canal_owner
from .orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Permit,
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
#: some of a unit's legal orders, shared by every position that offers them: a
#: movement phase's menu lists a unit's orders as segments, not one list each
Segment = Sequence[Order]
Menu = dict[str, dict[str, "_Entry"]]


def legal_orders(position: Position, options: Options = DEFAULT,
                 variant: Variant | None = None) -> LegalOrders:
    """power -> location -> legal orders, for the position's phase."""
    v = variant or load_variant(position.variant)
    board = v.board_at(position.phase)
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement(board, v, position)
    if kind is PhaseKind.RETREAT:
        return _retreats(board, position, options)
    return _adjustments(board, v, position)


def _changes_board(order: Order) -> bool:
    """Does ``order`` change the board? A biased random player prefers such orders."""
    match order.kind:
        case "move" | "retreat" | "build" | "remove":
            return True
        case "hold" | "support_hold" | "support_move" | "convoy" | "no_convert" | "permit" | \
                "disband" | "waive":
            return False
        case _:
            assert_never(order.kind)


def random_orders(position: Position, rng: random.Random, move_bias: float = 0.0,
                  options: Options = DEFAULT, variant: Variant | None = None
                  ) -> dict[str, list[Order]]:
    """One random legal order per unit (or site) for every power: the demo's
    bots, the random-game tests, self-play and the benchmarks all play this way.

    With ``move_bias`` p, a unit picks among its moves (retreats, builds,
    removals) with probability p, so random games go somewhere instead of
    mostly holding and supporting.

    Each pick is uniform over the unit's legal orders, the same pick
    ``rng.choice(legal_orders(position)[power][loc])`` makes from the same
    random stream (less any PERMIT orders listed with them, below); in a
    movement phase it is made without building those lists (several hundred
    orders, most of a self-play phase's cost): a unit's moves are worked out
    first, its other orders only when the pick is among them, and only the
    chosen order is looked up.

    Several units of one power on a high sea (1939 IV 5.1: any number of
    fleets may be there) share that sea's list, and each gets its own pick:
    its own order in a movement phase, its own removal where removals are due.
    A canal's owner (The Twentieth Century, "Straits & Canals") finds its
    PERMIT orders under the canal, beside the orders of its unit standing
    there, if any: the unit picks among its own orders only, and each PERMIT is
    then given with even chances (a uniform pick among the sets of powers the
    owner may let through).
    """
    v = variant or load_variant(position.variant)
    board = v.board_at(position.phase)
    stacked = _stacked(board, position) if board.high_seas else {}
    out: dict[str, list[Order]] = {}
    picks: list[Order]
    if position.phase.kind is PhaseKind.MOVEMENT:
        menu = _movement_menu(board, v, position)
        for power, locs in menu.items():
            picks = []
            for loc, entry in locs.items():
                if entry.unit is not None:
                    for _ in range(stacked.get((power, loc), 1)):
                        picks.append(_pick(rng, entry, move_bias))
                if entry.permits is not None:
                    for seg in entry.permits:
                        for permit in seg:
                            if rng.random() < 0.5:
                                picks.append(permit)
            out[power] = picks
        return out
    due: dict[str, int] = {}
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        due = adjustment_counts(v, position)
    for power, lists in legal_orders(position, options, v).items():
        picks = []
        removing = due.get(power, 0) < 0
        for loc, choices in lists.items():
            if move_bias:
                active = [o for o in choices if _changes_board(o)]
                if active and rng.random() < move_bias:
                    choices = active
            pick: Order = rng.choice(choices)
            picks.append(pick)
            if removing:  # one removal per unit of a stack on a high sea
                picks.extend([pick] * (stacked.get((power, loc), 1) - 1))
        if power in due:  # one pick per site or unit; a power may use only so many
            picks = picks[:abs(due[power])]
        out[power] = picks
    return out


def _stacked(board: Board, position: Position) -> dict[tuple[str, str], int]:
    """(power, high sea) -> how many of the power's units stand there."""
    stacked: dict[tuple[str, str], int] = {}
    for u in position.units:
        if province_of(u.location) in board.high_seas:
            key = (u.power, u.location)
            stacked[key] = stacked.get(key, 0) + 1
    return stacked


def _pick(rng: random.Random, entry: _Entry, move_bias: float) -> Order:
    """``rng.choice`` over the entry's orders (or, with ``move_bias``'s chance,
    over its board-changing ones only), drawing from ``rng`` exactly as that
    call on :func:`legal_orders`' list would; the other orders are worked out
    only when the pick is among them."""
    changing = 0
    for seg in entry.changing:
        changing += len(seg)
    if move_bias and changing > 0 and rng.random() < move_bias:
        return _at_index(entry.changing, _below(rng, changing))
    segments = entry.unit_segments()
    total = 0
    for seg in segments:
        total += len(seg)
    return _at_index(segments, _below(rng, total))


def _below(rng: random.Random, n: int) -> int:
    """``rng.choice(range(n))``: for a plain :class:`random.Random` the same draws
    as its ``choice`` makes, in compiled code rather than the interpreter's
    (``random.py`` is pure Python); for other generators, their ``choice``."""
    if type(rng) is not random.Random:
        return rng.choice(range(n))
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _at_index(segments: Sequence[Segment], i: int) -> Order:
    """The ``i``-th order of the segments, counted as one list."""
    for seg in segments:
        if i < len(seg):
            return seg[i]
        i -= len(seg)
    raise AssertionError("an index within the total is within a segment")


class _ConvoyPlan:
    """What the fleets a chain links to an army at ``src`` let it and them do,
    fixed once those fleets are known and so memoised by them: the army's
    convoyed moves, for each sea the destinations its fleet could convoy the
    army to, and the destinations only a convoy reaches with the seas every
    route needs (a fleet there may not support that move: DATC 6.D.31).

    A long self-play run keeps thousands of plans, so a plan holds as few
    objects as it can for the cyclic garbage collector to walk through again
    and again: its moves are shared with every other plan for the same army
    (:func:`_convoyed_move`), and its sets of seas are tuples of names, which
    the collector stops tracking (on the Twentieth Century's map, plans as
    frozensets and moves of their own made two million objects and the
    collector took three fifths of a random game's time)."""

    __slots__ = ("jobs", "moves", "only")

    def __init__(self, board: Board, seas: frozenset[str], src: str) -> None:
        land = board.army_reach.get(src, frozenset())
        adjacent = board.army_links.get(src, frozenset())
        moves: list[Order] = []
        jobs: dict[str, list[str]] = {}
        only: list[tuple[str, tuple[str, ...]]] = []
        routes_to = board.convoy_routes(src, seas)
        for d in sorted(routes_to):
            routes = routes_to[d]
            moves.append(_convoyed_move(src, d, d in adjacent))
            for sea in sorted(routes.seas):
                bucket(jobs, sea).append(d)
            if d not in land:
                only.append((d, tuple(sorted(routes.needed))))
        #: the army's convoyed moves, by destination
        self.moves: tuple[Order, ...] = tuple(moves)
        #: (sea, the destinations a fleet there could convoy the army to)
        self.jobs: tuple[tuple[str, tuple[str, ...]], ...] = \
            tuple((sea, tuple(ds)) for sea, ds in jobs.items())
        #: (destination only a convoy reaches, the seas every route to it needs)
        self.only: tuple[tuple[str, tuple[str, ...]], ...] = tuple(only)


def _convoyed_move(src: str, dest: str, adjacent: bool) -> Order:
    """The army's move ``src`` -> ``dest`` by convoy (``VIA CONVOY`` when it is
    also adjacent: DATC 4.A.3), one value shared by every convoy plan."""
    key = (src, dest, adjacent)
    move = _CONVOYED_MOVES.get(key)
    if move is None:
        move = _CONVOYED_MOVES[key] = Move(UnitType.ARMY, src, dest, adjacent)
    return move


#: (army's province, destination, adjacent) -> its convoyed move. Bounded by the
#: pairs of coastal provinces of the maps loaded.
_CONVOYED_MOVES: Final[dict[tuple[str, str, bool], Order]] = {}


def _convoy_plan(board: Board, fleets: frozenset[str], src: str) -> _ConvoyPlan | None:
    """The convoy plan of an army at ``src`` given the seas holding fleets, or
    None when no chain of fleets touches it (or it is inland). Memoised by the
    fleets a chain links to ``src`` rather than by every fleet on the board: a
    fleet moving elsewhere on the map leaves it valid (in self-play most
    lookups hit it)."""
    seas = board.convoy_seas_from(src, fleets)  # (none from inland: no sea next to it)
    if not seas or not board.is_coastal(src):
        return None
    key = (board, frozenset(seas), src)
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= 32768:  # bounded: a long run meets ever new fleet layouts
            _PLANS.clear()
        plan = _PLANS[key] = _ConvoyPlan(board, key[1], src)
    return plan if plan.moves else None


#: (board, the seas a chain of fleets links to an army, its province) -> the
#: army's convoy plan. A plain dict, not ``functools.lru_cache``: a lookup is
#: then a dict probe in the compiled core instead of a generic call through the
#: cache's wrapper and its recency list (many cold cache lines on a position met
#: once, most of the time a movement position's legal orders took).
_PLANS: Final[dict[tuple[Board, frozenset[str], str], _ConvoyPlan]] = {}


class _UnitMenu:
    """What a unit at one location may be ordered whatever the position, fixed
    by the map and so built once per (board, unit type, location): its hold
    and moves, and, for a unit of each type at each place it might support,
    the supports it could give that unit (ignoring convoys). A movement phase
    then only looks up which of those places hold a unit.

    The supports for each unit it might support are one tuple: a position met
    once reads every one of them from memory the caches no longer hold, so the
    fewer objects between a unit and its orders, the faster."""

    __slots__ = ("army_targets", "fleet_targets", "hold", "moves", "nearby", "reach")

    def __init__(self, board: Board, unit: UnitType, loc: str) -> None:
        links = board.army_links if unit is UnitType.ARMY else board.fleet_links
        dests = set(links.get(loc, ()))
        if unit is UnitType.FLEET:
            dests.update(board.canal_links.get(loc, ()))  # passable with the owner's leave
        self.hold: Segment = (Hold(unit, loc),)
        #: the moves alone, as a unit's board-changing segments
        self.moves: tuple[Segment] = (tuple(Move(unit, loc, d) for d in sorted(dests)),)
        #: location of a unit of that type -> the supports this unit could give it
        #: (support to hold, if it may, then supports to move)
        self.army_targets: dict[str, Segment] = {}
        self.fleet_targets: dict[str, Segment] = {}
        nearby: set[str] = set()
        reach_of = {UnitType.ARMY: board.army_reach, UnitType.FLEET: board.fleet_reach}
        mine = reach_of[unit].get(loc, frozenset())
        #: the provinces this unit reaches
        self.reach: frozenset[str] = mine
        prov = province_of(loc)
        if prov not in board.high_seas:  # fleets on a high sea cannot support (1939 IV 5.2)
            for t, table in reach_of.items():
                targets = self.army_targets if t is UnitType.ARMY else self.fleet_targets
                for other, theirs in table.items():
                    if t is UnitType.FLEET and other in board.canal_links:
                        theirs = theirs | frozenset(board.canal_links[other])
                    oprov = province_of(other)
                    if oprov == prov:
                        continue
                    supports: list[Order] = []
                    if oprov in mine:
                        supports.append(SupportHold(unit, loc, t, oprov))
                    supports.extend(SupportMove(unit, loc, t, oprov, p)
                                    for p in sorted(theirs & mine) if p != prov)
                    if supports:
                        targets[other] = tuple(supports)
                        nearby.add(oprov)
        #: provinces whose units this unit might support: those it reaches and
        #: those next to them, in order (a phase looks up which are occupied)
        self.nearby: tuple[str, ...] = tuple(sorted(nearby))


def _unit_menu(board: Board, unit: UnitType, loc: str) -> _UnitMenu:
    """The unit menu, built once per (board, unit type, location)."""
    menus = _board_memo(_ARMY_MENUS if unit is UnitType.ARMY else _FLEET_MENUS, board)
    menu = menus.get(loc)
    if menu is None:
        menu = menus[loc] = _UnitMenu(board, unit, loc)
    return menu


_T = TypeVar("_T")
#: board -> location -> what is fixed by the map there (an army's menu, a fleet's,
#: a build site's orders): dicts the compiled core probes directly, as ``_ROUTES``
_ARMY_MENUS: Final[dict[Board, dict[str, _UnitMenu]]] = {}
_FLEET_MENUS: Final[dict[Board, dict[str, _UnitMenu]]] = {}
_BUILDS: Final[dict[Board, dict[str, tuple[Order, ...]]]] = {}


def _board_memo(memo: dict[Board, dict[str, _T]], board: Board) -> dict[str, _T]:
    """``memo``'s table for ``board`` (made empty when first asked for)."""
    table = memo.get(board)
    if table is None:
        table = memo[board] = {}
    return table


def _permits(board: Board, v: Variant, position: Position
             ) -> Iterator[tuple[str, str, Segment]]:
    """(owner, canal, its PERMIT orders): a canal's owner may permit each other
    power's fleets to pass it; listed beside the orders of the owner's unit
    standing in the canal, if any."""
    for canal in sorted(board.canals):
        owner = canal_owner(board, position, canal)
        if owner is not None and owner in v.powers:
            yield owner, canal, _canal_permits(v, canal, owner)


@cache
def _canal_permits(v: Variant, canal: str, owner: str) -> tuple[Order, ...]:
    return tuple(Permit(None, canal, p) for p in v.powers if p != owner)


class _Layout:
    """What a movement phase's legal orders depend on beyond the map (the layout
    of the board): where the units stand and the convoy routes their fleets
    open (worked out for every army at once: its convoyed moves are among its
    board-changing orders)."""

    __slots__ = ("board", "by_convoy_only", "convoy_jobs", "convoy_only_dests", "convoys",
                 "index", "units")

    def __init__(self, board: Board, position: Position, units: tuple[Unit, ...]) -> None:
        self.board = board
        self.units = position.units
        self.index = position.unit_index  # province -> the index in units of the unit there
        #: an army's location -> its convoy plan (armies some fleet could carry)
        self.convoys: dict[str, _ConvoyPlan] = {}
        #: sea -> (the province of an army a fleet there could convoy, its destinations)
        self.convoy_jobs: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        #: destination only a convoy reaches -> (army, the seas every route to it needs)
        self.by_convoy_only: dict[str, list[tuple[Unit, tuple[str, ...]]]] = {}
        #: the keys of ``by_convoy_only``, sorted once for every unit that might support
        self.convoy_only_dests: list[str] = []
        fleets = position.convoy_seas_on(board)
        if not fleets:
            return
        jobs, only = self.convoy_jobs, self.by_convoy_only
        for u in units:
            if u.type is UnitType.ARMY:
                src = province_of(u.location)
                plan = _convoy_plan(board, fleets, src)
                if plan is None:
                    continue
                self.convoys[u.location] = plan
                for sea, dests in plan.jobs:
                    bucket(jobs, sea).append((src, dests))
                for d, needed in plan.only:
                    bucket(only, d).append((u, needed))
        self.convoy_only_dests = sorted(only)


class _Entry:
    """The legal orders at one location of a movement phase, in segments: its
    board-changing ones (moves, convoyed moves) at once, the rest of the unit's
    (hold, supports, convoys) when first asked for, and a canal owner's permits
    apart. A random player that picks among the moves (``move_bias``) never
    needs the rest."""

    __slots__ = ("_all", "changing", "layout", "menu", "permits", "unit")

    def __init__(self, layout: _Layout, unit: Unit | None) -> None:
        self.layout = layout
        self.unit = unit
        #: the moves, then any convoyed moves (see :func:`_changing`)
        self.changing: Sequence[Segment] = ()
        #: a canal owner's PERMIT orders here (The Twentieth Century)
        self.permits: list[Segment] | None = None
        self._all: list[Segment] | None = None
        self.menu: _UnitMenu | None = None
        if unit is not None:
            self.menu = _unit_menu(layout.board, unit.type, unit.location)
            self.changing = _changing(layout, unit, self.menu)

    def unit_segments(self) -> list[Segment]:
        """The unit's legal orders, in segments, in the order :func:`legal_orders` lists
        them: hold, moves, convoyed moves, supports, convoys (no permits)."""
        if self._all is None:
            u, menu = self.unit, self.menu
            self._all = [] if u is None or menu is None else \
                _all_segments(self.layout, u, menu, self.changing)
        return self._all


def _changing(layout: _Layout, u: Unit, menu: _UnitMenu) -> Sequence[Segment]:
    """A unit's board-changing orders: its moves, then its convoyed moves (the
    commonest case, moves alone, is the unit menu's own, shared)."""
    plan = layout.convoys.get(u.location)
    if plan is None:
        return menu.moves
    return (menu.moves[0], plan.moves)


def _all_segments(layout: _Layout, u: Unit, menu: _UnitMenu, changing: Sequence[Segment]
                  ) -> list[Segment]:
    """Every legal order of unit ``u``, in segments: hold, ``changing`` (its moves
    and convoyed moves), supports, supports of convoy-only moves, convoys."""
    loc, t = u.location, u.type
    segments = [menu.hold]
    segments.extend(changing)
    index, units = layout.index, layout.units
    for q in menu.nearby:
        i = index.get(q)
        if i is None:
            continue
        other = units[i]
        targets = menu.fleet_targets if other.type is UnitType.FLEET else menu.army_targets
        supports = targets.get(other.location)
        if supports is not None:
            segments.append(supports)
    prov = province_of(loc)
    if layout.convoy_only_dests:
        extra: list[Order] = []
        reach = menu.reach
        for p in layout.convoy_only_dests:
            if p not in reach:
                continue
            for m, needed in layout.by_convoy_only[p]:
                mprov = province_of(m.location)
                if mprov == prov or (t is UnitType.FLEET and prov in needed):
                    continue  # the supporter is a sea every route needs (6.D.31)
                extra.append(SupportMove(t, loc, m.type, mprov, p))
        if extra:
            segments.append(extra)
    if t is UnitType.FLEET and prov in layout.convoy_jobs:
        segments.append([Convoy(t, loc, a, d) for a, dests in layout.convoy_jobs[prov]
                         for d in dests])
    return segments


def _movement_units(v: Variant, position: Position) -> tuple[Unit, ...]:
    """The units given orders: units in civil disorder get none."""
    neutral = v.neutral
    return tuple(u for u in position.units if u.power != neutral) if neutral \
        else position.units


def _movement_menu(board: Board, v: Variant, position: Position) -> Menu:
    """power -> location -> the legal orders there, as an :class:`_Entry` of
    segments: mostly tuples shared by every position (a unit's hold and moves,
    its supports for a unit at each place), so that no list of every order need
    be built to pick one."""
    units = _movement_units(v, position)
    layout = _Layout(board, position, units)
    out: Menu = {}
    for u in units:
        subtable(out, u.power)[u.location] = _Entry(layout, u)
    for owner, canal, permits in _permits(board, v, position):
        entry = subtable(out, owner).get(canal)
        if entry is None:
            entry = out[owner][canal] = _Entry(layout, None)
        if entry.permits is None:
            entry.permits = []
        entry.permits.append(permits)
    return out


def _movement(board: Board, v: Variant, position: Position) -> LegalOrders:
    """:func:`legal_orders` of a movement phase: the menu's segments, flattened
    (built straight, without the menu's entries: a bot meeting a position
    wants every list)."""
    units = _movement_units(v, position)
    layout = _Layout(board, position, units)
    out: LegalOrders = {}
    for u in units:
        menu = _unit_menu(board, u.type, u.location)
        orders: list[Order] = []
        for seg in _all_segments(layout, u, menu, _changing(layout, u, menu)):
            orders.extend(seg)  # a block copy, not an append per order
        subtable(out, u.power)[u.location] = orders
    for owner, canal, permits in _permits(board, v, position):
        bucket(subtable(out, owner), canal).extend(permits)
    return out


def _retreats(board: Board, position: Position, options: Options) -> LegalOrders:
    occupied = {province_of(u.location) for u in position.units}
    out: LegalOrders = {}
    for d in position.dislodged:
        u = d.unit
        orders: list[Order] = [Disband(u.type, u.location)]
        orders.extend(Retreat(u.type, u.location, loc) for loc in
                      retreat_options(board, d, occupied, position.contested, options))
        subtable(out, u.power)[u.location] = orders
    return out


def _adjustments(board: Board, v: Variant, position: Position) -> LegalOrders:
    out: LegalOrders = {}
    for power, delta in adjustment_counts(v, position).items():
        mine: dict[str, list[Order]] = {}
        if delta > 0:
            for prov in build_sites(v, position, power):
                mine[prov] = list(_builds(board, prov))
        else:
            for u in position.units:
                if u.power == power:
                    mine[u.location] = [Remove(u.type, u.location)]
        out[power] = mine
    return out


def _builds(board: Board, prov: str) -> tuple[Order, ...]:
    """The builds a site allows (an army, a fleet on each coast) and WAIVE: fixed
    by the map, so built once per site."""
    sites = _board_memo(_BUILDS, board)
    found = sites.get(prov)
    if found is None:
        found = sites[prov] = _site_builds(board, prov)
    return found


def _site_builds(board: Board, prov: str) -> tuple[Order, ...]:
    orders: list[Order] = []
    if board.can_stand(UnitType.ARMY, prov):
        orders.append(Build(UnitType.ARMY, prov))
    orders.extend(Build(UnitType.FLEET, loc) for loc in board.locations_of(prov)
                  if board.can_stand(UnitType.FLEET, loc))
    return (*orders, WAIVE)
