"""The board: provinces, coasts and who can go where.

A :class:`Board` is immutable. A variant whose map changes from phase to phase
(Sahara's drying seas) simply owns several boards and picks one per phase, so
nothing here ever mutates. Locations are plain interned strings: ``"par"`` for a
province, ``"stp/nc"`` for one coast of a split-coast province. Strings keep
orders and positions readable and hash fast enough for the adjudicator; being
interned (``sys.intern``: the board's ids here, and whatever the position and
order readers produce), equal ones are one object, so a table lookup matches
them by identity instead of comparing characters.

Variant needs that shaped this module:

* ``capacity``: how many units may stand in a province (1939 IV's high oceans
  take any number; ``0`` means unlimited).
* ``strike_only`` links: a unit may attack and support along the link but not
  enter (City/Country rule .5).
* province ids may carry a board-level suffix and full names such as
  "Munich I" (Twin Earths); nothing here assumes three-letter ids.
"""

from __future__ import annotations

import sys
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from .errors import VariantError


class Terrain(str, Enum):
    """What a province is made of; decides which units may stand there."""

    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


class UnitType(str, Enum):
    """Army or fleet. The value is the one-letter notation."""

    ARMY = "A"
    FLEET = "F"

    def __str__(self) -> str:
        return UNIT_LETTER[self]


#: each unit type's letter: ``Enum.value`` is a Python-level property on 3.11,
#: and notation is written for every unit of every phase a game saves
UNIT_LETTER: Final[dict[UnitType, str]] = {t: t.value for t in UnitType}


@dataclass(frozen=True, slots=True)
class Province:
    """One space of the board (not a coast: see :attr:`coasts`)."""

    id: str
    name: str
    terrain: Terrain
    supply_centre: bool = False
    #: Coast locations such as ``("stp/nc", "stp/sc")``; empty for most provinces.
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    #: Units allowed at once; 0 = any number (1939 IV high oceans).
    capacity: int = 1
    #: Fleets here may convoy (seas; also PORT-like island spaces in some variants).
    convoys: bool = False
    #: Board level for stacked maps ("I", "II" in Twin Earths); "" on one-level maps.
    level: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", sys.intern(self.id))
        object.__setattr__(self, "coasts", tuple(sys.intern(c) for c in self.coasts))

    @property
    def is_land(self) -> bool:
        return self.terrain in (Terrain.LAND, Terrain.COAST)

    @property
    def is_coastal(self) -> bool:
        return self.terrain is Terrain.COAST


class _RegisteringTable(dict[str, str]):
    """The pure Python build's :data:`PROVINCE_OF`: a miss registers the location,
    so the table's bound ``__getitem__`` can serve as :func:`province_of`."""

    def __missing__(self, location: str) -> str:
        return _register(location)


_PURE = __file__.endswith(".py")

#: location -> province, for every location a board or a position has named. In
#: the compiled core a plain dict, not a subclass with ``__missing__``: the
#: compiled code reads a plain dict through the C API directly, where a subclass
#: costs it a generic ``PyObject_GetItem`` (about a hundred instructions more a
#: lookup, and hundreds of lookups a movement phase); ``Final``, so it reads the
#: table from a C static rather than the module's namespace. Every board registers
#: its locations when built, and every position the locations of its units (not of
#: its dislodged units), so loops over a position's units may index it directly
#: (``PROVINCE_OF[u.location]``); anything else asks :func:`province_of`, which
#: registers what it has not seen.
PROVINCE_OF: Final[dict[str, str]] = _RegisteringTable() if _PURE else {}


def province_of(location: str) -> str:
    """``province_of("stp/nc") == "stp"``, ``province_of("par") == "par"``.

    A function, so that the compiled core calls it directly (a call of a
    table's bound method would be a generic call through the interpreter, a
    few hundred a movement phase); the pure Python build replaces it below by
    the table's bound ``__getitem__``, which the interpreter calls faster than a
    function."""
    province = PROVINCE_OF.get(location)
    return _register(location) if province is None else province


def _register(location: str) -> str:
    """A location's province, worked out and (bounded) remembered."""
    province = sys.intern(location.split("/", 1)[0])
    if len(PROVINCE_OF) < 1_000_000:  # locations are a small finite set in practice
        PROVINCE_OF[sys.intern(location)] = province
    return province


if _PURE:
    setattr(sys.modules[__name__], "province_of", PROVINCE_OF.__getitem__)  # noqa: B010


