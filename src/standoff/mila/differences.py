"""Why standoff and MILA's ``diplomacy`` 1.1.2 reach different positions: the causes.

standoff follows DATC 3.0 (with its 2023-rulebook preferences); MILA's engine
departs from it in a few known ways. When the two disagree on a phase,
:func:`classify` names the departure: it re-adjudicates the phase with standoff
under counterfactuals that each mimic one known MILA behaviour (:data:`TRANSFORMS`
change the orders or the position, :data:`EMULATORS` re-derive the retreats
under MILA's retreat rule) and returns the smallest set under which standoff
reaches MILA's position exactly, else ``"unexplained"``. Each cause, with the
DATC rule that decides it and whose side that rule takes, is data in
:data:`CAUSES`.

Found and checked on thousands of recorded phases by
``benchmarks/adjudication.py`` (its ``benchmarks/README.md`` lists them, and
``tests/cases/bench/diplomacy_differences.txt`` reduces each to a minimal
case); the package owns the logic so that any MILA game can be explained, not
only the benchmark's.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from standoff import (
    DEFAULT,
    Convoy,
    Dislodged,
    Move,
    Options,
    Order,
    PhaseResult,
    Position,
    Reason,
    StandoffError,
    SupportMove,
    Unit,
    UnitType,
    Variant,
    adjudicate,
    parse_order,
    province_of,
    retreat_options,
)

from .positions import State, mila_power, state_of_position

Orders = Mapping[str, Sequence[str]]
UNEXPLAINED = "unexplained"


@dataclass(frozen=True)
class Cause:
    """A known MILA departure from DATC 3.0, as a report states it."""

    name: str
    #: what MILA does
    mila: str
    #: the DATC rules (and rulebook) that decide the point
    datc: tuple[str, ...]
    #: what those rules say
    ruling: str
    #: True when the rules side with standoff, False with MILA, None when they leave
    #: it to a rule option (standoff's default is the other choice)
    standoff_right: bool | None = True

    def describe(self) -> str:
        side = {True: "standoff right", False: "MILA right",
                None: "a rule option: both are rulebook choices"}[self.standoff_right]
        return f"{self.mila}; {', '.join(self.datc)}: {self.ruling} ({side})"


@dataclass
class Difference:
    """One phase on which the engines disagree, with what classification needs."""

    phase: str
    #: the phase's orders, power (as MILA names it) -> texts
    orders: Orders
    #: the position both engines started the phase from
    before: Position
    mila_after: State
    standoff_after: State
    result: PhaseResult
    variant: Variant
    #: the rule options standoff adjudicated the phase with
    options: Options = DEFAULT

    @property
    def lines(self) -> list[str]:
        return self.mila_after.diff(self.standoff_after)


@dataclass
class Trial:
    """A counterfactual: a position and orders that mimic a MILA behaviour."""

    position: Position
    orders: dict[str, list[str]]
    #: province -> power: units lent to another power for the trial, given back afterwards
    owner_fix: dict[str, str] = field(default_factory=dict)
    options: Options = DEFAULT


Transform = Callable[[Difference, Trial], "Trial | None"]
#: re-derives MILA's view of the retreats: (difference, standoff's next position, units
#: standoff disbanded for want of a retreat, standoff's state, orders) -> state or None
Emulator = Callable[[Difference, Position, list[Unit], State, Orders], "State | None"]

_Parsed = list[tuple[str, str, Order | None]]


def _parsed(v: Variant, orders: Orders) -> _Parsed:
    """(power id, text, parsed order or None) for every order."""
    out: _Parsed = []
    for power, items in orders.items():
        pid = v.power(power)
        for text in items:
            try:
                out.append((pid, text, parse_order(text, v)))
            except StandoffError:
                out.append((pid, text, None))
    return out


def _by_convoy(v: Variant, move: Move, pos: Position) -> bool:
    unit = pos.unit_at(province_of(move.location))
    if unit is None or unit.type is not UnitType.ARMY:
        return False
    return move.via_convoy or move.dest not in v.board.links(UnitType.ARMY, move.location)


def _moves(parsed: _Parsed) -> dict[str, Move]:
    return {o.location: o for _p, _t, o in parsed if isinstance(o, Move)}


def _supports_against_own(parsed: _Parsed, pos: Position
                          ) -> Iterator[tuple[str, str, SupportMove, Unit, Unit, Move]]:
    """(power, text, support, mover, victim, move) for each support a power gives a
    foreign unit's move against the power's own unit: the orders behind every
    self-support departure of MILA below."""
    moves = _moves(parsed)
    for power, text, o in parsed:
        if not isinstance(o, SupportMove):
            continue
        mover, victim = pos.unit_at(province_of(o.target)), pos.unit_at(province_of(o.dest))
        move = moves.get(o.target)
        if (mover and victim and move and victim.power == power
                and mover.power != power):
            yield power, text, o, mover, victim, move


def _mila_names(v: Variant, orders: Mapping[str, list[str]]) -> dict[str, list[str]]:
    return {mila_power(v, p): items for p, items in orders.items()}


def _fallback_to_land(d: Difference, t: Trial) -> Trial | None:
    """MILA sends an army ordered to an adjacent province by land when its convoy
    fails (none ordered, an incomplete route, a disrupted convoy)."""
    v = d.variant
    stuck = {(r.order.location, r.order.dest) for r in d.result.results
             if isinstance(r.order, Move)
             and (r.reason in (Reason.NO_CONVOY, Reason.PARADOX)
                  or (r.reason is Reason.ILLEGAL and r.order.via_convoy))  # no route at all
             and r.order.dest in v.board.links(UnitType.ARMY, r.order.location)}
    if not stuck:
        return None
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in _parsed(v, t.orders):
        if isinstance(o, Move) and (o.location, o.dest) in stuck:
            text = f"A {o.location.upper()} - {o.dest.upper()}"
        elif isinstance(o, Convoy) and (o.target, o.dest) in stuck:
            continue
        new[power].append(text)
    return Trial(t.position, _mila_names(v, new), t.owner_fix, t.options)


def _self_support_dislodges(d: Difference, t: Trial) -> Trial | None:
    """MILA lets a power's support of a foreign army *convoyed* into the power's own
    unit count for the dislodgement."""
    v = d.variant
    parsed = _parsed(v, t.orders)
    pos = t.position
    lend: dict[str, tuple[str, str]] = {}  # supporter province -> (from power, to power)
    for power, _text, sup, mover, _victim, move in _supports_against_own(parsed, pos):
        if _by_convoy(v, move, pos) and pos.unit_at(sup.province):
            lend[sup.province] = (power, mover.power)
    if not lend:
        return None
    units = [Unit(lend[u.province][1], u.type, u.location) if u.province in lend else u
             for u in pos.units]
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in parsed:
        new[lend[o.province][1] if o is not None and o.province in lend else power].append(text)
    fix = dict(t.owner_fix)
    fix.update({prov: frm for prov, (frm, _to) in lend.items()})
    return Trial(Position(pos.variant, pos.phase, tuple(units), pos.centres),
                 _mila_names(v, new), fix, t.options)


def _self_support_disrupts(d: Difference, t: Trial) -> Trial | None:
    """MILA takes a convoying fleet's convoy as disrupted when a foreign attack on it
    has the support of the fleet's own power."""
    v = d.variant
    parsed = _parsed(v, t.orders)
    drop = {victim.province for *_, victim, _move in _supports_against_own(parsed, t.position)
            if victim.type is UnitType.FLEET}
    drop &= {o.province for _p, _t, o in parsed if isinstance(o, Convoy)}
    if not drop:
        return None
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in parsed:
        if not (isinstance(o, Convoy) and o.province in drop):
            new[power].append(text)
    return Trial(t.position, _mila_names(v, new), t.owner_fix, t.options)


