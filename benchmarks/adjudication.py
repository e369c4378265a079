"""Replay recorded games through standoff and through ``diplomacy`` 1.1.2: speed and agreement.

How to run (one command; the first run builds ``.bench-venv`` by itself)::

    python3 benchmarks/adjudication.py

or, in two steps::

    python3 benchmarks/setup_env.py                     # builds /work/main/.bench-venv
    .bench-venv/bin/python benchmarks/adjudication.py   # the benchmark

``.bench-venv`` holds standoff (installed editable) and ``diplomacy==1.1.2``
(see ``benchmarks/requirements.txt``). ``diplomacy`` is AGPL-3.0: it is only
ever installed there and imported here; standoff does not depend on it. When
this script is started by an interpreter that cannot import ``diplomacy`` it
runs :func:`setup_env.ensure` and re-executes itself with ``.bench-venv``'s
python.

What it does, for each recorded file (default: ``random_games.json`` and
``random_games_support.json`` in ``/work/shared/bench``; format
``{"games": [{"phases": [{"name": "S1901M", "orders": {"AUSTRIA": [...]}}]}]}``,
recorded with ``diplomacy`` 1.1.2):

* Both engines replay every game independently from the start with the
  recorded orders. The timed operation is the same for both: from the phase's
  orders as text to the next position -- ``standoff.adjudicate(position,
  orders)`` and ``game.set_orders(power, orders)`` for every power plus
  ``game.process()``. ``adjudicate`` is pure, so each standoff phase is run
  ``--repeat`` times from the same input and the median kept; ``process``
  mutates, so each diplomacy phase is timed once (``time.perf_counter_ns``).
  A warm-up replay of the first game of each file runs untimed first.
* After every phase the two positions are compared: units (power, type,
  location with coast), dislodged units and where each may retreat, centre
  ownership and the next phase's name. A game stops being compared at its
  first difference, which is reported (game index, phase, orders, both
  positions) and classified by re-adjudicating the phase with standoff under a
  counterfactual that mimics a known diplomacy 1.1.2 behaviour (see
  ``CAUSES``): the cause is the first counterfactual that reproduces
  diplomacy's position exactly.
* Timing is like for like: a phase is timed only when both engines start it
  from the same position. After a difference standoff is re-synchronised
  from diplomacy's position at the next movement or adjustment phase (a
  retreat position cannot be rebuilt from diplomacy's public state), so later
  phases are still timed; with ``--resync`` they are compared again as well
  and further differences listed (exploratory; the headline counts only the
  first difference per game).
* A separate pass, so as not to distort the timing, measures each phase's peak
  memory with ``tracemalloc`` (peak traced allocation during the phase above
  what was allocated before it).

The report gives, per file and phase type (movement, retreat, adjustment):
median µs for both engines and the ratio, phases/s, peak memory; standoff's
median per-phase time over the whole run; the differences; and a summary.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import statistics
import sys
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = Path("/work/shared/bench")
DEFAULT_FILES = ("random_games.json", "random_games_support.json")
KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


def _bootstrap() -> None:
    """Re-run this script inside .bench-venv when ``diplomacy`` is not importable."""
    try:
        import diplomacy  # noqa: F401
        import standoff  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(HERE))
        import setup_env

        py = setup_env.python_path()
        if Path(sys.executable).resolve() == py.resolve() or os.environ.get("STANDOFF_BENCH_REEXEC"):
            raise
        py = setup_env.ensure(quiet=True)
        os.environ["STANDOFF_BENCH_REEXEC"] = "1"
        os.execv(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]])


_bootstrap()

from diplomacy import Game  # noqa: E402  (AGPL: benchmark environment only)

import standoff  # noqa: E402
from standoff import (  # noqa: E402
    Convoy,
    Dislodged,
    Move,
    Phase,
    PhaseKind,
    Position,
    Reason,
    StandoffError,
    SupportMove,
    Unit,
    UnitType,
)
from standoff import adjudicate as so_adjudicate  # noqa: E402
from standoff.adjudicator import PhaseResult  # noqa: E402
from standoff.geography import province_of  # noqa: E402
from standoff.notation import parse_order  # noqa: E402
from standoff.options import DEFAULT as DEFAULT_OPTIONS  # noqa: E402
from standoff.retreats import retreat_options  # noqa: E402
from standoff.variant import load_variant  # noqa: E402

VARIANT = load_variant("standard")
CAL = VARIANT.calendar
BOARD = VARIANT.board

Orders = Mapping[str, list[str]]

# ---------------------------------------------------------------------------------------------
# Comparable states


@dataclass(frozen=True)
class State:
    """What both engines must agree on after a phase."""

    phase: str
    units: frozenset[tuple[str, str, str]]  # (POWER, type, LOC[/COAST])
    dislodged: frozenset[tuple[str, str, str]]
    retreats: frozenset[tuple[str, str, frozenset[str]]]  # (POWER, "A LOC", {options})
    centres: tuple[tuple[str, str], ...]  # sorted (CENTRE, POWER)

    def diff(self, other: State) -> list[str]:
        """What differs, as 'field: diplomacy-only ... / standoff-only ...' lines."""
        out = []
        if self.phase != other.phase and self.phase != "COMPLETED":
            out.append(f"phase: diplomacy {self.phase}, standoff {other.phase}")
        for name in ("units", "dislodged", "retreats", "centres"):
            a, b = set(getattr(self, name)), set(getattr(other, name))
            if a != b:
                out.append(f"{name}: diplomacy only {_fmt(a - b)}; standoff only {_fmt(b - a)}")
        return out

    def text(self) -> str:
        units: dict[str, list[str]] = defaultdict(list)
        for p, t, loc in sorted(self.units):
            units[p].append(f"{t} {loc}")
        cen: dict[str, list[str]] = defaultdict(list)
        for c, p in self.centres:
            cen[p].append(c)
        dis = ", ".join(f"{p} {t} {loc}" for p, t, loc in sorted(self.dislodged)) or "-"
        return (f"{self.phase} | "
                + "; ".join(f"{p}: {', '.join(us)}" for p, us in sorted(units.items()))
                + " | " + "; ".join(f"{p}: {' '.join(sorted(cs))}" for p, cs in sorted(cen.items()))
                + f" | dislodged: {dis}")


def _fmt(items: Iterable[Any]) -> str:
    def one(x: Any) -> str:
        if isinstance(x, tuple):
            return " ".join(one(y) for y in x)
        if isinstance(x, frozenset):
            return "{" + ",".join(sorted(x)) + "}"
        return str(x)
    return ", ".join(sorted(one(x) for x in items)) or "-"


def dip_state(game: Game) -> State:
    units, dis, rets, cen = set(), set(), set(), []
    for power in game.powers.values():
        for u in power.units:
            units.add((power.name, u[0], u[2:]))
        for u, where in power.retreats.items():
            dis.add((power.name, u[0], u[2:]))
            rets.add((power.name, u, frozenset(where)))
        cen.extend((c, power.name) for c in power.centers)
    return State(game.get_current_phase(), frozenset(units), frozenset(dis), frozenset(rets),
                 tuple(sorted(cen)))


def so_state(pos: Position) -> State:
    units = frozenset((u.power.upper(), u.type.value, u.location.upper()) for u in pos.units)
    dis = frozenset((d.unit.power.upper(), d.unit.type.value, d.unit.location.upper())
                    for d in pos.dislodged)
    occupied = {u.province for u in pos.units}
    rets = frozenset(
        (d.unit.power.upper(), f"{d.unit.type.value} {d.unit.location.upper()}",
         frozenset(loc.upper() for loc in retreat_options(BOARD, d, occupied, pos.contested,
                                                          DEFAULT_OPTIONS)))
        for d in pos.dislodged)
    cen = tuple(sorted((c.upper(), p.upper()) for c, p in pos.centres.items()))
    return State(pos.phase.name(CAL), units, dis, rets, cen)


def position_from_dip(game: Game) -> Position:
    """diplomacy's position as a standoff Position (movement and adjustment phases only)."""
    phase = Phase.parse(game.get_current_phase(), CAL)
    assert phase.kind is not PhaseKind.RETREAT
    units = [Unit(VARIANT.power(p.name), UnitType(u[0]), u[2:].lower())
             for p in game.powers.values() for u in p.units]
    centres = {c.lower(): VARIANT.power(p.name) for p in game.powers.values() for c in p.centers}
    return Position(VARIANT.name, phase, tuple(units), centres)


