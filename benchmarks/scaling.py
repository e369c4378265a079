"""Adjudication cost against the number of units (should grow linearly).

Builds synthetic square maps (a grid of land provinces with a sea in every
fourth cell, so fleets and convoys occur), places one unit per occupied cell,
and adjudicates random movement phases of supports, convoys, moves and holds
with standoff. Prints the median time per phase and per unit for 22, 100 and
400 units; linear growth shows as a flat µs/unit column.

    python benchmarks/scaling.py [--phases 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import standoff
from standoff import Position, Unit, UnitType, adjudicate
from standoff.core.geography import Board, Province, Terrain
from standoff.core.legal_orders import legal_orders
from standoff.core.phase import Calendar, Phase, PhaseKind
from standoff.core.variant import Power, Variant, register_variant
from standoff.core.victory import CentreCountWinner


def grid_variant(side: int, powers: int = 7) -> Variant:
    """A side x side board: land everywhere except a sea on every (odd, odd) cell."""
    provinces = []
    kinds: dict[tuple[int, int], Terrain] = {}
    for y in range(side):
        for x in range(side):
            sea = x % 2 == 1 and y % 2 == 1
            kinds[x, y] = Terrain.SEA if sea else Terrain.LAND
    for (x, y), t in kinds.items():
        near_sea = any(kinds.get((x + dx, y + dy)) is Terrain.SEA
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        terrain = Terrain.COAST if t is Terrain.LAND and near_sea else t
        kinds[x, y] = terrain
        provinces.append(Province(f"p{x}x{y}", f"Cell {x},{y}", terrain,
                                  supply_centre=(x * 7 + y * 3) % 5 == 0,
                                  convoys=terrain is Terrain.SEA))
    army, fleet = [], []
    for (x, y), t in kinds.items():
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            o = kinds.get((x + dx, y + dy))
            if o is None:
                continue
            a, b = f"p{x}x{y}", f"p{x + dx}x{y + dy}"
            if t is not Terrain.SEA and o is not Terrain.SEA:
                army.append((a, b))
            if (t is Terrain.SEA or o is Terrain.SEA) and Terrain.LAND not in (t, o):
                fleet.append((a, b))
    board = Board.build(provinces, army, fleet)
    centres = [p.id for p in provinces if p.supply_centre]
    power_list = {
        f"power{i}": Power(f"power{i}", f"Power {i}", f"Power {i}",
                           tuple(centres[i::powers][:3]), ())
        for i in range(powers)
    }
    variant = Variant(f"grid{side}", f"Grid {side}", (), power_list, board, Calendar(),
                      Phase(1901, 0, PhaseKind.MOVEMENT), CentreCountWinner(len(centres)))
    register_variant(variant)
    return variant


def random_position(variant: Variant, units: int, rng: random.Random) -> Position:
    board = variant.board
    cells = list(board.provinces.values())
    rng.shuffle(cells)
    placed: list[Unit] = []
    powers = list(variant.powers)
    for p in cells[:units]:
        t = UnitType.FLEET if p.terrain is Terrain.SEA or (
            p.terrain is Terrain.COAST and rng.random() < 0.3) else UnitType.ARMY
        placed.append(Unit(powers[len(placed) % len(powers)], t, p.id))
    return Position(variant.name, variant.start, tuple(placed), {})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"standoff {standoff.__version__} ({standoff.BUILD})")
    print(f"{'units':>6} {'map':>9} {'median µs/phase':>16} {'µs/unit':>8} "
          f"{'supports %':>10} {'convoys':>8}")
    for n, side in ((22, 9), (100, 19), (400, 37)):
        variant = grid_variant(side)
        times = []
        supports = convoys = total = 0
        for _ in range(args.phases):
            pos = random_position(variant, n, rng)
            orders: dict[str, list[str]] = {}
            for power, locs in legal_orders(pos, variant=variant).items():
                for choices in locs.values():
                    order = rng.choice(choices)
                    supports += order.kind.startswith("support")
                    convoys += order.kind == "convoy"
                    total += 1
                    orders.setdefault(power, []).append(str(order))
            t0 = time.perf_counter_ns()
            adjudicate(pos, orders, variant=variant)
            times.append((time.perf_counter_ns() - t0) / 1000)
        med = statistics.median(times)
        print(f"{n:>6} {side}x{side:<6} {med:>16.0f} {med / n:>8.2f} "
              f"{100 * supports / total:>10.0f} {convoys:>8}")


if __name__ == "__main__":
    main()
