"""Retreat phase: where dislodged units may go, and what happens when they try.

A dislodged unit may retreat to a location it could move to, that is empty
after the movement phase, was not left empty by a stand-off, and is not the
province its attacker came from, unless that attack came by convoy (2023
rulebook, DATC 4.A.5). Two retreats to one province both fail and both units
are disbanded. A unit with no order is disbanded. A high sea (a space of
unlimited capacity, 1939 IV rule 5.1) is never full: any number of fleets may
retreat there, whoever is already in it.
"""

from __future__ import annotations

from collections.abc import Container
from typing import assert_never

from .buckets import bucket
from .geography import Board, province_of
from .options import Options
from .orders import Disband, RetreatOrder
from .position import Dislodged, Unit, new_unit
from .results import OrderResult, Reason


def retreat_options(
    board: Board,
    dislodged: Dislodged,
    occupied: Container[str],
    contested: frozenset[str],
    options: Options,
) -> list[str]:
    """Every location this dislodged unit may retreat to (sorted)."""
    return sorted(retreat_targets(board, dislodged, occupied, contested, options))


def retreat_targets(
    board: Board,
    dislodged: Dislodged,
    occupied: Container[str],
    contested: frozenset[str],
    options: Options,
) -> list[str]:
    """:func:`retreat_options` in no particular order, for the adjudicator, which
    only asks whether there is any and whether an order's is among them (a sort
    is a large piece of the interpreter's code to bring in for a phase met once)."""
    u = dislodged.unit
    blocked_origin = not (dislodged.via_convoy and options.convoy_retreat == "allowed")
    out = []
    high = board.high_seas
    for loc in board.links(u.type, u.location):
        prov = province_of(loc)
        if (prov in occupied or prov in contested) and prov not in high:
            continue
        if blocked_origin and prov == dislodged.attacker_from:
            continue
        if not board.can_enter(u.location, loc):
            continue
        out.append(loc)
    return out


def adjudicate_retreats(
    dislodged: tuple[Dislodged, ...],
    orders: dict[str, RetreatOrder],
    high_seas: frozenset[str] = frozenset(),
) -> tuple[list[OrderResult], list[Unit]]:
    """Resolve legal, normalised retreat orders keyed by the unit's province.

    Returns the results and the units that reach the board.
    """
    targets: dict[str, list[str]] = {}  # province -> the provinces retreating there
    for prov, o in orders.items():
        if o.kind == "retreat" and (p := province_of(o.dest)) not in high_seas:
            bucket(targets, p).append(prov)
    results: list[OrderResult] = []
    arrived: list[Unit] = []
    for d in dislodged:
        u = d.unit
        prov = province_of(u.location)  # (not the named tuple's property: see _retreat)
        given = orders.get(prov)
        if given is None:
            results.append(OrderResult(u.power, Disband(u.type, u.location), True,
                                       Reason.CIVIL_DISORDER, detail="no order: disbanded"))
            continue
        match given.kind:
            case "retreat":
                others = targets.get(province_of(given.dest), ())
                if len(others) > 1:
                    results.append(OrderResult(u.power, given, False, Reason.BOUNCED, tuple(
                        sorted(p for p in others if p != prov))))
                else:
                    results.append(OrderResult(u.power, given, True))
                    arrived.append(new_unit(u.power, u.type, given.dest))
            case "disband":
                results.append(OrderResult(u.power, given, True))
            case _:
                assert_never(given)
    return results, arrived