def dip_play(game: Game, orders: Orders) -> None:
    for power, items in orders.items():
        game.set_orders(power, items)
    game.process()


# ---------------------------------------------------------------------------------------------
# Differences and their causes


@dataclass
class Difference:
    file: str
    game: int
    phase: str
    orders: Orders
    before: Position  # standoff's (= diplomacy's) position before the phase
    dip_after: State
    so_after: State
    result: PhaseResult
    first: bool  # the game's first difference (False: found after a resync)
    cause: str = "unexplained"

    @property
    def lines(self) -> list[str]:
        return self.dip_after.diff(self.so_after)


@dataclass
class Trial:
    """A counterfactual: a position and orders that mimic a diplomacy 1.1.2 behaviour."""

    position: Position
    orders: dict[str, list[str]]
    #: province -> power: units lent to another power for the trial, given back afterwards
    owner_fix: dict[str, str] = field(default_factory=dict)


def _parsed(orders: Orders) -> list[tuple[str, str, Any]]:
    """(power id, text, parsed order or None) for every order."""
    out = []
    for power, items in orders.items():
        pid = VARIANT.power(power)
        for text in items:
            try:
                out.append((pid, text, parse_order(text, VARIANT)))
            except StandoffError:
                out.append((pid, text, None))
    return out


