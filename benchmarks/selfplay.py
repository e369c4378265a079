"""Random self-play, phases per second: standoff's batch API in this process and
over worker processes, against the record API stepped one phase at a time.

    .venv/bin/python benchmarks/selfplay.py            # the build this interpreter has
    .bench-venv/bin/python benchmarks/selfplay.py      # compiled (benchmarks/setup_env.py)
    python3 benchmarks/selfplay.py --compiled          # builds/updates .bench-venv, runs there

Every game is Standard from the start, one random legal order per unit
(``move_bias`` 0.7, as ``standoff demo`` and ``standoff selfplay``), until a
solo or the end of ``--max-year`` (then a draw); game i is seeded from
(``--seed``, i), so every row plays the very same games and phases. A phase
is one processed phase (movement, retreat or adjustment), the unit pydipcc's
self-play figures are given in. The ``GameBatch`` rows play batches of eight
games (``standoff selfplay``'s default), one after another in a process; with
``--lines`` they also make each game's JSON line, as ``standoff selfplay``
does (``GameRecord.to_dict`` and ``json.dumps``: not free, see the README).
Times are best of ``--repeat`` runs: wall
clock, starting the worker processes included, and, less sensitive to other
work on a shared machine, the processor seconds the games themselves took.

:func:`standoff_selfplay` is the standoff side, importable by a script that
puts other engines beside it: ``(phases, seconds)`` for ``games`` games over
``workers`` processes (0: in this process). The peers are put beside it here
too, like for like (same cap, worker counts and repeats, their runs taking
turns with standoff's): pydipcc when found (``--pydipcc DIR`` or
``PYDIPCC_PATH``, see ``peers.py``) and ``diplomacy`` when this interpreter
has it (``.bench-venv``), on ``--mila-games`` games as it is slow; their
loops are in ``peer_selfplay.py``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path


def _into_compiled_venv() -> None:
    """Re-run this script in .bench-venv (built or brought up to date first): done
    before standoff is imported, which the interpreter given may not have."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import setup_env

    py = setup_env.ensure(quiet=True)
    if Path(sys.prefix).resolve() != setup_env.BENCH_VENV.resolve():
        args = [a for a in sys.argv[1:] if a != "--compiled"]
        os.execv(str(py), [str(py), str(Path(__file__).resolve()), *args])


if __name__ == "__main__" and "--compiled" in sys.argv[1:]:
    _into_compiled_venv()

from peer_selfplay import mila_selfplay, pydipcc_selfplay  # noqa: E402  (benchmarks/)
from peers import add_pydipcc_option, load_pydipcc  # noqa: E402

import standoff  # noqa: E402
from standoff import (  # noqa: E402
    GameRecord,
    game_rng,
    process_phase,
    random_orders,
    submit_orders,
)
from standoff.selfplay import plan, play_batch, run_local  # noqa: E402

MOVE_BIAS = 0.7


def standoff_selfplay(games: int, workers: int, seed: int = 1, max_year: int = 1920,
                      batch_size: int = 8, keep: bool = False) -> tuple[int, float]:
    """(phases played, wall seconds) of ``games`` random games through the batch
    API, in ``workers`` processes (0: in this process, no pool); with ``keep``,
    each game's JSON line is made too, as ``standoff selfplay`` writes it."""
    phases, wall, _ = _selfplay(games, workers, seed, max_year, batch_size, keep)
    return phases, wall


def _selfplay(games: int, workers: int, seed: int, max_year: int, batch_size: int = 8,
              keep: bool = False) -> tuple[int, float, float]:
    """:func:`standoff_selfplay`, and the processor seconds the games took."""
    start, cpu = time.perf_counter(), time.process_time()
    settings = plan(games, "standard", seed, max_year, MOVE_BIAS, batch_size)
    if workers == 0:  # the batches one after another, as a worker plays them
        phases = sum(play_batch(settings, first, count, keep).phases
                     for first, count in settings.batches())
        return phases, time.perf_counter() - start, time.process_time() - cpu
    results = list(run_local(settings, workers, keep))
    return (sum(r.phases for r in results), time.perf_counter() - start,
            sum(r.cpu_seconds for r in results))


