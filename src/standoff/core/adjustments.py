"""Adjustment phase: builds, removals, waives and civil disorder.

Counts: a power with more centres than units may build (in its owned, empty
home centres, or in any owned empty centre where the variant says so, Sahara
rule 4); with fewer it must remove the difference. The first legal
orders are used, extra ones fail (DATC 4.D.4-4.D.6). Missing removals are
chosen by the civil-disorder rule: by default the 2023 rulebook's (the unit
farthest from any owned centre, counting moves over land and sea for every
unit; ties: fleets first, then alphabetical by English name, DATC 6.J).
Missing builds are simply not made (DATC 4.D.7: builds may be waived).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container, Iterable, Mapping
from typing import Final, assert_never

from .errors import IllegalOrderError
from .geography import PROVINCE_OF, Board, UnitType, province_of
from .options import Options
from .orders import Order, Remove
from .position import Position, Unit, centre_table, insert_unit, new_unit
from .results import OrderResult, Reason
from .variant import Variant


def adjustment_counts(variant: Variant, position: Position) -> dict[str, int]:
    """power -> builds (positive) or removals (negative) due; zero entries omitted.

    Worked out once per position (kept on it: a phase asks several times) and
    a fresh dict each call, so a caller may change its copy."""
    counts = position.known_counts()
    if counts is None:
        counts = counts_for(variant, position.units, position.centres, position.unit_index)
        position.keep_counts(counts)
    return dict(counts)


def counts_for(variant: Variant, units: Iterable[Unit], centres: Mapping[str, str],
               occupied: Container[str] | None = None) -> dict[str, int]:
    """:func:`adjustment_counts` from units and centre owners (and, if known, the
    provinces they occupy): the adjudicator asks after every Fall whether anyone
    has anything to adjust (to skip an empty adjustment phase), and hands the
    answer on to the adjustment position it makes."""
    owners = centre_table(centres)
    units = list(units)
    # Tallied in a list by each power's slot: one probe of a small table per centre
    # and per unit, where a dict of tallies costs a probe and a store each.
    slots = _power_slots(variant)
    # (``delta[i] = delta[i] + 1``, not ``+=``: the compiled core makes an augmented
    # assignment to a list item a generic number call, the plain one an int add)
    delta: list[int] = [0] * len(slots)
    for p in owners.values():
        i = slots.get(p)
        if i is not None:
            delta[i] = delta[i] + 1
    for u in units:
        i = slots.get(u.power)
        if i is not None:
            delta[i] = delta[i] - 1
    out = {}
    for p, i in slots.items():
        d = delta[i]
        if d > 0:
            if occupied is None:  # only a power with builds due needs the free sites
                table = PROVINCE_OF
                occupied = {table[u.location] for u in units}
            d = min(d, len(_sites(variant, power=p, centres=owners, occupied=occupied)))
        if d:
            out[p] = d
    return out


def _power_slots(variant: Variant) -> dict[str, int]:
    """power id -> its place in the variant's list of powers (built once a variant)."""
    slots = _SLOTS.get(variant)
    if slots is None:
        slots = _SLOTS[variant] = {p: i for i, p in enumerate(variant.powers)}
    return slots


#: variant -> :func:`_power_slots` (a plain dict probe: see ``notation._lexicon``)
_SLOTS: Final[dict[Variant, dict[str, int]]] = {}


def build_sites(variant: Variant, position: Position, power: str) -> list[str]:
    """Where ``power`` may build: the variant's build-sites hook
    (:attr:`~standoff.core.variant.Variant.build_sites`: owned, unoccupied home
    centres, or any owned unoccupied centre, plus any build centres)."""
    return _sites(variant, power, position.centres, position.unit_index)


def _sites(variant: Variant, power: str, centres: Mapping[str, str],
           occupied: Container[str]) -> list[str]:
    return variant.build_sites.sites(variant, power, centre_table(centres), occupied)


def adjudicate_adjustments(
    variant: Variant,
    position: Position,
    orders: dict[str, list[Order]],
    options: Options,
) -> tuple[list[OrderResult], list[Unit]]:
    """Apply builds/removals for every power; return results and the new units
    (in canonical order: removals leave it, builds are inserted in place)."""
    board = variant.board_at(position.phase)
    counts = adjustment_counts(variant, position)
    results: list[OrderResult] = []
    units = list(position.units)
    for power in variant.powers:
        delta = counts.get(power, 0)
        given = orders.get(power) or []
        if delta > 0:
            results.extend(_builds(board, variant, position, power, given, delta, units))
        elif delta < 0:
            results.extend(_removals(board, variant, position, power, given, -delta,
                                     units, options))
        else:
            for o in given:
                results.append(OrderResult(power, o, False, Reason.NOT_ALLOWED,
                                           detail=f"{power} has no adjustments to make"))
    return results, units


