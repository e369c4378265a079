"""Replay recorded games through standoff, ``diplomacy`` 1.1.2 and pydipcc: speed and agreement.

    python3 benchmarks/adjudication.py [--pure] [--pydipcc DIR]

re-executes itself in ``.bench-venv`` (compiled standoff; ``--pure``:
``.bench-venv-pure``), built and kept up to date by ``setup_env.py``, the only
place the AGPL ``diplomacy`` package is installed; pydipcc is optional and
found as ``peers.py`` says. The method, in short (in full, with the figures
and the verdict on each difference: ``benchmarks/README.md``):

* Every engine replays each recorded game (default: ``random_games.json`` and
  ``random_games_support.json`` in ``benchmarks/data``, recorded with
  ``diplomacy``) from the start, side by side, phase after phase: diplomacy
  first, then pydipcc and standoff, swapping places from phase to phase (the
  speed of a shared VM drifts). The timed operation is the same for all: the
  phase's orders as text to the next position (``standoff.adjudicate``;
  ``set_orders`` for every power plus ``process``). Each engine is timed once
  per phase; standoff's first run is the like-for-like figure, its median of
  ``--repeat`` runs (each from a fresh copy of the position, its order-text
  memo put back) the warm one. pydipcc generates its legal orders lazily; that
  is done before the phase's turn, untimed.
* A phase is timed only when the engines start it from the same position.
  After every phase the positions are compared (units, dislodged units and
  their retreats, centres, next phase). standoff's first difference from
  diplomacy in a game is explained by counterfactuals that mimic known
  diplomacy 1.1.2 behaviours (``standoff.mila.classify``, the causes in
  ``standoff.mila.CAUSES``);
  standoff is then restarted from diplomacy's position at the next movement
  or adjustment phase (``--resync``: and compared again). pydipcc, written to
  reproduce diplomacy, is counted against both and rebuilt from diplomacy's
  game wherever it differs.
* A separate pass measures each phase's peak memory with ``tracemalloc``
  (standoff and diplomacy; pydipcc's C++ allocations are not traced).
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
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = ("random_games.json", "random_games_support.json")


def _bootstrap() -> None:
    """Run inside the benchmark venv (compiled standoff, or pure with ``--pure``),
    building or refreshing it first: see ``setup_env.py``."""
    sys.path.insert(0, str(HERE))
    import setup_env

    setup_env.bootstrap(__file__)


_bootstrap()

import variant_openings  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from cold import Evictor, add_evict_option  # noqa: E402
from diplomacy import Game  # noqa: E402  (AGPL: benchmark environment only)
from diplomacy.utils.export import to_saved_game_format  # noqa: E402
from engine_states import (  # noqa: E402
    CAL,
    VARIANT,
    Orders,
    dip_play,
    dip_state,
    pdc_state,
    position_from_dip,
    so_state,
)
from peers import PydipccReplay, add_pydipcc_option, load_pydipcc  # noqa: E402
from timing_table import (  # noqa: E402
    KINDS,
    Row,
    Sample,
    _us,
    order_effect,
    print_timing,
    timing_rows,
)

import standoff  # noqa: E402
from standoff import (  # noqa: E402
    Position,
    Reason,
    mila,
)
from standoff import adjudicate as so_adjudicate  # noqa: E402
from standoff.core.adjudicator import PhaseResult  # noqa: E402
from standoff.mila import State  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Differences and their causes: explained by standoff.mila (the package owns the causes)


@dataclass
class Difference:
    """A phase on which diplomacy and standoff reached different positions."""

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
        return self.dip_after.diff(self.so_after, "diplomacy", "standoff")


def classify(d: Difference) -> str:
    """The diplomacy 1.1.2 behaviour(s) behind the difference (cause names joined
    by " + ", or ``unexplained``): :func:`standoff.mila.classify`."""
    return mila.classify(mila.Difference(d.phase, d.orders, d.before, d.dip_after, d.so_after,
                                         d.result, VARIANT))


def describe(cause: str) -> str:
    """What diplomacy does and the DATC ruling, for each cause in ``cause``."""
    if cause == mila.UNEXPLAINED:
        return "not explained by any known diplomacy behaviour"
    return "; ".join(mila.CAUSES[c].describe() for c in cause.split(" + "))


# ---------------------------------------------------------------------------------------------
# The replay


@dataclass
class PeerTally:
    """How pydipcc's positions compare with the other engines', phase by phase."""

    phases: int = 0  # phases pydipcc played from diplomacy's position
    agree_dip: int = 0  # ... and reached diplomacy's next position
    compared_so: int = 0  # phases standoff also played from that position
    agree_so: int = 0  # ... and pydipcc reached standoff's next position
    so_differs: int = 0  # phases where standoff's next position is not diplomacy's
    sides_with_so: int = 0  # ... and pydipcc's is standoff's
    empty_retreats: int = 0  # pydipcc's extra empty retreat phases (PydipccReplay.play)
    #: (game, phase, what differs from diplomacy): pydipcc was rebuilt after each
    differences: list[tuple[int, str, list[str]]] = field(default_factory=list)


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
    #: (game, kind, standoff's input position, orders): the phases both engines start
    #: from the same position, in replay order (for the memory pass)
    inputs: list[tuple[int, str, Position, Orders]] = field(default_factory=list)
    peer: PeerTally = field(default_factory=PeerTally)


def _fresh(p: Position) -> Position:
    """An equal position that shares no per-object cache with ``p``: nothing a
    call on it worked out and kept survives to the next timed run. The one thing
    it keeps is what the phase that made ``p`` handed on with it, as a replay
    would have it: the adjustment counts, which that phase worked out (and was
    timed for) to decide whether an adjustment phase is due at all."""
    fresh = Position(p.variant, p.phase, p.units, p.centres, p.dislodged, p.contested,
                     p.notes)
    counts = p.known_counts()
    if counts is not None:
        fresh.keep_counts(counts)
    return fresh


def _order_memo() -> dict[str, Any] | None:
    """standoff's memo of order text -> order (internal; None if it changes)."""
    try:
        from standoff.core.notation import _lexicon

        memo = _lexicon(VARIANT).memo
    except (ImportError, AttributeError):
        return None
    return memo if isinstance(memo, dict) else None


