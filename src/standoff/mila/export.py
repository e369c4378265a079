"""Writing a standoff game in MILA's saved-game format, for MILA's tools and pydipcc.

The output is what MILA's ``to_saved_game_format`` writes: ``{"id", "map",
"rules", "phases"}``, one phase per processed phase plus the current one (named
``COMPLETED`` once the game is over), each with the full state MILA keeps
(units with ``*`` for the dislodged, retreats, centres, homes, influence, civil
disorder flags, builds) and the orders in MILA's notation. MILA's
``from_saved_game_format`` and pydipcc's ``Game.from_json`` load it and stand
where the standoff game stood (``benchmarks/mila_interop.py`` checks both).

MILA's order notation differs from standoff's canonical one in a few words:
``A PAR B`` (standoff ``BUILD A PAR``), ``A PAR D`` for a removal,
``A LON - NWY VIA`` (standoff ``... VIA CONVOY``), a supported unit with its
coast and a supported move's destination without one. A ``WAIVE`` is left out,
as MILA leaves it out of its own records (and pydipcc cannot read it): a build
not made is the same game either way. Timestamps count phases instead of clock
microseconds and the Zobrist hash (MILA recomputes it on load) is ``"0"``, so
one game always exports to the same text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, assert_never

from standoff import (
    Build,
    Convoy,
    Disband,
    GameRecord,
    Hold,
    Move,
    Order,
    OrderResult,
    PhaseKind,
    PhaseRecord,
    Position,
    Reason,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitType,
    Variant,
    Waive,
    legal_orders,
    narrow_order,
    province_of,
)

from .positions import mila_power, state_of_position
from .rules import mila_rules
from .saved_game import COMPLETED, STANDARD_MAP, MilaError

#: standoff's reason for a failed order -> MILA's result words
_RESULT_WORDS: dict[Reason, tuple[str, ...]] = {
    Reason.NONE: (), Reason.CIVIL_DISORDER: (), Reason.NOTED: (),
    Reason.BOUNCED: ("bounce",), Reason.NO_CONVOY: ("no convoy",),
    Reason.PARADOX: ("no convoy",), Reason.CUT: ("cut",), Reason.VOID: ("void",),
    Reason.DISLODGED: ("dislodged",), Reason.NO_RETREAT: ("dislodged",),
    Reason.INVALID: ("void",), Reason.ILLEGAL: ("void",), Reason.NOT_ALLOWED: ("void",),
    Reason.NO_ENTRY: ("bounce",), Reason.NO_PASSAGE: ("void",),
}


def to_saved_game(record: GameRecord, game_id: str = "standoff") -> dict[str, Any]:
    """``record`` as a MILA saved game (a JSON-ready dict)."""
    v = record.variant
    if v.name not in ("standard", "standard-build-any"):
        raise MilaError(f"variant {v.name!r} has no MILA map (only Standard is exported)")
    rules = mila_rules(v)
    phases = [_phase(i, r.position, r.orders, r, v, game_id, rules)
              for i, r in enumerate(record.history)]
    pending = {p.power: p.orders for p in record.pending.powers}
    phases.append(_phase(len(phases), record.position, pending, None, v, game_id, rules,
                         COMPLETED if record.is_over else None))
    return {"id": game_id, "map": STANDARD_MAP, "rules": rules, "phases": phases}


def _phase(index: int, pos: Position, orders: Mapping[str, Iterable[Order]],
           done: PhaseRecord | None, v: Variant,
           game_id: str, rules: list[str], name: str | None = None) -> dict[str, Any]:
    name = name or pos.phase.name(v.calendar)
    given: dict[str, list[str]] = {mila_power(v, p): [] for p in v.powers}
    for p, os in orders.items():
        given[mila_power(v, p)] = [mila_order(o, pos) for o in os if not isinstance(o, Waive)]
    return {"name": name, "state": mila_state(pos, v, name, index, game_id, rules),
            "orders": given, "results": _results(done, pos) if done else {},
            "messages": []}


def mila_state(pos: Position, v: Variant, name: str, index: int = 0,
               game_id: str = "standoff", rules: list[str] | None = None) -> dict[str, Any]:
    """A position as MILA's phase state (every key MILA writes)."""
    state = state_of_position(pos, v)
    powers = [mila_power(v, p) for p in v.powers]
    units: dict[str, list[str]] = {p: [] for p in powers}
    for p, kind, loc in sorted(state.units):
        units[p].append(f"{kind} {loc}")
    for p, kind, loc in sorted(state.dislodged):
        units[p].append(f"*{kind} {loc}")
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for p, unit, where in sorted(state.retreats, key=lambda r: (r[0], r[1])):
        retreats[p][unit] = sorted(where)
    centres: dict[str, list[str]] = {p: [] for p in powers}
    for c, p in state.centres:
        centres[p].append(c)
    influence = {p: sorted({loc[:3] for _q, _k, loc in state.units if _q == p}
                           | set(centres[p])) for p in powers}
    return {
        "timestamp": index, "zobrist_hash": "0", "note": "", "name": name,
        "units": units, "retreats": retreats, "centers": centres,
        "homes": {mila_power(v, p): sorted(c.upper() for c in power.home_centres)
                  for p, power in v.powers.items()},
        "influence": influence,
        "civil_disorder": dict.fromkeys(powers, 0),
        "builds": _builds(pos, v),
        "game_id": game_id, "map": STANDARD_MAP,
        "rules": list(rules if rules is not None else mila_rules(v)),
    }