def _by_convoy(move: Any, pos: Position) -> bool:
    unit = pos.unit_at(province_of(move.location))
    if unit is None or unit.type is not UnitType.ARMY:
        return False
    return bool(move.via_convoy) or move.dest not in BOARD.links(UnitType.ARMY, move.location)


def _fallback_to_land(d: Difference, t: Trial) -> Trial | None:
    """diplomacy 1.1.2 sends an army ordered to an adjacent province by land when its
    convoy fails (no convoy ordered, an incomplete route, a disrupted convoy), whether
    the convoy was asked for with 'via convoy' or by a fleet of its own power. DATC 3.0
    4.A.3, 6.G.8, 6.G.20: no fallback, the move fails."""
    stuck = {(r.order.location, r.order.dest) for r in d.result.results
             if isinstance(r.order, Move) and r.reason in (Reason.NO_CONVOY, Reason.PARADOX)
             and r.order.dest in BOARD.links(UnitType.ARMY, r.order.location)}
    if not stuck:
        return None
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in _parsed(t.orders):
        if isinstance(o, Move) and (o.location, o.dest) in stuck:
            text = f"A {o.location.upper()} - {o.dest.upper()}"
        elif isinstance(o, Convoy) and (o.target, o.dest) in stuck:
            continue
        new[power].append(text)
    return Trial(t.position, dict(new), t.owner_fix)


def _moves(parsed: list[tuple[str, str, Any]]) -> dict[str, Any]:
    return {o.location: o for _p, _t, o in parsed if isinstance(o, Move)}


def _self_support_dislodges(d: Difference, t: Trial) -> Trial | None:
    """diplomacy 1.1.2 lets a power's support of a foreign army *convoyed* into the power's
    own unit count for the dislodgement. DATC 3.0 6.D.12 (and the 2023 rulebook): a power
    cannot help dislodge its own unit; the support does not count for dislodging."""
    parsed = _parsed(t.orders)
    moves = _moves(parsed)
    pos = t.position
    lend: dict[str, tuple[str, str]] = {}  # supporter province -> (from power, to power)
    for power, _text, o in parsed:
        if not isinstance(o, SupportMove):
            continue
        mover, victim = pos.unit_at(province_of(o.target)), pos.unit_at(province_of(o.dest))
        move = moves.get(o.target)
        if (mover and victim and move and victim.power == power and mover.power != power
                and _by_convoy(move, pos) and pos.unit_at(o.province)):
            lend[o.province] = (power, mover.power)
    if not lend:
        return None
    units = [Unit(lend[u.province][1], u.type, u.location) if u.province in lend else u
             for u in pos.units]
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in parsed:
        new[lend[o.province][1] if o is not None and o.province in lend else power].append(text)
    fix = dict(t.owner_fix)
    fix.update({prov: frm for prov, (frm, _to) in lend.items()})
    return Trial(Position(pos.variant, pos.phase, tuple(units), pos.centres), dict(new), fix)


