"""Validate a variant: the checks a variant designer needs before anyone plays.

:func:`check_variant` returns every problem found (empty: the variant is
sound) and :func:`variant_summary` the figures worth printing. Checks:

* links: both ways, between spaces that exist, armies only on land, fleets
  only between seas and coasts; strike-only links are real links;
* coasts: every coast of a split-coast province has fleet links and the
  province itself has none;
* every passable space can be reached from every other;
* centres and homes: each home is a centre of one power only, every power
  has a home; the victory condition can be met on this map;
* the starting position is legal (one unit a space, each on a space it can
  stand on);
* a changing map: every schedule names real spaces, and every board it
  produces passes the map checks above;
* special spaces: unlimited capacity only on seas (high seas), build centres
  on spaces their power's units can stand on, canals between real seas (the
  loader already refuses a canal that does not touch its seas).
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import StandoffError
from .geography import Board, Terrain, UnitType, province_of
from .phase import Phase, PhaseKind
from .position import Position
from .variant import Variant


def check_variant(v: Variant) -> list[str]:
    problems = _board_problems(v.board, "map")
    problems += _power_problems(v)
    try:
        Position.initial(v).check(v)
    except StandoffError as exc:
        problems.append(f"starting position: {exc}")
    if v.timeline is not None:
        problems += v.timeline.problems()
        for phase, board in _boards(v):
            if board is not v.board:
                problems += _board_problems(board, f"map at {phase.name(v.calendar)}")
    problems += v.victory.problems(v)
    for p in v.board.provinces.values():
        if p.capacity == 0 and p.terrain is not Terrain.SEA:
            problems.append(f"{p.id}: only a sea may hold any number of units")
    for prov, bc in v.build_centres.items():
        locs = v.board.locations_of(prov)
        if not any(v.board.can_stand(t, loc) for t in UnitType for loc in locs):
            problems.append(f"build centre {prov}: no unit can stand there")
        for c in bc.requires_any:
            if c not in v.board.provinces or not v.board.provinces[c].supply_centre:
                problems.append(f"build centre {prov} depends on {c}, which is no centre")
    return problems


def _boards(v: Variant) -> Iterable[tuple[Phase, Board]]:
    """Each distinct board of a changing map, with the first phase it is in force."""
    seen: set[int] = set()
    phase = v.start
    last = v.victory.last_phase() or Phase(v.start.year + 30, 0, PhaseKind.MOVEMENT)
    while phase <= last:
        board = v.board_at(phase)
        if id(board) not in seen:
            seen.add(id(board))
            yield phase, board
        phase = phase.next_after_turn(v.calendar, "always")


def _board_problems(board: Board, where: str) -> list[str]:
    out: list[str] = []
    provs = board.provinces
    for table, unit in ((board.army_links, UnitType.ARMY), (board.fleet_links, UnitType.FLEET)):
        name = "army" if unit is UnitType.ARMY else "fleet"
        for src, dsts in table.items():
            for dst in dsts:
                if province_of(dst) not in provs:
                    out.append(f"{where}: {name} link {src}-{dst} to an unknown space")
                elif src not in table.get(dst, ()):
                    out.append(f"{where}: {name} link {src}-{dst} goes one way only")
                elif unit is UnitType.ARMY and not provs[dst].is_land:
                    out.append(f"{where}: army link {src}-{dst} into a {provs[dst].terrain.value}")
    for a, b in board.strike_only:
        if b not in board.army_links.get(a, ()) and b not in board.fleet_links.get(a, ()):
            out.append(f"{where}: strike-only link {a}-{b} is not a link")
    for p in provs.values():
        if p.coasts:
            if board.fleet_links.get(p.id):
                out.append(f"{where}: {p.id} has coasts, so fleets link to them, not to {p.id}")
            for c in p.coasts:
                if not board.fleet_links.get(c):
                    out.append(f"{where}: coast {c} has no fleet links")
        elif p.terrain is Terrain.COAST and not board.fleet_links.get(p.id):
            out.append(f"{where}: coastal {p.id} has no fleet links")
        if p.terrain is Terrain.SEA and p.supply_centre:
            out.append(f"{where}: sea {p.id} is a supply centre")
    passable = [p for p, q in provs.items() if q.terrain is not Terrain.IMPASSABLE]
    if passable:
        seen = {passable[0]}
        stack = [passable[0]]
        while stack:
            for q in board.neighbours[stack.pop()]:
                if q not in seen and provs[q].terrain is not Terrain.IMPASSABLE:
                    seen.add(q)
                    stack.append(q)
        cut_off = sorted(set(passable) - seen)
        if cut_off:
            out.append(f"{where}: cannot be reached from {passable[0]}: {', '.join(cut_off)}")
    return out


def _power_problems(v: Variant) -> list[str]:
    out = []
    owner: dict[str, str] = {}
    for p in v.powers.values():
        if not p.home_centres:
            out.append(f"{p.name} has no home centre")
        for h in p.home_centres:
            prov = province_of(h)
            if prov in owner:
                out.append(f"{prov} is a home centre of both {owner[prov]} and {p.id}")
            owner[prov] = p.id
            if prov not in v.board.provinces or not v.board.provinces[prov].supply_centre:
                out.append(f"home centre {h} of {p.id} is not a supply centre")
    return out


def variant_summary(v: Variant) -> dict[str, object]:
    board = v.board
    terrain: dict[str, int] = {}
    for p in board.provinces.values():
        terrain[p.terrain.value] = terrain.get(p.terrain.value, 0) + 1
    homes = {p.id: len(p.home_centres) for p in v.powers.values()}
    return {
        "spaces": len(board.provinces),
        "terrain": terrain,
        "centres": len(v.supply_centres),
        "homes": homes,
        "units": sum(len(p.units) for p in v.powers.values()),
        "neutral units": len(v.neutral_units),
        "high seas": sorted(board.high_seas),
        "canals": {c: sorted(s) for c, s in sorted(board.canals.items())},
        "build centres": {p: bc.power for p, bc in sorted(v.build_centres.items())},
        "start": v.start.long_name(v.calendar),
        "victory": v.victory.describe(v.calendar),
        "features": v.features.names(),
        "boards": sum(1 for _ in _boards(v)) if v.timeline else 1,
    }