def _builds(pos: Position, v: Variant) -> dict[str, dict[str, Any]]:
    out = {mila_power(v, p): {"count": 0, "homes": []} for p in v.powers}
    if pos.phase.kind is not PhaseKind.ADJUSTMENT:
        return out
    sites = legal_orders(pos, variant=v)
    for p in v.powers:
        count = len(pos.centres_of(p)) - len(pos.units_of(p))
        homes = sorted({province_of(loc).upper() for loc in sites.get(p, {})}) \
            if count > 0 else []
        out[mila_power(v, p)] = {"count": count, "homes": homes}
    return out


def _results(done: PhaseRecord, pos: Position) -> dict[str, list[str]]:
    """MILA's results: unit -> result words (every unit of a movement phase listed)."""
    out: dict[str, list[str]] = {}
    if pos.phase.kind is PhaseKind.MOVEMENT:
        out = {f"{u.type.value} {u.location.upper()}": [] for u in pos.units}
    for r in done.results:
        if r.order is None or isinstance(r.order, Waive):
            continue
        key = _unit_text(r.order, pos)
        words = list(_words(r))
        out[key] = out.get(key, []) + [w for w in words if w not in out.get(key, [])]
    return out


def _words(r: OrderResult) -> tuple[str, ...]:
    words = _RESULT_WORDS[r.reason]
    if r.dislodged_by is not None and "dislodged" not in words:
        words = (*words, "dislodged")
    return words


def _unit_text(order: Order, pos: Position) -> str:
    return f"{_unit_type(order, pos).value} {order.location.upper()}"


def _unit_type(order: Order, pos: Position) -> UnitType:
    if order.unit is not None:
        return order.unit
    prov = province_of(order.location)
    unit = pos.unit_at(prov) or next(
        (d.unit for d in pos.dislodged if d.unit.province == prov), None)
    if unit is None:
        raise MilaError(f"no unit for the order {order} in {pos.phase}")
    return unit.type


def _target(location: str, kind: UnitType | None, pos: Position) -> str:
    unit = pos.unit_at(province_of(location))
    if unit is not None:
        return f"{unit.type.value} {unit.location.upper()}"
    return f"{(kind or UnitType.ARMY).value} {location.upper()}"


def mila_order(order: Order, pos: Position) -> str:
    """``order`` in MILA's notation (the unit types filled in from ``pos``)."""
    o = narrow_order(order)
    if isinstance(o, Waive):
        return "WAIVE"
    unit = _unit_text(o, pos)
    match o.kind:
        case "hold":
            assert isinstance(o, Hold)
            return f"{unit} H"
        case "move":
            assert isinstance(o, Move)
            return f"{unit} - {o.dest.upper()}{' VIA' if o.via_convoy else ''}"
        case "support_hold":
            assert isinstance(o, SupportHold)
            return f"{unit} S {_target(o.target, o.target_unit, pos)}"
        case "support_move":
            assert isinstance(o, SupportMove)
            return (f"{unit} S {_target(o.target, o.target_unit, pos)} - "
                    f"{province_of(o.dest).upper()}")
        case "convoy":
            assert isinstance(o, Convoy)
            return f"{unit} C A {o.target.upper()} - {o.dest.upper()}"
        case "retreat":
            assert isinstance(o, Retreat)
            return f"{unit} R {o.dest.upper()}"
        case "disband":
            assert isinstance(o, Disband)
            return f"{unit} D"
        case "build":
            assert isinstance(o, Build)
            return f"{unit} B"
        case "remove":
            assert isinstance(o, Remove)
            return f"{unit} D"
        case "waive":
            return "WAIVE"
        case "no_convert" | "permit":
            raise MilaError(f"{o} has no MILA notation (not an order of the Standard game)")
        case _:
            assert_never(o.kind)