def _self_support_disrupts(d: Difference, t: Trial) -> Trial | None:
    """diplomacy 1.1.2 takes a convoying fleet's convoy as disrupted when a foreign attack on
    it has the support of the fleet's own power, although that support cannot dislodge it.
    DATC 3.0 6.D.12 (self-dislodgement support does not count) and 6.F (a convoy fails
    only when a fleet of it is dislodged): the convoy goes ahead."""
    parsed = _parsed(t.orders)
    moves = _moves(parsed)
    pos = t.position
    drop = set()
    for power, _text, o in parsed:
        if not isinstance(o, SupportMove):
            continue
        mover, victim = pos.unit_at(province_of(o.target)), pos.unit_at(province_of(o.dest))
        if (mover and victim and o.target in moves and victim.power == power
                and mover.power != power and victim.type is UnitType.FLEET):
            drop.add(victim.province)
    convoys = {o.province for _p, _t, o in parsed if isinstance(o, Convoy)}
    drop &= convoys
    if not drop:
        return None
    new: dict[str, list[str]] = defaultdict(list)
    for power, text, o in parsed:
        if not (isinstance(o, Convoy) and o.province in drop):
            new[power].append(text)
    return Trial(t.position, dict(new), t.owner_fix)


def _retreat_anywhere_after_convoy(pos: Position, state: State) -> State | None:
    """diplomacy 1.1.2 lets a unit dislodged by a convoyed army retreat to any adjacent
    province, occupied or left empty by a stand-off as well (an operator-precedence slip
    in ``Game._move_results``). Rulebook / DATC 3.0 4.A.5: only the ban on the attacker's
    origin is lifted; a retreat must still go to an empty, uncontested province."""
    if not any(dl.via_convoy for dl in pos.dislodged):
        return None
    rets = set()
    for dl in pos.dislodged:
        u = dl.unit
        if dl.via_convoy:
            opts = frozenset(loc.upper() for loc in BOARD.links(u.type, u.location)
                             if BOARD.can_enter(u.location, loc))
        else:
            occupied = {x.province for x in pos.units}
            opts = frozenset(loc.upper() for loc in retreat_options(
                BOARD, dl, occupied, pos.contested, DEFAULT_OPTIONS))
        rets.add((u.power.upper(), f"{u.type.value} {u.location.upper()}", opts))
    return State(state.phase, state.units, state.dislodged, frozenset(rets), state.centres)


#: cause -> (verdict with the DATC rule that decides it, counterfactual)
TRANSFORMS: dict[str, tuple[str, Callable[[Difference, Trial], Trial | None]]] = {
    "convoy-fallback-to-land": (
        "DATC 4.A.3, 6.G.8, 6.G.20: an army ordered to an adjacent province that goes by "
        "convoy ('via convoy', or intent shown by a fleet of its own power) does not fall "
        "back to the land route when the convoy fails; diplomacy moves it over land. "
        "standoff right", _fallback_to_land),
    "self-support-dislodges-via-convoy": (
        "DATC 6.D.12 / 2023 rules: a power's support cannot help dislodge its own unit, "
        "also when the attacker is convoyed; diplomacy counts it. standoff right",
        _self_support_dislodges),
    "self-support-disrupts-convoy": (
        "DATC 6.D.12 + 6.F: a foreign attack on a convoying fleet, supported by the fleet's "
        "own power, cannot dislodge it, so the convoy is not disrupted; diplomacy disrupts "
        "it. standoff right", _self_support_disrupts),
}
EMULATORS: dict[str, tuple[str, Callable[[Position, State], State | None]]] = {
    "retreat-anywhere-after-convoy": (
        "DATC 4.A.5 / rulebook: a unit dislodged by a convoyed army may retreat to the "
        "attacker's origin, but still only to an empty province not left empty by a "
        "stand-off; diplomacy offers every adjacent province. standoff right",
        _retreat_anywhere_after_convoy),
}
CAUSES = {**{k: v[0] for k, v in TRANSFORMS.items()}, **{k: v[0] for k, v in EMULATORS.items()}}


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
    """Name the diplomacy behaviour(s) that explain the difference: the smallest set of
    counterfactuals under which standoff reaches diplomacy's position exactly."""
    base = Trial(d.before, {p: list(o) for p, o in d.orders.items()})
    applicable = [n for n, (_w, fn) in TRANSFORMS.items() if fn(d, base) is not None]
    for r in range(len(applicable) + 1):
        for combo in itertools.combinations(applicable, r):
            t = base
            for name in combo:
                t = TRANSFORMS[name][1](d, t) or t
            after = _give_back(so_adjudicate(t.position, t.orders).next_position, t.owner_fix)
            state = so_state(after)
            if combo and not state.diff(d.dip_after):
                return " + ".join(combo)
            for ename, (_w, emulate) in EMULATORS.items():
                alt = emulate(after, state)
                if alt is not None and not alt.diff(d.dip_after):
                    return " + ".join([*combo, ename])
    return "unexplained"


