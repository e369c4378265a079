"""Measure the Standard map into a label raster (and Sahara's, which adds three spaces).

Why this exists: ``standoff render`` draws boards from shapes files that must be our
own artwork. This tool only MEASURES a reference map: it reads the province outlines
of a reference SVG (the jDip standard map, GPL: nothing of it is written out), paints
each province with its own label number on a small canvas, gives the black border
pixels to the nearest province, and writes

* ``OUT/standard/labels.npy`` + ``meta.json`` (the Standard board), and
* ``OUT/sahara/labels.npy`` + ``meta.json`` (the same board plus Caspian Sea, Ireland
  and Iceland carved out where the reference draws them as unplayable scenery),

which ``tools/trace_shapes.py`` turns into ``src/standoff/render/maps/<variant>.json``.
Only facts are taken from the reference: which pixel lies in which province, and the
unit, supply-centre and abbreviation positions. Scenery that no province claims (the
islands of Iceland, Ireland, Corsica, Sardinia, the Balearics, Sicily, Crete, Cyprus,
and the Caspian Sea) stays 0 on the Standard raster, so the renderer shows it as
background; the frame around the map is cropped off. Both rasters are then checked
against the variants' adjacency (two spaces touch along >= ``MIN_BORDER`` pixels iff
they are linked; a space touching an impassable one is no link): the measured
outlines pass as they are, with no pixel edited by hand.

Run: ``python tools/standard_labels.py REFERENCE.svg -o /tmp/render``
Needs the ``tools`` extra (``pip install -e '.[tools]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage

SVG = "{http://www.w3.org/2000/svg}"
JDIP = "{svg.dtd}"

#: output canvas width in pixels (the reference viewBox is 1835 x 1360)
WIDTH = 1200
#: two spaces are neighbours when they touch along at least this many pixel pairs
MIN_BORDER = 3
#: Bezier curves are flattened into this many straight pieces
CURVE_STEPS = 8

#: the reference's label classes: font size in em (of 16 px)
FONT_EM = {"labeltext24": 1.4, "labeltext18": 1.1}
#: reference province ids that differ from the variant's
RENAME = {"nat": "nao", "nrg": "nwg", "mid": "mao", "gol": "lyo", "tyn": "tys"}


# -- reading the reference ---------------------------------------------------------------


def _by_id(root: ET.Element, ident: str) -> ET.Element:
    for e in root.iter():
        if e.get("id") == ident:
            return e
    raise SystemExit(f"reference has no element {ident!r}")


def _translate(e: ET.Element) -> tuple[float, float]:
    m = re.match(r"\s*translate\(\s*([-\d.]+)[\s,]+([-\d.]+)\s*\)", e.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


Ring = list[tuple[float, float]]


def _subpaths(d: str) -> list[Ring]:
    """Flatten an absolute M/L/C/Z path into closed point lists."""
    tokens = re.findall(r"[MLCZmlcz]|-?\d*\.?\d+(?:[eE][-+]?\d+)?", d)
    out: list[Ring] = []
    cur: Ring = []
    i, cmd = 0, ""
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                if cur:
                    out.append(cur)
                cur = []
            continue
        if cmd not in "MLC":
            raise SystemExit(f"unsupported path command {cmd!r}")
        n = 6 if cmd == "C" else 2
        v = [float(t) for t in tokens[i:i + n]]
        i += n
        if cmd == "M":
            if cur:
                out.append(cur)
            cur = [(v[0], v[1])]
            cmd = "L"
        elif cmd == "L":
            cur.append((v[0], v[1]))
        else:
            x0, y0 = cur[-1]
            for k in range(1, CURVE_STEPS + 1):
                t = k / CURVE_STEPS
                a, b, c, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
                cur.append((a * x0 + b * v[0] + c * v[2] + e * v[4],
                            a * y0 + b * v[1] + c * v[3] + e * v[5]))
    if cur:
        out.append(cur)
    return out


class Reference:
    """What is measured from the reference SVG (in its viewBox coordinates)."""

    def __init__(self, path: Path) -> None:
        root = ET.parse(path).getroot()
        box = [float(x) for x in root.get("viewBox", "").split()]
        self.view_w, self.view_h = box[2], box[3]
        mouse = _by_id(root, "MouseLayer")
        dx, dy = _translate(mouse)
        #: province id -> its paths, each a list of flattened sub-paths (viewBox coordinates)
        self.provinces: dict[str, list[list[Ring]]] = {}
        for e in mouse:
            ident = e.get("id", "")
            if "-" in ident:  # coast click areas (stp-nc, ...) overlap their province
                continue
            # a group (con, den) is the union of its paths; each path fills non-zero
            self.provinces[RENAME.get(ident, ident)] = [
                [[(x + dx, y + dy) for x, y in ring] for ring in _subpaths(p.get("d", ""))]
                for p in e.iter(SVG + "path")]
        # scenery the map layer draws that no province claims: neutral islands and a sea
        mapl = _by_id(root, "MapLayer")
        mx, my = _translate(mapl)
        claimed = {p.get("d") for p in mouse.iter(SVG + "path")}
        self.scenery: list[tuple[str, Ring]] = []
        for p in mapl.iter(SVG + "path"):
            if p.get("d") in claimed:
                continue
            for ring in _subpaths(p.get("d", "")):
                self.scenery.append((p.get("class", ""), [(x + mx, y + my) for x, y in ring]))
        self.units: dict[str, tuple[float, float]] = {}
        for prov in root.iter(JDIP + "PROVINCE"):
            unit = prov.find(JDIP + "UNIT")
            if unit is not None:
                name = prov.get("name", "").replace("-", "/")
                base, _, coast = name.partition("/")
                self.units[RENAME.get(base, base) + ("/" + coast if coast else "")] = (
                    float(unit.get("x", 0)), float(unit.get("y", 0)))
        self.centres: dict[str, tuple[float, float]] = {}
        for u in _by_id(root, "SupplyCenterLayer").iter(SVG + "use"):
            ident = u.get("id", "")[3:].lower()
            w, h = float(u.get("width", 0)), float(u.get("height", 0))
            self.centres[ident] = (float(u.get("x", 0)) + w / 2, float(u.get("y", 0)) + h / 2)
        #: abbreviation -> middle of its printed text
        self.labels: dict[str, tuple[float, float]] = {}
        layer = _by_id(root, "BriefLabelLayer")
        for t in layer.iter(SVG + "text"):
            x, y = float(t.get("x", 0)), float(t.get("y", 0))
            tx, ty = _translate(t)
            turn = re.search(r"rotate\(\s*([-\d.]+)", t.get("transform", ""))
            font = FONT_EM[t.get("class", "") or layer.get("class", "")] * 16
            name = (t.text or "").strip().lower()
            self.labels[RENAME.get(name, name)] = _text_centre(
                (x + tx, y + ty), font, float(turn.group(1)) if turn else 0.0)


# -- painting -------------------------------------------------------------------------------


class Transform:
    """viewBox coordinates -> output pixel coordinates (pixel (i, j) spans [j, j+1) x
    [i, i+1), so its centre is at (j + 0.5, i + 0.5))."""

    def __init__(self, x0: float, y0: float, scale: float) -> None:
        self.x0, self.y0, self.scale = x0, y0, scale

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.scale, (y - self.y0) * self.scale


def _ring_mask(ring: Ring, to_px: Transform, shape: tuple[int, int]) -> NDArray[np.bool_]:
    img = Image.new("1", (shape[1], shape[0]), 0)
    # PIL fills pixels by their integer corner: shift so a pixel is in when its centre is
    pts = [to_px(x, y) for x, y in ring]
    ImageDraw.Draw(img).polygon([(x - 0.5, y - 0.5) for x, y in pts], fill=1)
    return np.array(img, dtype=bool)


def _signed_area(ring: Ring) -> float:
    pairs = zip(ring, ring[1:] + ring[:1], strict=True)
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in pairs) / 2


def _path_mask(rings: list[Ring], to_px: Transform, shape: tuple[int, int]) -> NDArray[np.bool_]:
    """Non-zero fill of one path whose sub-paths nest (SVG's default fill rule)."""
    winding = np.zeros(shape, dtype=np.int32)
    for ring in rings:
        area = _signed_area(ring)
        if area:
            winding += np.where(_ring_mask(ring, to_px, shape), 1 if area > 0 else -1, 0)
    filled: NDArray[np.bool_] = winding != 0
    return filled


def map_box(ref: Reference) -> tuple[float, float, float, float]:
    """The map's extent in viewBox coordinates (the frame around it is left out)."""
    pts = [pt for paths in ref.provinces.values() for path in paths for ring in path
           for pt in ring]
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return min(xs), min(ys), max(xs), max(ys)


def paint(ref: Reference, ids: list[str], to_px: Transform, shape: tuple[int, int]
          ) -> tuple[NDArray[np.int32], NDArray[np.bool_]]:
    """Label raster of the reference's provinces (``ids[k - 1]`` is label k).

    A pixel claimed by exactly one province is that province's; the scenery no
    province claims (islands, the Caspian) is 0; the black strokes and the few
    pixels two outlines both claim take the value of the nearest of those pixels.
    Returns the labels and the scenery mask.
    """
    count = np.zeros(shape, dtype=np.int32)
    owner = np.zeros(shape, dtype=np.int32)
    for k, pid in enumerate(ids, 1):
        m = np.zeros(shape, dtype=bool)
        for path in ref.provinces[pid]:
            m |= _path_mask(path, to_px, shape)
        count += m
        owner[m] = k
    scenery = np.zeros(shape, dtype=bool)
    for _cls, ring in ref.scenery:
        scenery |= _ring_mask(ring, to_px, shape)
    owner[scenery] = 0
    sure = (count == 1) | scenery
    _, (iy, ix) = ndimage.distance_transform_edt(~sure, return_indices=True)
    return owner[iy, ix].astype(np.int32), scenery & (owner[iy, ix] == 0)


# -- checking -------------------------------------------------------------------------------


def touching(labels: NDArray[np.int32]) -> dict[tuple[int, int], int]:
    """Label pairs -> number of 4-neighbour pixel pairs along their border."""
    out: dict[tuple[int, int], int] = defaultdict(int)
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = (a != b) & (a > 0) & (b > 0)
        pairs = np.stack([np.minimum(a[diff], b[diff]), np.maximum(a[diff], b[diff])], axis=1)
        uniq, n = np.unique(pairs, axis=0, return_counts=True)
        for (x, y), c in zip(uniq.tolist(), n.tolist(), strict=True):
            out[(x, y)] += c
    return dict(out)


def adjacency(variant: Any) -> set[tuple[str, str]]:
    """Province pairs with an army or fleet link on the variant's board."""
    out = set()
    for p, near in variant.board.neighbours.items():
        for q in near:
            if p != q:
                out.add((min(p, q), max(p, q)))
    return out


def compare(labels: NDArray[np.int32], ids: list[str], expected: set[tuple[str, str]],
            impassable: set[str]) -> tuple[list[str], list[str], dict[tuple[str, str], int]]:
    """(missing pairs, extra pairs, touching lengths); pairs with an impassable space
    are not links and are left out of the comparison."""
    touch = {(min(ids[a - 1], ids[b - 1]), max(ids[a - 1], ids[b - 1])): n
             for (a, b), n in touching(labels).items()}
    seen = {p for p, n in touch.items() if n >= MIN_BORDER and not (set(p) & impassable)}
    want = {p for p in expected if not (set(p) & impassable)}
    missing = sorted(f"{a}-{b} ({touch.get((a, b), 0)} px)" for a, b in want - seen)
    extra = sorted(f"{a}-{b} ({touch[(a, b)]} px)" for a, b in seen - want)
    return missing, extra, touch


# -- points -----------------------------------------------------------------------------------

#: an abbreviation's centre keeps out of these boxes (half width, half height; pixels)
#: around a unit spot and a centre marker, so the drawn text (3 letters, 0.9 unit
#: high; a unit is 2 units wide; the renderer's unit is 1/150 of the map) covers neither
LABEL_CLEAR_UNIT = (15.0, 12.0)
LABEL_CLEAR_CENTRE = (10.0, 7.5)
#: a placed centre marker keeps this far (pixels) from the unit spot
CENTRE_GAP = 12.0
#: how far (pixels) a placed point keeps from its space's edge, where the space allows it
EDGE_GAP = 3.0


def _inside(labels: NDArray[np.int32], k: int) -> NDArray[np.float64]:
    """Distance of each pixel of label ``k`` to the nearest pixel outside it."""
    return np.asarray(ndimage.distance_transform_edt(np.pad(labels == k, 1)))[1:-1, 1:-1]


def _at(labels: NDArray[np.int32], pt: tuple[float, float]) -> int:
    x, y = pt
    h, w = labels.shape
    if not (0 <= x < w and 0 <= y < h):
        return 0
    return int(labels[int(y), int(x)])


Box = tuple[tuple[float, float], tuple[float, float]]


def _clear(px: Any, py: Any, box: Box) -> Any:
    (ax, ay), (hw, hh) = box
    return (np.abs(px - ax) >= hw) | (np.abs(py - ay) >= hh)


def place(labels: NDArray[np.int32], k: int, want: tuple[float, float] | None,
          avoid: list[Box], edge: float = EDGE_GAP) -> tuple[float, float]:
    """A pixel centre of label ``k`` at least ``edge`` from its edge (or as deep as the
    space allows) and outside each ``avoid`` box (centre, half sizes), nearest to
    ``want`` (the space's deepest pixel when ``want`` is None)."""
    depth = _inside(labels, k)
    ys, xs = np.nonzero(depth >= min(edge, depth.max()))
    px, py = xs + 0.5, ys + 0.5
    ok = np.ones(len(xs), dtype=bool)
    for box in avoid:
        ok &= _clear(px, py, box)
    if not ok.any():  # too small for the boxes: keep as far from them as it can
        far = np.min([np.hypot(px - ax, py - ay) for (ax, ay), _ in avoid], axis=0)
        ok = far >= far.max()
    px, py = px[ok], py[ok]
    d = -depth[ys[ok], xs[ok]] if want is None else np.hypot(px - want[0], py - want[1])
    i = int(np.argmin(d))
    return float(px[i]), float(py[i])


def _text_centre(ref_anchor: tuple[float, float], font: float, angle: float
                 ) -> tuple[float, float]:
    """Middle of a text drawn centred on ``ref_anchor``'s baseline, turned by ``angle``."""
    a = math.radians(angle)
    dx, dy = 0.0, -0.35 * font
    return (ref_anchor[0] + dx * math.cos(a) - dy * math.sin(a),
            ref_anchor[1] + dx * math.sin(a) + dy * math.cos(a))


# -- the two boards ---------------------------------------------------------------------------

#: pixels of a new space's body left as scenery along a neighbour it must not touch
CARVE_MARGIN = 4.0


def carve(labels: NDArray[np.int32], k: int, wanted: set[int]) -> tuple[int, int, set[int]]:
    """Turn the unclaimed scenery beside all of ``wanted`` into space ``k``.

    The scenery piece bordering every label of ``wanted`` becomes ``k``; where it also
    borders another space, a margin of ``CARVE_MARGIN`` pixels along that space stays
    scenery so ``k`` touches ``wanted`` only. Returns the pixels given to ``k``, the
    pixels kept as scenery, and the other spaces the scenery borders.
    """
    pieces, n = ndimage.label(labels == 0)
    best, best_size = 0, 0
    for c in range(1, n + 1):
        m = pieces == c
        around = set(np.unique(labels[ndimage.binary_dilation(m) & ~m]).tolist()) - {0}
        if wanted <= around and m.sum() > best_size:
            best, best_size = c, int(m.sum())
    if not best:
        raise SystemExit(f"no scenery borders all of {sorted(wanted)}")
    body = pieces == best
    around = set(np.unique(labels[ndimage.binary_dilation(body) & ~body]).tolist()) - {0}
    others = around - wanted
    if others:
        dist = ndimage.distance_transform_edt(~np.isin(labels, list(others)))
        body &= dist > CARVE_MARGIN
        pieces2, n2 = ndimage.label(body)
        if n2 > 1:
            sizes = ndimage.sum(body, pieces2, range(1, n2 + 1))
            body = pieces2 == int(np.argmax(sizes)) + 1
    labels[body] = k
    return int(body.sum()), best_size - int(body.sum()), others


def points(ref: Reference, labels: NDArray[np.int32], ids: list[str], to_px: Transform,
           coasts: list[str], extra_centres: list[str], notes: list[str]) -> dict[str, Any]:
    """Unit, coast, centre and abbreviation spots in pixel coordinates."""
    num = {pid: k for k, pid in enumerate(ids, 1)}
    units: dict[str, tuple[float, float]] = {}
    for pid in ids:
        if pid in ref.units:
            pt = _r(to_px(*ref.units[pid]))
            if _at(labels, pt) != num[pid]:
                moved = place(labels, num[pid], pt, [], edge=1.0)
                notes.append(f"unit spot of {pid} lay {math.dist(pt, moved):.1f} px outside "
                             "its space: moved to the nearest pixel inside")
                pt = moved
        else:
            pt = place(labels, num[pid], None, [])
            notes.append(f"unit spot of {pid}: its deepest pixel (the reference has none)")
        units[pid] = pt
    coast_pts = {}
    for c in coasts:
        pt = _r(to_px(*ref.units[c]))
        if _at(labels, pt) != num[c.split("/")[0]]:
            moved = place(labels, num[c.split("/")[0]], pt, [], edge=1.0)
            notes.append(f"coast spot {c} lay {math.dist(pt, moved):.1f} px outside "
                         "its space: moved to the nearest pixel inside")
            pt = moved
        coast_pts[c] = pt
    centres: dict[str, tuple[float, float]] = {}
    for pid, at in ref.centres.items():
        pt = _r(to_px(*at))
        if _at(labels, pt) != num[pid]:
            moved = place(labels, num[pid], pt, [], edge=1.0)
            notes.append(f"centre marker of {pid} lay {math.dist(pt, moved):.1f} px outside "
                         "its space: moved to the nearest pixel inside")
            pt = moved
        centres[pid] = pt
    for pid in extra_centres:  # spaces with no reference label: marker before label
        if pid not in centres and pid not in ref.labels:
            centres[pid] = _beside(labels, num[pid], units[pid], None)
            notes.append(f"centre marker of {pid} placed by the tool (not a Standard centre)")
    label_pts: dict[str, tuple[float, float]] = {}
    for pid in ids:
        spots = [units[pid]] + [p for c, p in coast_pts.items() if c.startswith(pid + "/")]
        avoid = [(p, LABEL_CLEAR_UNIT) for p in spots]
        if pid in centres:
            avoid.append((centres[pid], LABEL_CLEAR_CENTRE))
        want = _r(to_px(*ref.labels[pid])) if pid in ref.labels else None
        ok = want is not None and _at(labels, want) == num[pid] and all(
            _clear(want[0], want[1], box) for box in avoid)
        if not ok:
            # no reference spot: just below the unit spot, as the reference mostly does
            below = (units[pid][0], units[pid][1] + LABEL_CLEAR_UNIT[1] + 2)
            pt = place(labels, num[pid], want or below, avoid)
            why = "none in the reference: below the unit spot" if want is None else (
                f"moved {math.dist(want, pt):.1f} px (reference spot "
                + ("outside the space" if _at(labels, want) != num[pid] else "on a spot") + ")")
            notes.append(f"abbreviation of {pid}: {why}")
            want = pt
        assert want is not None  # ok: the reference spot; else the placed one
        label_pts[pid] = want
    for pid in extra_centres:
        if pid not in centres:
            centres[pid] = _beside(labels, num[pid], units[pid], label_pts[pid])
            notes.append(f"centre marker of {pid} placed by the tool (not a Standard centre)")

    def r(p: tuple[float, float]) -> list[float]:
        return list(_r(p))

    return {"units": {k: r(v) for k, v in units.items()},
            "coasts": {k: r(v) for k, v in coast_pts.items()},
            "centres": {k: r(v) for k, v in sorted(centres.items())},
            "labels": {k: r(v) for k, v in label_pts.items()}}


def _beside(labels: NDArray[np.int32], k: int, unit: tuple[float, float],
            label: tuple[float, float] | None) -> tuple[float, float]:
    """A centre marker spot: to the right of the unit spot, clear of it and the label."""
    avoid: list[Box] = [(unit, (CENTRE_GAP, CENTRE_GAP))]
    if label is not None:
        avoid.append((label, LABEL_CLEAR_CENTRE))
    return place(labels, k, (unit[0] + CENTRE_GAP + 1, unit[1]), avoid)


def _r(p: tuple[float, float]) -> tuple[float, float]:
    """Rounded as written (1 decimal), so the inside test sees the written point."""
    return round(p[0], 1), round(p[1], 1)


def _write(out: Path, variant: str, labels: NDArray[np.int32], ids: list[str],
           pts: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / "labels.npy", labels.astype(np.int32))
    meta = {"variant": variant, "ids": {str(k): pid for k, pid in enumerate(ids, 1)},
            **pts, "connectors": [], "scale": 1.0}
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")


def preview(labels: NDArray[np.int32], ids: list[str], pts: dict[str, Any], path: Path) -> None:
    """A picture of the raster with the spots, for a person to look at."""
    rng = np.random.default_rng(7)
    pal = rng.integers(90, 256, (len(ids) + 1, 3)).astype(np.uint8)
    pal[0] = (40, 40, 40)
    img = Image.fromarray(pal[labels])
    d = ImageDraw.Draw(img)
    for x, y in pts["units"].values():
        d.ellipse([x - 4, y - 4, x + 4, y + 4], outline=(0, 0, 0))
    for x, y in pts["coasts"].values():
        d.ellipse([x - 4, y - 4, x + 4, y + 4], outline=(200, 0, 0))
    for x, y in pts["centres"].values():
        d.rectangle([x - 2, y - 2, x + 2, y + 2], fill=(0, 0, 0))
    for pid, (x, y) in pts["labels"].items():
        d.text((x - 3 * len(pid), y - 5), pid.upper(), fill=(0, 0, 0))
    img.save(path)


def check(name: str, labels: NDArray[np.int32], ids: list[str], expected: set[tuple[str, str]],
          impassable: set[str]) -> bool:
    missing, extra, touch = compare(labels, ids, expected, impassable)
    walls = sorted(f"{a}-{b}" for (a, b), n in touch.items()
                   if n >= MIN_BORDER and {a, b} & impassable)
    short = sorted(f"{a}-{b} ({n} px)" for (a, b), n in touch.items() if n < MIN_BORDER)
    print(f"{name}: {len(ids)} spaces, {labels.shape[1]}x{labels.shape[0]} px; "
          f"missing {missing or 'none'}; extra {extra or 'none'}")
    print(f"  touching an impassable space (not links): {' '.join(walls) or 'none'}")
    if short:
        print(f"  corners under {MIN_BORDER} px (not borders): {' '.join(short)}")
    return not missing and not extra


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("svg", type=Path, help="the reference map (measured, never copied)")
    ap.add_argument("-o", "--out", type=Path, default=Path("/tmp/render"))
    ap.add_argument("--preview", action="store_true", help="also write preview.png")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from standoff.core.geography import Terrain
    from standoff.core.variant import load_variant, variant_data

    ref = Reference(args.svg)
    x0, y0, x1, y1 = map_box(ref)
    scale = WIDTH / (x1 - x0)
    to_px = Transform(x0, y0, scale)
    shape = (math.ceil((y1 - y0) * scale), WIDTH)
    ok = True

    std = load_variant("standard")
    ids = sorted(std.board.provinces)
    if set(ids) != set(ref.provinces):
        raise SystemExit(f"ids differ from the reference: {sorted(set(ids) ^ set(ref.provinces))}")
    labels, _ = paint(ref, ids, to_px, shape)
    impassable = {p for p, pr in std.board.provinces.items() if pr.terrain is Terrain.IMPASSABLE}
    coasts = sorted(c for pr in std.board.provinces.values() for c in pr.coasts)
    notes: list[str] = []
    pts = points(ref, labels, ids, to_px, coasts, [], notes)
    ok &= check("standard", labels, ids, adjacency(std), impassable)
    _write(args.out / "standard", "standard", labels, ids, pts)
    if args.preview:
        preview(labels, ids, pts, args.out / "standard" / "preview.png")
    for n in notes:
        print("  standard:", n)

    # Sahara: the same board; the scenery it makes spaces of is carved out of the raster
    sah = load_variant("sahara")
    data = variant_data("sahara")
    sids = sorted(sah.board.provinces)
    new = [p for p in sids if p not in std.board.provinces]
    borders = [tuple(e.split("-")) for e in data["map_changes"]["borders"].split()]
    old_num = {pid: k for k, pid in enumerate(ids, 1)}
    remap = np.zeros(len(ids) + 1, dtype=np.int32)
    for pid, k in old_num.items():
        remap[k] = sids.index(pid) + 1
    slabels = remap[labels]
    notes = []
    for pid in new:
        wanted = {sids.index(b if a == pid else a) + 1 for a, b in borders if pid in (a, b)}
        size, kept, others = carve(slabels, sids.index(pid) + 1, wanted)
        notes.append(f"{pid} ({size} px): the unclaimed scenery beside "
                     + " and ".join(sids[k - 1] for k in sorted(wanted))
                     + (f"; {kept} px along {' '.join(sids[k - 1] for k in sorted(others))} "
                        f"kept as scenery (margin {CARVE_MARGIN:g} px)" if others else ", whole"))
    gained = sorted({p for step in data["map_changes"]["schedule"]
                     for key in ("centre_gained", "centres_only") for p in step.get(key, [])})
    spts = points(ref, slabels, sids, to_px, coasts, gained, notes)
    first = adjacency(sah) | {(min(a, b), max(a, b)) for a, b in borders}
    s_impassable = {p for p, pr in sah.board.provinces.items()
                    if pr.terrain is Terrain.IMPASSABLE and p not in new}
    ok &= check("sahara (first board + map_changes borders)", slabels, sids, first, s_impassable)
    changed = (labels > 0) & (slabels != remap[labels])
    if changed.any():
        print(f"  sahara: {int(changed.sum())} pixels of Standard spaces changed")
        ok = False
    _write(args.out / "sahara", "sahara", slabels, sids, spts)
    if args.preview:
        preview(slabels, sids, spts, args.out / "sahara" / "preview.png")
    for n in notes:
        print("  sahara:", n)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
