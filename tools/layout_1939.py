"""Draw the map of 1939 Diplomacy IV into a label raster, from our own data alone.

Why this exists: no picture of the 1939 IV map survives; its spaces and links were
designed from the rule text (``src/standoff/core/variants/1939-iv.toml``, rulings in
``docs/variants/1939-iv.md``). ``standoff render`` needs shapes for it, so this tool
DRAWS the map: nothing is measured from any image.

1. Geography: a coarse land/sea mask from hand-written coastlines (``MAINLAND``,
   ``WATER``, ``ISLANDS``, in degrees of longitude/latitude), drawn in a pseudo-conic
   projection stretched piecewise (``U_STOPS``/``LAT_STOPS``: central Europe enlarged,
   the oceans, Africa and Russia shrunk), with magnifying ``LENSES`` on the British
   Isles, the Low Countries, Greece and the Persian Gulf. Two straits are opened on
   purpose (Gibraltar; the Suez canal, so the Red Sea touches the Eastern Mediterranean)
   and two closed (the Sound, so Denmark touches Sweden and the North Sea never meets the
   Baltic; the Bosporus and Dardanelles, which Turkey holds). The two high oceans are
   fixed boxes: the Atlantic High Ocean a strip along the west edge, the African High
   Ocean a strip along the south edge plus the Arabian Sea. Switzerland is a small fixed
   enclave that touches nothing (it has no links).
2. Regions: every space has hand-chosen seed points (``SEEDS``). Land spaces grow over
   land pixels and seas over sea pixels by a multi-source Dijkstra flood (a geodesic
   Voronoi partition; ``OFFSET`` makes a space start ahead of or behind the others).
3. Constraint: two spaces that the variant does not link may never touch. Wherever
   two unlinked spaces come within ``GAP`` pixels of each other, the pixel farther from
   its own seed is dropped to background (0), then background pixels are given back to
   any neighbouring space that is allowed next to everything around it. So unlinked
   spaces are always separated by a dark gap of at least ``GAP`` pixels. The high
   oceans are then kept ``SHORE`` pixels off every land space, a band of background
   that shows they border none (rule 5.4).
4. Check: every linked pair touches along >= ``SAFE_BORDER`` pixel pairs (the rule says
   ``MIN_BORDER``; the margin survives tracing) and no unlinked pair touches at all,
   except the links drawn as connectors (``CONNECTORS``: the army crossings Spain-Morocco,
   Sicily-Naples and Egypt-Middle East of rule 3.3, and the direct sea link Western
   Mediterranean-South Atlantic of rule 3.6, which no flat map can draw as a border
   together with the others: the adjacency graph with it is not planar).

Writes ``OUT/labels.npy``, ``OUT/meta.json`` (ids, unit, coast, centre and label
points, connectors) and ``OUT/preview.png``, prints every difference from the variant and
exits 1 if there is any; ``tools/trace_shapes.py`` turns the first two into
``src/standoff/render/maps/1939-iv.json``.

Run: ``python tools/layout_1939.py -o /tmp/render/1939-iv``
Needs the ``tools`` extra (``pip install -e '.[tools]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from geography_1939 import (  # the data beside this tool (run as a script: tools/ is on the path)
    AFH_ARABIAN,
    AFH_TOP,
    ATH_TOP,
    ATH_WIDTH,
    CONNECTORS,
    FIXED,
    ISLANDS,
    MAINLAND,
    OFFSET,
    SEEDS,
    SWI_AT,
    SWI_RADII,
    WATER,
)
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

ROOT = Path(__file__).resolve().parent.parent
VARIANT = ROOT / "src" / "standoff" / "core" / "variants" / "1939-iv.toml"

WIDTH, HEIGHT = 1200, 900
#: two spaces are neighbours when they touch along at least this many pixel pairs
MIN_BORDER = 3
#: ...and this tool wants at least this many, so tracing and simplifying cannot lose it
SAFE_BORDER = 8
#: unlinked spaces stay at least this many pixels apart (Chebyshev distance)
GAP = 2
#: the high oceans keep this many pixels of background from every land space, so that
#: the picture shows them bordering none (rule 5.4; 7.7): GAP alone is hidden under
#: the border's ink, and the African High Ocean's strip looked as if it touched French
#: West Africa, Libya and Egypt (issue 29)
SHORE = 10
#: ...and this many at the mouth of the Persian Gulf, which SHORE would close
SHORE_GULF = 7

# -- projection ------------------------------------------------------------------------
#: A pseudo-conic projection: x follows u = (lon - CENTRAL_MERIDIAN) * s(lat), s a damped
#: cos(lat), so the meridians converge northward as on a conic map of Europe; then u and
#: the latitude are stretched piecewise-linearly: (value, pixel). Central Europe gets
#: ~14 px per degree of longitude (at 50 N) and ~20 per degree of latitude; the Atlantic,
#: Africa, the Arctic and Russia less.
CENTRAL_MERIDIAN = 10.0
#: s(lat) = CONVERGE * cos(lat) + (1 - CONVERGE) * cos(50)
CONVERGE = 0.65
U_STOPS = ((-31.0, 0.0), (-14.5, 170.0), (22.5, 960.0), (42.0, 1200.0))
LAT_STOPS = ((76.0, 0.0), (60.0, 190.0), (33.0, 720.0), (5.1, 900.0))


def _interp(v: float, stops: tuple[tuple[float, float], ...]) -> float:
    """Piecewise-linear through ``stops`` (sorted by value), extrapolated at both ends."""
    for (v0, p0), (v1, p1) in pairwise(stops):
        if v <= v1 or (v1, p1) == stops[-1]:
            return p0 + (v - v0) * (p1 - p0) / (v1 - v0)
    raise AssertionError


#: magnifying lenses on the projected map: (centre lon, lat), radius px, magnification.
#: The British Isles, the Low Countries, Albania and Greece and the Persian Gulf are drawn
#: larger than life, to make room for their spaces' markers.
LENSES = (((-3.8, 54.8), 190.0, 2.1), ((5.3, 51.6), 90.0, 1.5), ((21.5, 40.0), 80.0, 1.4),
          ((51.5, 27.0), 70.0, 1.6))


def _plain(lon: float, lat: float) -> tuple[float, float]:
    shrink = CONVERGE * np.cos(np.radians(lat)) + (1 - CONVERGE) * np.cos(np.radians(50.0))
    u = (lon - CENTRAL_MERIDIAN) * float(shrink)
    return _interp(u, U_STOPS), _interp(-lat, tuple((-a, p) for a, p in LAT_STOPS))


def project(lon: float, lat: float) -> tuple[float, float]:
    """Pixel (x, y) of a point given in degrees."""
    x, y = _plain(lon, lat)
    for (clon, clat), radius, power in LENSES:
        cx, cy = _plain(clon, clat)
        r = float(np.hypot(x - cx, y - cy))
        if r < radius:  # r * f(r) grows with r (no fold) while power - 1 < 3
            f = 1.0 + (power - 1.0) * (1.0 - r / radius) ** 2
            x, y = cx + (x - cx) * f, cy + (y - cy) * f
    return x, y


# -- the variant -------------------------------------------------------------------------


class Board:
    """The facts of the variant the drawing needs."""

    def __init__(self, path: Path = VARIANT) -> None:
        data = tomllib.loads(path.read_text())
        self.provinces: dict[str, dict[str, Any]] = data["provinces"]
        self.ids = sorted(self.provinces)
        self.number = {pid: i + 1 for i, pid in enumerate(self.ids)}
        self.pairs: set[frozenset[str]] = set()
        #: "spa/nc" -> the provinces that coast is linked to
        self.coast_links: dict[str, set[str]] = {}
        for kind in ("army", "fleet"):
            for token in data["adjacency"][kind].split():
                a, b = token.split("-")
                pa, pb = a.split("/")[0], b.split("/")[0]
                self.pairs.add(frozenset((pa, pb)))
                if "/" in a:
                    self.coast_links.setdefault(a, set()).add(pb)
                if "/" in b:
                    self.coast_links.setdefault(b, set()).add(pa)
        for pid, p in self.provinces.items():
            for c in p.get("coasts", ()):
                self.coast_links.setdefault(f"{pid}/{c}", set())
        self.centres = [pid for pid in self.ids if self.provinces[pid].get("centre")]

    def is_land(self, pid: str) -> bool:
        return bool(self.provinces[pid]["terrain"] != "sea")

    def allowed(self) -> NDArray[np.bool_]:
        """allowed[a, b]: spaces numbered a and b may touch (0 = background: always)."""
        n = len(self.ids) + 1
        ok = np.zeros((n, n), dtype=bool)
        ok[0, :] = ok[:, 0] = True
        ok[np.arange(n), np.arange(n)] = True
        for pair in self.pairs:
            a, b = (self.number[p] for p in pair)
            ok[a, b] = ok[b, a] = True
        return ok


# -- raster helpers ----------------------------------------------------------------------


def _shift(a: NDArray[Any], dy: int, dx: int, fill: Any) -> NDArray[Any]:
    """out[y, x] = a[y + dy, x + dx] (fill outside)."""
    h, w = a.shape
    out = np.full_like(a, fill)
    ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else (slice(0, h + dy), slice(-dy, h))
    xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else (slice(0, w + dx), slice(-dx, w))
    out[yd, xd] = a[ys, xs]
    return out


def _window(radius: int) -> list[tuple[int, int]]:
    return [(dy, dx) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)
            if (dy, dx) != (0, 0)]


def land_mask() -> NDArray[np.bool_]:
    img = Image.new("L", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(img)
    draw.polygon([project(*p) for p in MAINLAND], fill=1)
    for poly in WATER.values():
        draw.polygon([project(*p) for p in poly], fill=0)
    for poly in ISLANDS.values():
        draw.polygon([project(*p) for p in poly], fill=1)
    return np.array(img) > 0


def fixed_spaces(board: Board, land: NDArray[np.bool_]) -> NDArray[np.int32]:
    labels = np.zeros((HEIGHT, WIDTH), dtype=np.int32)
    south = round(project(0.0, AFH_TOP)[1])
    labels[round(project(0.0, ATH_TOP)[1]):south, :ATH_WIDTH] = board.number["ath"]
    labels[south:, :] = board.number["afh"]
    x0, y0 = (round(v) for v in project(*AFH_ARABIAN))
    arabian = np.zeros_like(land)
    arabian[y0:, x0:] = True
    labels[arabian & ~land] = board.number["afh"]
    cx, cy = project(*SWI_AT)
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    rx, ry = SWI_RADII
    labels[((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1.0] = board.number["swi"]
    return labels


# -- growing -----------------------------------------------------------------------------

BASE = 10_000.0


def flood(board: Board, land: NDArray[np.bool_], fixed: NDArray[np.int32]
          ) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Geodesic Voronoi partition: land spaces over land, seas over water."""
    h, w = land.shape
    n = h * w
    idx = np.arange(n).reshape(h, w)
    free = fixed == 0
    rows, cols, vals = [], [], []
    for dy, dx, cost in ((0, 1, 1.0), (1, 0, 1.0), (1, 1, 2 ** 0.5), (1, -1, 2 ** 0.5)):
        a = idx[0:h - dy, max(0, -dx):w - max(0, dx)]
        b = idx[dy:h, max(0, dx):w + min(0, dx)]
        fa, fb = free.ravel()[a], free.ravel()[b]
        same = land.ravel()[a] == land.ravel()[b]
        m = fa & fb & same
        for s, t in ((a[m], b[m]), (b[m], a[m])):
            rows.append(s)
            cols.append(t)
            vals.append(np.full(s.shape, cost))
    growing = [pid for pid in board.ids if pid not in FIXED]
    for k, pid in enumerate(growing):
        want_land = board.is_land(pid)
        for lon, lat in SEEDS[pid]:
            x, y = project(lon, lat)
            xi, yi = min(w - 1, round(x)), min(h - 1, round(y))
            if land[yi, xi] != want_land or not free[yi, xi]:
                ok = (land == want_land) & free
                ys, xs = np.nonzero(ok)
                j = int(np.argmin((xs - x) ** 2 + (ys - y) ** 2))
                print(f"seed of {pid} at {lon},{lat} moved {xs[j] - xi},{ys[j] - yi} px",
                      file=sys.stderr)
                xi, yi = int(xs[j]), int(ys[j])
            rows.append(np.array([n + k]))
            cols.append(np.array([idx[yi, xi]]))
            vals.append(np.array([BASE + OFFSET.get(pid, 0.0)]))
    size = n + len(growing)
    graph = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                       shape=(size, size)).tocsr()
    dist, _, source = dijkstra(graph, directed=True, indices=np.arange(n, size),
                               return_predecessors=True, min_only=True)
    to_label = np.zeros(size + 1, dtype=np.int32)
    for k, pid in enumerate(growing):
        to_label[n + k] = board.number[pid]
    src = source[:n]
    labels = np.where(src >= 0, to_label[np.where(src >= 0, src, size)], 0).reshape(h, w)
    labels = np.where(free, labels, fixed).astype(np.int32)
    d = np.where(np.isfinite(dist[:n]), dist[:n] - BASE, np.inf).reshape(h, w)
    d[~free] = -1.0
    return labels, d