def time_standoff(pos: Position, orders: Orders, repeat: int, evict: Evictor
                  ) -> tuple[int, int, PhaseResult]:
    """(first run, median of ``repeat`` runs, result) for one phase. Each run is made as
    the first would be in a replay: on a fresh copy of the input position (no
    per-object cache carried over), with standoff's order-text memo put back as it was
    before the phase."""
    memo = _order_memo()
    new = [] if memo is None else [t for items in orders.values() for t in items
                                   if t not in memo]
    times: list[int] = []
    res = None
    for _ in range(max(1, repeat)):
        if memo is not None:
            for t in new:
                memo.pop(t, None)
        p = _fresh(pos)
        if not times:
            evict()  # (--evict) before the first run, as before the other engines' turns
        t0 = time.perf_counter_ns()
        res = so_adjudicate(p, orders)
        times.append(time.perf_counter_ns() - t0)
    assert res is not None
    return times[0], int(statistics.median(times)), res


def _peer_step(peer: PydipccReplay, orders: Orders, game: Game, after_d: State, idx: int,
               tally: PeerTally) -> tuple[int, State]:
    """pydipcc's turn at a phase diplomacy has just played: (ns, pydipcc's next state).
    Where pydipcc reaches another position it is rebuilt from diplomacy's game, so the
    next phase starts level again."""
    name = peer.phase
    ns = peer.play(orders, after_d.phase)
    after_p = pdc_state(peer.game)
    tally.phases += 1
    diff = after_d.diff(after_p, "diplomacy", "pydipcc")
    if diff:
        tally.differences.append((idx, name, diff))
        peer.rebuild_from(to_saved_game_format(game))
    else:
        tally.agree_dip += 1
    return ns, after_p