# ---------------------------------------------------------------------------------------------
# The replay


@dataclass
class Sample:
    kind: str  # M / R / A
    so_ns: int
    dip_ns: int


@dataclass
class FileRun:
    name: str
    games: int = 0
    phases: int = 0  # recorded phases
    compared: int = 0  # phases compared, up to and including each game's first difference
    compared_after: int = 0  # phases compared after a resync (--resync)
    samples: list[Sample] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    invalid: list[tuple[int, str, str, str]] = field(default_factory=list)  # parse failures
    record_errors: list[str] = field(default_factory=list)
    completed: int = 0  # games diplomacy ended with a victory
    #: (kind, standoff input position, orders) for the memory pass
    inputs: list[tuple[str, Position, Orders]] = field(default_factory=list)


def time_standoff(pos: Position, orders: Orders, repeat: int) -> tuple[int, PhaseResult]:
    times = []
    res = None
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        res = so_adjudicate(pos, orders)
        times.append(time.perf_counter_ns() - t0)
    assert res is not None
    return int(statistics.median(times)), res


def replay_file(path: Path, games: list[dict[str, Any]], args: argparse.Namespace) -> FileRun:
    run = FileRun(path.name)
    # warm-up: the first game through both engines, untimed
    warm = Game()
    wpos = Position.initial(VARIANT)
    for ph in games[0]["phases"]:
        dip_play(warm, ph["orders"])
        if wpos.phase.name(CAL) == ph["name"]:
            wpos = so_adjudicate(wpos, ph["orders"]).next_position
    del warm

    for g in games:
        run.games += 1
        idx = g.get("index", run.games - 1)
        game = Game()
        pos: Position | None = Position.initial(VARIANT)
        comparing = True  # until the game's first difference (or forever with --resync)
        differed = False
        for ph in g["phases"]:
            name, orders, kind = ph["name"], ph["orders"], ph["name"][-1]
            run.phases += 1
            if game.get_current_phase() != name:
                run.record_errors.append(f"game {idx}: diplomacy is at "
                                         f"{game.get_current_phase()}, the record at {name}")
                break
            if pos is None and kind in "MA":
                pos = position_from_dip(game)  # resync (standoff went its own way)
            if pos is not None and pos.phase.name(CAL) != name:
                # cannot happen unless the previous comparison was skipped
                run.record_errors.append(f"game {idx}: standoff at {pos.phase.name(CAL)}, "
                                         f"record at {name}")
                pos = None
            # diplomacy, timed once
            t0 = time.perf_counter_ns()
            for power, items in orders.items():
                game.set_orders(power, items)
            game.process()
            dip_ns = time.perf_counter_ns() - t0
            if pos is None:
                continue  # no common input position: not timed, not compared
            so_ns, res = time_standoff(pos, orders, args.repeat)
            run.samples.append(Sample(kind, so_ns, dip_ns))
            run.inputs.append((kind, pos, orders))
            for r in res.results:
                if r.reason is Reason.INVALID:
                    run.invalid.append((idx, name, r.text, r.detail))
            after_d = dip_state(game)
            after_s = so_state(res.next_position)
            differs = bool(after_d.diff(after_s))
            # the next phase is timed from standoff's own position only while both agree
            pos = None if differs else res.next_position
            if not comparing:
                continue
            if differed:
                run.compared_after += 1
            else:
                run.compared += 1
                if game.get_current_phase() == "COMPLETED":
                    run.completed += 1
            if differs:
                d = Difference(path.name, idx, name, orders, run.inputs[-1][1], after_d, after_s,
                               res, first=not differed)
                d.cause = classify(d)
                run.differences.append(d)
                differed = True
                comparing = args.resync
            if game.get_current_phase() == "COMPLETED":
                break
    return run


# ---------------------------------------------------------------------------------------------
# Memory pass


def memory_pass(path: Path, games: list[dict[str, Any]], run: FileRun
                ) -> dict[str, dict[str, list[int]]]:
    """Peak bytes allocated during each phase, per engine and phase type (tracemalloc)."""
    out: dict[str, dict[str, list[int]]] = {"standoff": defaultdict(list),
                                            "diplomacy": defaultdict(list)}
    gc.collect()
    tracemalloc.start()
    try:
        for kind, pos, orders in run.inputs:
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            res = so_adjudicate(pos, orders)
            out["standoff"][kind].append(tracemalloc.get_traced_memory()[1] - base)
            del res
        for g in games:
            game = Game()
            for ph in g["phases"]:
                base = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                dip_play(game, ph["orders"])
                out["diplomacy"][ph["name"][-1]].append(tracemalloc.get_traced_memory()[1] - base)
                if game.get_current_phase() == "COMPLETED":
                    break
    finally:
        tracemalloc.stop()
    return out


