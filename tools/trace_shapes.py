"""Trace a variant's label raster into the polygon shapes file the renderer draws.

Why this exists: every variant's map tool ends in the same place, a raster whose
pixels hold space numbers (``labels.npy``) plus the points a drawing needs
(``meta.json``). Turning that into vector outlines by hand per variant would give
borders that drift apart between neighbours and a different format each time.
This tool does it once for all of them:

1. Trace: every space's pixel boundary becomes closed rings of pixel corners
   (outer rings and holes of every connected piece; diagonal-only contacts
   count as separate pieces). Rings are drawn with the even-odd rule.
2. Simplify: each ring is cut at the corners where three spaces meet into arcs;
   every arc is simplified once (Douglas-Peucker, ``--tolerance`` px) and the
   same simplified arc is used by both spaces beside it, so neighbours keep one
   shared border and still touch. A ring that would collapse keeps its arcs raw.
3. Write ``{"variant", "width", "height", "spaces": {id: {"rings", "label",
   "unit", "centre"}}, "coasts", "connectors"}``: coordinates are pixel-corner
   coordinates times ``meta["scale"]``, rounded to 1 decimal.

``--check VARIANT`` rasterises the rings back with PIL (even-odd) and compares
the touching pairs (>= 3 px of shared border) with the label raster's and with
the variant's links (army, fleet or strike-only), leaving out pairs drawn as
connectors and pairs with an impassable space; it also checks that every point
lies inside its space and every province has a shape. It prints each
difference and exits 1 if there is any.

Run: ``python tools/trace_shapes.py LABELS.npy META.json -o OUT.json [--check VARIANT]``
(needs the ``tools`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage

Point = tuple[float, float]
Pair = tuple[str, str]
#: Direction codes of boundary edges; the space is always on the right (y down).
EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3


def touching(labels: NDArray[np.int32], min_border: int = 3) -> dict[tuple[int, int], int]:
    """Label pairs whose pixels are 4-neighbours along >= ``min_border`` pixel edges."""
    keys = []
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = (a != b) & (a > 0) & (b > 0)
        lo = np.minimum(a[diff], b[diff]).astype(np.int64)
        hi = np.maximum(a[diff], b[diff]).astype(np.int64)
        keys.append(lo << 32 | hi)
    uniq, counts = np.unique(np.concatenate(keys), return_counts=True)
    return {(int(k >> 32), int(k & 0xFFFFFFFF)): int(n)
            for k, n in zip(uniq, counts, strict=True) if n >= min_border}


def _edges(pad: NDArray[np.int32]) -> tuple[NDArray[np.int64], ...]:
    """All directed boundary edges: (label, start vertex, end vertex, direction)."""
    w = pad.shape[1] + 1
    out = []
    up, down = pad[:-1, :], pad[1:, :]          # horizontal edges at rows 1..H+1
    r, c = np.nonzero(up != down)
    a, b = (r + 1) * w + c, (r + 1) * w + c + 1
    out += [(down[r, c], a, b, EAST), (up[r, c], b, a, WEST)]
    left, right = pad[:, :-1], pad[:, 1:]       # vertical edges at columns 1..W+1
    r, c = np.nonzero(left != right)
    a, b = r * w + c + 1, (r + 1) * w + c + 1
    out += [(left[r, c], a, b, SOUTH), (right[r, c], b, a, NORTH)]
    lab = np.concatenate([o[0] for o in out]).astype(np.int64)
    src = np.concatenate([o[1] for o in out]).astype(np.int64)
    dst = np.concatenate([o[2] for o in out]).astype(np.int64)
    drn = np.concatenate([np.full(len(o[1]), o[3]) for o in out]).astype(np.int64)
    return lab, src, dst, drn


def _nodes(pad: NDArray[np.int32]) -> NDArray[np.bool_]:
    """Corner grid flags: three or more spaces meet, or two meet diagonally."""
    node = np.zeros((pad.shape[0] + 1, pad.shape[1] + 1), dtype=bool)
    a, b, c, d = pad[:-1, :-1], pad[:-1, 1:], pad[1:, :-1], pad[1:, 1:]
    distinct = 1 + (b != a) + ((c != a) & (c != b)) + ((d != a) & (d != b) & (d != c))
    node[1:-1, 1:-1] = (distinct >= 3) | ((a == d) & (b == c) & (a != b))
    return node


def _rings(pad: NDArray[np.int32]) -> dict[int, list[list[int]]]:
    """Closed vertex loops per label (> 0), following edges with the label on the right."""
    lab, src, dst, drn = _edges(pad)
    order = np.lexsort((drn, src, lab))
    lab, src, dst, drn = lab[order], src[order], dst[order], drn[order]
    keys = lab << 32 | src
    uniq, first, count = np.unique(keys, return_index=True, return_counts=True)
    where = dict(zip(uniq.tolist(), zip(first.tolist(), count.tolist(), strict=True),
                     strict=True))
    lab_l, src_l, dst_l, drn_l = lab.tolist(), src.tolist(), dst.tolist(), drn.tolist()
    used = [False] * len(lab_l)
    rings: dict[int, list[list[int]]] = defaultdict(list)
    for start in range(len(lab_l)):
        if used[start] or lab_l[start] == 0:
            continue
        label, ring, i = lab_l[start], [], start
        while not used[i]:
            used[i] = True
            ring.append(src_l[i])
            j, n = where[label << 32 | dst_l[i]]
            if n == 2 and drn_l[j] != (drn_l[i] + 1) % 4:
                j += 1      # two spaces meet diagonally: turn right, keep pieces apart
            i = j
        rings[label].append(ring)
    return rings


def _douglas_peucker(xy: NDArray[np.float64], tol: float) -> list[int]:
    """Indices of ``xy`` kept by Douglas-Peucker; a closed arc keeps a triangle or more."""
    kept = {0, len(xy) - 1}
    stack = [(0, len(xy) - 1, False)]
    if len(xy) > 2 and (xy[0] == xy[-1]).all():
        far = 1 + int(np.argmax(np.hypot(*(xy[1:-1] - xy[0]).T)))
        kept.add(far)
        stack = [(0, far, True), (far, len(xy) - 1, True)]
    while stack:
        a, b, force = stack.pop()
        if b - a < 2:
            continue
        seg, d = xy[a + 1:b] - xy[a], xy[b] - xy[a]
        length = float(np.hypot(*d))
        dist = (np.abs(d[0] * seg[:, 1] - d[1] * seg[:, 0]) / length if length
                else np.hypot(*seg.T))
        m = int(np.argmax(dist))
        if dist[m] > tol or force:
            kept.add(a + 1 + m)
            stack += [(a, a + 1 + m, False), (a + 1 + m, b, False)]
    return sorted(kept)


def _area(xy: NDArray[np.float64]) -> float:
    x, y = xy[:, 0], xy[:, 1]
    return 0.5 * abs(float(x[:-1] @ y[1:] - y[:-1] @ x[1:] + x[-1] * y[0] - y[-1] * x[0]))


def _shared(arc: list[int], cache: dict[tuple[int, int], list[int]],
            raw: set[tuple[int, int]], tolerance: float, xy: Any) -> list[int]:
    """``arc`` simplified, or the neighbour's simplification of it reversed."""
    back = cache.get((arc[-1], arc[-2]))
    if back is not None:
        return back[::-1]
    tol = 1e-9 if (arc[0], arc[1]) in raw or (arc[-1], arc[-2]) in raw else tolerance
    out = arc if len(arc) < 3 else [arc[i] for i in _douglas_peucker(xy(arc), tol)]
    cache[(arc[0], arc[1])] = out
    return out


