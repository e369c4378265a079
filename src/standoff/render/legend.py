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


def rows(layout: Layout, variant: Variant) -> int:
    """How many rows of entries the legend has (four entries a row)."""
    powers = (len(variant.powers) + (1 if variant.neutral else 0)
              + len({bc.power for bc in variant.build_centres.values()})
              + len(line_meanings(layout, variant)))
    return math.ceil(powers / 4)


def height(layout: Layout, variant: Variant) -> float:
    """The band's height: a title line, the rows, and a line for each note."""
    s = max(layout.u, layout.width / 130)
    return s * 3.2 * (rows(layout, variant) + 1.1) + s * 1.8 * len(layout.notes) + s * 1.2


def draw_legend(root: ET.Element, layout: Layout, variant: Variant, position: Position,
                colours: Mapping[str, str], title: str, neutral_colour: str) -> None:
    """The legend, below the map's area (``layout.height``)."""
    s = max(layout.u, layout.width / 130)
    top = layout.height
    g = ET.SubElement(root, "g", {"id": "legend", "font-family": "DejaVu Sans, Arial, sans-serif",
                                  "font-size": _fmt(s * 1.3), "fill": INK})
    ET.SubElement(g, "rect", {"x": "0", "y": _fmt(top), "width": _fmt(layout.width),
                              "height": _fmt(height(layout, variant)), "fill": "#f1ece0",
                              "stroke": INK, "stroke-width": _fmt(s / 8)})
    head = ET.SubElement(g, "text", {"x": _fmt(s), "y": _fmt(top + s * 2), "font-weight": "bold"})
    head.text = title or f"{variant.title}: {position.phase.long_name(variant.calendar)}"
    below = top + s * 3.2 * (rows(layout, variant) + 1.1)  # the notes, under the rows
    for i, note in enumerate(layout.notes):
        t = ET.SubElement(g, "text", {"x": _fmt(s), "y": _fmt(below + s * 1.8 * (i + 0.6)),
                                      "font-size": _fmt(s * 1.1), "data-note": str(i)})
        t.text = note
    counts = position.centre_counts()
    units: dict[str, int] = {}
    for u in position.units:
        units[u.power] = units.get(u.power, 0) + 1
    col_w = layout.width / 4

    def at(i: int) -> tuple[float, float]:
        return s + (i % 4) * col_w, top + s * 3.2 * (i // 4 + 1.6)

    entries = [(p.id, f"{p.name}: {counts.get(p.id, 0)} centres, {units.get(p.id, 0)} units")
               for p in variant.powers.values()]
    if variant.neutral:
        entries.append((variant.neutral,
                        f"Neutral (civil disorder): {units.get(variant.neutral, 0)} units"))
    for i, (pid, text) in enumerate(entries):
        x, y = at(i)
        ET.SubElement(g, "rect", {"x": _fmt(x), "y": _fmt(y - s), "width": _fmt(s * 1.6),
                                  "height": _fmt(s * 1.2), "fill": colours[pid], "stroke": INK,
                                  "stroke-width": _fmt(s / 10), "data-legend": pid})
        t = ET.SubElement(g, "text", {"x": _fmt(x + s * 2.2), "y": _fmt(y)})
        t.text = text
    i = len(entries)
    sites: dict[str, list[str]] = {}
    for sid, bc in sorted(variant.build_centres.items()):
        sites.setdefault(bc.power, []).append(sid.upper())
    for pid, where in sorted(sites.items()):
        x, y = at(i)
        ET.SubElement(g, "rect", {"x": _fmt(x + s * 0.35), "y": _fmt(y - s * 0.85),
                                  "width": _fmt(s * 0.9), "height": _fmt(s * 0.9),
                                  "fill": colours.get(pid, neutral_colour), "stroke": INK,
                                  "stroke-width": _fmt(s / 10), "data-legend-build-centre": pid})
        t = ET.SubElement(g, "text", {"x": _fmt(x + s * 2.2), "y": _fmt(y)})
        name = variant.powers[pid].name if pid in variant.powers else pid
        t.text = f"{name}'s build centres (squares): {', '.join(where)}"
        i += 1
    for kind, meaning in line_meanings(layout, variant):
        x, y = at(i)
        ET.SubElement(g, "line", {
            "x1": _fmt(x), "y1": _fmt(y - s * 0.4), "x2": _fmt(x + s * 1.6),
            "y2": _fmt(y - s * 0.4), "stroke": LINE_COLOURS.get(kind, INK),
            "stroke-width": _fmt(s / 3), "stroke-dasharray": f"{_fmt(s / 2)} {_fmt(s / 3)}",
            "data-legend-line": kind})
        t = ET.SubElement(g, "text", {"x": _fmt(x + s * 2.2), "y": _fmt(y), "font-size": _fmt(s)})
        t.text = meaning
        i += 1
