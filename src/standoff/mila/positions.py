"""MILA's board states and standoff's positions: one to the other, and compared.

MILA writes powers, provinces and coasts in capitals (``FRANCE``, ``STP/SC``),
standoff's Standard variant the same names in lower case (``france``,
``stp/sc``); unit strings (``A PAR``, ``F STP/SC``) are the same in both.

:class:`State` is what both engines must agree on after a phase: the units,
the dislodged units and where each may retreat, centre ownership and the next
phase's name. It is built from either side, so the comparison is of like with
like, in MILA's notation (a report quotes it as MILA writes it).

A movement or adjustment position is all in MILA's state. A retreat position
is not: standoff keeps where each dislodged unit's attacker came from and which
provinces a stand-off left empty, MILA only the resulting list of places each
unit may go. :func:`position_from_state` rebuilds those from the lists (a
province no dislodged unit may enter is a stand-off; one barred to one unit
only is its attacker's origin); a list it cannot express is reported by
:func:`retreat_mismatch`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from standoff import (
    DEFAULT,
    Dislodged,
    Options,
    Phase,
    PhaseKind,
    Position,
    StandoffError,
    Unit,
    UnitType,
    Variant,
    province_of,
    retreat_options,
)

from .saved_game import COMPLETED, MilaError, MilaState

UnitKey = tuple[str, str, str]  # (POWER, "A"/"F", LOC[/COAST])
RetreatKey = tuple[str, str, frozenset[str]]  # (POWER, "A LOC", {LOC, ...})


@dataclass(frozen=True)
class State:
    """What both engines must agree on after a phase, in MILA's notation."""

    phase: str
    units: frozenset[UnitKey]
    dislodged: frozenset[UnitKey]
    retreats: frozenset[RetreatKey]
    centres: tuple[tuple[str, str], ...]  # sorted (CENTRE, POWER)

    def diff(self, other: State, mine: str = "MILA", theirs: str = "standoff") -> list[str]:
        """What differs, one line per field ('units: MILA only ...; standoff only ...').
        A finished MILA game's phase (COMPLETED) matches any phase name."""
        out = []
        if self.phase != other.phase and COMPLETED not in (self.phase, other.phase):
            out.append(f"phase: {mine} {self.phase}, {theirs} {other.phase}")
        for name in ("units", "dislodged", "retreats", "centres"):
            a, b = set(getattr(self, name)), set(getattr(other, name))
            if a != b:
                out.append(f"{name}: {mine} only {_fmt(a - b)}; {theirs} only {_fmt(b - a)}")
        return out

    def text(self) -> str:
        """One line: phase | units per power | centres per power | dislodged units."""
        units: dict[str, list[str]] = {}
        for p, t, loc in sorted(self.units):
            units.setdefault(p, []).append(f"{t} {loc}")
        centres: dict[str, list[str]] = {}
        for c, p in self.centres:
            centres.setdefault(p, []).append(c)
        dis = ", ".join(f"{p} {t} {loc}" for p, t, loc in sorted(self.dislodged)) or "-"
        return (f"{self.phase} | "
                + "; ".join(f"{p}: {', '.join(us)}" for p, us in sorted(units.items()))
                + " | "
                + "; ".join(f"{p}: {' '.join(sorted(cs))}" for p, cs in sorted(centres.items()))
                + f" | dislodged: {dis}")


def _fmt(items: Iterable[object]) -> str:
    def one(x: object) -> str:
        if isinstance(x, tuple):
            return " ".join(one(y) for y in x)
        if isinstance(x, frozenset):
            return "{" + ",".join(sorted(x)) + "}"
        return str(x)
    return ", ".join(sorted(one(x) for x in items)) or "-"


def mila_power(variant: Variant, power: str) -> str:
    """A standoff power id as MILA names it (``france`` -> ``FRANCE``)."""
    return variant.powers[power].name.upper()