def trace(labels: NDArray[np.int32], tolerance: float = 1.0) -> dict[int, list[NDArray[Any]]]:
    """Rings (arrays of pixel-corner x, y) per label, shared arcs simplified once."""
    pad = np.pad(labels.astype(np.int32), 1)
    w = pad.shape[1] + 1
    node = _nodes(pad).ravel()
    rings = _rings(pad)

    def xy(verts: list[int]) -> NDArray[np.float64]:
        v = np.asarray(verts)
        out = np.empty((len(v), 2))
        out[:, 0], out[:, 1] = v % w - 1, v // w - 1
        return out

    arcs: dict[int, list[list[list[int]]]] = {}
    size: dict[tuple[int, int], float] = {}
    for label, loops in rings.items():
        arcs[label] = []
        for n, ring in enumerate(loops):
            size[(label, n)] = _area(xy(ring))
            at = [i for i, v in enumerate(ring) if node[v]] or [ring.index(min(ring))]
            ring = ring[at[0]:] + ring[:at[0]] + [ring[at[0]]]
            cuts = [i - at[0] for i in at] + [len(ring) - 1]
            arcs[label].append([ring[a:b + 1] for a, b in pairwise(cuts)])
    raw: set[tuple[int, int]] = set()
    for _ in range(4):
        cache: dict[tuple[int, int], list[int]] = {}
        shapes: dict[int, list[NDArray[Any]]] = defaultdict(list)
        bad = 0
        for label, ring_arcs in arcs.items():
            for n, parts in enumerate(ring_arcs):
                verts = [v for arc in parts for v in _shared(arc, cache, raw, tolerance, xy)[:-1]]
                before = size[(label, n)]
                if len(set(verts)) < 3 or abs(_area(xy(verts)) - before) > 0.25 * before:
                    fresh = {(a[0], a[1]) for a in parts} - raw
                    if fresh:   # collapsed: keep this ring's arcs raw on the next pass
                        raw |= fresh
                        bad += 1
                shapes[label].append(xy(verts))
        if not bad:
            break
    return shapes