# ---------------------------------------------------------------------------------------------
# Report


def _us(ns: float) -> str:
    return f"{ns / 1000:,.0f}" if ns >= 10_000 else f"{ns / 1000:,.1f}"


def _kib(b: float) -> str:
    return f"{b / 1024:,.0f}"


def timing_rows(samples: list[Sample]) -> list[tuple[str, int, float, float, float, float]]:
    """(type, n, standoff median ns, diplomacy median ns, standoff phases/s, diplomacy phases/s)"""
    rows = []
    groups: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        groups[KINDS[s.kind]].append(s)
    for label in [*KINDS.values(), "all"]:
        ss = samples if label == "all" else groups.get(label, [])
        if not ss:
            continue
        so = statistics.median(s.so_ns for s in ss)
        dp = statistics.median(s.dip_ns for s in ss)
        so_rate = len(ss) / (sum(s.so_ns for s in ss) / 1e9)
        dp_rate = len(ss) / (sum(s.dip_ns for s in ss) / 1e9)
        rows.append((label, len(ss), so, dp, so_rate, dp_rate))
    return rows


def print_timing(title: str, samples: list[Sample],
                 mem: dict[str, dict[str, list[int]]] | None) -> None:
    print(f"\n{title}")
    head = (f"  {'phase type':<11}{'phases':>7}{'standoff µs':>13}{'diplomacy µs':>14}"
            f"{'ratio':>8}{'standoff/s':>12}{'diplomacy/s':>13}")
    if mem:
        head += f"{'peak KiB standoff':>19}{'peak KiB diplomacy':>20}"
    print(head)
    for label, n, so, dp, so_rate, dp_rate in timing_rows(samples):
        line = (f"  {label:<11}{n:>7}{_us(so):>13}{_us(dp):>14}{dp / so:>7.1f}x"
                f"{so_rate:>12,.0f}{dp_rate:>13,.0f}")
        if mem:
            kinds = list(KINDS) if label == "all" else [k for k, v in KINDS.items() if v == label]
            cols = []
            for eng in ("standoff", "diplomacy"):
                vals = [b for k in kinds for b in mem[eng].get(k, [])]
                cols.append(f"{_kib(statistics.median(vals))} / {_kib(max(vals))}" if vals else "-")
            line += f"{cols[0]:>19}{cols[1]:>20}"
        print(line)
    if mem:
        print("  (ratio = diplomacy / standoff; phases/s = phases / summed time; "
              "peak KiB = median / max over phases)")


