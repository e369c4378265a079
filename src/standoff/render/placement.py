"""Where a marker fits inside a space: its room there, and the spot that gives
it enough room nearest to where it was wanted.

Why: a unit, a centre marker or a name placed by eye (or at a traced label's
centroid) can land on a border, and a unit drawn there looks as if it stood in
the neighbour (issue 29: London's fleet in Yorkshire, Albania's army in the
Adriatic). Every spot is judged by one measure, :func:`clearance` (the
distance from the space's border, negative outside); a marker is a few discs
(one for a unit or a centre, a row for a name), and :func:`room` says how much
each of them could grow and stay inside the space, clear of the discs of
markers already placed. :func:`place` searches the space with square cells,
best first (the cell search of Mapbox's polylabel, generalised from the point
farthest from the border to "enough room, nearest the wish").

Rings are closed polygons filled by the even-odd rule, as the layouts draw
them. Plain Python: ``tools/place_markers.py`` runs it once per map, and the
City/Country drawing when its layout is first built.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence

from .geometry import Point, Rings

#: a disc of a marker: (dx, dy, radius) from the marker's spot
Disc = tuple[float, float, float]
#: a disc already on the map: (x, y, radius)
Placed = tuple[float, float, float]

#: Advance widths of DejaVu Sans (the names' font), in ems, of the characters a
#: space's id uses; anything else counts as the widest capital
_WIDTHS = {**dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (
    0.684, 0.686, 0.698, 0.770, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557,
    0.863, 0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685,
    0.611, 0.685), strict=True)), **dict.fromkeys("0123456789", 0.636),
    "*": 0.5, "_": 0.5, "/": 0.337, "-": 0.361}
#: the capitals' height, in ems: a name's box is this tall
CAP_HEIGHT = 0.73


class Outline:
    """A space's edges, unpacked once: :meth:`clearance` is asked of the same
    rings thousands of times in one search."""

    def __init__(self, rings: Rings) -> None:
        self.edges = [(ax, ay, bx - ax, by - ay, (bx - ax) ** 2 + (by - ay) ** 2, by)
                      for ring in rings
                      for (ax, ay), (bx, by) in zip((ring[-1], *ring[:-1]), ring, strict=True)]

    def clearance(self, p: Point) -> float:
        """How far ``p`` is from the border, negative outside (even-odd rule)."""
        px, py = p
        best = math.inf
        odd = False
        for ax, ay, dx, dy, length, by in self.edges:
            if (ay > py) != (by > py) and px < ax + (py - ay) / dy * dx:
                odd = not odd
            t = ((px - ax) * dx + (py - ay) * dy) / length if length else 0.0
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            qx, qy = ax + t * dx - px, ay + t * dy - py
            d = qx * qx + qy * qy
            if d < best:
                best = d
        return math.sqrt(best) if odd else -math.sqrt(best)


def clearance(p: Point, rings: Rings) -> float:
    """How far ``p`` is from the border, negative outside the space: a disc of
    radius ``r`` at ``p`` lies wholly inside when this is at least ``r``."""
    return Outline(rings).clearance(p)


#: the rest of a sentence (the legend's), roughly: small letters, spaces, stops
_SMALL, _PUNCTUATION = 0.6, {" ": 0.318, ",": 0.318, ".": 0.318, ":": 0.337, "'": 0.275,
                             "(": 0.39, ")": 0.39}


def text_width(text: str, size: float) -> float:
    """The advance width of ``text`` set in the names' font at ``size`` (exact for
    the capitals and figures of a space's id, a little generous elsewhere)."""
    return sum(_WIDTHS.get(c) or _PUNCTUATION.get(c) or (_SMALL if c.islower() else 0.989)
               for c in text) * size


def label_discs(text: str, size: float) -> tuple[Disc, ...]:
    """A name's box (capitals, centred on the spot) as a row of discs: a disc as
    tall as the box every box-height along it, the ends reaching the box's ends."""
    w, h = text_width(text.upper(), size), CAP_HEIGHT * size
    if w <= h:
        return ((0.0, 0.0, w / 2 if w > 0 else h / 2),)
    n = math.ceil(w / h)
    first = -w / 2 + h / 2
    step = (w - h) / n
    return tuple((first + i * step, 0.0, h / 2 * 1.1) for i in range(n + 1))


#: a space a marker keeps away from, and how much farther than its radius
Away = tuple[Outline, float]


def room(p: Point, rings: Rings | Outline, marker: Sequence[Disc],
         avoid: Sequence[Placed] = (), loose: bool = False, away: Sequence[Away] = ()) -> float:
    """How much every disc of ``marker`` at ``p`` could grow and still lie inside
    ``rings``, clear of the discs in ``avoid`` and far enough from the spaces in
    ``away``: negative where it already does not. ``loose``: only ``p`` itself
    must be inside (a name centred in a space too small for it may run over the
    border). Moving ``p`` by ``d`` changes it by at most ``d``."""
    outline = rings if isinstance(rings, Outline) else Outline(rings)
    best = outline.clearance(p) if loose else math.inf
    for dx, dy, r in marker:
        q = (p[0] + dx, p[1] + dy)
        if not loose:
            best = min(best, outline.clearance(q) - r)
        for ax, ay, ar in avoid:
            best = min(best, math.hypot(q[0] - ax, q[1] - ay) - ar - r)
        for other, gap in away:
            best = min(best, -other.clearance(q) - gap - r)
    return best