def _self_support_head_to_head(d: Difference, t: Trial) -> Trial | None:
    """In a head-to-head battle MILA ignores, for the attacker's defence, the support a
    power gives the foreign unit attacking its own unit."""
    v = d.variant
    parsed = _parsed(v, t.orders)
    moves = _moves(parsed)
    drop = set()
    for power, text, sup, _mover, _victim, _move in _supports_against_own(parsed, t.position):
        back = moves.get(province_of(sup.dest))
        if back is not None and province_of(back.dest) == province_of(sup.target):
            drop.add((power, text))
    if not drop:
        return None
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, _o in parsed:
        if (power, text) not in drop:
            new[power].append(text)
    return Trial(t.position, _mila_names(v, new), t.owner_fix, t.options)


def _removals_1982(d: Difference, t: Trial) -> Trial | None:
    """MILA removes the units of a power that gave too few removal orders by the 1982
    rulebook's civil-disorder rule (farthest from a home centre, fleets counting by
    fleet moves); standoff's default is the 2023 rulebook's (farthest from any
    centre the power owns)."""
    if t.options.civil_disorder == "1982" or not any(
            r.reason is Reason.CIVIL_DISORDER for r in d.result.results):
        return None
    return Trial(t.position, t.orders, t.owner_fix,
                 replace(t.options, civil_disorder="1982"))


