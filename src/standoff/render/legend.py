"""The band under the map: the phase, each power's colour, centres and units,
build centres, the lines drawn between spaces, and the layout's notes.

Kept apart from ``svg`` (which draws the board) because it is a table laid out
in rows, not a drawing of the map; ``svg`` hands it what it needs.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping

from standoff import Position, Variant

from .layout import Layout
from .placement import text_width

INK = "#2b2b2b"
#: connector lines by kind: colour, and whether they are in the legend
LINE_COLOURS = {"canal": "#1f6fb2", "bridge": "#b03a2e"}


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def line_meanings(layout: Layout, variant: Variant) -> list[tuple[str, str]]:
    """(kind, meaning) of each kind of line the map draws between spaces, in
    the order they are first met: the reader must be told what a dashed line
    across the water is (issue 29: The Twentieth Century had no word on its
    canals and land bridges)."""
    canals = bool(variant.board.canals)
    meaning = {
        "bridge": "Land bridge: links the two spaces",
        "canal": "Canal: its owner's fleets pass (others' by PERMIT)" if canals
        else "Sea passage: links the two seas",
        "link": "Line: links the two spaces",
    }
    out: list[tuple[str, str]] = []
    for c in layout.connectors:
        if c.kind in meaning and all(k != c.kind for k, _ in out):
            out.append((c.kind, meaning[c.kind]))
    return out


#: an entry: what it shows ("power", "build", "line"), its key (a power's id,
#: a line's kind), its text, and its font size over the legend's measure
Entry = tuple[str, str, str, float]


def _measure(layout: Layout) -> float:
    return max(layout.u, layout.width / 130)


def entries(layout: Layout, variant: Variant, position: Position) -> list[Entry]:
    """The legend's entries, in order: powers, the neutral units, build centres,
    the lines drawn between spaces."""
    counts = position.centre_counts()
    units: dict[str, int] = {}
    for u in position.units:
        units[u.power] = units.get(u.power, 0) + 1
    out: list[Entry] = [("power", p.id, f"{p.name}: {counts.get(p.id, 0)} centres, "
                                        f"{units.get(p.id, 0)} units", 1.3)
                        for p in variant.powers.values()]
    if variant.neutral:
        out.append(("power", variant.neutral,
                    f"Neutral (civil disorder): {units.get(variant.neutral, 0)} units", 1.3))
    sites: dict[str, list[str]] = {}
    for sid, bc in sorted(variant.build_centres.items()):
        sites.setdefault(bc.power, []).append(sid.upper())
    for pid, where in sorted(sites.items()):
        name = variant.powers[pid].name if pid in variant.powers else pid
        out.append(("build", pid, f"{name}'s build centres (squares): {', '.join(where)}", 1.3))
    out += [("line", kind, meaning, 1.1) for kind, meaning in line_meanings(layout, variant)]
    return out


def slots(layout: Layout, items: list[Entry]) -> list[tuple[int, int]]:
    """(row, column) of each entry, four columns a row: an entry whose text is
    wider than a column takes as many as it needs (never splitting a row)."""
    s = _measure(layout)
    col_w = layout.width / 4
    out: list[tuple[int, int]] = []
    row = col = 0
    for _, _, text, size in items:
        need = min(4, math.ceil((s * 2.6 + text_width(text, s * size)) / col_w))
        if col + need > 4:
            row, col = row + 1, 0
        out.append((row, col))
        col += need
    return out


def height(layout: Layout, variant: Variant, position: Position) -> float:
    """The band's height: a title line, the rows, and a line for each note."""
    s = _measure(layout)
    found = slots(layout, entries(layout, variant, position))
    rows = found[-1][0] + 1 if found else 0
    return s * 3.2 * (rows + 1.1) + s * 1.8 * len(layout.notes) + s * 1.2


def draw_legend(root: ET.Element, layout: Layout, variant: Variant, position: Position,
                colours: Mapping[str, str], title: str, neutral_colour: str) -> None:
    """The legend, below the map's area (``layout.height``)."""
    s = _measure(layout)
    top = layout.height
    items = entries(layout, variant, position)
    places = slots(layout, items)
    rows = places[-1][0] + 1 if places else 0
    g = ET.SubElement(root, "g", {"id": "legend", "font-family": "DejaVu Sans, Arial, sans-serif",
                                  "font-size": _fmt(s * 1.3), "fill": INK})
    ET.SubElement(g, "rect", {"x": "0", "y": _fmt(top), "width": _fmt(layout.width),
                              "height": _fmt(height(layout, variant, position)),
                              "fill": "#f1ece0", "stroke": INK, "stroke-width": _fmt(s / 8)})
    head = ET.SubElement(g, "text", {"x": _fmt(s), "y": _fmt(top + s * 2), "font-weight": "bold"})
    head.text = title or f"{variant.title}: {position.phase.long_name(variant.calendar)}"
    below = top + s * 3.2 * (rows + 1.1)  # the notes, under the rows
    for i, note in enumerate(layout.notes):
        t = ET.SubElement(g, "text", {"x": _fmt(s), "y": _fmt(below + s * 1.8 * (i + 0.6)),
                                      "font-size": _fmt(s * 1.1), "data-note": str(i)})
        t.text = note
    col_w = layout.width / 4
    for (what, key, text, size), (row, col) in zip(items, places, strict=True):
        x, y = s + col * col_w, top + s * 3.2 * (row + 1.6)
        if what == "power":
            ET.SubElement(g, "rect", {"x": _fmt(x), "y": _fmt(y - s), "width": _fmt(s * 1.6),
                                      "height": _fmt(s * 1.2), "fill": colours[key],
                                      "stroke": INK, "stroke-width": _fmt(s / 10),
                                      "data-legend": key})
        elif what == "build":
            ET.SubElement(g, "rect", {"x": _fmt(x + s * 0.35), "y": _fmt(y - s * 0.85),
                                      "width": _fmt(s * 0.9), "height": _fmt(s * 0.9),
                                      "fill": colours.get(key, neutral_colour), "stroke": INK,
                                      "stroke-width": _fmt(s / 10),
                                      "data-legend-build-centre": key})
        else:
            ET.SubElement(g, "line", {
                "x1": _fmt(x), "y1": _fmt(y - s * 0.4), "x2": _fmt(x + s * 1.6),
                "y2": _fmt(y - s * 0.4), "stroke": LINE_COLOURS.get(key, INK),
                "stroke-width": _fmt(s / 3), "stroke-dasharray": f"{_fmt(s / 2)} {_fmt(s / 3)}",
                "data-legend-line": key})
        attrs = {"x": _fmt(x + s * 2.2), "y": _fmt(y)}
        if size != 1.3:
            attrs["font-size"] = _fmt(s * size)
        t = ET.SubElement(g, "text", attrs)
        t.text = text
