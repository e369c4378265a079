"""The Twentieth Century's label raster and points, for tools/trace_shapes.py.

Why this exists: the renderer needs the shapes of this variant's 300 spaces, and
the variant itself was built from the digitiser's segmentation of the small
reference map (tools/digitise_map.py) with the region files of
tools/twentieth/. Tracing that same segmentation, mapped to spaces by the same
code (build_twentieth.Build), gives outlines that agree with the adjacency by
construction; only the hand fixes of the region files need care here.

Steps:

1. Segment ``20th-small.gif`` into /tmp/20th/seg if that is missing.
2. Give every pixel of a component its space's number (spaces numbered in
   sorted id order), then give the black border and text pixels the nearest
   space within ``GROW`` px (small enclosed left-overs: any distance). The
   background outside the ellipse, the legend box and the large black polar
   areas and arctic islands stay 0.
3. Make touching follow the variant: where two spaces touch at a corner the
   variant does not link (the region files' removed corner touches), the
   contact pixels go to the third space there (``CORNERS``).
4. Points (small-map pixel coordinates): unit = the point deepest inside the
   space; label = a little off the unit spot; coast = inside the space, as close
   as possible to the seas that coast's fleet links reach; centre = the SC marker
   (from the marker csv) of the space; connectors = land bridges whose ends do
   not touch, the four canals (sea, canal space, sea) and links the variant has
   between spaces that do not touch ("link").

Writes labels.npy and meta.json to /tmp/render/twentieth-century/.
Run: ``python tools/twentieth/labels.py`` then
``python tools/trace_shapes.py /tmp/render/twentieth-century/labels.npy
/tmp/render/twentieth-century/meta.json -o src/standoff/render/maps/twentieth-century.json
--check twentieth-century``.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image
from scipy import ndimage

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(HERE.parent), str(ROOT / "src")]

import trace_shapes  # noqa: E402
from build_twentieth import Build  # noqa: E402
from digitise_map import segment  # noqa: E402

from standoff.core.variant import load_variant  # noqa: E402

POUCH = ROOT.parent / "shared" / "reference" / "maps" / "pouch"
SEG = Path("/tmp/20th/seg")
OUT = Path("/tmp/render/twentieth-century")
#: how far (px) a space grows into the black lines and text around it
GROW = 3
#: enclosed unassigned areas smaller than this (px) are filled too; larger ones
#: (polar black, arctic islands) stay 0
HOLE = 100
BRIDGES = ["ire-gla", "sic-sal", "den-nor", "den-swe", "kar-cey", "sg-mls", "kg-tok",
           "tok-sap", "luz-min", "cub-hai"]

Pair = tuple[str, str]
Pt = list[float]


def _pair(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


def raster(build: Build, nums: dict[str, int]) -> NDArray[np.int32]:
    """Space numbers per pixel: components mapped to spaces, borders grown."""
    comp = np.load(SEG / "labels.npy")
    lut = np.zeros(int(comp.max()) + 1, dtype=np.int32)
    for cid, sid in build.owner.items():
        lut[cid] = nums[sid]
    space = lut[comp]
    rgb = np.array(Image.open(POUCH / "20th-small.gif").convert("RGB"))
    white, _ = ndimage.label((rgb == 255).all(axis=-1))
    edge = np.concatenate([white[0], white[-1], white[:, 0], white[:, -1]])
    blocked = np.isin(white, np.unique(edge[edge > 0])) | ((comp > 0) & (space == 0))
    dist, (iy, ix) = ndimage.distance_transform_edt(space == 0, return_indices=True)
    grown = np.where((dist <= GROW) & ~blocked, space[iy, ix], 0)
    rest, n = ndimage.label((grown == 0) & ~blocked)
    sizes = np.bincount(rest.ravel(), minlength=n + 1)
    near_block = np.unique(rest[ndimage.binary_dilation(blocked)])
    small = (sizes < HOLE) & ~np.isin(np.arange(n + 1), near_block)
    small[0] = False
    fill = small[rest]
    grown[fill] = space[iy, ix][fill]
    return grown.astype(np.int32)


def touching(labels: NDArray[np.int32], names: dict[int, str]) -> dict[Pair, int]:
    """Pixel edges shared by each pair of spaces."""
    return {_pair(names[a], names[b]): n for (a, b), n in trace_shapes.touching(labels, 1).items()}


def links() -> tuple[set[Pair], dict[str, set[str]], Any]:
    board = load_variant("twentieth-century").board
    out: set[Pair] = set()
    for table in (board.army_links, board.fleet_links):
        for x, ys in table.items():
            for y in ys:
                out.add(_pair(x.split("/")[0], y.split("/")[0]))
    return out, {k: set(v) for k, v in board.fleet_links.items()}, board


#: corner touches the region files removed: (space, space) -> the third space
#: that takes the contact pixels (see the region files' "remove" fixes), or ""
#: for a gap (Luzon-Sulu: giving it to the Sunda Sea made Sunda touch Mindanao)
CORNERS = {("bay", "ruh"): "stu", ("blr", "lit"): "pol", ("eqa", "pra"): "net",
           ("luz", "sul"): "", ("nat", "rou"): "nth"}


def fix_corners(labels: NDArray[np.int32], nums: dict[str, int]) -> None:
    """Give the pixels where a removed corner pair touches to the third space."""
    for (a, b), third in CORNERS.items():
        pa, pb = labels == nums[a], labels == nums[b]
        contact = np.zeros(labels.shape, dtype=bool)
        for p, q in ((pa, pb), (pb, pa)):
            contact[1:] |= p[1:] & q[:-1]
            contact[:-1] |= p[:-1] & q[1:]
            contact[:, 1:] |= p[:, 1:] & q[:, :-1]
            contact[:, :-1] |= p[:, :-1] & q[:, 1:]
        labels[contact] = nums[third] if third else 0
        print(f"corner {a}-{b}: {int(contact.sum())} px given to {third or 'a gap'}")


def _xy(y: int, x: int) -> Pt:
    return [x + 0.5, y + 0.5]


def _inner(mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    inner: NDArray[np.float64] = ndimage.distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1]
    return inner


def _window(mask: NDArray[np.bool_], margin: int) -> tuple[slice, slice]:
    ys, xs = np.nonzero(mask)
    return (slice(max(ys.min() - margin, 0), ys.max() + margin + 1),
            slice(max(xs.min() - margin, 0), xs.max() + margin + 1))


def unit_and_label(mask: NDArray[np.bool_]) -> tuple[Pt, Pt]:
    """The deepest point of ``mask``, and a label spot beside it, also inside."""
    win = _window(mask, 1)
    inner = _inner(mask[win])
    y, x = np.unravel_index(int(np.argmax(inner)), inner.shape)
    step = max(7.0, min(14.0, float(inner[y, x])))
    best, spot = -1.0, (y, x)
    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        ly = round(y + dy * step / np.hypot(dy, dx))
        lx = round(x + dx * step / np.hypot(dy, dx))
        if 0 <= ly < inner.shape[0] and 0 <= lx < inner.shape[1] and inner[ly, lx] > best + 1:
            best, spot = float(inner[ly, lx]), (ly, lx)
    oy, ox = win[0].start, win[1].start
    return _xy(y + oy, x + ox), _xy(spot[0] + oy, spot[1] + ox)


def coast_point(labels: NDArray[np.int32], space: int, seas: list[int],
                others: list[int]) -> Pt:
    """A point inside ``space`` near all of ``seas`` (nearer them than ``others``,
    the seas of its other coasts), mid-way along that coast."""
    win = _window(labels == space, 40)
    lab = labels[win]
    inner = _inner(lab == space)
    far = np.max([ndimage.distance_transform_edt(lab != s) for s in seas], axis=0)
    ok = inner >= min(2.0, inner.max() / 2)
    if others:
        near = np.min([ndimage.distance_transform_edt(lab != s) for s in others], axis=0)
        ok = ok & (far < near) if (ok & (far < near)).any() else ok
    best = far[ok].min()
    ys, xs = np.nonzero(ok & (far <= best + 3))
    cy, cx = ys.mean(), xs.mean()           # middle of the stretch facing the sea(s)
    i = int(np.argmin((ys - cy) ** 2 + (xs - cx) ** 2))
    return _xy(int(ys[i]) + win[0].start, int(xs[i]) + win[1].start)


def closest(labels: NDArray[np.int32], a: int, b: int,
            at: tuple[int, int] | None = None) -> tuple[Pt, Pt, float]:
    """The nearest pixels of spaces ``a`` and ``b`` (or pixel ``at``) and their distance."""
    target = labels != b
    if at is not None:
        target = np.ones(labels.shape, dtype=bool)
        target[at[1], at[0]] = False
    dist, (iy, ix) = ndimage.distance_transform_edt(target, return_indices=True)
    d = np.where(labels == a, dist, np.inf)
    y, x = np.unravel_index(int(np.argmin(d)), d.shape)
    return _xy(int(y), int(x)), _xy(int(iy[y, x]), int(ix[y, x])), float(d[y, x])


def nearest_inside(labels: NDArray[np.int32], space: int, to: Pt) -> Pt:
    """The pixel at least 2 px inside ``space`` nearest to the point ``to``."""
    inner = _inner(labels == space)
    ys, xs = np.nonzero(inner >= 2)
    i = int(np.argmin((xs + 0.5 - to[0]) ** 2 + (ys + 0.5 - to[1]) ** 2))
    return _xy(int(ys[i]), int(xs[i]))


def meta(labels: NDArray[np.int32], names: list[str], board: Any,
         fleet: dict[str, set[str]], linked: set[Pair]) -> dict[str, Any]:
    nums = {s: i for i, s in enumerate(names, start=1)}
    units, spots = {}, {}
    for sid in names:
        units[sid], spots[sid] = unit_and_label(labels == nums[sid])
    coasts = {}
    for sid in names:
        seas = {c: sorted(nums[x.split("/")[0]] for x in fleet.get(c, ())
                          if board.provinces[x.split("/")[0]].terrain.value == "sea")
                for c in board.provinces[sid].coasts}
        for coast, own in seas.items():
            others = sorted({n for c, v in seas.items() if c != coast for n in v} - set(own))
            coasts[coast] = coast_point(labels, nums[sid], own, others)
    centres: dict[str, Pt] = {}
    _, (iy, ix) = ndimage.distance_transform_edt(labels == 0, return_indices=True)
    with (POUCH / "20th-sc-markers.csv").open() as fh:
        markers = [(int(r["x_small"]), int(r["y_small"])) for r in csv.DictReader(fh)]
    stray = []
    for x, y in markers:
        sid = names[labels[iy[y, x], ix[y, x]] - 1]
        if sid in centres or not board.provinces[sid].supply_centre:
            stray.append((x, y, sid))
        else:
            centres[sid] = _xy(int(iy[y, x]), int(ix[y, x]))
    for x, y, sid in stray:     # a marker drawn just off its space (Panama's, in a bay)
        free = [s for s, p in board.provinces.items() if p.supply_centre and s not in centres]
        near = min(free, key=lambda s: closest(labels, nums[s], -1, (x, y))[2])
        centres[near] = nearest_inside(labels, nums[near], [x + 0.5, y + 0.5])
        print(f"SC marker at {x},{y} lies in {sid}: given to {near} at {centres[near]}")
    for sid in sorted(s for s, p in board.provinces.items() if p.supply_centre
                      and s not in centres):
        print(f"PROBLEM: centre {sid} has no marker", file=sys.stderr)
    touch = {p for p, n in touching(labels, dict(enumerate(names, start=1))).items() if n >= 3}
    connectors = []
    for pair in BRIDGES:
        a, b = pair.split("-")
        if _pair(a, b) not in touch:
            pa, pb, _ = closest(labels, nums[a], nums[b])
            connectors.append({"a": a, "b": b, "kind": "bridge", "points": [pa, pb]})
    bridged = {_pair(*p.split("-")) for p in BRIDGES}
    for a, b in sorted(linked - touch - bridged):
        pa, pb, d = closest(labels, nums[a], nums[b])
        print(f"link {a}-{b}: not touching ({d:.1f} px apart), drawn as a connector")
        connectors.append({"a": a, "b": b, "kind": "link", "points": [pa, pb]})
    for canal, seas in sorted(board.canals.items()):
        s1, s2 = sorted(seas)
        via = units[canal]
        connectors.append({"a": s1, "b": s2, "kind": "canal", "via": canal, "points": [
            nearest_inside(labels, nums[s1], via), via, nearest_inside(labels, nums[s2], via)]})
    return {"variant": "twentieth-century", "ids": {str(nums[s]): s for s in names},
            "units": units, "coasts": coasts, "centres": dict(sorted(centres.items())),
            "labels": spots, "connectors": connectors, "scale": 1.0}


def main() -> None:
    if not (SEG / "components.json").exists():
        segment(POUCH / "20th-small.gif", POUCH / "20th-sc-markers.csv", SEG, 3)
    build = Build(SEG)
    linked, fleet, board = links()
    names = sorted(board.provinces)
    if set(names) != set(build.spaces):
        sys.exit(f"spaces differ from the variant: {set(names) ^ set(build.spaces)}")
    nums = {s: i for i, s in enumerate(names, start=1)}
    labels = raster(build, nums)
    fix_corners(labels, nums)
    missing = [s for s in names if not (labels == nums[s]).any()]
    if missing:
        sys.exit(f"spaces without pixels: {missing}")
    data = meta(labels, names, board, fleet, linked)
    OUT.mkdir(parents=True, exist_ok=True)
    np.save(OUT / "labels.npy", labels)
    (OUT / "meta.json").write_text(json.dumps(data, indent=1))
    print(f"wrote {OUT}/labels.npy ({labels.shape[1]}x{labels.shape[0]}) and meta.json: "
          f"{len(names)} spaces, {len(data['centres'])} centres, "
          f"{len(data['connectors'])} connectors")


if __name__ == "__main__":
    main()