def rasterise(rings: dict[str, list[list[Point]]], size: tuple[int, int],
              scale: float = 1.0) -> tuple[NDArray[np.int32], list[str]]:
    """Draw each space's rings back (PIL, even-odd, pixel centres sampled at 2x)."""
    width, height = size
    out = np.zeros((height, width), dtype=np.int32)
    names = sorted(rings)
    for num, name in enumerate(names, start=1):
        mask = np.zeros((height, width), dtype=bool)
        for ring in rings[name]:    # even-odd: each ring flips the pixels it covers
            pts = np.asarray(ring, dtype=np.float64) / scale
            lo = np.maximum(np.floor(pts.min(axis=0)), 0).astype(int)
            hi = np.minimum(np.ceil(pts.max(axis=0)), (width, height)).astype(int)
            if (hi <= lo).any():
                continue
            im = Image.new("1", tuple(2 * (hi - lo) + 2))
            ImageDraw.Draw(im).polygon([tuple(2 * (p - lo)) for p in pts], fill=1)
            mask[lo[1]:hi[1], lo[0]:hi[0]] ^= np.array(im)[1::2, 1::2][: hi[1] - lo[1],
                                                                       : hi[0] - lo[0]]
        out[mask] = num
    return out, names


def _fmt(v: float) -> float | int:
    r = round(v, 1)
    return int(r) if r == int(r) else r


def _point(p: Any, scale: float) -> list[float | int] | None:
    return None if p is None else [_fmt(float(p[0]) * scale), _fmt(float(p[1]) * scale)]


def _inside_point(mask: NDArray[np.bool_]) -> list[float]:
    """The point farthest from the edge of ``mask`` (pixel centre)."""
    dist = ndimage.distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1]
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    return [x + 0.5, y + 0.5]


def build_shapes(labels: NDArray[np.int32], meta: dict[str, Any],
                 tolerance: float = 1.0) -> dict[str, Any]:
    """The shapes file's content for a label raster and its meta."""
    scale = float(meta.get("scale", 1.0))
    ids = {int(k): v for k, v in meta["ids"].items()}
    traced = trace(labels, tolerance)
    spaces: dict[str, Any] = {}
    for prov in sorted(set(ids.values())):
        nums = [n for n, p in ids.items() if p == prov]
        rings = [[[_fmt(x * scale), _fmt(y * scale)] for x, y in ring]
                 for n in nums for ring in traced.get(n, [])]
        spot: dict[str, Any] = {}
        for key in ("label", "unit"):
            spot[key] = meta.get(key + "s", {}).get(prov)
            if spot[key] is None:
                print(f"note: no {key} point for {prov}; using its innermost pixel",
                      file=sys.stderr)
                spot[key] = _inside_point(np.isin(labels, nums))
        spaces[prov] = {"rings": rings, "label": _point(spot["label"], scale),
                        "unit": _point(spot["unit"], scale),
                        "centre": _point(meta.get("centres", {}).get(prov), scale)}
    connectors = [{**c, "points": [_point(p, scale) for p in c["points"]]}
                  for c in meta.get("connectors", [])]
    return {"variant": meta["variant"], "width": _fmt(labels.shape[1] * scale),
            "height": _fmt(labels.shape[0] * scale), "spaces": spaces,
            "coasts": {k: _point(v, scale) for k, v in sorted(meta.get("coasts", {}).items())},
            "connectors": connectors}