def replay_file(games: list[dict[str, Any]], run: FileRun, args: argparse.Namespace,
                pydipcc: ModuleType | None) -> None:
    """Replay every game through the engines, phase by phase: time, compare, classify.

    The engines are timed side by side, phase after phase, so that the machine's
    speed (which drifts on a shared VM) is the same for all: diplomacy first, then
    pydipcc (when found) and standoff in turn, the two swapping places from one
    phase to the next so that neither always follows the other's work. standoff
    plays each game from the start on its own; once it differs from diplomacy (the
    game's first difference) the comparison stops (unless ``--resync``), and standoff
    is restarted from diplomacy's position at the next movement or adjustment phase
    so that later phases can still be timed from a common position. A retreat phase
    that follows a difference is skipped: its position cannot be rebuilt from
    diplomacy's state. pydipcc is rebuilt from diplomacy's game after any phase it
    ends elsewhere (:func:`_peer_step`)."""
    warm = Game()  # warm-up: the first game through every engine, untimed
    wpeer = PydipccReplay(pydipcc) if pydipcc is not None else None
    wpos = Position.initial(VARIANT)
    for ph in games[0]["phases"]:
        dip_play(warm, ph["orders"])
        if wpeer is not None and wpeer.phase == ph["name"]:
            wpeer.prepare()
            wpeer.play(ph["orders"], warm.get_current_phase())
        if wpos.phase.name(CAL) == ph["name"]:
            wpos = so_adjudicate(wpos, ph["orders"]).next_position
    del warm, wpos, wpeer
    turn = 0
    tally = run.peer
    for g in games:
        run.games += 1
        run.phases += len(g["phases"])
        idx = g.get("index", run.games - 1)
        game = Game()
        peer = PydipccReplay(pydipcc, evict=args.evictor) if pydipcc is not None else None
        pos: Position | None = Position.initial(VARIANT)
        comparing, differed = True, False
        for ph in g["phases"]:
            name, orders, kind = ph["name"], ph["orders"], ph["name"][-1]
            if game.get_current_phase() != name:
                run.record_errors.append(f"game {idx}: diplomacy is at "
                                         f"{game.get_current_phase()}, the record at {name}")
                break
            if peer is not None and peer.phase != name:
                run.record_errors.append(f"game {idx}: pydipcc at {peer.phase}, "
                                         f"record at {name}")
                peer.rebuild_from(to_saved_game_format(game))
            if pos is None and kind in "MA":
                pos = position_from_dip(game)  # resync
            if pos is not None and pos.phase.name(CAL) != name:
                run.record_errors.append(f"game {idx}: standoff at {pos.phase.name(CAL)}, "
                                         f"record at {name}")
                pos = None
            if peer is not None:
                peer.prepare()  # pydipcc's order generation, untimed, before diplomacy's turn
            args.evictor()
            t0 = time.perf_counter_ns()
            for power, items in orders.items():
                game.set_orders(power, items)
            game.process()
            dip_ns = time.perf_counter_ns() - t0
            after_d = dip_state(game)
            turn += 1
            peer_first = turn % 2 == 0
            pdc_ns: int | None = None
            after_p: State | None = None
            if peer is not None and (peer_first or pos is None):
                pdc_ns, after_p = _peer_step(peer, orders, game, after_d, idx, tally)
            if pos is None:
                continue  # no common input position for standoff: neither timed nor compared
            so_first, so_ns, res = time_standoff(pos, orders, args.repeat, args.evictor)
            if peer is not None and not peer_first:
                pdc_ns, after_p = _peer_step(peer, orders, game, after_d, idx, tally)
            run.samples.append(Sample(kind, so_first, so_ns, dip_ns, pdc_ns, peer_first))
            run.inputs.append((idx, kind, pos, orders))
            for r in res.results:
                if r.reason is Reason.INVALID:
                    run.invalid.append((idx, name, r.text, r.detail))
            after_s = so_state(res.next_position)
            differs = bool(after_d.diff(after_s, "diplomacy", "standoff"))
            if after_p is not None:
                same = not after_p.diff(after_s, "pydipcc", "standoff")
                tally.compared_so += 1
                tally.agree_so += same
                tally.so_differs += differs
                tally.sides_with_so += differs and same
            before, pos = pos, (None if differs else res.next_position)
            if comparing:
                if differed:
                    run.compared_after += 1
                else:
                    run.compared += 1
                    run.completed += after_d.phase == "COMPLETED"
                if differs:
                    d = Difference(run.name, idx, name, orders, before, after_d, after_s, res,
                                   first=not differed)
                    d.cause = classify(d)
                    run.differences.append(d)
                    differed = True
                    comparing = args.resync
            if after_d.phase == "COMPLETED":
                break
        if peer is not None:
            tally.empty_retreats += peer.empty_retreats