def separate(labels: NDArray[np.int32], dist: NDArray[np.float64],
             allowed: NDArray[np.bool_]) -> int:
    """Drop pixels until no two unlinked spaces are within GAP px; return pixels dropped."""
    dropped = 0
    while True:
        drop = np.zeros(labels.shape, dtype=bool)
        for dy, dx in _window(GAP):
            nl = _shift(labels, dy, dx, 0)
            nd = _shift(dist, dy, dx, np.inf)
            bad = ~allowed[labels, nl]
            drop |= bad & ((dist > nd) | ((dist == nd) & (labels > nl)))
        count = int(drop.sum())
        if not count:
            return dropped
        labels[drop] = 0
        dist[drop] = np.inf
        dropped += count


def fill(labels: NDArray[np.int32], dist: NDArray[np.float64], land: NDArray[np.bool_],
         allowed: NDArray[np.bool_], land_label: NDArray[np.bool_],
         grows: NDArray[np.bool_], rounds: int = 2000) -> int:
    """Give background pixels to a neighbouring space allowed next to all around them.

    Pixels are taken in (GAP+1)x(GAP+1) phases, so two pixels given in the same step are
    more than GAP apart and cannot clash with each other.
    """
    h, w = labels.shape
    r = GAP
    filled = 0
    window = _window(r)
    for _ in range(rounds):
        changed = 0
        for ph in range((r + 1) ** 2):
            padded = np.pad(labels, r)
            zero = labels == 0
            near = np.zeros_like(zero)
            for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                near |= _shift(labels, dy, dx, 0) > 0
            ys, xs = np.nonzero(zero & near)
            keep = (ys % (r + 1)) * (r + 1) + xs % (r + 1) == ph
            ys, xs = ys[keep], xs[keep]
            if not len(ys):
                continue
            todo = np.ones(len(ys), dtype=bool)
            for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                cand = padded[ys + r + dy, xs + r + dx]
                ok = todo & (cand > 0) & grows[cand] & (land_label[cand] == land[ys, xs])
                for wy, wx in window:
                    ok &= allowed[cand, padded[ys + r + wy, xs + r + wx]]
                if ok.any():
                    labels[ys[ok], xs[ok]] = cand[ok]
                    dist[ys[ok], xs[ok]] = dist[np.clip(ys[ok] + dy, 0, h - 1),
                                               np.clip(xs[ok] + dx, 0, w - 1)] + 1.0
                    todo &= ~ok
                    changed += int(ok.sum())
        filled += changed
        if not changed:
            break
    return filled


