"""Move every marker spot of a shapes file to where the marker fits inside its space.

Why this exists: the spots the map tools wrote (a traced label's centroid, a
measured dot) were points, not markers: some lay on a border or under half a
unit's width from it, and the unit drawn there stood in the neighbour (issue
29: London's fleet in Yorkshire, Albania's army in the Adriatic). This tool
gives each marker room, in this order, each step keeping clear of the
markers placed before it:

1. units (a province's spot, then each coast's): a disc of the map's unit
   radius, ``UNIT_MARGIN`` more inside the space where it can be, else at the
   space's widest point (where the picture draws the unit smaller,
   ``Layout.unit_sizes``);
2. supply centres, and the build centres of the variants drawn from the file
   (1939 IV's Persia and Archangel): a disc of the centre marker's radius,
   clear of every unit's disc (where the space has no room for both, inside
   the space all the same, no more than half under the unit);
3. names: their box, clear of units, centres and the names placed before;
   at 85, 70 or 60 % of the map's font size where the full size has no room
   (``placement.place_name``).

Each marker moves as little as it can from where it was (the map maker's
choice stands where it already fits). Sizes come from the layout
(``Layout.unit_radius``, ``centre_radius``, ``font_size``), so the picture and
this tool agree. ``tests/test_render_maps.py`` checks the result.

Run: ``python tools/place_markers.py src/standoff/render/maps/*.json`` (rewrites
the files in place; prints what moved and what has no room).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from standoff import Terrain, Variant, available_variants, load_variant
from standoff.render.layout import UNIT_REACH, Layout, read_shapes, unit_size_for
from standoff.render.placement import Placed, clearance, name_discs, place, place_name, room

#: extra room, in multiples of the map's measure, each kind of marker is given
#: beyond its own radius where the space has it
UNIT_MARGIN = 0.3
CENTRE_MARGIN = 0.15
LABEL_MARGIN = 0.1


def _fmt(v: float) -> float | int:
    r = round(v, 1)
    return int(r) if r == int(r) else r


def _variants(variant_name: str) -> list[Variant]:
    """The variants drawn from this file (by its ``variant``)."""
    found = {load_variant(str(path)) for path in set(available_variants().values())}
    return [v for v in found if v.name == variant_name]


def _unnamed(variants: list[Variant]) -> set[str]:
    """Spaces whose name the picture never draws: impassable from the start of
    every variant of the file (the names skip impassable spaces)."""
    out: set[str] | None = None
    for v in variants:
        board = v.board_at(v.start)
        shut = {p for p, q in board.provinces.items() if q.terrain is Terrain.IMPASSABLE}
        out = shut if out is None else out & shut
    return out or set()


def place_all(data: dict[str, Any], layout: Layout) -> list[str]:
    """Move the spots in ``data`` (a shapes file's content); return notes."""
    u = layout.u
    big, small = layout.unit_radius, layout.centre_radius
    notes: list[str] = []
    spaces: dict[str, Any] = data["spaces"]
    units: list[Placed] = []

    def moved(what: str, old: Any, new: tuple[float, float], have: float) -> list[float | int]:
        d = math.hypot(new[0] - old[0], new[1] - old[1])
        if d > 0.5:
            notes.append(f"{what}: moved {d:.1f} (room {have:+.1f})")
        return [_fmt(new[0]), _fmt(new[1])]

    spots = [(sid, s["unit"], layout.spaces[sid].rings) for sid, s in spaces.items()]
    spots += [(loc, old, layout.spaces[loc.split("/")[0]].rings)
              for loc, old in data["coasts"].items()]
    for where, old, rings in spots:
        spot = place(rings, tuple(old), ((0.0, 0.0, big),), UNIT_MARGIN * u)
        new = moved(f"{where} unit", old, spot, room(spot, rings, ((0.0, 0.0, big),)))
        if "/" in where:
            data["coasts"][where] = new
        else:
            spaces[where]["unit"] = new
        # as the picture will draw it (Layout.unit_sizes): smaller where it has no room
        units.append((*spot, unit_size_for(clearance(spot, rings), u) * UNIT_REACH))
    marks: list[Placed] = []
    variants = _variants(str(data["variant"]))
    builds = {b for v in variants for b in v.build_centres}
    for sid, s in spaces.items():
        if not s.get("centre") and sid not in builds:
            continue
        rings = layout.spaces[sid].rings
        wish = s.get("centre") or [s["unit"][0] + 1.8 * u, s["unit"][1]]
        dot = ((0.0, 0.0, small),)
        spot = place(rings, tuple(wish), dot, CENTRE_MARGIN * u, units)
        if room(spot, rings, dot, units) < 0:
            # no room beside the unit (The Twentieth Century's Europe): inside the
            # space all the same, half under the unit, its edge showing
            half = [(x, y, r / 2) for x, y, r in units]
            spot = place(rings, tuple(wish), dot, CENTRE_MARGIN * u, half)
        s["centre"] = moved(f"{sid} centre", wish, spot, room(spot, rings, dot, units))
        marks.append((*spot, small))
    names: list[Placed] = []
    unnamed = _unnamed(variants)
    for sid, s in spaces.items():
        if sid in unnamed:
            continue
        rings = layout.spaces[sid].rings
        spot, size, have = place_name(rings, tuple(s["label"]), sid, layout.font_size,
                                      LABEL_MARGIN * u, [*units, *marks, *names])
        s["label"] = moved(f"{sid} name", s["label"], spot, have)
        s.pop("label_size", None)
        if size != 1.0:
            s["label_size"] = size
        names += name_discs(spot, sid, layout.font_size * size)
        if have < 0:
            notes.append(f"{sid} name: no room at {size:.0%} ({have:+.1f})")
    return notes


def dumps(shapes: dict[str, Any]) -> str:
    """The shapes file's own layout (one space a line, as ``trace_shapes`` writes)."""
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="shapes files, rewritten in place")
    args = ap.parse_args(argv)
    for path in args.files:
        data = json.loads(path.read_text())
        notes = place_all(data, read_shapes(path))
        path.write_text(dumps(data))
        print(f"{path}: {len(notes)} change(s)")
        for n in notes:
            print("  " + n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
