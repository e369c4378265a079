"""Shapes worked out once per layout so that drawing a phase stays cheap.

Why: resvg spends its time on pixels, not on points (halving the points of
The Twentieth Century's 15,000-point coastline changes nothing measurable),
and most of it goes to anti-aliasing and to encoding the busy PNG that comes
out. Two things in the old drawing cost pixels for nothing:

* every space stroked its own outline, so each shared border was stroked
  twice (once half hidden under the neighbour's fill); :func:`border_chains`
  gives each border once, as polylines, to stroke in one path;
* impassable spaces were filled with a rotated pattern, which resvg samples
  pixel by pixel; :func:`hatch_segments` gives the same stripes as plain line
  segments, clipped to the space, which cost a few milliseconds.

Both work on the traced rings as they are, so the picture's borders stay
exactly the layout's (the adjacency test in ``tests/test_render.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Point = tuple[float, float]
Rings = tuple[tuple[Point, ...], ...]


def border_chains(shapes: Iterable[Rings]) -> tuple[tuple[Point, ...], ...]:
    """Every edge of every ring once, joined into polylines.

    The tracer keeps a border shared by two spaces as the same run of points
    in both rings, so an edge met twice is one border seen from both sides.
    Chains run between junctions (points where three or more edges meet); a
    ring touching nothing (an island, say) comes back as one closed chain.
    """
    edges: set[tuple[Point, Point]] = set()
    near: dict[Point, list[Point]] = {}
    for rings in shapes:
        for ring in rings:
            for i in range(len(ring)):
                a, b = ring[i - 1], ring[i]
                key = (a, b) if a < b else (b, a)
                if a == b or key in edges:
                    continue
                edges.add(key)
                near.setdefault(a, []).append(b)
                near.setdefault(b, []).append(a)
    chains: list[tuple[Point, ...]] = []

    def walk(a: Point, b: Point) -> None:
        edges.discard((a, b) if a < b else (b, a))
        line = [a, b]
        while len(near[b]) == 2:
            c = next((c for c in near[b] if ((b, c) if b < c else (c, b)) in edges), None)
            if c is None:
                break
            edges.discard((b, c) if b < c else (c, b))
            line.append(c)
            b = c
        chains.append(tuple(line))

    # junctions and loose ends first, so that chains stop only where borders meet
    for starts_anywhere in (False, True):
        for a, others in near.items():
            if starts_anywhere or len(others) != 2:
                for b in others:
                    if ((a, b) if a < b else (b, a)) in edges:
                        walk(a, b)
    return tuple(chains)


def hatch_segments(rings: Rings, spacing: float) -> tuple[tuple[Point, Point], ...]:
    """Stripes at 45 degrees (rising to the right), ``spacing`` apart, clipped
    to ``rings`` by the even-odd rule the space is filled with."""
    points = [p for ring in rings for p in ring]
    if not points:
        return ()
    step = spacing * math.sqrt(2)  # between lines x + y = c, measured along c
    low = min(x + y for x, y in points)
    high = max(x + y for x, y in points)
    out: list[tuple[Point, Point]] = []
    c = (math.floor(low / step) + 1) * step
    while c < high:
        xs = []
        for ring in rings:
            for i in range(len(ring)):
                (ax, ay), (bx, by) = ring[i - 1], ring[i]
                sa, sb = ax + ay - c, bx + by - c
                if (sa < 0) != (sb < 0):
                    xs.append(ax + sa / (sa - sb) * (bx - ax))
        xs.sort()
        for x0, x1 in zip(xs[::2], xs[1::2], strict=False):
            out.append(((x0, c - x0), (x1, c - x1)))
        c += step
    return tuple(out)
