"""Propose the spaces and borders of a bordered map image (The Twentieth Century).

Why this exists: no machine-readable Twentieth Century map exists, and eyeballing
a thousand borders invites mistakes. This tool segments the map image into the
regions between its black borders, finds which regions touch across a border,
and draws numbered crops so a person can name each region and check each border
region by region. It only *measures* the reference image; nothing of the image
is written into the project (its outputs go to a scratch directory).

Pipeline (``segment``):

1. Colour classes: the map's palette is small and flat. Black is border or text;
   the ocean blue is sea; dark blue is lakes (impassable); very dark green is
   impassable land (Antarctica, mountain ranges); white outside the ellipse is
   background; every other colour is land, coloured by its 1933 owner.
2. Regions: connected components (4-connectivity) of non-black, non-background
   pixels. Tiny components (letter counters, marker dots) are dropped.
3. Borders: every black pixel takes the label of its nearest region pixel (a
   Euclidean distance transform), limited to a few pixels so only the border
   line itself is split. Two regions are neighbours when their grown areas touch
   along at least ``--min-border`` pixel pairs; three regions meeting at one
   point (a land-land border reaching a sea) are recorded as *triple points*,
   which decide whether two coastal spaces are linked by fleets.
4. Output: ``components.json`` (id, class, colour, area, bbox, centroid, a label
   point inside the region, SC markers inside) and ``borders.json`` (pairs with
   border length, and triple points).

``crop`` draws one window of the large (named) map with region ids printed on
their label points, for the region-by-region check.

Run: ``python tools/digitise_map.py segment IMAGE --markers CSV -o OUTDIR`` then
``python tools/digitise_map.py crop OUTDIR --image LARGE --box x0,y0,x1,y1 -o crop.png``.
Needs the ``tools`` extra (``pip install -e '.[tools]'``).
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw
from scipy import ndimage

BLACK = (0, 0, 0)
WHITE = (255, 255, 255)
SEA = (0, 85, 170)
LAKE = (0, 0, 128)
IMPASSABLE = (0, 43, 0)

#: minimum region area (pixels on the small map) to count as a space
MIN_AREA = 25
#: how far (pixels) a region grows into the black border around it
GROW = 3


def _classify(rgb: tuple[int, int, int]) -> str:
    if rgb == SEA:
        return "sea"
    if rgb == LAKE:
        return "lake"
    if rgb == IMPASSABLE:
        return "impassable"
    if rgb == WHITE:
        return "white"
    return "land"


def _load_rgb(path: Path) -> NDArray[np.uint8]:
    return np.array(Image.open(path).convert("RGB"))


def segment(image: Path, markers: Path | None, out: Path, min_border: int) -> None:
    """Write components.json and borders.json for ``image`` into ``out``."""
    rgb = _load_rgb(image)
    packed = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[
        ..., 2
    ].astype(np.int32)
    black = packed == 0
    white = packed == 0xFFFFFF
    # White inside the map is SC markers and label boxes: fill them into their
    # region so a marker does not become a region of its own. Background white
    # is the part connected to the image corner.
    white_lab, _ = ndimage.label(white)
    edge = np.concatenate([white_lab[0], white_lab[-1], white_lab[:, 0], white_lab[:, -1]])
    background = np.isin(white_lab, np.unique(edge[edge > 0]))
    solid = ~black & ~background
    labels, count = ndimage.label(solid)
    sizes = ndimage.sum_labels(np.ones_like(labels), labels, index=np.arange(count + 1))
    keep = sizes >= MIN_AREA
    keep[0] = False
    labels = np.where(keep[labels], labels, 0)
    # Nearest kept region for each other pixel, within GROW pixels.
    dist, (iy, ix) = ndimage.distance_transform_edt(labels == 0, return_indices=True)
    nearest = labels[iy, ix]
    grown = np.where((dist > GROW) | background, 0, nearest)

    comps: dict[int, dict[str, Any]] = {}
    objects = ndimage.find_objects(labels)
    for lab, sl in enumerate(objects, start=1):
        if sl is None:
            continue
        mask = labels[sl] == lab
        colours = Counter(map(int, packed[sl][mask & ~white[sl]].ravel()))
        colour = colours.most_common(1)[0][0] if colours else 0xFFFFFF
        rgbc = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)
        inner = ndimage.distance_transform_edt(np.pad(mask, 1))[1:-1, 1:-1]
        py, px = np.unravel_index(int(np.argmax(inner)), inner.shape)
        ys, xs = np.nonzero(mask)
        comps[lab] = {
            "id": lab,
            "class": _classify(rgbc),
            "colour": "#{:02x}{:02x}{:02x}".format(*rgbc),
            "area": int(mask.sum()),
            "bbox": [int(sl[1].start), int(sl[0].start), int(sl[1].stop), int(sl[0].stop)],
            "centroid": [round(float(xs.mean()) + sl[1].start, 1),
                         round(float(ys.mean()) + sl[0].start, 1)],
            "label_point": [int(px) + sl[1].start, int(py) + sl[0].start],
            "markers": [],
        }
    if markers is not None:
        with markers.open() as fh:
            for row in csv.DictReader(fh):
                x, y = int(row["x_small"]), int(row["y_small"])
                lab = int(nearest[y, x])
                if lab in comps:
                    comps[lab]["markers"].append({"kind": row["kind"], "x": x, "y": y})

    pairs: Counter[tuple[int, int]] = Counter()
    shifted = (
        (grown[:, :-1], grown[:, 1:]),
        (grown[:-1, :], grown[1:, :]),
        (grown[:-1, :-1], grown[1:, 1:]),
        (grown[:-1, 1:], grown[1:, :-1]),
    )
    for a, b in shifted:
        diff = (a != b) & (a > 0) & (b > 0)
        lo = np.minimum(a[diff], b[diff]).astype(np.int64)
        hi = np.maximum(a[diff], b[diff]).astype(np.int64)
        for key, n in Counter((lo << 20 | hi).tolist()).items():
            pairs[(key >> 20, key & 0xFFFFF)] += n
    # Triple points: 3x3 windows of the grown map holding three or more regions.
    big = np.iinfo(np.int32).max
    hi3 = ndimage.maximum_filter(grown, size=3)
    lo3 = ndimage.minimum_filter(np.where(grown == 0, big, grown), size=3)
    triples: Counter[tuple[int, ...]] = Counter()
    for y, x in zip(*np.nonzero((hi3 != lo3) & (lo3 != big)), strict=True):
        window = grown[max(0, y - 1): y + 2, max(0, x - 1): x + 2]
        regions = set(window[window > 0].tolist())
        if len(regions) >= 3:
            triples[tuple(sorted(regions))] += 1

    out.mkdir(parents=True, exist_ok=True)
    (out / "components.json").write_text(json.dumps(list(comps.values()), indent=1))
    borders = [
        {"a": a, "b": b, "length": n}
        for (a, b), n in sorted(pairs.items()) if n >= min_border
    ]
    (out / "borders.json").write_text(json.dumps(
        {"borders": borders, "triples": [list(t) for t in sorted(triples)]}, indent=1))
    np.save(out / "labels.npy", labels)
    print(f"{len(comps)} regions, {len(borders)} borders, {len(triples)} triple points -> {out}")
    print(Counter(c["class"] for c in comps.values()))


def crop(out: Path, image: Path, box: tuple[int, int, int, int], dest: Path,
         scale: float) -> None:
    """Draw region ids (from the small-map segmentation) on a crop of ``image``."""
    comps = json.loads((out / "components.json").read_text())
    big = Image.open(image).convert("RGB")
    factor = big.width / 2675
    x0, y0, x1, y1 = box
    im = big.crop((int(x0 * factor), int(y0 * factor), int(x1 * factor), int(y1 * factor)))
    if scale != 1:
        im = im.resize((int(im.width * scale), int(im.height * scale)))
    draw = ImageDraw.Draw(im)
    k = factor * scale
    for c in comps:
        x, y = c["label_point"]
        if x0 <= x < x1 and y0 <= y < y1:
            px, py = (x - x0) * k, (y - y0) * k
            text = str(c["id"])
            draw.rectangle((px - 2, py - 2, px + 7 * len(text) + 2, py + 11), fill=(255, 0, 255))
            draw.text((px, py - 1), text, fill=(255, 255, 255))
    dest.parent.mkdir(parents=True, exist_ok=True)
    im.save(dest)
    print(f"wrote {dest} ({im.width}x{im.height})")


def show(out: Path, ids: list[int]) -> None:
    """Print regions and their proposed neighbours (border length in pixels)."""
    comps = {c["id"]: c for c in json.loads((out / "components.json").read_text())}
    data = json.loads((out / "borders.json").read_text())
    near: dict[int, list[tuple[int, int]]] = {}
    for b in data["borders"]:
        near.setdefault(b["a"], []).append((b["b"], b["length"]))
        near.setdefault(b["b"], []).append((b["a"], b["length"]))
    for i in ids or sorted(comps):
        c = comps[i]
        marks = ",".join(m["kind"] for m in c["markers"])
        print(f"#{i} {c['class']} {c['colour']} area={c['area']} at={c['label_point']}"
              f"{' SC=' + marks if marks else ''}")
        for j, n in sorted(near.get(i, []), key=lambda t: -t[1]):
            d = comps[j]
            print(f"    -> #{j} {d['class']} at={d['label_point']} border={n}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("segment", help="segment a map image into regions and borders")
    s.add_argument("image", type=Path)
    s.add_argument("--markers", type=Path)
    s.add_argument("--min-border", type=int, default=3)
    s.add_argument("-o", "--out", type=Path, required=True)
    c = sub.add_parser("crop", help="draw region ids on a crop of the named map")
    c.add_argument("out", type=Path)
    c.add_argument("--image", type=Path, required=True)
    c.add_argument("--box", required=True, help="x0,y0,x1,y1 in small-map pixels")
    c.add_argument("--scale", type=float, default=1.0)
    c.add_argument("-o", "--dest", type=Path, required=True)
    w = sub.add_parser("show", help="list regions and their proposed neighbours")
    w.add_argument("out", type=Path)
    w.add_argument("ids", type=int, nargs="*")
    args = ap.parse_args()
    if args.cmd == "show":
        show(args.out, args.ids)
        return
    if args.cmd == "segment":
        segment(args.image, args.markers, args.out, args.min_border)
    else:
        x0, y0, x1, y1 = (int(v) for v in args.box.split(","))
        crop(args.out, args.image, (x0, y0, x1, y1), args.dest, args.scale)


if __name__ == "__main__":
    main()