def _all_dislodged(d: Difference, after: Position, disbanded: list[Unit], orders: Orders
                   ) -> list[Dislodged]:
    """Every unit dislodged in the phase, including those standoff disbanded at once
    because they had nowhere to retreat (their attacker is found from the orders)."""
    out = list(after.dislodged)
    if not disbanded:
        return out
    v = d.variant
    moves = _moves(_parsed(v, orders))
    for u in disbanded:
        now = after.unit_at(u.province)
        src = next((m.location for m in moves.values() if now is not None
                    and province_of(m.dest) == u.province
                    and province_of(now.location) == province_of(m.dest)
                    and (was := d.before.unit_at(province_of(m.location))) is not None
                    and was.type == now.type), None)
        if src is None:
            continue
        out.append(Dislodged(u, province_of(src), _by_convoy(v, moves[src], d.before)))
    return out


def _retreat_view(anywhere_after_convoy: bool, h2h_not_contested: bool) -> Emulator:
    """Re-derive the retreat situation under another retreat rule."""

    def view(d: Difference, after: Position, disbanded: list[Unit], state: State,
             orders: Orders) -> State | None:
        v = d.variant
        dislodged = _all_dislodged(d, after, disbanded, orders)
        if not dislodged:
            return None
        if anywhere_after_convoy and not any(x.via_convoy for x in dislodged):
            return None
        contested = after.contested if after.dislodged else _contested_of(d, after)
        if h2h_not_contested:
            fixed = _h2h_uncontested(d, contested)
            if fixed == contested:
                return None
            contested = fixed
        occupied = {u.province for u in after.units}
        rets, dis = set(), set()
        for x in dislodged:
            u = x.unit
            if anywhere_after_convoy and x.via_convoy:
                opts = [loc for loc in v.board.links(u.type, u.location)
                        if v.board.can_enter(u.location, loc)]
            else:
                opts = retreat_options(v.board, x, occupied, contested, DEFAULT)
            if opts:
                power = mila_power(v, u.power)
                dis.add((power, u.type.value, u.location.upper()))
                rets.add((power, f"{u.type.value} {u.location.upper()}",
                          frozenset(o.upper() for o in opts)))
        phase, centres = state.phase, state.centres
        if dis and not after.dislodged:  # standoff went past the retreat phase
            phase = d.before.phase.next_retreat().name(v.calendar)
            centres = tuple(sorted((c.upper(), mila_power(v, p))
                                   for c, p in d.before.centres.items()))
        return State(phase, state.units, frozenset(dis), frozenset(rets), centres)

    return view


def _contested_of(d: Difference, after: Position) -> frozenset[str]:
    """Provinces left empty by a stand-off (standoff's rule), for a phase it ended without
    a retreat phase: attacked, empty, and entered by nobody."""
    occupied = {u.province for u in after.units}
    return frozenset(province_of(r.order.dest) for r in d.result.results
                     if isinstance(r.order, Move) and not r.success
                     and province_of(r.order.dest) not in occupied)


def _h2h_uncontested(d: Difference, contested: frozenset[str]) -> frozenset[str]:
    """DATC 6.H.9 / 4.A.7: a unit dislodged in a head-to-head battle has no effect on the
    province its dislodger came from, so does not make it contested."""
    failed: dict[str, list[tuple[Move, str | None]]] = defaultdict(list)
    for r in d.result.results:
        if isinstance(r.order, Move) and not r.success:
            failed[province_of(r.order.dest)].append((r.order, r.dislodged_by))
    out = set(contested)
    for p in contested:
        others = [m for m, by in failed.get(p, [])
                  if not (by == p and not _by_convoy(d.variant, m, d.before))]
        if not others:
            out.discard(p)
    return frozenset(out)


