"""Draw a position (and optionally its phase's orders) as an SVG document.

Built with the standard library's ``xml.etree``: the picture is plain SVG 1.1
that browsers and ``resvg`` both read. Every drawn thing carries its identity
(``data-space``, ``data-unit``, ``data-centre``...), so tests and web
front ends can find it without parsing shapes.

What is drawn, bottom to top: spaces (seas, land filled by the owner of its
centre, or by the power standing there with ``controllers``; impassable
spaces hatched; every border once, over the fills), links drawn as lines
(land bridges, canals), centre markers, build centres (small squares in their
power's colour), names, the phase's orders (failed ones dashed in ``FAILED``;
builds as squares holding the new unit's letter), units (armies round, fleets
as hulls, in their power's colour; dislodged units offset with a red rim), and
a legend with each power's colour, centres and units.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import assert_never

from standoff import (
    AnyOrder,
    Order,
    OrderResult,
    Position,
    Terrain,
    UnitType,
    Variant,
    load_variant,
    narrow_order,
    province_of,
)

from . import legend
from .declutter import UnitPlace, unit_places
from .geometry import Point
from .layout import CENTRE, Layout, SpaceShape, layout_of
from .placement import CAP_HEIGHT

SEA = "#a8c8e8"
LAND = "#efe6cc"
IMPASSABLE = "#9a9486"
#: stripes over impassable spaces, and how far apart (user units)
HATCH = "#6f6a5f"
HATCH_SPACING = 8.0
BACKGROUND = "#fbf8f1"
INK = "#2b2b2b"
#: civil-disorder units (1939 IV's neutrals): a tan brown, apart from Germany's grey
NEUTRAL_UNIT = "#a67b5b"
#: failed orders (dashed): a magenta no power uses, in any variant
FAILED = "#ff00ff"
#: the dot at the spot a moved unit's leader line ties it to (times the map's measure)
LEADER_DOT = 0.2

#: Standard's customary colours (Russia purple: white looked like land off the
#: board); other variants' powers take the palette in order. Every pair of
#: colours, and each one's land tint against neutral land, is kept apart in Lab
#: (``tests/test_render.py``).
CLASSIC = {"austria": "#c0392b", "england": "#283d8f", "france": "#4aa3df",
           "germany": "#5d5d5d", "italy": "#2e9d4f", "russia": "#8e44ad", "turkey": "#e7c11c"}
PALETTE = ("#c0392b", "#283d8f", "#4aa3df", "#5d5d5d", "#2e9d4f", "#8e44ad", "#e7c11c",
           "#e67e22", "#00a6a6", "#c30069", "#6b6b00", "#7b3f00", "#e187b4", "#87b42d")


def power_colours(variant: Variant) -> dict[str, str]:
    """A fixed colour per power: the classic ones where the ids match."""
    out: dict[str, str] = {}
    free = [c for c in PALETTE if c not in {CLASSIC[p] for p in variant.powers if p in CLASSIC}]
    for pid in variant.powers:
        out[pid] = CLASSIC[pid] if pid in CLASSIC else free.pop(0) if free else "#777777"
    if variant.neutral:
        out[variant.neutral] = NEUTRAL_UNIT
    return out


#: how much of the way to white a power's land is lightened, where not ``0.45``:
#: France's light blue, lightened as much, was the sea's colour
LIGHTER = {"#4aa3df": 0.15}


def land_tint(colour: str, amount: float | None = None) -> str:
    """A lighter version of a colour, for land (units keep the full colour)."""
    if amount is None:
        amount = LIGHTER.get(colour, 0.45)
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(c + (255 - c) * amount) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG) of ``#rrggbb``."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
           for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _text_on(fill: str) -> str:
    """White or ink, whichever reads better on ``fill`` (the higher contrast)."""
    return "#ffffff" if _luminance(fill) < 0.229 else INK


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _tenths(t: int) -> str:
    """``_fmt(t / 10)`` for a whole number of tenths, without float formatting
    (a map's first drawing writes some 50,000 of them)."""
    if t % 10 == 0:
        return str(t // 10)
    return f"{'-' if t < 0 else ''}{abs(t) // 10}.{abs(t) % 10}"


def _line_data(points: Iterable[Point], close: bool = False) -> str:
    """Path data through ``points``: the first absolute, then relative steps
    (``M1326 988 l10 10 2 0 45 45``), which keeps The Twentieth Century's
    picture a third smaller than absolute points would. The steps are taken
    between points rounded to a tenth, so they add up to exactly those."""
    tenths = [(round(x * 10), round(y * 10)) for x, y in points]
    if not tenths:
        return ""
    x0, y0 = tenths[0]
    steps = [f"{_tenths(bx - ax)} {_tenths(by - ay)}"
             for (ax, ay), (bx, by) in pairwise(tenths)]
    return (f"M{_tenths(x0)} {_tenths(y0)}" + (" l" + " ".join(steps) if steps else "")
            + (" z" if close else ""))


def _path(shape: SpaceShape) -> str:
    return " ".join(_line_data(ring, close=True) for ring in shape.rings if ring)


class _Written:
    """Path data already written out for one layout. A layout never changes once
    loaded, and writing out its 15,000 points was most of the time an SVG took."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout  # kept, so that its id (the key below) cannot be reused
        #: space id -> the space's outline
        self.spaces: dict[str, str] = {}
        #: impassable space id -> its stripes
        self.stripes: dict[str, str] = {}
        self._borders: str | None = None

    def space(self, sid: str) -> str:
        d = self.spaces.get(sid)
        if d is None:
            d = self.spaces[sid] = _path(self.layout.spaces[sid])
        return d

    def hatch(self, sid: str) -> str:
        d = self.stripes.get(sid)
        if d is None:
            d = self.stripes[sid] = " ".join(
                _line_data(segment) for segment in self.layout.hatching(sid, HATCH_SPACING))
        return d

    def borders(self) -> str:
        if self._borders is None:
            self._borders = " ".join(_line_data(chain) for chain in self.layout.borders)
        return self._borders


_WRITTEN: dict[int, _Written] = {}


def _written(layout: Layout) -> _Written:
    entry = _WRITTEN.get(id(layout))
    if entry is None or entry.layout is not layout:
        entry = _WRITTEN[id(layout)] = _Written(layout)
    return entry


#: markings over the spaces that a click on the map (the judge's pages) goes
#: through, to the space or unit beneath
_CLICK_THROUGH = {"pointer-events": "none"}


def render_svg(position: Position, *, orders: Mapping[str, Sequence[Order]] | None = None,
               results: Sequence[OrderResult] | None = None, controllers: bool = False,
               title: str = "", variant: Variant | None = None) -> str:
    """The board at ``position``; with ``orders`` (and their ``results`` once the
    phase is adjudicated) the phase's orders drawn over it. ``variant``: the
    position's variant object (a host of designers' variants passes it rather
    than have it found by name)."""
    v = variant if variant is not None else load_variant(position.variant)
    drawing = _Drawing(position, v, layout_of(v))
    drawing.spaces(controllers)
    drawing.connectors()
    drawing.centres()
    drawing.build_centres()
    drawing.names()
    if orders:
        drawing.orders(orders, results or ())
    drawing.units()
    drawing.legend(title)
    return drawing.text()


class _Drawing:
    def __init__(self, position: Position, variant: Variant, layout: Layout) -> None:
        self.pos = position
        self.v = variant
        self.board = variant.board_at(position.phase)
        self.layout = layout
        self.colours = power_colours(variant)
        #: the map's measure (orders' lines and rings, outlines)
        self.u = layout.u
        self.legend_h = legend.height(layout, variant, position)
        w, h = layout.width, layout.height + self.legend_h
        self.root = ET.Element("svg", {
            "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {_fmt(w)} {_fmt(h)}",
            "width": _fmt(w), "height": _fmt(h), "data-variant": variant.name,
            "data-phase": position.phase.name(variant.calendar)})
        self._defs()
        ET.SubElement(self.root, "rect", {"width": _fmt(w), "height": _fmt(h),
                                          "fill": BACKGROUND})

    def text(self) -> str:
        ET.indent(self.root, space="")
        for t in self.root.iter("text"):  # no line breaks between a text's pieces
            for piece in t:
                piece.tail = None
            if len(t):
                t.text = None
        return ET.tostring(self.root, encoding="unicode")

    def _defs(self) -> None:
        defs = ET.SubElement(self.root, "defs")
        for name, colour in (("arrow", INK), ("arrow-failed", FAILED),
                             ("arrow-retreat", "#c0661b")):
            m = ET.SubElement(defs, "marker", {
                "id": name, "viewBox": "0 0 10 10", "refX": "8", "refY": "5",
                "markerWidth": "5", "markerHeight": "5", "orient": "auto-start-reverse"})
            ET.SubElement(m, "path", {"d": "M0 0 L10 5 L0 10 Z", "fill": colour})

    # -- board -------------------------------------------------------------------------

    def spaces(self, controllers: bool) -> None:
        """Fills, then impassable spaces' stripes, then every border once, then
        City discs. Why this way rather than one stroked path per space: it is
        the same picture for half the work in resvg (see ``geometry``). The
        fills are drawn without anti-aliasing: their edges lie under the
        anti-aliased border line, and blending them too only cost time."""
        g = ET.SubElement(self.root, "g", {"id": "spaces", "stroke": "none",
                                           "shape-rendering": "crispEdges"})
        occupant = {province_of(u.location): u.power for u in self.pos.units}
        written = _written(self.layout)
        discs = []
        hatched = []
        for sid, shape in self.layout.spaces.items():
            prov = self.board.provinces.get(sid)
            terrain = prov.terrain if prov else Terrain.IMPASSABLE
            if terrain is Terrain.SEA:
                fill = SEA
            elif terrain is Terrain.IMPASSABLE:
                fill = IMPASSABLE
                hatched.append(sid)
            else:
                owner = self.pos.centres.get(sid)
                if owner is None and controllers and occupant.get(sid) in self.v.powers:
                    owner = occupant[sid]
                fill = land_tint(self.colours[owner]) if owner in self.colours else LAND
            attrs = {"data-space": sid, "data-terrain": terrain.value, "fill": fill,
                     **self._spot_attrs(sid)}
            if shape.disc:
                discs.append((shape, attrs))
                continue
            ET.SubElement(g, "path", {**attrs, "d": written.space(sid), "fill-rule": "evenodd"})
        stripes = " ".join(written.hatch(sid) for sid in hatched)
        if stripes.strip():
            ET.SubElement(self.root, "path", {"id": "hatching", "fill": "none",
                                              "stroke": HATCH, "stroke-width": "3",
                                              "d": stripes})
        # a shade wider than the u/8 outlines were: stroked from both sides, their
        # blended edges made them that much darker (as much ink at full size).
        # Not scaling: a page that zooms in (by the viewBox) keeps them this many
        # pixels wide rather than ever thicker (issue 29); resvg draws them scaled
        # with the picture, as before
        ET.SubElement(self.root, "path", {
            "id": "borders", "class": "borders", "fill": "none", "stroke": INK,
            "stroke-width": _fmt(self.u / 7), "vector-effect": "non-scaling-stroke",
            "stroke-linejoin": "bevel",  # as round at this width, and cheaper
            "d": written.borders()})
        for shape, attrs in discs:  # Cities on top of their Countries
            ET.SubElement(self.root, "circle", {
                **attrs, "cx": _fmt(shape.unit[0]), "cy": _fmt(shape.unit[1]),
                "r": _fmt(shape.disc), "stroke": INK, "stroke-width": _fmt(self.u / 8)})

    def _spot_attrs(self, sid: str) -> dict[str, str]:
        """Where a unit of the space would stand (``data-x``/``data-y``) and each coast's
        spot (``data-coasts``: "stp/nc 120,40 stp/sc 131,58"), so a page drawing an
        order to an empty space ends it there, not on the space's name."""
        x, y = self.layout.spaces[sid].unit
        attrs = {"data-x": _fmt(x), "data-y": _fmt(y)}
        coasts = [f"{loc} {_fmt(cx)},{_fmt(cy)}" for loc, (cx, cy)
                  in sorted(self.layout.coasts.items()) if loc.split("/")[0] == sid]
        if coasts:
            attrs["data-coasts"] = " ".join(coasts)
        return attrs

    def connectors(self) -> None:
        g = ET.SubElement(self.root, "g", {"id": "connectors", "fill": "none"})
        for c in self.layout.connectors:
            colour = legend.LINE_COLOURS.get(c.kind, INK)
            ET.SubElement(g, "polyline", {
                "points": " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in c.points),
                "stroke": colour, "stroke-width": _fmt(self.u / 3),
                "stroke-dasharray": f"{_fmt(self.u / 2)} {_fmt(self.u / 3)}",
                "data-link": f"{c.a}-{c.b}", "data-kind": c.kind})

    def centres(self) -> None:
        g = ET.SubElement(self.root, "g", {"id": "centres", "stroke": INK, **_CLICK_THROUGH,
                                           "stroke-width": _fmt(self.u / 10)})
        for sid, shape in self.layout.spaces.items():
            prov = self.board.provinces.get(sid)
            if prov is None or not prov.supply_centre:
                continue
            at = shape.centre or shape.label
            owner = self.pos.centres.get(sid)
            ET.SubElement(g, "circle", {
                "cx": _fmt(at[0]), "cy": _fmt(at[1]), "r": _fmt(self.u * CENTRE),
                "fill": self.colours.get(owner, "#ffffff") if owner else "#ffffff",
                "data-centre": sid, "data-owner": owner or ""})

    def build_centres(self) -> None:
        """Spaces that are no supply centre where a power may also build (1939
        IV's Persia and Archangel for Russia): a small square in its colour."""
        if not self.v.build_centres:
            return
        g = ET.SubElement(self.root, "g", {"id": "build-centres", "stroke": INK, **_CLICK_THROUGH,
                                           "stroke-width": _fmt(self.u / 10)})
        half = self.u * 0.4
        for sid, bc in sorted(self.v.build_centres.items()):
            shape = self.layout.spaces.get(sid)
            if shape is None:
                continue
            # where a centre's marker would be; else beside the unit's spot
            x, y = shape.centre or (shape.unit[0] + self.u * 1.8, shape.unit[1])
            ET.SubElement(g, "rect", {
                "x": _fmt(x - half), "y": _fmt(y - half), "width": _fmt(half * 2),
                "height": _fmt(half * 2), "fill": self.colours.get(bc.power, NEUTRAL_UNIT),
                "data-build-centre": sid, "data-power": bc.power})

    def names(self) -> None:
        """Each name centred on its spot (the box of its capitals: where
        ``tools/place_markers.py`` found it room), smaller where the layout says."""
        size = self.layout.font_size
        g = ET.SubElement(self.root, "g", {
            "id": "names", **_CLICK_THROUGH, "font-family": "DejaVu Sans, Arial, sans-serif",
            "font-size": _fmt(size), "fill": INK, "text-anchor": "middle"})
        # one text of many placed pieces (each its own text chunk, centred on its
        # spot): the same picture, but resvg lays out one text element, not 300
        text = ET.SubElement(g, "text")
        for sid, shape in self.layout.spaces.items():
            prov = self.board.provinces.get(sid)
            if prov is None or prov.terrain is Terrain.IMPASSABLE:
                continue  # the hatching says it; a name would only add clutter
            own = size * shape.label_size
            t = ET.SubElement(text, "tspan", {"x": _fmt(shape.label[0]),
                                              "y": _fmt(shape.label[1] + own * CAP_HEIGHT / 2),
                                              "data-name": sid})
            if shape.label_size != 1.0:
                t.set("font-size", _fmt(own))
            t.text = sid.upper()
        for caption, x, y in self.layout.captions:
            t = ET.SubElement(self.root, "text", {
                "x": _fmt(x), "y": _fmt(y), "font-size": _fmt(self.u * 3),
                "font-family": "DejaVu Serif, serif", "text-anchor": "middle",
                "font-weight": "bold", "fill": INK, "data-caption": caption})
            t.text = caption

    # -- pieces ------------------------------------------------------------------------

    def units(self) -> None:
        """Units at the layout's size for their spot (``Layout.unit_size_at``:
        the full size wherever the space holds it, never below a floor), where
        ``declutter.unit_places`` draws them. Each is a ``<g class="unit">``
        holding a ``circle.unit-hit`` (no paint, the whole disc a click or tap
        lands on), the army's circle or the fleet's hull and sail, and the
        letter; ``data-x``, ``data-y``, ``data-r`` give its spot and radius for a
        page that sizes or finds units itself. A unit moved off its spot, lest
        it cover another (The Twentieth Century's smallest spaces), is drawn at
        its spot and moved by a ``transform``, says where in ``data-drawn-x``,
        ``data-drawn-y``, and is tied to its spot by a leader line (a
        ``line[data-leader]`` and a dot there, in ``#unit-leaders``, under the
        units)."""
        places = unit_places(self.layout, self.pos)
        leaders = ET.SubElement(self.root, "g", {
            "id": "unit-leaders", "stroke": INK, "fill": INK, **_CLICK_THROUGH,
            "stroke-width": _fmt(self.u / 8)})
        g = ET.SubElement(self.root, "g", {"id": "units", "stroke": INK,
                                           "stroke-width": _fmt(self.layout.unit_size / 8)})
        for p in places:
            if p.leader:
                ET.SubElement(leaders, "line", {
                    "x1": _fmt(p.spot[0]), "y1": _fmt(p.spot[1]), "x2": _fmt(p.drawn[0]),
                    "y2": _fmt(p.drawn[1]), "data-leader": p.unit.location,
                    "data-dislodged": "1" if p.dislodged else "0"})
                ET.SubElement(leaders, "circle", {"cx": _fmt(p.spot[0]), "cy": _fmt(p.spot[1]),
                                                  "r": _fmt(self.u * LEADER_DOT)})
            self._unit(g, p)

    def _spot(self, location: str) -> Point:
        return self.layout.unit_spot(location)

    def _unit(self, g: ET.Element, place: UnitPlace) -> None:
        unit, s, dislodged = place.unit, place.size, place.dislodged
        x, y = place.spot
        grp = ET.SubElement(g, "g", {"class": "unit dislodged" if dislodged else "unit",
                                     "data-unit": str(unit), "data-power": unit.power,
                                     "data-location": unit.location,
                                     "data-dislodged": "1" if dislodged else "0",
                                     "data-x": _fmt(x), "data-y": _fmt(y),
                                     "data-r": _fmt(place.radius)})
        dx, dy = place.drawn[0] - x, place.drawn[1] - y
        if _fmt(dx) != "0" or _fmt(dy) != "0":
            grp.set("data-drawn-x", _fmt(place.drawn[0]))
            grp.set("data-drawn-y", _fmt(place.drawn[1]))
            grp.set("transform", f"translate({_fmt(dx)} {_fmt(dy)})")
        ET.SubElement(grp, "circle", {"class": "unit-hit", "cx": _fmt(x), "cy": _fmt(y),
                                      "r": _fmt(place.radius), "fill": "none",
                                      "stroke": "none", "pointer-events": "all"})
        fill = self.colours.get(unit.power, NEUTRAL_UNIT)
        rim = {"stroke": "#c0392b", "stroke-width": _fmt(s / 4)} if dislodged else {}
        if unit.type is UnitType.ARMY:
            ET.SubElement(grp, "circle", {"cx": _fmt(x), "cy": _fmt(y), "r": _fmt(s * 0.8),
                                          "fill": fill, **rim})
        else:
            hull = [(x - s, y - s * 0.1), (x + s, y - s * 0.1), (x + s * 0.6, y + s * 0.6),
                    (x - s * 0.6, y + s * 0.6)]
            sail = [(x - s * 0.1, y - s * 0.9), (x - s * 0.1, y - s * 0.2), (x + s * 0.6,
                                                                            y - s * 0.2)]
            for pts in (hull, sail):
                ET.SubElement(grp, "polygon", {
                    "points": " ".join(f"{_fmt(a)},{_fmt(b)}" for a, b in pts),
                    "fill": fill, **rim})
        t = ET.SubElement(grp, "text", {
            "x": _fmt(x), "y": _fmt(y + s * (0.35 if unit.type is UnitType.ARMY else 0.45)),
            "font-size": _fmt(s * 0.95), "font-family": "DejaVu Sans, Arial, sans-serif",
            "font-weight": "bold", "text-anchor": "middle", "stroke": "none",
            "fill": _text_on(fill)})
        t.text = unit.type.value

    # -- orders ------------------------------------------------------------------------

    def orders(self, orders: Mapping[str, Sequence[Order]],
               results: Iterable[OrderResult]) -> None:
        ok: dict[tuple[str, str], bool] = {}
        for r in results:
            if r.order is not None:
                ok[(r.power, str(r.order))] = r.success
        g = ET.SubElement(self.root, "g", {"id": "orders", "fill": "none", **_CLICK_THROUGH})
        for power, items in sorted(orders.items()):
            for o in items:
                self._order(g, power, narrow_order(o), ok.get((power, str(o)), True))

    def _order(self, g: ET.Element, power: str, o: AnyOrder, success: bool) -> None:
        s = self.u
        style = {"stroke": INK if success else FAILED, "stroke-width": _fmt(s / 3.5),
                 "data-order": str(o), "data-power": power,
                 "data-result": "ok" if success else "failed"}
        if not success:
            style["stroke-dasharray"] = f"{_fmt(s / 2)} {_fmt(s / 3)}"
        here = self._spot(o.location) if o.location else (0.0, 0.0)
        match o.kind:
            case "move" | "retreat":
                kind = "arrow-retreat" if o.kind == "retreat" else "arrow"
                if not success:
                    kind = "arrow-failed"
                if o.kind == "retreat" and success:
                    style["stroke"] = "#c0661b"
                self._line(g, here, self._spot(o.dest), style, kind)
            case "support_hold":
                there = self._spot(self._at(o.target))
                self._line(g, here, there, {**style, "stroke-dasharray": f"{_fmt(s / 3)} "
                                            f"{_fmt(s / 4)}"}, None)
                ET.SubElement(g, "circle", {**style, "cx": _fmt(there[0]), "cy": _fmt(there[1]),
                                            "r": _fmt(s * 1.3)})
            case "support_move":
                start = self._spot(self._at(o.target))
                end = self._spot(o.dest)
                mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
                if self.layout.panel_at(start) != self.layout.panel_at(end):
                    mid = end  # a move between boards: its middle is on neither
                self._line(g, here, mid, {**style, "stroke-dasharray": f"{_fmt(s / 3)} "
                                          f"{_fmt(s / 4)}"}, None)
            case "convoy":
                army = self._spot(self._at(o.target))
                dotted = {**style, "stroke-dasharray": f"{_fmt(s / 6)} {_fmt(s / 4)}"}
                self._line(g, army, here, dotted, None)
                self._line(g, here, self._spot(o.dest), dotted, None)
            case "hold":
                ET.SubElement(g, "circle", {**style, "cx": _fmt(here[0]), "cy": _fmt(here[1]),
                                            "r": _fmt(s * 1.4)})
            case "build":
                ET.SubElement(g, "rect", {**style, "x": _fmt(here[0] - s * 1.4),
                                          "y": _fmt(here[1] - s * 1.4), "width": _fmt(s * 2.8),
                                          "height": _fmt(s * 2.8),
                                          "stroke": "#1e8449" if success else FAILED})
                if o.unit is not None:  # the type of the unit built, in its power's colour
                    fill = self.colours.get(power, NEUTRAL_UNIT)
                    badge = ET.SubElement(g, "g", {"data-build": o.location,
                                                   "data-power": power})
                    ET.SubElement(badge, "rect", {
                        "x": _fmt(here[0] - s * 0.7), "y": _fmt(here[1] - s * 0.7),
                        "width": _fmt(s * 1.4), "height": _fmt(s * 1.4), "fill": fill,
                        "stroke": INK, "stroke-width": _fmt(s / 8)})
                    t = ET.SubElement(badge, "text", {
                        "x": _fmt(here[0]), "y": _fmt(here[1] + s * 0.4),
                        "font-size": _fmt(s * 1.1), "font-weight": "bold",
                        "font-family": "DejaVu Sans, Arial, sans-serif",
                        "text-anchor": "middle", "fill": _text_on(fill)})
                    t.text = o.unit.value
            case "remove" | "disband":
                for dx in (-1, 1):
                    self._line(g, (here[0] - s * 1.2 * dx, here[1] - s * 1.2),
                               (here[0] + s * 1.2 * dx, here[1] + s * 1.2),
                               {**style, "stroke": "#b03a2e"}, None)
            case "waive" | "no_convert" | "permit":
                pass  # nothing on the map: no unit moves, none appears or goes
            case _:
                assert_never(o)

    def _at(self, province: str) -> str:
        unit = self.pos.unit_at(province_of(province))
        return unit.location if unit is not None else province

    def _line(self, g: ET.Element, a: Point, b: Point, style: dict[str, str],
              marker: str | None) -> None:
        here, there = self.layout.panel_at(a), self.layout.panel_at(b)
        if here is not None and there is not None and here != there:
            self._level_jump(g, a, b, (here, there), style, marker)
            return
        w = self.layout.width
        if self.layout.wraps and abs(b[0] - a[0]) > w / 2:
            # across the edge of a world map: out of one side, in at the other
            shift = w if b[0] < a[0] else -w
            self._segment(g, a, (b[0] + shift, b[1]), style, marker)
            self._segment(g, (a[0] - shift, a[1]), b, style, marker)
            return
        self._segment(g, a, b, style, marker)

    def _level_jump(self, g: ET.Element, a: Point, b: Point, panels: tuple[int, int],
                    style: dict[str, str], marker: str | None) -> None:
        """A line between two boards (Twin Earths' levels) as two short strokes,
        each named by the other board: out of ``a`` towards the board ``b`` is
        on, and into ``b`` from the side of ``a``'s, rather than one line across
        a whole board (issue 29)."""
        side = 1.0 if panels[1] > panels[0] else -1.0
        length = self.u * 3.4
        dx, dy = 0.6 * side * length, -0.8 * length
        out_end, in_start = (a[0] + dx, a[1] + dy), (b[0] - dx, b[1] + dy)
        self._segment(g, a, out_end, style, marker, short=False)  # no unit at its end
        self._segment(g, in_start, b, style, marker)
        for (x, y), panel in ((out_end, panels[1]), (in_start, panels[0])):
            t = ET.SubElement(g, "text", {
                "x": _fmt(x + side * self.u * 0.4 * (1 if panel == panels[1] else -1)),
                "y": _fmt(y - self.u * 0.3), "font-size": _fmt(self.u * 1.2),
                "font-family": "DejaVu Serif, serif", "font-weight": "bold",
                "text-anchor": "middle", "fill": style["stroke"], "stroke": "none",
                "data-level": self.layout.panels[panel][0]})
            t.text = self.layout.panels[panel][0]

    def _segment(self, g: ET.Element, a: Point, b: Point, style: dict[str, str],
                 marker: str | None, short: bool = True) -> None:
        # stop short of the target so the arrowhead does not sit on the unit
        dx, dy = b[0] - a[0], b[1] - a[1]
        dist = math.hypot(dx, dy) or 1.0
        cut = min(self.u * 1.1, dist / 3) if marker and short else 0.0
        end = (b[0] - dx / dist * cut, b[1] - dy / dist * cut)
        attrs = {**style, "x1": _fmt(a[0]), "y1": _fmt(a[1]), "x2": _fmt(end[0]),
                 "y2": _fmt(end[1])}
        if marker:
            attrs["marker-end"] = f"url(#{marker})"
        ET.SubElement(g, "line", attrs)

    # -- legend ------------------------------------------------------------------------

    def legend(self, title: str) -> None:
        legend.draw_legend(self.root, self.layout, self.v, self.pos, self.colours, title,
                           NEUTRAL_UNIT)