def keep_largest(labels: NDArray[np.int32], dist: NDArray[np.float64], board: Board) -> int:
    """Drop every piece of a space but its largest."""
    dropped = 0
    for pid in board.ids:
        k = board.number[pid]
        parts, count = ndimage.label(labels == k)
        if count <= 1:
            continue
        sizes = ndimage.sum_labels(np.ones_like(parts), parts, index=np.arange(1, count + 1))
        biggest = int(np.argmax(sizes)) + 1
        cut = (parts > 0) & (parts != biggest)
        labels[cut] = 0
        dist[cut] = np.inf
        dropped += int(cut.sum())
    return dropped


def contacts(labels: NDArray[np.int32]) -> Counter[tuple[int, int]]:
    """Pixel pairs (4-neighbours) along which two spaces touch."""
    found: Counter[tuple[int, int]] = Counter()
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        m = (a != b) & (a > 0) & (b > 0)
        lo, hi = np.minimum(a[m], b[m]), np.maximum(a[m], b[m])
        pairs, counts = np.unique(np.stack([lo, hi], 1), axis=0, return_counts=True)
        for (x, y), c in zip(pairs.tolist(), counts.tolist(), strict=True):
            found[(x, y)] += c
    return found


def check(labels: NDArray[np.int32], board: Board) -> list[str]:
    """Differences between the raster's borders and the variant's links."""
    name = {board.number[p]: p for p in board.ids}
    touching = {frozenset((name[a], name[b])): c for (a, b), c in contacts(labels).items()}
    drawn = {frozenset((a, b)) for a, b, _, _ in CONNECTORS}
    problems = []
    for pair in sorted(board.pairs - drawn, key=sorted):
        c = touching.get(pair, 0)
        if c < SAFE_BORDER:
            problems.append(f"missing or thin border {'-'.join(sorted(pair))} ({c} px)")
    for pair, c in sorted(touching.items(), key=lambda t: sorted(t[0])):
        if pair not in board.pairs:
            problems.append(f"unlinked spaces touch: {'-'.join(sorted(pair))} ({c} px)")
    for pid in board.ids:
        if not (labels == board.number[pid]).any():
            problems.append(f"space {pid} has no pixels")
    return problems


