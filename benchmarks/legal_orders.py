"""Legal-order generation: standoff's ``legal_orders`` against ``diplomacy``'s
``get_all_possible_orders``, on the same positions, in one run.

    python3 benchmarks/legal_orders.py [--games 20]

(re-executes itself in ``.bench-venv``, built by ``benchmarks/setup_env.py``,
the only place the AGPL ``diplomacy`` package is installed.)

Positions are those reached by replaying the recorded games of
``benchmarks/data/random_games.json`` in ``diplomacy``; standoff reads each
position from diplomacy's state, so both engines are timed on identical
positions. Prints the median µs per position by phase type for both engines,
the ratio, and the number of orders each offers (the two differ by design in
a few places: diplomacy lists coast-specific supports and ``VIA`` variants
that standoff offers once, see ``standoff.core.legal``).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import setup_env  # noqa: E402

setup_env.bootstrap(__file__)  # into the benchmark venv (compiled; --pure: pure Python)

import diplomacy  # noqa: E402

import standoff  # noqa: E402
from standoff import Position, load_variant  # noqa: E402
from standoff.core.legal import legal_orders  # noqa: E402

BENCH = Path(__file__).resolve().parent / "data" / "random_games.json"


def to_position(game: diplomacy.Game) -> Position | None:
    """standoff's view of a diplomacy movement or adjustment position."""
    v = load_variant("standard")
    name = game.get_current_phase()
    if name.endswith("R"):
        return None  # retreat positions need attack origins diplomacy does not expose
    # read through standoff's JSON reader, as any position from outside would be
    return Position.from_dict({
        "variant": v.name, "phase": name,
        "units": {p: [u.lstrip("*") for u in us] for p, us in game.get_units().items()},
        "centres": dict(game.get_centers()),
    })


def timed(fn: Callable[[], object], repeat: int) -> float:
    best = []
    for _ in range(repeat):
        gc.disable()
        t0 = time.perf_counter_ns()
        fn()
        best.append(time.perf_counter_ns() - t0)
        gc.enable()
    return statistics.median(best) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pure", action="store_true",
                    help="the pure Python standoff (.bench-venv-pure), not the compiled one")
    args = ap.parse_args()
    v = load_variant("standard")
    data = json.loads(BENCH.read_text())
    rows: dict[str, list[tuple[float, float, int, int]]] = {"M": [], "A": []}
    for rec in data["games"][: args.games]:
        game = diplomacy.Game(map_name="standard")
        for phase in rec["phases"]:
            pos = to_position(game)
            if pos is not None:
                # diplomacy caches nothing between calls on one position, but clear
                # its per-phase memo anyway so each call does the full work
                def theirs(game: diplomacy.Game = game) -> dict[str, list[str]]:
                    game.clear_cache()
                    return game.get_all_possible_orders()  # type: ignore[no-any-return]

                def ours(pos: Position = pos) -> object:
                    return legal_orders(pos, variant=v)

                t_theirs = timed(theirs, args.repeat)
                t_ours = timed(ours, args.repeat)
                n_theirs = sum(len(o) for o in theirs().values())
                n_ours = sum(len(os) for locs in legal_orders(pos, variant=v).values()
                             for os in locs.values())
                rows[phase["name"][-1]].append((t_ours, t_theirs, n_ours, n_theirs))
            for power, orders in phase["orders"].items():
                game.set_orders(power, orders)
            game.process()
    print(f"legal-order generation, {args.games} games of {BENCH.name}; standoff: {standoff.BUILD}")
    print(f"{'phase':<11}{'positions':>10}{'standoff µs':>13}{'diplomacy µs':>14}"
          f"{'ratio':>8}{'orders (s/d)':>16}")
    for kind, name in (("M", "movement"), ("A", "adjustment")):
        r = rows[kind]
        if not r:
            continue
        ours_us = statistics.median(x[0] for x in r)
        theirs_us = statistics.median(x[1] for x in r)
        n_o = statistics.median(x[2] for x in r)
        n_t = statistics.median(x[3] for x in r)
        print(f"{name:<11}{len(r):>10}{ours_us:>13.0f}{theirs_us:>14.0f}"
              f"{theirs_us / ours_us:>7.1f}x{n_o:>9.0f}/{n_t:<6.0f}")


if __name__ == "__main__":
    main()