def dumps(shapes: dict[str, Any]) -> str:
    """Compact JSON with one space (and one connector) per line, for readable diffs."""
    def js(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"))
    head = {k: shapes[k] for k in ("variant", "width", "height")}
    lines = ["{" + js(head)[1:-1] + ',"spaces":{']
    lines += [f"{js(k)}:{js(v)}," for k, v in shapes["spaces"].items()]
    lines[-1] = lines[-1].rstrip(",")
    lines += ['},"coasts":' + js(shapes["coasts"]) + ',"connectors":[']
    lines += [js(c) + "," for c in shapes["connectors"]]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join([*lines, "]}"]) + "\n"


def _pairs(raster: NDArray[np.int32], names: dict[int, str]) -> dict[Pair, int]:
    """Province pairs touching along >= 3 pixel edges."""
    total: dict[Pair, int] = defaultdict(int)
    for (a, b), n in touching(raster, 1).items():
        pa, pb = names.get(a), names.get(b)
        if pa and pb and pa != pb:
            total[(min(pa, pb), max(pa, pb))] += n
    return {p: n for p, n in total.items() if n >= 3}


def check(shapes: dict[str, Any], labels: NDArray[np.int32], meta: dict[str, Any],
          variant: str) -> list[str]:
    """Every difference between rings, label raster, points and the variant's links."""
    from standoff.core.variant import load_variant

    problems: list[str] = []
    scale = float(meta.get("scale", 1.0))
    ids = {int(k): v for k, v in meta["ids"].items()}
    back, order = rasterise({k: v["rings"] for k, v in shapes["spaces"].items()},
                            (labels.shape[1], labels.shape[0]), scale)
    drawn = _pairs(back, dict(enumerate(order, start=1)))
    raster = _pairs(labels, ids)
    same = np.array([0, *[order.index(ids[n]) + 1 if n in ids else 0
                          for n in range(1, int(labels.max()) + 1)]])[labels] == back
    print(f"rings drawn back: {int((~same).sum())} of {same.size} pixels differ "
          f"from the label raster; {len(raster)} touching pairs")
    for p in sorted(set(raster) ^ set(drawn)):
        problems.append(f"{p[0]}-{p[1]}: touch {raster.get(p, 0)} px on the label raster, "
                        f"{drawn.get(p, 0)} px drawn back")
    board = load_variant(variant).board
    links = {(min(a, b), max(a, b)) for table in (board.army_links, board.fleet_links)
             for x, ys in table.items() for y in ys
             for a, b in [(x.split("/")[0], y.split("/")[0])] if a != b}
    links |= {(min(a, b), max(a, b)) for a, b in board.strike_only}
    drawn_as = {(min(c["a"], c["b"]), max(c["a"], c["b"])) for c in meta.get("connectors", [])}
    wall = {p for p, v in board.provinces.items() if v.terrain.value == "impassable"}
    for p in sorted((set(raster) ^ links) - drawn_as):
        if not wall & set(p):
            problems.append(f"{p[0]}-{p[1]}: " + ("linked in the variant but not touching"
                            if p in links else f"touching ({raster[p]} px) but not linked"))
    for pid in sorted(set(board.provinces) ^ set(shapes["spaces"])):
        problems.append(f"{pid}: " + ("no shape" if pid in board.provinces else "not in variant"))
    points = [(f"{k} {what}", k, sp[what]) for k, sp in shapes["spaces"].items()
              for what in ("unit", "label", "centre") if sp[what] is not None]
    points += [(f"coast {k}", k.split("/")[0], v) for k, v in shapes["coasts"].items()]
    points += [(f"connector {c['a']}-{c['b']} point {i}", None, p)
               for c in shapes["connectors"] for i, p in enumerate(c["points"])]
    h, w = labels.shape
    for what, prov, (x, y) in points:
        px, py = int(x / scale), int(y / scale)
        if not (0 <= px < w and 0 <= py < h):
            problems.append(f"{what} ({x}, {y}) is outside the map")
        elif prov is not None and ids.get(int(labels[py, px])) != prov:
            problems.append(f"{what} ({x}, {y}) is in "
                            f"{ids.get(int(labels[py, px]), 'nothing')}, not {prov}")
    return problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("labels", type=Path, help="labels.npy: int32 space numbers, 0 = none")
    ap.add_argument("meta", type=Path, help="meta.json: ids, points, connectors, scale")
    ap.add_argument("-o", "--out", type=Path, required=True, help="shapes file to write")
    ap.add_argument("--tolerance", type=float, default=1.0,
                    help="largest distance (pixels) a simplified border may move")
    ap.add_argument("--check", metavar="VARIANT", help="compare with this variant's links")
    args = ap.parse_args()
    labels = np.load(args.labels).astype(np.int32)
    meta = json.loads(args.meta.read_text())
    shapes = build_shapes(labels, meta, args.tolerance)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dumps(shapes))
    points = sum(len(r) for sp in shapes["spaces"].values() for r in sp["rings"])
    print(f"wrote {args.out}: {len(shapes['spaces'])} spaces, {points} points, "
          f"{args.out.stat().st_size} bytes")
    if args.check:
        problems = check(shapes, labels, meta, args.check)
        for p in problems:
            print("DIFF:", p)
        print(f"check against {args.check}: {len(problems)} difference(s)")
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