def record_loop(games: int, seed: int = 1, max_year: int = 1920) -> tuple[int, float, float]:
    """The same games through the record API, one phase at a time in this
    process (orders submitted and checked power by power): the batch API's
    baseline. (phases, wall seconds, processor seconds)."""
    start, cpu = time.perf_counter(), time.process_time()
    phases = 0
    for i in range(games):
        rng = game_rng(seed, i)
        r = GameRecord.new("standard")
        while r.outcome is None and r.position.phase.year <= max_year:
            for power, orders in random_orders(r.position, rng, MOVE_BIAS, r.options,
                                               r.variant).items():
                r = submit_orders(r, power, orders)
            r = process_phase(r)[0]
            phases += 1
    return phases, time.perf_counter() - start, time.process_time() - cpu


def _best(runs: list[tuple[int, float, float]]) -> tuple[int, float, float]:
    phases = {p for p, _, _ in runs}
    assert len(phases) == 1, f"runs played different games: {phases}"
    return phases.pop(), min(w for _, w, _ in runs), min(c for _, _, c in runs)


def _fastest(runs: list[tuple[int, float, float]]) -> tuple[int, float, float]:
    """The run with the most phases per second: ``diplomacy``'s order lists come in
    hash order, so its games differ between processes and runs cannot be paired."""
    return max(runs, key=lambda r: r[0] / r[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--max-year", type=int, default=1920)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2],
                    help="process counts to measure (0: in this process)")
    ap.add_argument("--lines", action="store_true",
                    help="also make each game's JSON line, as standoff selfplay writes it")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the record API loop")
    ap.add_argument("--compiled", action="store_true",
                    help="run in .bench-venv (compiled core), building it if needed")
    ap.add_argument("--mila-games", type=int, default=10,
                    help="games for diplomacy, when installed here (default 10; 0: none)")
    add_pydipcc_option(ap)
    args = ap.parse_args()
    print(f"standoff {standoff.__version__}, {standoff.BUILD}, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs; {args.games} Standard games "
          f"to {args.max_year}, move bias {MOVE_BIAS}, best of {args.repeat}"
          f"{'; GameBatch rows make JSON lines' if args.lines else ''}")
    module = load_pydipcc(args.pydipcc)
    peers: dict[str, Callable[[int], tuple[int, float, float]]] = {}
    if module is not None:
        folder = Path(str(module.__file__)).parent
        peers[f"pydipcc, {args.games} games"] = lambda w: pydipcc_selfplay(
            args.games, w, folder, args.seed, args.max_year, MOVE_BIAS)
    if args.mila_games and importlib.util.find_spec("diplomacy") is None:
        print("diplomacy: not installed in this interpreter (it is in .bench-venv: --compiled)")
    elif args.mila_games:
        peers[f"diplomacy, {args.mila_games} games"] = lambda w: mila_selfplay(
            args.mila_games, w, args.seed, args.max_year, MOVE_BIAS)
    rows: list[tuple[str, tuple[int, float, float]]] = []
    if not args.no_baseline:
        rows.append(("record API, one phase at a time, this process",
                     _best([record_loop(args.games, args.seed, args.max_year)
                            for _ in range(args.repeat)])))
    for w in args.workers:
        where = "this process" if w == 0 else \
            f"{w} worker process{'es' if w > 1 else ''} (collector tuned)"
        ours: list[tuple[int, float, float]] = []
        theirs: dict[str, list[tuple[int, float, float]]] = {name: [] for name in peers}
        for _ in range(args.repeat):  # the engines take turns, like for like
            ours.append(_selfplay(args.games, w, args.seed, args.max_year, 8, args.lines))
            for name, play in peers.items():
                theirs[name].append(play(w))
        rows.append((f"GameBatch, {where}", _best(ours)))
        where = "this process" if w == 0 else f"{w} worker process{'es' if w > 1 else ''}"
        rows += [(f"{name}, {where}", _fastest(runs)) for name, runs in theirs.items()]
    print(f"  {'':48} {'phases':>8} {'wall s':>7} {'phases/s':>9}   {'per CPU-s':>9}")
    for label, (phases, wall, cpu) in rows:
        print(f"  {label:48} {phases:8,} {wall:7.2f} {phases / wall:9,.0f}   "
              f"{phases / cpu:9,.0f}")
    print("  (per CPU-s: phases per second of processor time the games took, summed "
          "over the processes: what one core gives when it is not shared)")

if __name__ == "__main__":
    main()