def state_of_mila(state: MilaState) -> State:
    units = frozenset((p, u[0], u[2:]) for p, us in state.units.items() for u in us)
    dislodged = frozenset((p, u[0], u[2:]) for p, ds in state.retreats.items() for u in ds)
    rets = frozenset((p, u, frozenset(where)) for p, ds in state.retreats.items()
                     for u, where in ds.items())
    centres = tuple(sorted((c, p) for p, cs in state.centres.items() for c in cs))
    return State(state.name, units, dislodged, rets, centres)


def state_of_position(pos: Position, variant: Variant, options: Options = DEFAULT) -> State:
    name = pos.phase.name(variant.calendar)
    board = variant.board_at(pos.phase)

    def key(u: Unit) -> UnitKey:
        return (mila_power(variant, u.power), u.type.value, u.location.upper())

    occupied = {u.province for u in pos.units}
    rets = frozenset(
        (mila_power(variant, d.unit.power), f"{d.unit.type.value} {d.unit.location.upper()}",
         frozenset(loc.upper() for loc in retreat_options(board, d, occupied, pos.contested,
                                                          options)))
        for d in pos.dislodged)
    centres = tuple(sorted((c.upper(), mila_power(variant, p)) for c, p in pos.centres.items()))
    return State(name, frozenset(key(u) for u in pos.units),
                 frozenset(key(d.unit) for d in pos.dislodged), rets, centres)


def position_from_state(state: MilaState, variant: Variant, where: str,
                        options: Options = DEFAULT) -> Position:
    """MILA's state as a standoff position (see the module's note on retreats)."""
    try:
        phase = Phase.parse(state.name, variant.calendar)
    except StandoffError:
        raise MilaError(f"{where}: {state.name!r} is not a phase name of {variant.name}"
                        ) from None
    data: dict[str, object] = {
        "variant": variant.name, "phase": phase.name(variant.calendar),
        "units": {p: list(us) for p, us in state.units.items()},
        "centres": {p: list(cs) for p, cs in state.centres.items()},
    }
    try:
        pos = Position.from_dict(data)
        if phase.kind is not PhaseKind.RETREAT:
            return pos
        return _with_retreats(pos, state, variant, options)
    except MilaError:
        raise
    except StandoffError as exc:
        raise MilaError(f"{where}: {exc}") from None


def _with_retreats(pos: Position, state: MilaState, variant: Variant, options: Options
                   ) -> Position:
    board = variant.board_at(pos.phase)
    occupied = {u.province for u in pos.units}
    units: list[tuple[Unit, frozenset[str]]] = []
    for power, dislodged in state.retreats.items():
        pid = variant.power(power)
        for text, where in dislodged.items():
            kind = UnitType(text[0])
            units.append((Unit(pid, kind, text[2:].lower()),
                          frozenset(province_of(w.lower()) for w in where)))
    open_to: dict[Unit, set[str]] = {}
    for unit, _offered in units:
        free = retreat_options(board, Dislodged(unit, unit.province), occupied, frozenset(),
                               options)
        open_to[unit] = {province_of(loc) for loc in free}
    offered_any = set().union(*(o for _u, o in units)) if units else set()
    contested = {p for u, o in units for p in open_to[u] - o} - offered_any
    out = []
    for unit, offered in units:
        barred = sorted(open_to[unit] - offered - contested)
        out.append(Dislodged(unit, barred[0] if barred else unit.province))
    return Position(pos.variant, pos.phase, pos.units, pos.centres, out, frozenset(contested))


def retreat_mismatch(pos: Position, state: MilaState, variant: Variant,
                     options: Options = DEFAULT) -> list[str]:
    """Where the rebuilt retreat position offers other places than MILA recorded
    (places MILA offers that standoff's rules never do, such as an occupied
    province): empty when the rebuild is exact."""
    mine = state_of_position(pos, variant, options)
    theirs = state_of_mila(state)
    return [] if mine.retreats == theirs.retreats else theirs.diff(mine)

