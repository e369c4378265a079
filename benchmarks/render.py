"""How long drawing a phase takes, per variant: SVG, and SVG to PNG.

Why: a web judge draws the board after every phase and a viewer draws every
phase of a game, so one picture must cost well under a second. For each
variant this plays a few phases with random legal orders (seeded), then times
``render_svg`` of the last phase with its orders and results, and
``render_png`` of that picture at the layout's own size; medians of
``--repeat`` runs. Needs only standoff (resvg-py is one of its dependencies).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from standoff.errors import StandoffError
from standoff.game import Game
from standoff.legal import random_orders
from standoff.render import layout_for, render_png, render_svg
from standoff.variant import available_variants, load_variant


def _game(name: str, phases: int) -> Game:
    g = Game.new(name)
    rng = random.Random(1)
    for _ in range(phases):
        for pid, picks in random_orders(g.position, rng, 0.0, g.options, g.variant).items():
            g.submit(pid, picks)
        g.process()
    return g


def _drawable(name: str) -> bool:
    try:
        layout_for(name)
    except StandoffError:
        return False
    return True


def _median_ms(fn: object, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--phases", type=int, default=4, help="random phases played first")
    ap.add_argument("--only-drawn", action="store_true",
                    help="skip variants without a drawing instead of failing")
    args = ap.parse_args()
    names = sorted({load_variant(n).name for n in available_variants()})
    names = [n for n in names if _drawable(n)] if args.only_drawn else names
    print(f"Drawing one phase with its orders (median of {args.repeat})")
    print(f"  {'variant':<20} {'size':>11} {'SVG ms':>8} {'KiB':>6} {'PNG ms':>8} "
          f"{'PNG 1200 px wide ms':>20}")
    for name in names:
        g = _game(name, args.phases)
        rec = g.history[-1]
        layout = layout_for(name)
        svg = render_svg(rec.position, orders=rec.orders, results=rec.results)
        t_svg = _median_ms(lambda rec=rec: render_svg(rec.position, orders=rec.orders,
                                                      results=rec.results), args.repeat)
        t_png = _median_ms(lambda svg=svg: render_png(svg), args.repeat)
        t_small = _median_ms(lambda svg=svg: render_png(svg, 1200), args.repeat)
        print(f"  {name:<20} {layout.width:>5.0f}x{layout.height:<5.0f} {t_svg:>8.1f} "
              f"{len(svg) / 1024:>6.0f} {t_png:>8.1f} {t_small:>20.1f}")


if __name__ == "__main__":
    main()