# ---------------------------------------------------------------------------------------------
# Memory pass


def memory_pass(games: list[dict[str, Any]], run: FileRun, limit: int | None
                ) -> dict[str, dict[str, list[int]]]:
    """Peak bytes allocated during each phase above what was allocated before it, per
    engine and phase type (tracemalloc, the first ``limit`` games of the file). standoff
    runs the phases it was timed on in replay order, each from a fresh copy of its input
    position, with its order memo emptied first (it fills as in a fresh process);
    diplomacy replays the games."""
    out: dict[str, dict[str, list[int]]] = {"standoff": defaultdict(list),
                                            "diplomacy": defaultdict(list)}
    games = games[:limit] if limit else games
    wanted = {g.get("index", i) for i, g in enumerate(games)}
    memo = _order_memo()
    if memo is not None:
        memo.clear()  # as in a fresh process: the memo fills as the replay goes
    gc.collect()
    tracemalloc.start()
    try:
        for game_idx, kind, pos, orders in run.inputs:
            if game_idx not in wanted:
                continue
            pos = _fresh(pos)
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


def print_difference(d: Difference, verbose: bool) -> None:
    tag = "" if d.first else " (after resync)"
    print(f"\n  [{d.file} game {d.game} {d.phase}]{tag} cause: {d.cause}")
    for line in d.lines:
        print(f"    {line}")
    if d.first or verbose or d.cause == "unexplained":
        print(f"    before:    {d.before.to_text()}")
        print(f"    diplomacy: {d.dip_after.text()}")
        print(f"    standoff:  {d.so_after.text()}")
        for power, items in d.orders.items():
            print(f"    {power}: {'; '.join(items)}")
        for r in d.result.results:
            if not r.success or r.dislodged_by:
                print(f"      standoff: {r.power} {r.describe()}")


