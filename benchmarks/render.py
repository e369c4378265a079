"""How long drawing a phase takes, per variant: SVG, and SVG to PNG.

Why: a web judge draws the board after every phase and a viewer draws every
phase of a game, so one picture must cost well under a second. For each
variant this plays a few phases with random legal orders (seeded), then times
``render_svg`` of the last phase with its orders and results (the first
drawing of a map alone, as it also works out the map's border lines), and
``render_png`` of that picture at the layout's own size and at each
``--width`` (1200 px by default; the README's pictures are 900 to 1400 wide);
medians of ``--repeat`` runs. Needs only standoff (resvg-py is one of its
dependencies).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from standoff.core.errors import StandoffError
from standoff.core.game import Game
from standoff.core.legal_orders import random_orders
from standoff.core.variant import available_variants, load_variant
from standoff.render import layout_for, render_png, render_svg


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


def _median_ms(fn: Callable[..., object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t0)
    return statistics.median(runs) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--phases", type=int, default=4, help="random phases played first")
    ap.add_argument("--only-drawn", action="store_true",
                    help="skip variants without a drawing instead of failing")
    ap.add_argument("--width", type=int, action="append",
                    help="also time the PNG this many pixels wide (repeatable; default 1200)")
    args = ap.parse_args()
    widths = args.width or [1200]
    names = sorted({load_variant(n).name for n in available_variants()})
    names = [n for n in names if _drawable(n)] if args.only_drawn else names
    print(f"Drawing one phase with its orders (median of {args.repeat})")
    print(f"  {'variant':<20} {'size':>11} {'first SVG ms':>12} {'SVG ms':>8} {'KiB':>6} "
          f"{'PNG ms':>8}" + "".join(f"{f'PNG {w} px wide ms':>21}" for w in widths))
    for name in names:
        g = _game(name, args.phases)
        rec = g.history[-1]
        layout = layout_for(name)
        t0 = time.perf_counter()  # the first drawing also works out the layout's borders
        svg = render_svg(rec.position, orders=rec.orders, results=rec.results)
        t_first = (time.perf_counter() - t0) * 1000
        t_svg = _median_ms(lambda rec=rec: render_svg(rec.position, orders=rec.orders,
                                                      results=rec.results), args.repeat)
        t_png = _median_ms(lambda svg=svg: render_png(svg), args.repeat)
        t_wide = [_median_ms(lambda svg=svg, w=w: render_png(svg, w), args.repeat)
                  for w in widths]
        print(f"  {name:<20} {layout.width:>5.0f}x{layout.height:<5.0f} {t_first:>12.1f} "
              f"{t_svg:>8.1f} {len(svg) / 1024:>6.0f} {t_png:>8.1f}"
              + "".join(f"{t:>21.1f}" for t in t_wide))


if __name__ == "__main__":
    main()
