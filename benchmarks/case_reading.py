"""How the case-file runner splits its time between reading cases and adjudicating them.

``standoff cases`` reads a case (its position, orders and expected outcome, all
text), adjudicates it and compares. The adjudicator is the part that gets
compiled (mypyc); the reader stays interpreted. This benchmark asks whether the
reader dominates on realistic input, which a handful of DATC cases cannot show.

How to run (the pure Python editable install; any standoff on ``sys.path``)::

    .venv/bin/python benchmarks/case_reading.py
    PYTHONPATH=/tmp/before/src .venv/bin/python benchmarks/case_reading.py   # an older checkout

What it does:

* Builds thousands of real-game cases: standoff replays the recorded games in
  ``benchmarks/data/random_games*.json`` (see its README) from the start with
  the recorded orders, and every phase becomes one case: ``PRESTATE_SETPHASE``,
  ``PRESTATE`` (for a retreat also ``PRESTATE_DISLODGED`` and the movement's
  ``PRESTATE_RESULTS``), the recorded ``ORDERS``, and standoff's own outcome as
  ``POSTSTATE`` and ``POSTSTATE_DISLODGED``. Centre owners
  (``PRESTATE_SUPPLYCENTER_OWNERS``, ``POSTSTATE_SUPPLYCENTER_OWNERS``) are given
  where they matter, in the Fall and Winter cases; ``--all-owners`` gives them in
  every case (a third more lines to read). The cases are written to one file in
  a temporary directory (``--keep PATH`` to keep it).
* Runs that file through ``standoff.cases.run_files`` (the ``standoff cases``
  command without its printing), ``--repeat`` times; then builds every case
  (untimed) and times the same ``adjudicate`` calls alone. Adjudicating = that
  time; reading = the rest of the run (reading the file, building positions and
  order lists, reading the expected outcome and comparing). Timing apart works
  whether the runner is compiled or not (a compiled module's calls cannot be
  wrapped).

Only ``run_files``, ``iter_cases`` and ``build_position`` are used, so the same
script measures an older checkout too (put its ``src`` first on ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import standoff
from standoff import Move, Phase, PhaseKind, Position, Variant, adjudicate, load_variant
from standoff import cases as casefile
from standoff.cases import reader

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_FILES = ("random_games.json", "random_games_support.json")


def _power_names(variant: Variant) -> dict[str, str]:
    return {p.id: p.name for p in variant.powers.values()}


def _unit_lines(names: Mapping[str, str], units: Any) -> list[str]:
    return [f"  {names[u.power]}: {u.type.value} {u.location}" for u in units]


def _owner_lines(names: Mapping[str, str], centres: Mapping[str, str]) -> list[str]:
    return [f"  {names[p]}: A {c}" for c, p in sorted(centres.items())]


def game_cases(game: dict[str, Any], variant: Variant, tag: str, all_owners: bool = False
               ) -> list[str]:
    """Every phase of a recorded game as one case, standoff's outcome as expected.

    The record is diplomacy's game; where standoff's takes another course (DATC
    3.0 differs from diplomacy 1.1.2, see benchmarks/README.md) the recorded
    orders are still given, phase by phase (some are then illegal, as in real
    files), a recorded phase standoff does not have is skipped and a phase only
    standoff has is played with no orders."""
    names = _power_names(variant)
    pos = Position.initial(variant)
    out: list[str] = []
    moves: list[str] = []
    for ph in game["phases"]:
        due = Phase.parse(ph["name"], variant.calendar)
        while pos.phase < due:
            pos, moves = _case(pos, {}, moves, variant, names, f"{tag} extra", out, all_owners)
        if pos.phase == due:
            orders = {variant.power(p): items for p, items in ph["orders"].items()}
            pos, moves = _case(pos, orders, moves, variant, names, tag, out, all_owners)
    return out


def _case(pos: Position, orders: Mapping[str, list[str]], moves: list[str], variant: Variant,
          names: Mapping[str, str], tag: str, out: list[str], all_owners: bool
          ) -> tuple[Position, list[str]]:
    """Adjudicate one phase, append it as a case to ``out``; the next position and,
    after a movement phase, its moves as ``PRESTATE_RESULTS`` lines."""
    res = adjudicate(pos, orders)
    nxt = res.next_position
    # centre owners only where they matter (the Fall turn and the adjustments after
    # it), as a file written by hand would; --all-owners: in every case
    owners = all_owners or pos.phase.is_last_season(variant.calendar)
    lines = [f"CASE {tag} {pos.phase.name(variant.calendar)}",
             f"PRESTATE_SETPHASE {pos.phase.long_name(variant.calendar)}"]
    if owners:
        lines += ["PRESTATE_SUPPLYCENTER_OWNERS", *_owner_lines(names, pos.centres)]
    lines += ["PRESTATE", *_unit_lines(names, pos.units)]
    if pos.phase.kind is PhaseKind.RETREAT:
        lines += ["PRESTATE_DISLODGED", *_unit_lines(names, (d.unit for d in pos.dislodged)),
                  "PRESTATE_RESULTS", *moves]
    lines.append("ORDERS")
    lines += [f"  {names[p]}: {o}" for p, items in orders.items() for o in items]
    lines += ["POSTSTATE", *_unit_lines(names, nxt.units),
              "POSTSTATE_DISLODGED", *_unit_lines(names, (d.unit for d in nxt.dislodged))]
    if owners:
        lines += ["POSTSTATE_SUPPLYCENTER_OWNERS", *_owner_lines(names, nxt.centres)]
    lines += ["END", ""]
    out.append("\n".join(lines))
    if pos.phase.kind is PhaseKind.MOVEMENT:
        moves = [f"  {'SUCCESS' if r.success else 'FAILURE'}: {names[r.power]}: {r.order}"
                 for r in res.results if isinstance(r.order, Move)]
    return nxt, moves


def build_file(files: list[Path], games: int | None, dest: Path, all_owners: bool = False
               ) -> int:
    """Write every recorded game's phases as cases to ``dest``; the number of cases."""
    variant = load_variant("standard")
    n = 0
    with dest.open("w", encoding="utf-8") as fh:
        fh.write("VARIANT_ALL Standard\n\n")
        for path in files:
            data = json.loads(path.read_text(encoding="utf-8"))
            for g in data["games"][:games]:
                cases = game_cases(g, variant, f"{path.stem}:{g.get('index', 0)}", all_owners)
                fh.write("\n".join(cases))
                n += len(cases)
    return n