def grow(board: Board) -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    land = land_mask()
    fixed = fixed_spaces(board, land)
    labels, dist = flood(board, land, fixed)
    allowed = board.allowed()
    land_label = np.array([False] + [board.is_land(p) for p in board.ids])
    grows = np.array([False] + [p not in FIXED for p in board.ids])
    for _ in range(4):
        dropped = separate(labels, dist, allowed) + keep_largest(labels, dist, board)
        filled = fill(labels, dist, land, allowed, land_label, grows)
        if not dropped and not filled:
            break
    separate(labels, dist, allowed)
    keep_largest(labels, dist, board)
    offshore(labels, board)
    return labels, land


def offshore(labels: NDArray[np.int32], board: Board) -> int:
    """Drop the high oceans' pixels within SHORE px of any land space (SHORE_GULF
    north of the African strip), after the filling, which would give them back;
    return pixels dropped."""
    land_numbers = [board.number[p] for p in board.ids if board.is_land(p)]
    far: NDArray[np.float64] = ndimage.distance_transform_edt(~np.isin(labels, land_numbers))
    shore = np.full(labels.shape, float(SHORE_GULF))
    shore[round(project(0.0, AFH_TOP)[1]):, :] = SHORE
    cut = np.isin(labels, [board.number[p] for p in ("ath", "afh")]) & (far <= shore)
    labels[cut] = 0
    return int(cut.sum())


