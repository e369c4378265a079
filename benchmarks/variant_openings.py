"""Opening moves of every bundled variant with random legal orders, per unit.

Why: a big map must not cost more per unit than Standard. The Twentieth
Century opens with 78 units on about 340 spaces; Standard with 22 on 75. For
each variant this takes the starting position, draws ``--sets`` sets of
uniformly random legal orders (one per unit, seeded, so every run times the
same orders), adjudicates each set ``--repeat`` times from order text to next
position, and reports the median per phase and per unit. Standard is the
yardstick: the last column is each variant's per-unit time over Standard's.

Run alone (``python benchmarks/variant_openings.py``) or as the last part of
``benchmarks/adjudication.py``. Needs only standoff.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from standoff import adjudicate
from standoff.core.legal_orders import legal_orders
from standoff.core.position import Position
from standoff.core.variant import available_variants, load_variant


@dataclass
class Opening:
    variant: str
    units: int
    spaces: int
    median_ns: float

    @property
    def per_unit_ns(self) -> float:
        return self.median_ns / self.units


def random_orders(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """One uniformly random legal order per unit, as text (as a bot would send)."""
    out: dict[str, list[str]] = {}
    for power, by_loc in legal_orders(position).items():
        for loc in sorted(by_loc):
            choices = [o for o in by_loc[loc] if o.kind != "permit"]
            if choices:
                out.setdefault(power, []).append(str(rng.choice(choices)))
    return out


def time_opening(name: str, sets: int, repeat: int, seed: int = 1933) -> Opening:
    v = load_variant(name)
    start = Position.initial(v)
    rng = random.Random(seed)
    samples: list[float] = []
    for _ in range(sets):
        orders = random_orders(start, rng)
        runs = []
        for _ in range(repeat):
            pos = Position.from_dict(start.to_dict())  # cold caches, like a new phase
            t0 = time.perf_counter_ns()
            adjudicate(pos, orders, variant=v).next_position  # noqa: B018
            runs.append(time.perf_counter_ns() - t0)
        samples.append(statistics.median(runs))
    movable = sum(1 for u in start.units if u.power != v.neutral)
    return Opening(v.name, movable, len(v.board.provinces), statistics.median(samples))


def report(sets: int, repeat: int) -> list[Opening]:
    names = sorted({load_variant(n).name for n in available_variants()})
    names.sort(key=lambda n: (n != "standard", n))
    # Twin Earths opens with a build phase on an empty board: no movement to time.
    names = [n for n in names if Position.initial(load_variant(n)).units]
    rows = [time_opening(n, sets, repeat) for n in names]
    base = rows[0].per_unit_ns
    print(f"\nOpening movement phase, random legal orders ({sets} order sets, median of "
          f"{repeat} runs each; text orders to next position)")
    print(f"  {'variant':<20} {'spaces':>6} {'units':>5} {'per phase':>11} {'per unit':>10}"
          f"  vs Standard per unit")
    for r in rows:
        print(f"  {r.variant:<20} {r.spaces:>6} {r.units:>5} {r.median_ns / 1000:>8.0f} µs "
              f"{r.per_unit_ns / 1000:>7.1f} µs  {r.per_unit_ns / base:>5.2f}x")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, default=50, help="random order sets per variant")
    ap.add_argument("--repeat", type=int, default=5, help="runs per order set (median kept)")
    args = ap.parse_args()
    report(args.sets, args.repeat)


if __name__ == "__main__":
    main()