CAUSES: dict[str, Cause] = {c.name: c for c in (
    Cause("convoy-fallback-to-land",
          "MILA moves an army ordered to an adjacent province by convoy ('VIA', or a fleet "
          "of its own power ordered to convoy it) over land when the convoy fails",
          ("DATC 4.A.3", "6.G.8", "6.G.20"),
          "no fallback to the land route: the move fails"),
    Cause("self-support-dislodges-via-convoy",
          "MILA counts a power's support for a foreign army convoyed into its own unit "
          "for dislodging that unit",
          ("DATC 6.D.12", "2023 rulebook"),
          "a power's support cannot help dislodge its own unit, convoyed attacker or not"),
    Cause("self-support-disrupts-convoy",
          "MILA disrupts a convoy when a foreign attack on the convoying fleet has the "
          "support of the fleet's own power",
          ("DATC 6.D.12", "6.F"),
          "that attack cannot dislodge the fleet, so the convoy goes ahead"),
    Cause("self-support-in-head-to-head",
          "in a head-to-head battle MILA ignores, for the defence, a power's support for "
          "the foreign unit attacking its own unit",
          ("DATC 6.E.3", "6.E.12", "6.E.15", "5.B"),
          "the support does not help dislodge the power's unit but does count for the "
          "supported unit's defence"),
    Cause("retreat-anywhere-after-convoy",
          "MILA lets a unit dislodged by a convoyed army retreat to any adjacent province, "
          "occupied ones included (an operator-precedence slip in Game._move_results)",
          ("DATC 4.A.5", "6.H.11"),
          "it may retreat to the attacker's origin, but still only to an empty province "
          "not left empty by a stand-off"),
    Cause("STANDOFF-BUG-contested-after-head-to-head",
          "standoff marks the origin of a unit that won a head-to-head battle as left "
          "empty by a stand-off",
          ("DATC 6.H.9", "4.A.7"),
          "a unit dislodged in a head-to-head battle leaves no stand-off behind, so others "
          "may retreat there", standoff_right=False),
    Cause("civil-disorder-removals-1982",
          "MILA removes the units of a power that ordered too few removals by the 1982 "
          "rulebook (farthest from a home centre, fleets counted along fleet moves)",
          ("DATC 4.D.8",),
          "the 2023 rulebook measures to any centre the power owns, standoff's default; "
          "replay with the option civil_disorder=1982 for MILA's choice",
          standoff_right=None),
)}

#: cause name -> counterfactual changing the orders or the position
TRANSFORMS: dict[str, Transform] = {
    "convoy-fallback-to-land": _fallback_to_land,
    "self-support-dislodges-via-convoy": _self_support_dislodges,
    "self-support-disrupts-convoy": _self_support_disrupts,
    "self-support-in-head-to-head": _self_support_head_to_head,
    "civil-disorder-removals-1982": _removals_1982,
}
#: cause names ("a + b" for both) -> re-derivation of the retreats
EMULATORS: dict[str, Emulator] = {
    "retreat-anywhere-after-convoy": _retreat_view(True, False),
    "STANDOFF-BUG-contested-after-head-to-head": _retreat_view(False, True),
    "retreat-anywhere-after-convoy + STANDOFF-BUG-contested-after-head-to-head":
        _retreat_view(True, True),
}


def _give_back(pos: Position, fix: Mapping[str, str]) -> Position:
    if not fix:
        return pos
    units = [Unit(fix[u.province], u.type, u.location) if u.province in fix else u
             for u in pos.units]
    dis = [Dislodged(Unit(fix[x.unit.province], x.unit.type, x.unit.location), x.attacker_from,
                     x.via_convoy) if x.unit.province in fix else x for x in pos.dislodged]
    centres = dict(pos.centres)
    for prov, power in fix.items():
        if prov in centres and any(u.province == prov for u in units):
            centres[prov] = power
    return Position(pos.variant, pos.phase, tuple(units), centres, tuple(dis), pos.contested)


def classify(d: Difference) -> str:
    """Name the MILA behaviour(s) that explain the difference (cause names joined by
    " + "): the smallest set of counterfactuals under which standoff reaches MILA's
    position exactly; ``"unexplained"`` if none does."""
    base = Trial(d.before, {p: list(o) for p, o in d.orders.items()}, options=d.options)
    applicable = [n for n, fn in TRANSFORMS.items() if fn(d, base) is not None]
    for r in range(len(applicable) + 1):
        for combo in itertools.combinations(applicable, r):
            t = base
            for name in combo:
                t = TRANSFORMS[name](d, t) or t
            res = adjudicate(t.position, t.orders, t.options, variant=d.variant)
            after = _give_back(res.next_position, t.owner_fix)
            gone = [Unit(t.owner_fix.get(u.province, u.power), u.type, u.location)
                    for u in res.disbanded]
            state = state_of_position(after, d.variant, t.options)
            if combo and not d.mila_after.diff(state):
                return " + ".join(combo)
            for ename, emulate in EMULATORS.items():
                alt = emulate(d, after, gone, state, t.orders)
                if alt is not None and not d.mila_after.diff(alt):
                    return " + ".join([*combo, ename])
    return UNEXPLAINED


def causes_of(name: str) -> list[Cause]:
    """The causes a :func:`classify` result names (none for ``"unexplained"``)."""
    return [CAUSES[n] for n in name.split(" + ") if n in CAUSES]
