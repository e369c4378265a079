"""Where units are drawn when, at the size they must be drawn, they would cover
each other: moved apart, each as little as it can, with a leader line from
the moved unit back to its spot.

Why: a unit has a floor size (issue 29: a few pixels is no unit), and some
spaces are smaller than that: The Twentieth Century's Europe in a picture,
the Low Countries and the Balkans on a 390 px phone showing the whole map.
Drawn at their spots, neighbours' units hid each other and a tap could not
reach the one wanted. Map software declutters such markers rather than
shrinking them (d3-force's collision force, QGIS's label displacement): the
markers push each other apart, pair by pair, a few rounds, and a line ties
each one moved back to the place it stands for.

This is that push, deterministic (same discs, same picture), in plain
Python: the renderer runs it for the fixed-size SVG and PNG, and the judge's
page runs the same steps in ``static/map.js`` whenever its zoom changes the
units' size on screen (``spreadDiscs``; keep the two alike).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from standoff import Position, Unit

from .geometry import Point
from .layout import UNIT_REACH, Layout

#: a disc to draw: (x, y, radius) of its spot
Disc = tuple[float, float, float]
#: the box the discs are kept inside: (left, top, right, bottom)
Box = tuple[float, float, float, float]

#: rounds of pushing at most (each resolves every overlapping pair once); a
#: crowd of forty units on a phone's whole Europe needs about a hundred
ROUNDS = 400
#: how much further than the overlap a pair is pushed: a little, so a crowd
#: settles in fewer rounds (a push makes room that the next one takes back)
OVERSHOOT = 1.05
#: the turn (radians) between the directions given to discs on the same spot
#: (the golden angle: no two of a few dozen point the same way)
GOLDEN = math.pi * (3 - math.sqrt(5))
#: a disc moved less than this share of its radius is drawn where it is
#: without a leader line (the line would hide under it)
LEADER_SHARE = 0.35


def spread(discs: Sequence[Disc], gap: float, box: Box | None = None) -> list[Point]:
    """Where each disc is drawn: at its spot unless another disc is within
    ``gap`` of it, else pushed apart from it (both halfway), round after
    round until no two are, inside ``box`` (or no further out than its spot).

    Pairs are taken in a fixed order (by index), and two discs on the very
    same spot part along a direction set by their indices, so the answer
    depends on the discs alone."""
    at = [[x, y] for x, y, _ in discs]
    n = len(discs)
    radii = [r for _, _, r in discs]
    for _ in range(ROUNDS):
        moved = False
        for i in range(n):
            p, ri = at[i], radii[i]
            for j in range(i + 1, n):
                q = at[j]
                need = ri + radii[j] + gap
                dx, dy = q[0] - p[0], q[1] - p[1]
                if dx >= need or -dx >= need or dy >= need or -dy >= need:
                    continue
                d = math.hypot(dx, dy)
                if d >= need * 0.999:
                    continue
                if d < need * 1e-6:
                    turn = (i * 7 + j) * GOLDEN
                    dx, dy, d = math.cos(turn), math.sin(turn), 1.0
                push = (need * OVERSHOOT - d) / 2 / d
                p[0] -= dx * push
                p[1] -= dy * push
                q[0] += dx * push
                q[1] += dy * push
                moved = True
        if box is not None:  # kept inside, or no further out than its own spot
            for k, p in enumerate(at):
                x, y, r = discs[k]
                p[0] = min(max(p[0], min(box[0] + r, x)), max(box[2] - r, x))
                p[1] = min(max(p[1], min(box[1] + r, y)), max(box[3] - r, y))
        if not moved:
            break
    return [(p[0], p[1]) for p in at]


def needs_leader(spot: Point, drawn: Point, radius: float) -> bool:
    """Whether a disc drawn at ``drawn`` for ``spot`` is moved far enough to be
    tied back to it by a line."""
    return math.dist(spot, drawn) > LEADER_SHARE * radius


@dataclass(frozen=True)
class UnitPlace:
    """One unit as the picture draws it: ``spot`` is where it stands (its
    space's unit spot, a place in a high sea's row, a dislodged unit's place
    beside its attacker), ``drawn`` where it is drawn (its spot, unless
    :func:`spread` moved it), ``size`` its size (``Layout.unit_size_at``)."""

    unit: Unit
    dislodged: bool
    spot: Point
    drawn: Point
    size: float

    @property
    def radius(self) -> float:
        return self.size * UNIT_REACH

    @property
    def leader(self) -> bool:
        """Whether it is drawn far enough from its spot to be tied to it by a line."""
        return needs_leader(self.spot, self.drawn, self.radius)


#: how far a dislodged unit is drawn from its attacker's spot, up and right,
#: in unit sizes: beside it, clear of it (2 * 1.65 * sqrt(2) / 2 > UNIT_REACH * 2)
DISLODGED_OFFSET = 1.65
#: the step between the fleets in a row on one high sea, in unit sizes
STACK_STEP = 2.3
#: the room kept between two units' discs, in the map's measure
GAP = 0.1


def unit_places(layout: Layout, position: Position) -> list[UnitPlace]:
    """Every unit of ``position`` (the dislodged last) where the picture draws
    it: at its spot, several fleets on a high sea in a row along the space's
    length, a dislodged unit beside its attacker, and then, where two would
    overlap (The Twentieth Century's smallest spaces), spread apart."""
    spots: list[tuple[Unit, bool, Point, float]] = []
    stacked: dict[str, int] = {}
    for unit in position.units:
        at = layout.unit_spot(unit.location)
        size = layout.unit_size_at(unit.location)
        n = stacked[unit.province] = stacked.get(unit.province, 0) + 1
        if n > 1:
            step = size * STACK_STEP * (n // 2) * (1 if n % 2 else -1)
            at = (at[0], at[1] + step) if _tall(layout, unit.province) else (at[0] + step, at[1])
        spots.append((unit, False, at, size))
    for d in position.dislodged:
        at = layout.unit_spot(d.unit.location)
        size = layout.unit_size_at(d.unit.location)
        shift = size * DISLODGED_OFFSET
        spots.append((d.unit, True, (at[0] + shift, at[1] - shift), size))
    drawn = spread([(*at, size * UNIT_REACH) for _, _, at, size in spots], GAP * layout.u,
                   (0.0, 0.0, layout.width, layout.height))
    return [UnitPlace(unit, dislodged, at, where, size)
            for (unit, dislodged, at, size), where in zip(spots, drawn, strict=True)]


def _tall(layout: Layout, province: str) -> bool:
    points = [p for ring in layout.spaces[province].rings for p in ring]
    if not points:
        return False
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return max(ys) - min(ys) > max(xs) - min(xs)
