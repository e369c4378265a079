"""Pictures of every variant: structure, adjacency agreement, PNG, the viewer.

The adjacency test draws each layout's spaces alone, each in its own colour,
rasterises the picture with resvg and lists the spaces that touch along at
least a few pixels: that must be exactly the variant's links (army, fleet or
strike-only, between provinces), except links the picture draws as lines
(bridges, canals, a City's line to its sea) or states in its legend (Twin
Earths' links between twin spaces, a City's land links).
"""

from __future__ import annotations

import io
import itertools
import random
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from standoff import narrow_order, storage
from standoff.cli import cli
from standoff.core.errors import StandoffError
from standoff.core.game import Game
from standoff.core.geography import province_of
from standoff.core.legal_orders import random_orders
from standoff.core.position import Position
from standoff.core.variant import available_variants, load_variant
from standoff.render import game_viewer, layout_for, power_colours, render_png, render_svg
from standoff.render.svg import (
    CLASSIC,
    FAILED,
    HATCH_SPACING,
    INK,
    LAND,
    NEUTRAL_UNIT,
    PALETTE,
    SEA,
    land_tint,
)

VARIANTS = sorted({load_variant(str(p)).name for p in available_variants().values()})
NS = {"s": "http://www.w3.org/2000/svg"}


def _start(name: str) -> Position:
    return Position.initial(load_variant(name))


def _midgame(name: str, phases: int = 7) -> Game:
    g = Game.new(name)
    rng = random.Random(5)
    for _ in range(phases):
        for pid, picks in random_orders(g.position, rng, 0.0, g.options, g.variant).items():
            g.submit(pid, picks)
        g.process()
    return g


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


@pytest.mark.parametrize("name", VARIANTS)
def test_start_position_has_every_space_centre_and_unit(name: str) -> None:
    v = load_variant(name)
    pos = _start(name)
    root = _tree(render_svg(pos))
    spaces = {e.get("data-space") for e in root.iter() if e.get("data-space")}
    assert spaces == set(v.board.provinces)
    centres = {e.get("data-centre") for e in root.iter() if e.get("data-centre")}
    assert centres == set(v.supply_centres)
    units = sorted(e.get("data-location") or "" for e in root.iter()
                   if e.get("data-unit") and e.get("data-dislodged") == "0")
    assert units == sorted(u.location for u in pos.units)
    legend = {e.get("data-legend") for e in root.iter() if e.get("data-legend")}
    assert set(v.powers) <= legend


@pytest.mark.parametrize("name", VARIANTS)
def test_midgame_with_orders_renders_and_rasterises(name: str) -> None:
    g = _midgame(name)
    rec = g.history[-1]
    svg = render_svg(rec.position, orders=rec.orders, results=rec.results)
    root = _tree(svg)
    drawn = [e for e in root.iter() if e.get("data-order")]
    given = [o for os in rec.orders.values() for o in os
             if o.kind not in ("no_convert", "permit", "waive")]
    assert given and len(drawn) >= len(given)
    failed = {r.order for r in rec.results if r.order is not None and not r.success}
    if failed:
        assert any(e.get("data-result") == "failed" for e in drawn)
    png = render_png(svg, width=600)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == 600 and height > 200