def _box(rings: Rings) -> tuple[float, float, float, float]:
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


#: how much room is worth against distance from the wish, in the search's score
_ROOM_WEIGHT = 100.0


def place(rings: Rings, wish: Point, marker: Sequence[Disc], margin: float,
          avoid: Sequence[Placed] = (), precision: float = 0.5, loose: bool = False,
          away: Sequence[Away] = ()) -> Point:
    """The spot nearest ``wish`` where ``marker`` has ``margin`` of :func:`room`;
    where no spot has that much, the one with the most room (nearest the wish
    among equals, within ``precision``).

    Best-first search over square cells: a cell is split while the best score
    any point in it could reach (room grows at most as fast as one moves) beats
    the best found by more than ``precision``."""
    x0, y0, x1, y1 = _box(rings)
    pad = max((math.hypot(dx, dy) + r for dx, dy, r in marker), default=0.0) + margin
    near = [a for a in avoid if x0 - pad - a[2] <= a[0] <= x1 + pad + a[2]
            and y0 - pad - a[2] <= a[1] <= y1 + pad + a[2]]

    outline = Outline(rings)

    def score(p: Point) -> float:
        return (min(room(p, outline, marker, near, loose, away), margin) * _ROOM_WEIGHT
                - math.hypot(p[0] - wish[0], p[1] - wish[1]))

    def bound(c: Point, half: float) -> float:
        reach = half * math.sqrt(2)
        gap = max(0.0, math.hypot(c[0] - wish[0], c[1] - wish[1]) - reach)
        return (min(room(c, outline, marker, near, loose, away) + reach, margin) * _ROOM_WEIGHT
                - gap)

    best, best_score = wish, score(wish)
    size = max(min(x1 - x0, y1 - y0), precision)
    heap: list[tuple[float, float, float, float]] = []
    y = y0
    while y < y1:
        x = x0
        while x < x1:
            c = (x + size / 2, y + size / 2)
            heapq.heappush(heap, (-bound(c, size / 2), c[0], c[1], size / 2))
            x += size
        y += size
    while heap:
        top, x, y, half = heapq.heappop(heap)
        if -top - best_score <= precision:
            break  # the heap gives the highest bound first: nothing left can do better
        s = score((x, y))
        if s > best_score:
            best, best_score = (x, y), s
        h = half / 2
        for c in ((x - h, y - h), (x + h, y - h), (x - h, y + h), (x + h, y + h)):
            b = bound(c, h)
            if b - best_score > precision:
                heapq.heappush(heap, (-b, c[0], c[1], h))
    return best


def widest_point(rings: Rings, precision: float = 0.5) -> Point:
    """The point of the space farthest from its border (within ``precision``)."""
    x0, y0, x1, y1 = _box(rings)
    return place(rings, ((x0 + x1) / 2, (y0 + y1) / 2), ((0.0, 0.0, 0.0),),
                 margin=max(x1 - x0, y1 - y0), precision=precision / _ROOM_WEIGHT)


#: the names' sizes tried, largest first, where a name has no room at full size
LABEL_SIZES = (1.0, 0.85, 0.7, 0.6, 0.5)
#: ...and the largest a name running over its space's border may be
LOOSE_SIZE = 0.6


def place_name(rings: Rings, wish: Point, text: str, font: float, margin: float,
               avoid: Sequence[Placed] = (), sizes: Sequence[float] = LABEL_SIZES
               ) -> tuple[Point, float, float]:
    """Where ``text`` goes inside ``rings``, clear of ``avoid``: the spot, its size
    (a factor of ``font``: the largest of ``sizes`` that has room) and the room
    it has there (negative: it overlaps by that much, at the smallest size).
    Where no size has room inside, the name is centred in the space and may run
    over its border, but not over anything in ``avoid``, at one of the smallest
    sizes (a large name over a border would seem to name the neighbour)."""
    best: tuple[Point, float, float] | None = None
    for loose in (False, True):
        for size in [s for s in sizes if s <= LOOSE_SIZE] if loose else sizes:
            discs = label_discs(text, font * size)
            spot = place(rings, wish, discs, margin, avoid, loose=loose)
            have = room(spot, rings, discs, avoid, loose)
            if best is None or have > best[2]:
                best = (spot, size, have)
            if have >= 0:
                return spot, size, have
    assert best is not None
    return best


def name_discs(spot: Point, text: str, font: float) -> list[Placed]:
    """A placed name's discs, for the markers placed after it to keep clear of."""
    return [(spot[0] + dx, spot[1] + dy, r) for dx, dy, r in label_discs(text, font)]