def timed_run(path: Path) -> tuple[float, float, Any]:
    """(total s, adjudicating s, report) of one ``run_files`` over the file.

    The runner's own call of ``adjudicate`` cannot be wrapped when the runner is
    compiled (mypyc binds it directly), so adjudicating is timed apart: every
    case is built first (untimed), then the same ``adjudicate`` calls the runner
    makes are timed alone. Reading = the whole run minus that."""
    gc.collect()
    t0 = time.perf_counter()
    report = casefile.run_files([str(path)])
    total = time.perf_counter() - t0
    built = [casefile.build_position(case) for case in casefile.iter_cases(str(path))
             if isinstance(case, casefile.Case)]
    gc.collect()
    t0 = time.perf_counter()
    for position, orders, options, variant in built:
        adjudicate(position, orders, options, variant)
    return total, time.perf_counter() - t0, report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path,
                    default=[DATA / f for f in DEFAULT_FILES], help="recorded games")
    ap.add_argument("--games", type=int, default=None, help="only the first N games per file")
    ap.add_argument("--repeat", type=int, default=3, help="runs over the case file (median)")
    ap.add_argument("--all-owners", action="store_true",
                    help="centre owners in every case (heavier), not only in Fall and Winter")
    ap.add_argument("--keep", type=Path, default=None, help="also write the case file here")
    args = ap.parse_args(argv)
    print(f"standoff {standoff.__version__}, {standoff.BUILD}, "
          f"case reader from {Path(reader.__file__).resolve()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "games.txt"
        t0 = time.perf_counter()
        n = build_file(args.files, args.games, path, args.all_owners)
        print(f"{n} cases from {len(args.files)} recorded file(s), "
              f"{path.stat().st_size / 1e6:.1f} MB, written in {time.perf_counter() - t0:.1f} s")
        runs = [timed_run(path) for _ in range(max(1, args.repeat))]
    total, adj, report = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
    read = total - adj
    print(f"result: {report.summary()}")
    for line in report.lines[:5]:
        print(f"  {line}")
    print(f"total {total:.2f} s ({1e6 * total / n:.0f} µs a case; median of {len(runs)} runs)")
    print(f"  reading (file, positions, orders, expected outcome, comparing): "
          f"{read:.2f} s = {100 * read / total:.0f} %  ({1e6 * read / n:.0f} µs a case)")
    print(f"  adjudicating: {adj:.2f} s = {100 * adj / total:.0f} %  "
          f"({1e6 * adj / n:.0f} µs a case)")
    print(f"  reading / adjudicating = {read / adj:.2f}  "
          f"(spread of totals: {statistics.pstdev([r[0] for r in runs]):.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