def print_difference(d: Difference, verbose: bool) -> None:
    tag = "" if d.first else " (after resync)"
    print(f"\n  [{d.file} game {d.game} {d.phase}]{tag} cause: {d.cause}")
    for line in d.lines:
        print(f"    {line}")
    if verbose or d.cause == "unexplained":
        print(f"    before:    {d.before.to_text()}")
        print(f"    diplomacy: {d.dip_after.text()}")
        print(f"    standoff:  {d.so_after.text()}")
        for power, items in d.orders.items():
            print(f"    {power}: {'; '.join(items)}")
        for r in d.result.results:
            if not r.success or r.dislodged_by:
                print(f"      standoff: {r.power} {r.describe()}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="standoff vs diplomacy 1.1.2 on recorded games")
    ap.add_argument("files", nargs="*", type=Path,
                    help=f"recorded games (default: {', '.join(DEFAULT_FILES)} in {DEFAULT_DIR})")
    ap.add_argument("--games", type=int, default=None, help="only the first N games of each file")
    ap.add_argument("--repeat", type=int, default=5,
                    help="standoff runs per phase; the median is kept (default 5)")
    ap.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    ap.add_argument("--resync", action="store_true",
                    help="keep comparing after a game's first difference (from diplomacy's "
                         "position at the next movement/adjustment phase)")
    ap.add_argument("--verbose", action="store_true",
                    help="print orders and positions for every difference")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    paths = args.files or [DEFAULT_DIR / f for f in DEFAULT_FILES]

    import platform
    print(f"standoff {standoff.__version__} vs diplomacy 1.1.2 | Python "
          f"{platform.python_version()} | {os.cpu_count()} cores | "
          f"standoff repeat={args.repeat}, diplomacy once per phase")
    all_samples: list[Sample] = []
    runs: list[tuple[FileRun, dict[str, dict[str, list[int]]] | None]] = []
    t_start = time.perf_counter()
    for path in paths:
        data = json.loads(path.read_text())
        games = data["games"][: args.games] if args.games else data["games"]
        gc.collect()
        run = replay_file(path, games, args)
        mem = None if args.no_memory else memory_pass(path, games, run)
        runs.append((run, mem))
        all_samples.extend(run.samples)
        print_timing(f"{path.name}: {run.games} games, {run.phases} recorded phases, "
                     f"{len(run.samples)} timed (same input position for both engines)",
                     run.samples, mem)

    print("\nDifferences (each game stops being compared at its first difference"
          + ("; with --resync, later ones are listed too)" if args.resync else ")"))
    for run, _ in runs:
        for d in run.differences:
            print_difference(d, args.verbose)
    if not any(run.differences for run, _ in runs):
        print("  none")

    invalid = [(run.name, *x) for run, _ in runs for x in run.invalid]
    if invalid:
        print(f"\nOrders standoff could not parse: {len(invalid)}")
        for name, idx, ph, text, detail in invalid[:20]:
            print(f"  {name} game {idx} {ph}: {text!r}: {detail}")
    errors = [e for run, _ in runs for e in run.record_errors]
    if errors:
        print("\nRecord problems:")
        for e in errors:
            print(f"  {e}")

    # summary
    print("\n" + "=" * 78)
    print("Summary")
    compared = sum(r.compared for r, _ in runs)
    first = [d for r, _ in runs for d in r.differences if d.first]
    later = [d for r, _ in runs for d in r.differences if not d.first]
    games = sum(r.games for r, _ in runs)
    print(f"  games {games}; phases compared {compared} (each game up to its first difference); "
          f"phases differing {len(first)} (games that reached the end in agreement: "
          f"{games - len(first)})")
    by_cause = Counter(d.cause for d in first)
    for cause, n in by_cause.most_common():
        why = "; ".join(CAUSES[c] for c in cause.split(" + ")) if cause != "unexplained" \
            else "needs a look (see above)"
        print(f"    {n:>4}  {cause}: {why}")
    if later:
        print(f"  after resync: {len(later)} more differing phases: "
              + ", ".join(f"{c} {n}" for c, n in Counter(d.cause for d in later).most_common()))
    if invalid:
        print(f"  orders standoff could not parse: {len(invalid)}")
    so_all = statistics.median(s.so_ns for s in all_samples)
    dp_all = statistics.median(s.dip_ns for s in all_samples)
    print(f"  standoff median per phase, whole run: {_us(so_all)} µs "
          f"(diplomacy {_us(dp_all)} µs, {dp_all / so_all:.1f}x) over {len(all_samples)} phases")
    for label, n, so, dp, so_rate, dp_rate in timing_rows(all_samples):
        print(f"    {label:<11} standoff {_us(so):>7} µs  diplomacy {_us(dp):>7} µs  "
              f"{dp / so:>5.1f}x   {so_rate:>7,.0f} vs {dp_rate:>5,.0f} phases/s")
    print(f"  wall time {time.perf_counter() - t_start:.0f} s")

    if args.json:
        out = {
            "python": platform.python_version(), "cores": os.cpu_count(),
            "repeat": args.repeat,
            "files": {
                run.name: {
                    "timing": [dict(zip(("type", "phases", "standoff_ns", "diplomacy_ns",
                                         "standoff_per_s", "diplomacy_per_s"), row, strict=True))
                               for row in timing_rows(run.samples)],
                    "memory_peak_bytes": None if mem is None else {
                        eng: {KINDS[k]: {"median": statistics.median(v), "max": max(v)}
                              for k, v in m.items() if v} for eng, m in mem.items()},
                    "compared": run.compared,
                    "differences": [{"game": d.game, "phase": d.phase, "cause": d.cause,
                                     "first": d.first, "diff": d.lines} for d in run.differences],
                }
                for run, mem in runs
            },
            "standoff_median_ns": so_all, "diplomacy_median_ns": dp_all,
        }
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
