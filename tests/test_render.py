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
import random
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image

from standoff import storage
from standoff.cli import cli
from standoff.core.errors import StandoffError
from standoff.core.game import Game
from standoff.core.geography import province_of
from standoff.core.legal import random_orders
from standoff.core.position import Position
from standoff.core.variant import available_variants, load_variant
from standoff.render import game_viewer, layout_for, render_png, render_svg
from standoff.render.svg import HATCH_SPACING

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