def print_peer_summary(runs: list[FileRun], rows: list[Row], samples: list[Sample],
                       repeat: int) -> None:
    """pydipcc's agreement with the other engines, and its times beside standoff's."""
    t = PeerTally()
    differences = []
    for run in runs:
        x = run.peer
        for name in ("phases", "agree_dip", "compared_so", "agree_so", "so_differs",
                     "sides_with_so", "empty_retreats"):
            setattr(t, name, getattr(t, name) + getattr(x, name))
        differences += [(run.name, *d) for d in x.differences]
    print(f"  pydipcc reached diplomacy's next position in {t.agree_dip} of {t.phases} phases "
          f"and standoff's in {t.agree_so} of the {t.compared_so} standoff played from the "
          f"same position; where standoff and diplomacy differ ({t.so_differs} phases) "
          f"pydipcc sides with standoff in {t.sides_with_so}")
    print(f"    ({t.empty_retreats} times pydipcc stopped at a retreat phase with no unit "
          f"able to retreat, which the others skip: one more process(), timed with the phase)")
    for file, idx, name, diff in differences[:10]:
        print(f"    differs from diplomacy: {file} game {idx} {name}: {'; '.join(diff)}")
    if len(differences) > 10:
        print(f"    ... and {len(differences) - 10} more")
    for r in rows:
        if r.pdc is None:
            continue
        print(f"    {r.label:<11} standoff {_us(r.so_first_pdc or 0):>6} µs (median of {repeat}: "
              f"{_us(r.so_pdc or 0):>6})  pydipcc {_us(r.pdc):>6} µs  {r.pdc_ratio or 0:>5.2f}x "
              f"({r.pdc_ratio_repeat or 0:.2f}x)  {r.pdc_phases} phases")
    print("  (x = pydipcc / standoff: how many times faster standoff is, under 1x slower; "
          "pydipcc's lazy order generation is done before its clock starts)")
    print("  whose turn came first after diplomacy's (µs; the second finds the first's data "
          "in the CPU caches, not its own):")
    for label, so_direct, so_after, pdc_direct, pdc_after in order_effect(samples):
        print(f"    {label:<11} standoff {_us(so_direct):>6} right after diplomacy, "
              f"{_us(so_after):>6} after pydipcc; pydipcc {_us(pdc_direct):>6} right after "
              f"diplomacy, {_us(pdc_after):>6} after standoff")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="standoff vs diplomacy 1.1.2 (and pydipcc, when "
                                             "found) on recorded games")
    ap.add_argument("files", nargs="*", type=Path,
                    help=f"recorded games (default: {', '.join(DEFAULT_FILES)} in {DEFAULT_DIR})")
    ap.add_argument("--games", type=int, default=None, help="only the first N games of each file")
    ap.add_argument("--repeat", type=int, default=5,
                    help="standoff runs per phase, the median is kept (default 5)")
    ap.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    ap.add_argument("--memory-games", type=int, default=10,
                    help="games per file in the tracemalloc pass (default 10; 0: all)")
    ap.add_argument("--resync", action="store_true",
                    help="keep comparing after a game's first difference (from diplomacy's "
                         "position at the next movement/adjustment phase)")
    ap.add_argument("--verbose", action="store_true",
                    help="print orders and positions for the differences found after a "
                         "resync too (always printed for a game's first difference)")
    ap.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    ap.add_argument("--pure", action="store_true",
                    help="measure the pure Python standoff (.bench-venv-pure) instead of "
                         "the compiled one (.bench-venv)")
    add_pydipcc_option(ap)
    add_evict_option(ap)
    args = ap.parse_args(argv)
    if args.evict < 0:
        ap.exit(2, f"error: --evict takes a size in MiB, not {args.evict}\n")
    args.evictor = Evictor(args.evict)
    paths = args.files or [DEFAULT_DIR / f for f in DEFAULT_FILES]
    for path in paths:
        if not path.is_file():
            ap.exit(2, f"error: no such file: {path} (recorded games, e.g. "
                       f"{DEFAULT_DIR / DEFAULT_FILES[0]})\n")

    import platform
    print(f"standoff {standoff.__version__} ({standoff.BUILD}) vs diplomacy 1.1.2 | Python "
          f"{platform.python_version()} | {os.cpu_count()} cores | "
          f"standoff: first run and median of {args.repeat} runs per phase, the others: 1")
    print(args.evictor.describe())
    pydipcc = load_pydipcc(args.pydipcc)
    all_samples: list[Sample] = []
    runs: list[tuple[FileRun, dict[str, dict[str, list[int]]] | None]] = []
    t_start = time.perf_counter()
    for path in paths:
        data = json.loads(path.read_text())
        games = data["games"][: args.games] if args.games else data["games"]
        gc.collect()
        run = FileRun(path.name)
        replay_file(games, run, args, pydipcc)
        mem = None if args.no_memory else memory_pass(games, run, args.memory_games)
        runs.append((run, mem))
        all_samples.extend(run.samples)
        print_timing(f"{path.name}: {run.games} games, {run.phases} recorded phases, "
                     f"{len(run.samples)} timed (same input position for every engine)",
                     run.samples, args.repeat, mem)

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
        why = describe(cause) if cause != mila.UNEXPLAINED else "needs a look (see above)"
        print(f"    {n:>4}  {cause}: {why}")
    if args.resync:
        after = sum(r.compared_after for r, _ in runs)
        print(f"  after resync (--resync): {after} more phases compared, {len(later)} differing")
        for cause, n in Counter(d.cause for d in later).most_common():
            print(f"    {n:>4}  {cause}")
    if invalid:
        print(f"  orders standoff could not parse: {len(invalid)}")
    rows = timing_rows(all_samples)
    a = rows[-1]
    print(f"  standoff median per phase, whole run: {_us(a.so_first)} µs timed once like "
          f"diplomacy ({_us(a.dip)} µs): {a.ratio:.1f}x; {_us(a.so)} µs as the median of "
          f"{args.repeat} runs: {a.ratio_repeat:.1f}x ({a.phases} phases)")
    for r in rows:
        print(f"    {r.label:<11} standoff {_us(r.so_first):>6} µs (median of {args.repeat}: "
              f"{_us(r.so):>6})  diplomacy {_us(r.dip):>6} µs  {r.ratio:>5.1f}x "
              f"({r.ratio_repeat:.1f}x)  {r.so_rate:>7,.0f} vs {r.dip_rate:>5,.0f} phases/s")
    print("  (ratio = diplomacy / standoff, both timed once per phase; in brackets against "
          "standoff's median of repeated runs; phases/s = phases / summed single-run time)")
    if pydipcc is not None:
        print_peer_summary([r for r, _ in runs], rows, all_samples, args.repeat)
    print(f"  wall time {time.perf_counter() - t_start:.0f} s")

    if args.json:
        out = {
            "python": platform.python_version(), "cores": os.cpu_count(),
            "repeat": args.repeat,
            "files": {
                run.name: {
                    "timing": [{"type": r.label, "phases": r.phases,
                                "standoff_first_ns": r.so_first, "standoff_median_ns": r.so,
                                "diplomacy_ns": r.dip, "ratio": r.ratio,
                                "ratio_repeat": r.ratio_repeat,
                                "standoff_per_s": r.so_rate, "diplomacy_per_s": r.dip_rate,
                                "pydipcc_ns": r.pdc, "pydipcc_phases": r.pdc_phases,
                                "pydipcc_ratio": r.pdc_ratio,
                                "pydipcc_ratio_repeat": r.pdc_ratio_repeat,
                                "pydipcc_per_s": r.pdc_rate}
                               for r in timing_rows(run.samples)],
                    "memory_peak_bytes": None if mem is None else {
                        eng: {KINDS[k]: {"median": statistics.median(v), "max": max(v)}
                              for k, v in m.items() if v} for eng, m in mem.items()},
                    "compared": run.compared,
                    "pydipcc_agreement": None if pydipcc is None else {
                        "phases": run.peer.phases, "same_as_diplomacy": run.peer.agree_dip,
                        "compared_with_standoff": run.peer.compared_so,
                        "same_as_standoff": run.peer.agree_so},
                    "differences": [{"game": d.game, "phase": d.phase, "cause": d.cause,
                                     "first": d.first, "diff": d.lines} for d in run.differences],
                }
                for run, mem in runs
            },
            "standoff_first_ns": a.so_first, "standoff_median_ns": a.so,
            "diplomacy_ns": a.dip, "pydipcc_ns": a.pdc,
        }
        args.json.write_text(json.dumps(out, indent=1))
    variant_openings.report(sets=50, repeat=args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