class RouteSeas:
    """The convoy routes from one province to one destination, as
    :meth:`Board.convoy_routes` finds them: the seas some route uses and the
    seas every route uses. The search adds each route it meets (the first set
    grows, the second shrinks), so they are plain sets, not frozen."""

    __slots__ = ("needed", "seas")

    def __init__(self, seas: Iterable[str], needed: Iterable[str] | None = None) -> None:
        #: every sea on some route
        self.seas: set[str] = set(seas)
        #: the seas on every route (a fleet there cannot be spared from the convoy);
        #: by default, for a single route, all of its seas
        self.needed: set[str] = set(self.seas if needed is None else needed)

    def add(self, route: list[str]) -> None:
        """Count one more route."""
        self.seas.update(route)
        self.needed.intersection_update(route)

    def __repr__(self) -> str:
        return f"RouteSeas(seas={sorted(self.seas)!r}, needed={sorted(self.needed)!r})"


def _add_route(found: dict[str, RouteSeas], dest: str, route: list[str]) -> None:
    routes = found.get(dest)
    if routes is None:
        found[dest] = RouteSeas(route)
    else:
        routes.add(route)


class _RouteSearch:
    """The depth-first search of :meth:`Board.convoy_routes` and
    :meth:`Board.convoy_route_seas`: every induced path of fleets from ``src``
    (only its first sea touches ``src``, and no two of its seas touch unless
    consecutive), to ``dst`` (stopping at the first sea that touches it) or to
    every coastal province (a path counts for a province its last sea, and no
    other, touches).

    Whether a sea may extend the path is one probe of ``touched``: how many of
    the path's seas before its last touch each province, kept up to date as
    the path grows and shrinks, rather than a test against every sea of the
    path (on the Twentieth Century's map, with dozens of fleets, the search
    took a quarter of a random game's instructions). A class, not a recursive
    closure: a closure refers to itself, which left a reference cycle for the
    garbage collector on every search."""

    __slots__ = ("coastal", "dst", "fleets", "found", "near", "path", "seas_next", "src",
                 "touched")

    def __init__(self, board: Board, src: str, dst: str | None, fleets: Container[str]
                 ) -> None:
        self.near = board.neighbours
        self.seas_next = board.convoy_neighbours
        self.coastal = board.coastal
        self.src = src
        self.dst = dst
        self.fleets = fleets
        self.path: list[str] = []
        self.touched: dict[str, int] = {}
        #: destination -> the seas of the routes found to it
        self.found: dict[str, RouteSeas] = {}

    def extend(self, sea: str) -> None:
        """Add ``sea`` (a sea a convoy may pass, next to the path's last sea or
        to ``src``) to the path if it keeps it an induced path of fleets, record
        the routes it completes, and search on from it."""
        path, touched, near = self.path, self.touched, self.near
        if sea not in self.fleets or sea in path:
            return
        last = ""
        if path:
            if self.src in near[sea] or touched.get(sea, 0):
                return
            last = path[-1]
            for p in near[last]:  # the old last sea is now before the last
                touched[p] = touched.get(p, 0) + 1
        path.append(sea)
        dst = self.dst
        if dst is not None and dst in near[sea]:
            _add_route(self.found, dst, path)
        else:
            if dst is None:
                coastal, src = self.coastal, self.src
                for p in near[sea]:
                    if p in coastal and p != src and not touched.get(p, 0):
                        _add_route(self.found, p, path)
            for nxt in self.seas_next[sea]:
                self.extend(nxt)
        path.pop()
        if last:
            for p in near[last]:
                touched[p] -= 1


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """An immutable map: provinces plus army and fleet adjacency.

    The tables are typed as plain dicts, not ``Mapping``: the compiled core then
    reads them with the C API's dict calls, where a ``Mapping`` costs a generic
    method call for every ``.get`` (about 300 instructions; hundreds a phase).
    Nothing mutates them once built."""

    provinces: dict[str, Province]
    #: location -> locations an army can move to (province ids).
    army_links: dict[str, frozenset[str]]
    #: location -> locations a fleet can move to (coast-specific ids).
    fleet_links: dict[str, frozenset[str]]
    #: links along which a unit may attack/support but not enter (City/Country .5).
    strike_only: frozenset[tuple[str, str]] = frozenset()
    #: province -> provinces reachable by any unit over land or sea (for distances).
    neighbours: dict[str, frozenset[str]] = field(default_factory=dict)
    #: location -> provinces a unit there can move to (any coast): support reach
    army_reach: dict[str, frozenset[str]] = field(default_factory=dict)
    fleet_reach: dict[str, frozenset[str]] = field(default_factory=dict)
    #: provinces that hold any number of fleets, never dislodged (1939 IV high oceans)
    high_seas: frozenset[str] = frozenset()
    #: canal province -> the seas its owner's fleets pass between without entering it
    #: (The Twentieth Century's straits and canals)
    canals: dict[str, frozenset[str]] = field(default_factory=dict)
    #: sea -> {other sea: canal province}: the extra fleet moves the canals make
    canal_links: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the supply centres' provinces (one compact set to test, on the hot path)
    supply_centres: frozenset[str] = frozenset()
    #: province -> its neighbours a convoy can pass through (the seas): every step
    #: of every convoy search asks, so it is a table, not a memoised function
    convoy_neighbours: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the provinces a fleet may convoy through (one set to probe, not a province
    #: record to read for each fleet: see :meth:`can_convoy_through`)
    convoyable: frozenset[str] = frozenset()
    #: the land provinces that touch a sea (where convoys start and end)
    coastal: frozenset[str] = frozenset()
    #: location (a province or one of its coasts) -> its province, for the locations
    #: of the supply centres only: after the last season of a year every unit is
    #: looked up once here (one probe of a plain dict, which the compiled core reads
    #: directly) to see whether it stands on a centre, and most do not
    centre_at: dict[str, str] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        provinces: Iterable[Province],
        army_edges: Iterable[tuple[str, str]],
        fleet_edges: Iterable[tuple[str, str]],
        strike_only: Iterable[tuple[str, str]] = (),
        canals: Mapping[str, Iterable[str]] | None = None,
    ) -> Board:
        """Check the data and build the lookup tables (edges are both-ways)."""
        provs = {p.id: p for p in provinces}
        locations = set(provs)
        for p in provs.values():
            for c in p.coasts:
                if province_of(c) != p.id:
                    raise VariantError(f"coast {c!r} does not belong to province {p.id!r}")
                locations.add(c)
        for loc in locations:
            province_of(loc)  # registered: see PROVINCE_OF
        army: dict[str, set[str]] = {p: set() for p in provs if provs[p].is_land}
        fleet: dict[str, set[str]] = {
            loc: set() for loc in locations if _fleet_can_stand(provs, loc)
        }
        for a, b in army_edges:
            a, b = sys.intern(a), sys.intern(b)
            for x, y in ((a, b), (b, a)):
                if x not in army:
                    raise VariantError(f"army link {a}-{b}: {x!r} is not a land province")
                army[x].add(y)
        for a, b in fleet_edges:
            a, b = sys.intern(a), sys.intern(b)
            for x, y in ((a, b), (b, a)):
                if x not in fleet:
                    raise VariantError(f"fleet link {a}-{b}: a fleet cannot stand in {x!r}")
                fleet[x].add(y)
        near: dict[str, set[str]] = {p: set() for p in provs}
        for table in (army, fleet):
            for src, dsts in table.items():
                for dst in dsts:
                    near[province_of(src)].add(province_of(dst))
        strikes = frozenset(strike_only)
        for a, b in strikes:
            near[province_of(a)].add(province_of(b))
        canal_seas = {c: frozenset(seas) for c, seas in (canals or {}).items()}
        canal_links: dict[str, dict[str, str]] = {}
        for canal, seas in canal_seas.items():
            if canal not in provs or provs[canal].terrain is not Terrain.COAST:
                raise VariantError(f"canal {canal!r} is not a coastal province")
            for sea in seas:
                if sea not in provs or provs[sea].terrain is not Terrain.SEA:
                    raise VariantError(f"canal {canal!r}: {sea!r} is not a sea")
                if sea not in near[canal]:
                    raise VariantError(f"canal {canal!r} does not touch the sea {sea!r}")
                for other in seas:
                    if other != sea and other not in fleet[sea]:
                        canal_links.setdefault(sea, {})[other] = canal
        return cls(
            provinces=provs,
            army_links={k: frozenset(v) for k, v in army.items()},
            fleet_links={k: frozenset(v) for k, v in fleet.items()},
            strike_only=strikes,
            neighbours={k: frozenset(v) for k, v in near.items()},
            army_reach={k: frozenset(province_of(d) for d in v) for k, v in army.items()},
            fleet_reach={k: frozenset(province_of(d) for d in v) for k, v in fleet.items()},
            high_seas=frozenset(p.id for p in provs.values()
                                if p.capacity == 0 and p.terrain is Terrain.SEA),
            canals=canal_seas,
            canal_links=canal_links,
            supply_centres=frozenset(p.id for p in provs.values() if p.supply_centre),
            convoy_neighbours={k: tuple(sorted(n for n in v if provs[n].convoys))
                               for k, v in near.items()},
            convoyable=frozenset(p.id for p in provs.values() if p.convoys),
            coastal=frozenset(p.id for p in provs.values() if p.terrain is Terrain.COAST),
            centre_at={loc: p.id for p in provs.values() if p.supply_centre
                       for loc in (p.id, *p.coasts)},
        )

    # -- queries -----------------------------------------------------------------

    def links(self, unit: UnitType, location: str) -> frozenset[str]:
        """Locations a unit of this type at ``location`` may move to."""
        table = self.army_links if unit is UnitType.ARMY else self.fleet_links
        return table.get(location, frozenset())

    def canal_through(self, src: str, dest: str) -> str | None:
        """The canal a fleet move ``src`` -> ``dest`` passes, if it is a canal move."""
        return self.canal_links.get(src, {}).get(dest)

    def can_stand(self, unit: UnitType, location: str) -> bool:
        """May a unit of this type occupy this exact location?"""
        table = self.army_links if unit is UnitType.ARMY else self.fleet_links
        return location in table

    def reaches_province(self, unit: UnitType, location: str, province: str) -> bool:
        """Can the unit move to (some coast of) ``province``? Used for supports."""
        table = self.army_reach if unit is UnitType.ARMY else self.fleet_reach
        return province in table.get(location, ())

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].terrain is Terrain.SEA

    def can_convoy_through(self, province: str) -> bool:
        return province in self.convoyable

    def is_coastal(self, province: str) -> bool:
        """A land province that touches a sea (where armies can be convoyed to/from)."""
        return self.provinces[province].terrain is Terrain.COAST

    def sea_path_exists(
        self, src: str, dst: str, fleets: Container[str], avoid: str | None = None
    ) -> bool:
        """Could fleets in ``fleets`` (sea provinces) convoy an army src -> dst?

        ``avoid`` excludes one sea (a fleet cannot support a convoy it is needed
        for: DATC 6.D.31). Board geometry and fleet positions only; which fleets
        are ordered to convoy is the adjudicator's business.
        """
        sea_next = self.convoy_neighbours
        starts = [s for s in sea_next[src] if s in fleets and s != avoid]
        seen = set(starts)
        stack = list(starts)
        while stack:
            sea = stack.pop()
            if dst in self.neighbours[sea]:
                return True
            for nxt in sea_next[sea]:
                if nxt not in seen and nxt in fleets and nxt != avoid:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    def convoy_route_seas(self, src: str, dst: str, fleets: Container[str]) -> frozenset[str]:
        """Seas (among ``fleets``) needed by at least one convoy route src -> dst.

        A fleet whose convoy is needed by no route gives an illegal order (DATC
        4.E.1, 6.G.19). A route needs every sea on it when it has no short cut:
        only its first sea touches ``src``, only its last touches ``dst``, and
        no two seas on it touch unless consecutive (an induced path). The search
        is over occupied seas only, so it stays small.
        """
        routes = self._routes(src, fleets, dst).get(dst)
        return frozenset(routes.seas) if routes is not None else frozenset()

    def convoy_routes(self, src: str, fleets: Container[str]) -> dict[str, RouteSeas]:
        """:meth:`convoy_route_seas` for every destination at once (coastal
        provinces with a route): one search instead of one per destination, for
        the legal orders of an army that fleets could carry anywhere. For each
        destination, also the seas *every* route needs: a fleet there cannot
        support the convoyed move (DATC 6.D.31), while a fleet some route avoids
        can. Any chain of fleets from ``src`` to a destination contains one of the
        searched routes (drop every sea before the last that touches ``src``,
        then take a shortest path to the first that touches the destination), so
        a sea no searched route avoids is one no chain at all avoids."""
        return self._routes(src, fleets, None)

    def _routes(self, src: str, fleets: Container[str], dst: str | None
                ) -> dict[str, RouteSeas]:
        search = _RouteSearch(self, src, dst, fleets)
        for first in self.convoy_neighbours[src]:
            search.extend(first)
        return search.found

    def convoy_seas_from(self, src: str, fleets: Container[str]) -> set[str]:
        """Every sea among ``fleets`` that a chain of them links to ``src``."""
        sea_next = self.convoy_neighbours
        seen = {s for s in sea_next[src] if s in fleets}
        stack = list(seen)
        while stack:
            for nxt in sea_next[stack.pop()]:
                if nxt not in seen and nxt in fleets:
                    seen.add(nxt)
                    stack.append(nxt)
        return seen

    def locations_of(self, province: str) -> tuple[str, ...]:
        """The standable locations of a province: its coasts, or itself."""
        p = self.provinces[province]
        return p.coasts if p.coasts else (province,)

    def can_enter(self, src: str, dst: str) -> bool:
        """False on a strike-only link (attack and support only)."""
        return (src, dst) not in self.strike_only


def _fleet_can_stand(provs: Mapping[str, Province], loc: str) -> bool:
    prov = provs[province_of(loc)]
    if prov.terrain is Terrain.SEA:
        return True
    if prov.terrain is not Terrain.COAST:
        return False
    # A split-coast province is entered by a coast, never as a whole.
    return loc != prov.id or not prov.coasts