def _builds(board: Board, variant: Variant, position: Position, power: str,
            given: list[Order], allowed: int, units: list[Unit]) -> list[OrderResult]:
    results = []
    used: set[str] = set()
    due = allowed
    for o in given:
        match o.kind:
            case "build":
                try:
                    b = o.check_adjustment(variant, board, position, power, due)
                except IllegalOrderError as exc:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               detail=exc.reason))
                    continue
                if allowed <= 0 or b.province in used:
                    why = "no builds left" if allowed <= 0 else \
                        f"already building in {b.province.upper()}"
                    results.append(OrderResult(power, b, False, Reason.NOT_ALLOWED, detail=why))
                    continue
                allowed -= 1
                used.add(b.province)
                assert b.unit is not None
                insert_unit(units, new_unit(power, b.unit, b.location))
                results.append(OrderResult(power, b, True))
            case "waive":
                if allowed > 0:
                    allowed -= 1
                    results.append(OrderResult(power, o, True))
                else:
                    results.append(OrderResult(power, o, False, Reason.NOT_ALLOWED,
                                               detail="no builds left to waive"))
            case "remove" | "disband" | "hold" | "move" | "support_hold" | "support_move" | \
                    "convoy" | "no_convert" | "permit" | "retreat":
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           detail=f"{power} must build, not {o.kind}"))
            case _:
                assert_never(o.kind)
    return results


def _removals(board: Board, variant: Variant, position: Position, power: str,
              given: list[Order], needed: int, units: list[Unit],
              options: Options) -> list[OrderResult]:
    results = []
    due = -needed
    for o in given:
        match o.kind:
            case "remove" | "disband":
                try:
                    order = o.check_adjustment(variant, board, position, power, due)
                except IllegalOrderError as exc:
                    results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                               detail=exc.reason))
                    continue
                assert order.unit is not None
                unit = new_unit(power, order.unit, order.location)
                if needed <= 0 or unit not in units:
                    why = "no removals left" if needed <= 0 else "already removed"
                    results.append(OrderResult(power, order, False, Reason.NOT_ALLOWED,
                                               detail=why))
                    continue
                needed -= 1
                units.remove(unit)
                results.append(OrderResult(power, order, True))
            case "build" | "waive" | "hold" | "move" | "support_hold" | "support_move" | \
                    "convoy" | "no_convert" | "permit" | "retreat":
                results.append(OrderResult(power, o, False, Reason.ILLEGAL,
                                           detail=f"{power} must remove units, not {o.kind}"))
            case _:
                assert_never(o.kind)
    if needed > 0:
        mine = [u for u in units if u.power == power]
        for unit in civil_disorder_removals(board, variant, position, power, mine, needed,
                                            options):
            units.remove(unit)
            results.append(OrderResult(power, Remove(unit.type, unit.location), True,
                                       Reason.CIVIL_DISORDER, detail="removed by civil disorder"))
    return results


def civil_disorder_removals(board: Board, variant: Variant, position: Position, power: str,
                            candidates: list[Unit], needed: int, options: Options) -> list[Unit]:
    """The units a power in civil disorder removes, in order."""
    if options.civil_disorder == "1982":
        targets = {province_of(h) for h in variant.powers[power].home_centres}
    else:
        targets = set(position.centres_of(power))

    def distance(u: Unit) -> int:
        if options.civil_disorder == "1982" and u.type is UnitType.FLEET:
            return _fleet_distance(board, u.location, targets)
        return _distance(board, u.province, targets)

    def key(u: Unit) -> tuple[int, int, str]:
        fleet_first = 0 if u.type is UnitType.FLEET else 1
        return (-distance(u), fleet_first, board.provinces[u.province].name.lower())

    return sorted(candidates, key=key)[:needed]


def _distance(board: Board, start: str, targets: set[str]) -> int:
    """Steps over any land or sea link to the nearest target province."""
    if not targets:
        return 10**6
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        p, d = queue.popleft()
        if p in targets:
            return d
        for q in board.neighbours[p]:
            if q not in seen:
                seen.add(q)
                queue.append((q, d + 1))
    return 10**6


def _fleet_distance(board: Board, start: str, targets: set[str]) -> int:
    """Steps along fleet links (coast by coast) to the nearest target (1982 rule)."""
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        loc, d = queue.popleft()
        if province_of(loc) in targets:
            return d
        for q in board.fleet_links.get(loc, ()):
            if q not in seen:
                seen.add(q)
                queue.append((q, d + 1))
    return 10**6
