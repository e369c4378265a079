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
from standoff import Phase, PhaseKind, Position, Reason, Unit, UnitType  # noqa: E402
from standoff import adjudicate as so_adjudicate  # noqa: E402
from standoff.adjudicator import PhaseResult  # noqa: E402
from standoff.geography import province_of  # noqa: E402
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


def _rewrite(orders: Orders, fn: Callable[[str, str], str | None]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for power, items in orders.items():
        out[power] = [o2 for o in items if (o2 := fn(power, o)) is not None]
    return out


Counterfactual = Callable[[Difference, Orders], "dict[str, list[str]] | None"]


def _via_land_fallback(d: Difference, orders: Orders) -> dict[str, list[str]] | None:
    """diplomacy 1.1.2 moves an army ordered ``- X VIA`` over land when X is adjacent
    and no convoy carries it; DATC 3.0 4.A.3 (no fallback) says the move fails."""
    failed = {str(r.order) for r in d.result.results
              if r.reason is Reason.NO_CONVOY and r.order is not None}
    changed = False

    def fn(power: str, text: str) -> str:
        nonlocal changed
        words = text.split()
        if words[-1] == "VIA" and words[0] == "A" and f"{text} CONVOY" in failed:
            src, dst = words[1], words[3]
            if dst.lower() in BOARD.links(UnitType.ARMY, src.lower()):
                changed = True
                return " ".join(words[:-1])
        return text

    new = _rewrite(orders, fn)
    return new if changed else None


#: cause name -> (DATC reference and verdict, counterfactual orders builder)
CAUSES: dict[str, tuple[str, Counterfactual]] = {
    "via-land-fallback": (
        "DATC 4.A.3: an army ordered 'via convoy' to an adjacent province goes only by "
        "convoy, with no fallback to the land route (diplomacy moves it over land): "
        "standoff right",
        _via_land_fallback,
    ),
}


def _matches(d: Difference, orders: Orders) -> bool:
    alt = so_adjudicate(d.before, orders)
    return not so_state(alt.next_position).diff(d.dip_after)


def classify(d: Difference) -> str:
    """The counterfactual(s) under which standoff reaches diplomacy's position."""
    applicable = []
    for name, (_why, build) in CAUSES.items():
        orders = build(d, d.orders)
        if orders is None:
            continue
        if _matches(d, orders):
            return name
        applicable.append(name)
    if len(applicable) > 1:  # several behaviours at once: apply them all
        orders: Orders = d.orders
        for name in applicable:
            orders = CAUSES[name][1](d, orders) or orders
        if _matches(d, orders):
            return " + ".join(applicable)
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
        why = CAUSES[cause][0] if cause in CAUSES else "needs a look (see above)"
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