def _id_picture(name: str) -> tuple[str, dict[tuple[int, int, int], str]]:
    """The layout's spaces alone, each filled with its own colour, no strokes."""
    layout = layout_for(name)
    colours: dict[tuple[int, int, int], str] = {}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{layout.width:.0f}" '
             f'height="{layout.height:.0f}" shape-rendering="crispEdges">']
    for i, (sid, shape) in enumerate(sorted(layout.spaces.items()), start=1):
        rgb = (17 + (i // 256) * 50, i % 256, (i * 97) % 256)  # unique for i < 1280
        colours[rgb] = sid
        fill = "#{:02x}{:02x}{:02x}".format(*rgb)
        if shape.disc:
            parts.append(f'<circle cx="{shape.unit[0]}" cy="{shape.unit[1]}" r="{shape.disc}" '
                         f'fill="{fill}"/>')
            continue
        d = " ".join("M" + " L".join(f"{x} {y}" for x, y in ring) + " Z"
                     for ring in shape.rings)
        parts.append(f'<path d="{d}" fill-rule="evenodd" fill="{fill}" stroke="{fill}" '
                     f'stroke-width="0.5"/>')
    parts.append("</svg>")
    return "".join(parts), colours


def _touching(name: str, min_border: int = 3) -> set[tuple[str, str]]:
    svg, colours = _id_picture(name)
    img = np.array(Image.open(io.BytesIO(render_png(svg))).convert("RGBA"), dtype=np.int64)
    key = (img[..., 0] << 16) | (img[..., 1] << 8) | img[..., 2]
    key[img[..., 3] < 255] = -1  # anti-aliased or empty: no space
    count: dict[tuple[int, int], int] = {}
    for a, b in ((key[:, :-1], key[:, 1:]), (key[:-1, :], key[1:, :])):
        diff = (a != b) & (a >= 0) & (b >= 0)
        pairs = np.stack([np.minimum(a[diff], b[diff]), np.maximum(a[diff], b[diff])], axis=1)
        uniq, n = np.unique(pairs, axis=0, return_counts=True)
        for (x, y), k in zip(uniq.tolist(), n.tolist(), strict=True):
            count[(x, y)] = count.get((x, y), 0) + k
    ids = {(r << 16) | (g << 8) | b: sid for (r, g, b), sid in colours.items()}
    out = set()
    for (x, y), k in count.items():
        if k >= min_border and x in ids and y in ids:
            a, b = sorted((ids[x], ids[y]))
            out.add((a, b))
    return out


def _impassable(name: str) -> set[str]:
    """Spaces of no terrain units use (on the first board): they touch their
    neighbours on the picture but link to nothing (Switzerland)."""
    v = load_variant(name)
    board = v.board_at(v.start)
    return {p for p, q in board.provinces.items() if q.terrain.value == "impassable"}


def _links(name: str) -> set[tuple[str, str]]:
    v = load_variant(name)
    board = v.board_at(v.start)
    out = set()
    for table in (board.army_links, board.fleet_links):
        for src, dsts in table.items():
            for dst in dsts:
                a, b = province_of(src), province_of(dst)
                out.add((a, b) if a < b else (b, a))
    for a, b in board.strike_only:
        a, b = province_of(a), province_of(b)
        out.add((a, b) if a < b else (b, a))
    return out


def _implied(name: str, pair: tuple[str, str]) -> bool:
    layout = layout_for(name)
    a, b = pair
    if "level" in layout.implied and a[:-1] == b[:-1]:
        return True
    if "city-land" in layout.implied:
        board = load_variant(name).board
        for city, other in ((a, b), (b, a)):
            if city.endswith("*") and board.provinces[other].terrain.value != "sea":
                return True
    return False


@pytest.mark.parametrize("name", VARIANTS)
def test_borders_on_the_picture_are_the_variants_links(name: str) -> None:
    """Two spaces share a border on the picture iff they are adjacent, links
    drawn as lines or stated in the legend aside."""
    layout = layout_for(name)
    shut = _impassable(name)
    touching = {p for p in _touching(name) if not set(p) & shut}
    links = _links(name)
    drawn = {(c.a, c.b) if c.a < c.b else (c.b, c.a) for c in layout.connectors}
    assert touching - links == set(), "spaces touch on the picture but are not linked"
    missing = {p for p in links - touching - drawn if not _implied(name, p)}
    assert missing == set(), "linked spaces neither touch nor are joined by a line"


def _edges(points: list[tuple[float, float]]) -> list[tuple[tuple[float, float], ...]]:
    return [tuple(sorted((points[i - 1], points[i]))) for i in range(1, len(points))]


def _subpaths(d: str) -> list[list[tuple[float, float]]]:
    """The points of each subpath of path data made of ``M x y l dx dy ...``."""
    out = []
    for part in d.split("M")[1:]:
        start, _, steps = part.replace("z", "").partition("l")
        x, y = (float(n) for n in start.split())
        points = [(x, y)]
        nums = [float(n) for n in steps.split()]
        for dx, dy in zip(nums[::2], nums[1::2], strict=True):
            x, y = x + dx, y + dy
            points.append((round(x, 1), round(y, 1)))
        out.append(points)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_border_is_drawn_once(name: str) -> None:
    """The borders are one stroked path, not each space's outline: every edge of
    every traced ring is in it, and only once (so none is stroked twice)."""
    layout = layout_for(name)
    root = _tree(render_svg(_start(name)))
    borders = root.find("s:path[@id='borders']", NS)
    assert borders is not None
    drawn = [e for chain in _subpaths(borders.get("d") or "") for e in _edges(chain)]
    assert len(drawn) == len(set(drawn)), "a border is stroked twice"

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return (round(p[0], 1), round(p[1], 1))

    traced = {e for s in layout.spaces.values() for ring in s.rings
              for e in _edges([at(p) for p in (*ring, ring[0])]) if e[0] != e[1]}
    assert set(drawn) == traced


def _inside(p: tuple[float, float], rings: tuple[tuple[tuple[float, float], ...], ...]) -> bool:
    x, y = p
    odd = False
    for ring in rings:
        for i in range(len(ring)):
            (ax, ay), (bx, by) = ring[i - 1], ring[i]
            if (ay > y) != (by > y) and x < ax + (y - ay) / (by - ay) * (bx - ax):
                odd = not odd
    return odd


@pytest.mark.parametrize("name", ["standard", "sahara", "twentieth-century"])
def test_impassable_spaces_are_hatched_inside_their_borders(name: str) -> None:
    layout = layout_for(name)
    shut = _impassable(name)
    root = _tree(render_svg(_start(name)))
    stripes = root.find("s:path[@id='hatching']", NS)
    assert stripes is not None
    drawn = _subpaths(stripes.get("d") or "")
    for sid in shut:
        mine = layout.hatching(sid, HATCH_SPACING)
        assert mine, f"{sid} has no stripes"
        for a, b in mine:
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            assert _inside(mid, layout.spaces[sid].rings)
            assert abs((b[1] - a[1]) + (b[0] - a[0])) < 1e-6  # at 45 degrees
    assert len(drawn) == sum(len(layout.hatching(sid, HATCH_SPACING)) for sid in shut)


def test_viewer_and_cli_render(tmp_path: Path) -> None:
    game = str(tmp_path / "g.json")
    storage.save(_midgame("standard", 3), game)
    runner = CliRunner()
    for out in ("map.svg", "map.png"):
        res = runner.invoke(cli, ["render", game, "--orders", "-o", str(tmp_path / out)])
        assert res.exit_code == 0, res.output
    assert (tmp_path / "map.png").read_bytes()[:4] == b"\x89PNG"
    res = runner.invoke(cli, ["render", game, "--phase", "S1901M", "--orders", "-o",
                              str(tmp_path / "first.svg")])
    assert res.exit_code == 0 and "data-order" in (tmp_path / "first.svg").read_text()
    res = runner.invoke(cli, ["render", game, "--all", "-o", str(tmp_path / "all")])
    assert res.exit_code == 0, res.output
    assert len(list((tmp_path / "all").glob("*.svg"))) == 4
    page = (tmp_path / "all" / "index.html").read_text()
    assert page.count("<svg") == 4 and "http" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    bad = runner.invoke(cli, ["render", game, "--phase", "F1999M", "-o", str(tmp_path / "x.svg")])
    assert bad.exit_code == 5 and "no phase F1999M" in bad.output
    bad = runner.invoke(cli, ["render", game, "--width", "-5", "-o", str(tmp_path / "x.png")])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    with pytest.raises(StandoffError, match="pixels wide"):
        render_png(render_svg(_start("standard")), width=-5)
    bad = runner.invoke(cli, ["render", game, "-o", str(tmp_path / "x.gif")])
    assert bad.exit_code == 2 and ".svg or .png" in bad.output


def test_viewer_is_one_self_contained_page() -> None:
    page = game_viewer(_midgame("standard", 2))
    assert page.startswith("<!DOCTYPE html>") and "<script src" not in page


# -- colours: every power apart from every other, from neutral land and the sea --------

def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of ``#rrggbb``."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
           for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    r, g, b = lin
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
           0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _apart(a: str, b: str) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, 25 plainly different."""
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


#: power colours (units, legend) from each other
UNITS_APART = 25.0
#: land tints from each other (pale colours crowd together)
LANDS_APART = 15.0
#: a power's land from neutral land and from the sea: it must not look like either
FROM_BOARD = 15.0
#: failed orders from every power's colour and land, and from land and sea
FAILED_APART = 40.0


def _palettes() -> dict[str, dict[str, str]]:
    return {name: power_colours(load_variant(name)) for name in VARIANTS}


def test_power_colours_are_apart_from_each_other_and_from_the_board() -> None:
    """Russia's near-white looked like land off the board; France's land, tinted
    like the others, looked like sea. Every variant's colours (the Twentieth
    Century's thirteen, 1939 IV's five and the neutrals) are told apart."""
    assert _apart(CLASSIC["russia"], LAND) > 40
    for name, colours in _palettes().items():
        v = load_variant(name)
        for (pa, a), (pb, b) in itertools.combinations(sorted(colours.items()), 2):
            assert _apart(a, b) >= UNITS_APART, (name, pa, pb, round(_apart(a, b)))
        lands = {p: land_tint(c) for p, c in colours.items() if p in v.powers}
        for (pa, a), (pb, b) in itertools.combinations(sorted(lands.items()), 2):
            assert _apart(a, b) >= LANDS_APART, (name, pa, pb, round(_apart(a, b)))
        for p, land in lands.items():
            assert _apart(land, LAND) >= FROM_BOARD, (name, p, "neutral land")
            assert _apart(land, SEA) >= FROM_BOARD, (name, p, "sea")
    # the palette beyond what today's variants use, for the next one
    spare = [*PALETTE, NEUTRAL_UNIT]
    assert min(_apart(a, b) for a, b in itertools.combinations(spare, 2)) >= UNITS_APART


def test_failed_orders_are_in_a_colour_no_power_uses() -> None:
    for name, colours in _palettes().items():
        for p, c in colours.items():
            assert _apart(FAILED, c) >= FAILED_APART, (name, p, round(_apart(FAILED, c)))
            assert _apart(FAILED, land_tint(c)) >= FAILED_APART, (name, p, "land")
    for board in (LAND, SEA, INK):
        assert _apart(FAILED, board) >= FAILED_APART
    g = _midgame("standard")
    rec = next(r for r in reversed(g.history) if any(not x.success for x in r.results))
    root = _tree(render_svg(rec.position, orders=rec.orders, results=rec.results))
    failed = [e for e in root.iter() if e.get("data-result") == "failed"]
    assert failed and all(e.get("stroke") == FAILED and e.get("stroke-dasharray")
                          for e in failed)
    marker = root.find(".//s:marker[@id='arrow-failed']/s:path", NS)
    assert marker is not None and marker.get("fill") == FAILED


def _with_builds(name: str) -> Game:
    """A game played until an adjustment phase with builds has been processed."""
    g = Game.new(name)
    rng = random.Random(3)
    for _ in range(40):
        for pid, picks in random_orders(g.position, rng, 0.0, g.options, g.variant).items():
            g.submit(pid, picks)
        g.process()
        rec = g.history[-1]
        if any(o.kind == "build" for os in rec.orders.values() for o in os):
            return g
    raise AssertionError("no builds in 40 phases")


def test_a_build_square_holds_the_letter_of_the_unit_built() -> None:
    rec = _with_builds("standard").history[-1]
    root = _tree(render_svg(rec.position, orders=rec.orders, results=rec.results))
    builds = [(p, narrow_order(o)) for p, os in rec.orders.items() for o in os
              if o.kind == "build"]
    assert builds
    for power, o in builds:
        square = next(e for e in root.iter(f"{{{NS['s']}}}rect")
                      if e.get("data-order") == str(o))
        x, y = float(square.get("x") or 0), float(square.get("y") or 0)
        w, h = float(square.get("width") or 0), float(square.get("height") or 0)
        badge = next(e for e in root.iter() if e.get("data-build") == o.location)
        assert badge.get("data-power") == power
        text = badge.find("s:text", NS)
        assert text is not None and o.unit is not None and text.text == o.unit.value
        tx, ty = float(text.get("x") or 0), float(text.get("y") or 0)
        assert x < tx < x + w and y < ty < y + h, "the letter is outside its square"
        fill = badge.find("s:rect", NS)
        assert fill is not None and fill.get("fill") == power_colours(
            load_variant("standard"))[power]


def test_build_centres_are_marked_in_1939_and_not_in_standard() -> None:
    v = load_variant("1939-iv")
    root = _tree(render_svg(_start("1939-iv")))
    marks = {e.get("data-build-centre"): e for e in root.iter() if e.get("data-build-centre")}
    assert set(marks) == set(v.build_centres) == {"per", "arc"}
    russia = power_colours(v)["russia"]
    assert all(e.get("fill") == russia and e.get("data-power") == "russia"
               for e in marks.values())
    legend = [e for e in root.iter() if e.get("data-legend-build-centre") == "russia"]
    assert legend and legend[0].get("fill") == russia
    box = root.find("s:g[@id='legend']", NS)
    assert box is not None
    words = "".join(box.itertext())
    assert "build centres" in words and "ARC, PER" in words
    standard = _tree(render_svg(_start("standard")))
    assert not [e for e in standard.iter()
                if e.get("data-build-centre") or e.get("data-legend-build-centre")]