# -- points ------------------------------------------------------------------------------

Point = tuple[int, int]


def _depth(mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Distance of each pixel of ``mask`` to the nearest pixel outside it (or the edge)."""
    padded = np.pad(mask, 1)
    depth: NDArray[np.float64] = ndimage.distance_transform_edt(padded)[1:-1, 1:-1]
    return depth


def _nearest(depth: NDArray[np.float64], target: tuple[float, float], min_depth: float,
             avoid: tuple[Point, ...] = (), spacing: float = 0.0) -> Point:
    ys, xs = np.nonzero(depth >= min(min_depth, depth.max()))
    score = (xs - target[0]) ** 2 + (ys - target[1]) ** 2
    for ax, ay in avoid:  # keep markers apart where there is room
        score = score + np.where((xs - ax) ** 2 + (ys - ay) ** 2 < spacing ** 2, 1e6, 0)
    j = int(np.argmin(score))
    return int(xs[j]), int(ys[j])


def points(labels: NDArray[np.int32], board: Board) -> dict[str, Any]:
    units: dict[str, Point] = {}
    labels_at: dict[str, Point] = {}
    centres: dict[str, Point] = {}
    coasts: dict[str, Point] = {}
    for pid in board.ids:
        mask = labels == board.number[pid]
        depth = _depth(mask)
        # the unit: among the innermost pixels, the one nearest the middle of the space
        ys, xs = np.nonzero(depth >= 0.8 * depth.max())
        my, mx = ndimage.center_of_mass(mask)
        j = int(np.argmin((xs - mx) ** 2 + (ys - my) ** 2))
        unit = (int(xs[j]), int(ys[j]))
        units[pid] = unit
        # the name above the unit, or below it where there is more room
        above = _nearest(depth, (unit[0], unit[1] - 14), 5, (unit,), 11)
        below = _nearest(depth, (unit[0], unit[1] + 14), 5, (unit,), 11)
        labels_at[pid] = max((above, below), key=lambda p: (depth[p[1], p[0]] >= 5,
                                                            p == above))
        if pid in board.centres:
            centres[pid] = _nearest(depth, (unit[0] + 13, unit[1] + 6), 4,
                                    (unit, labels_at[pid]), 9)
        mine = [c for c in board.coast_links if c.startswith(pid + "/")]
        for c in mine:
            seas = {s for s in board.coast_links[c] if not board.is_land(s)}
            others = set().union(*(board.coast_links[o] for o in mine if o != c))
            seas = (seas - others) or seas
            near = np.zeros(labels.shape, dtype=bool)
            for s in seas:
                near |= labels == board.number[s]
            # the middle of the coastline on those seas, then the nearest inner pixel
            shore = (labels == board.number[pid]) & ndimage.binary_dilation(near, iterations=2)
            ys, xs = np.nonzero(shore)
            if not len(ys):
                raise SystemExit(f"{c} touches none of {sorted(seas)}")
            j = int(np.argmin((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2))
            coasts[c] = _nearest(depth, (xs[j], ys[j]), 5, (unit,), 10)
    centre = {"units": units, "labels": labels_at, "centres": centres, "coasts": coasts}
    return {k: {pid: [x + 0.5, y + 0.5] for pid, (x, y) in v.items()}
            for k, v in centre.items()}


def connectors(labels: NDArray[np.int32], board: Board) -> list[dict[str, Any]]:
    """A line from a to b for each connector, through its points on the way."""
    out = []
    for a, b, kind, via in CONNECTORS:
        ma, mb = labels == board.number[a], labels == board.number[b]
        way = [project(*p) for p in via]
        if way:
            ends = [_closest(ma, way[0]), _closest(mb, way[-1])]
        else:
            dist, (iy, ix) = ndimage.distance_transform_edt(~mb, return_indices=True)
            d = np.where(ma, dist, np.inf)
            ay, ax = np.unravel_index(int(np.argmin(d)), d.shape)
            ends = [(int(ax), int(ay)), (int(ix[ay, ax]), int(iy[ay, ax]))]
        inner = []
        for (x0, y0), toward, mask in ((ends[0], way[0] if way else ends[1], ma),
                                       (ends[1], way[-1] if way else ends[0], mb)):
            length = max(1.0, float(np.hypot(x0 - toward[0], y0 - toward[1])))
            ux, uy = (x0 - toward[0]) / length, (y0 - toward[1]) / length
            px, py = x0, y0  # reach a little into the space
            for step in (8, 6, 4, 2):
                qx, qy = round(x0 + ux * step), round(y0 + uy * step)
                if 0 <= qx < labels.shape[1] and 0 <= qy < labels.shape[0] and mask[qy, qx]:
                    px, py = qx, qy
                    break
            inner.append([px + 0.5, py + 0.5])
        line = [inner[0], *[[round(x, 1), round(y, 1)] for x, y in way], inner[1]]
        out.append({"a": a, "b": b, "kind": kind, "points": line})
    return out


def _closest(mask: NDArray[np.bool_], at: tuple[float, float]) -> tuple[int, int]:
    ys, xs = np.nonzero(mask)
    j = int(np.argmin((xs - at[0]) ** 2 + (ys - at[1]) ** 2))
    return int(xs[j]), int(ys[j])


# -- output ------------------------------------------------------------------------------


def _palette(board: Board) -> NDArray[np.uint8]:
    """Preview colours: neighbours differ (greedy colouring), seas blue, land pastel."""
    land = [(225, 205, 160), (200, 220, 165), (235, 190, 170), (215, 200, 225),
            (240, 225, 150), (190, 210, 205), (230, 180, 200)]
    sea = [(150, 190, 230), (125, 170, 220), (170, 205, 240), (110, 155, 210),
           (140, 200, 215), (160, 175, 230), (120, 185, 235)]
    palette = np.zeros((len(board.ids) + 1, 3), dtype=np.uint8)
    palette[0] = (25, 25, 30)
    chosen: dict[str, int] = {}
    degree = Counter(p for pair in board.pairs for p in pair)
    for pid in sorted(board.ids, key=lambda p: -degree[p]):
        used = {chosen[o] for pair in board.pairs if pid in pair for o in pair
                if o != pid and o in chosen and board.is_land(o) == board.is_land(pid)}
        colours = land if board.is_land(pid) else sea
        chosen[pid] = next(i for i in range(len(colours)) if i not in used)
        palette[board.number[pid]] = colours[chosen[pid]]
    palette[board.number["swi"]] = (90, 90, 90)
    return palette


def preview(labels: NDArray[np.int32], board: Board, meta: dict[str, Any], path: Path) -> None:
    img = Image.fromarray(_palette(board)[labels])
    draw = ImageDraw.Draw(img)
    for c in meta["connectors"]:
        colour = (30, 90, 200) if c["kind"] == "canal" else (190, 40, 40)
        draw.line([tuple(p) for p in c["points"]], fill=colour, width=3)
    for x, y in meta["units"].values():
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), outline=(0, 0, 0))
    for x, y in meta["coasts"].values():
        draw.rectangle((x - 3, y - 3, x + 3, y + 3), outline=(120, 0, 120))
    for x, y in meta["centres"].values():
        draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=(255, 255, 255), outline=(0, 0, 0))
    for pid, (x, y) in meta["labels"].items():
        draw.text((x, y), pid.upper(), fill=(0, 0, 0), anchor="mm")
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", type=Path, default=Path("/tmp/render/1939-iv"))
    args = ap.parse_args(argv)
    board = Board()
    labels, _ = grow(board)
    problems = check(labels, board)
    meta: dict[str, Any] = {
        "variant": "1939-iv",
        "ids": {str(board.number[p]): p for p in board.ids},
        **points(labels, board),
        "connectors": connectors(labels, board),
        "scale": 1.0,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "labels.npy", labels)
    (args.out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    preview(labels, board, meta, args.out / "preview.png")
    for p in problems:
        print(p)
    background = int((labels == 0).sum())
    print(f"{len(board.ids)} spaces, {background} background px, "
          f"{len(problems)} problem(s); wrote {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
