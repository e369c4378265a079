"""The maps as drawn (issue 29, "The maps"): every marker inside its space,
units never below a floor size, names clear of each other, 1939 IV's African
High Ocean off the land (rule 5.4), City/Country's Cities and their legend
(rule .52), The Twentieth Century's legend lines and crowded names, Twin
Earths' moves between boards, and `render --phase` reading Sahara's old season
letters (rule 6)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path

import pytest
from click.testing import CliRunner

from programs import program
from standoff import Phase, PhaseKind, Position, Terrain, Unit, UnitType, parse_order, storage
from standoff.cli import cli
from standoff.core.game import Game
from standoff.core.legal_orders import random_orders
from standoff.core.position import Dislodged
from standoff.core.variant import Variant, available_variants, load_variant
from standoff.render import layout_for, render_svg
from standoff.render.declutter import LEADER_SHARE, spread
from standoff.render.layout import UNIT_FLOOR, UNIT_REACH, Layout
from standoff.render.legend import LINE_COLOURS
from standoff.render.placement import Outline, clearance, label_discs, text_width, widest_point

VARIANTS = sorted({load_variant(str(p)).name for p in available_variants().values()})
#: the one map whose smallest spaces (its Europe) cannot hold a unit of the
#: floor size: there a unit stands at its space's widest point instead
CRAMPED = {"twentieth-century"}
NS = "{http://www.w3.org/2000/svg}"


def _rings(layout: Layout, location: str) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The rings a unit at ``location`` must stay inside (a City's: its Country's)."""
    sid = location.split("/")[0]
    shape = layout.spaces[sid]
    return shape.rings or layout.spaces[sid.rstrip("*")].rings


def _shut(variant: Variant) -> set[str]:
    board = variant.board_at(variant.start)
    return {p for p, q in board.provinces.items() if q.terrain is Terrain.IMPASSABLE}


def _everyone(variant: Variant) -> list[Position]:
    """A unit on every location: one position with a unit in every province
    (a fleet on seas), then one for the first coast of every split province,
    one for the second... (one unit a province: several would stand in a row)."""
    power = next(iter(variant.powers))
    board = variant.board_at(variant.start)
    units = [Unit(power, UnitType.FLEET if q.terrain is Terrain.SEA else UnitType.ARMY, p)
             for p, q in board.provinces.items() if q.terrain is not Terrain.IMPASSABLE]
    out = [Position(variant.name, variant.start, units, {})]
    coasts: dict[str, list[str]] = {}
    for loc in layout_for(variant.name).coasts:
        coasts.setdefault(loc.split("/")[0], []).append(loc)
    for i in range(max((len(c) for c in coasts.values()), default=0)):
        out.append(Position(variant.name, variant.start,
                            [Unit(power, UnitType.FLEET, c[i]) for c in coasts.values()
                             if len(c) > i], {}))
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_every_unit_drawn_lies_inside_its_space(name: str) -> None:
    """Issue 29: London's fleet looked as if it stood in Yorkshire, Albania's
    army in the Adriatic. Every unit as drawn (``data-x``, ``data-y``,
    ``data-r``), on every location of every variant, is at least its own radius
    from its space's border; only where a space cannot hold a unit of the floor
    size (The Twentieth Century's smallest) it stands at the space's widest point."""
    v = load_variant(name)
    layout = layout_for(name)
    for pos in _everyone(v):
        root = ET.fromstring(render_svg(pos))
        drawn = [e for e in root.iter(f"{NS}g") if e.get("data-unit")]
        assert len(drawn) == len(pos.units)
        for e in drawn:
            loc = e.get("data-location") or ""
            spot = (float(e.get("data-x") or 0), float(e.get("data-y") or 0))
            r = float(e.get("data-r") or 0)
            rings = _rings(layout, loc)
            room = clearance(spot, rings)
            if room >= r - 0.05:
                continue
            assert name in CRAMPED, f"{loc}: {room:.1f} from its border, radius {r:.1f}"
            assert r == pytest.approx(UNIT_FLOOR * layout.u * UNIT_REACH, abs=0.05)
            assert room >= clearance(widest_point(rings), rings) - 0.6, loc


#: City/Country's Cities whose Country is too narrow for two units of the full
#: size side by side (Edinburgh, Liverpool and Naples are strips a unit wide):
#: their City's unit is drawn smaller, never below the floor
NARROW_CITIES = {"edi*", "lvp*", "nap*"}


@pytest.mark.parametrize("name", sorted(set(VARIANTS) - CRAMPED))
def test_units_are_full_size_in_every_space_units_go(name: str) -> None:
    """Units are not scaled down to small provinces (issue 29: A APU was 3 px on
    a phone): on Standard's maps and 1939 IV's, every space a unit may stand in
    holds a unit of the full size (but three Cities: NARROW_CITIES)."""
    v = load_variant(name)
    layout = layout_for(name)
    shut = _shut(v)
    for loc in [*layout.spaces, *layout.coasts]:
        if loc.split("/")[0] in shut:
            continue
        if loc in NARROW_CITIES and name == "city-country":
            assert layout.unit_size_at(loc) >= UNIT_FLOOR * layout.u
        else:
            assert layout.unit_size_at(loc) == pytest.approx(layout.unit_size), loc


@pytest.mark.parametrize("name", VARIANTS)
def test_units_have_a_floor_size_and_a_hit_disc(name: str) -> None:
    """What the judge's pages rely on (issue 29): each unit is a ``g.unit`` with
    its centre and radius in ``data-x``/``data-y``/``data-r``, never smaller than
    UNIT_FLOOR of the map's measure, holding an unpainted ``circle.unit-hit`` of
    that radius that takes clicks and taps over the whole disc."""
    layout = layout_for(name)
    root = ET.fromstring(render_svg(_everyone(load_variant(name))[0]))
    units = [e for e in root.iter(f"{NS}g") if e.get("data-unit")]
    assert units
    for e in units:
        assert e.get("class") == "unit"
        r = float(e.get("data-r") or 0)
        assert r >= UNIT_FLOOR * layout.u * UNIT_REACH - 0.05
        hit = e.find(f"{NS}circle[@class='unit-hit']")
        assert hit is not None
        assert (hit.get("fill"), hit.get("pointer-events")) == ("none", "all")
        assert float(hit.get("r") or 0) == r
        assert (hit.get("cx"), hit.get("cy")) == (e.get("data-x"), e.get("data-y"))


@pytest.mark.parametrize("name", VARIANTS)
def test_centre_markers_lie_inside_their_space_beside_its_unit(name: str) -> None:
    """A supply centre's marker (and a build centre's square) is inside its
    space by its radius and clear of the unit standing there. In The Twentieth
    Century's smallest spaces, with no room for both, it is inside all the same
    and no more than half under the unit (within a tenth of the map's measure)."""
    v = load_variant(name)
    layout = layout_for(name)
    for sid, shape in layout.spaces.items():
        if shape.centre is None or not shape.rings:
            continue
        unit = layout.unit_size_at(sid) * UNIT_REACH
        room = clearance(shape.centre, shape.rings) - layout.centre_radius
        apart = math.dist(shape.centre, shape.unit) - layout.centre_radius
        if name in CRAMPED:
            assert min(room, apart - unit / 2) >= -0.1 * layout.u, sid
            continue
        assert room >= -0.05, sid
        assert apart >= unit - 0.05, sid
    assert {s for s in v.build_centres} <= {s for s, sh in layout.spaces.items() if sh.centre}


def _name_discs(layout: Layout, sid: str) -> list[tuple[float, float, float]]:
    shape = layout.spaces[sid]
    return [(shape.label[0] + dx, shape.label[1] + dy, r / 1.1)  # the box, not its padding
            for dx, dy, r in label_discs(sid, layout.font_size * shape.label_size)]


@pytest.mark.parametrize("name", VARIANTS)
def test_names_do_not_overlap_each_other_nor_leave_their_space(name: str) -> None:
    """No two names drawn overlap (issue 29: The Twentieth Century's BEL/RUH,
    STU/BAY), nor a name a unit's disc, and each name is inside its space. In
    The Twentieth Century's smallest spaces (and for Rome's City, whose Country
    holds two units and a name) a name with no room inside is centred in its
    space and runs over its border, at 60 % or less; Singapore's, in a space
    12 units wide with a unit and a centre, is off by less than a tenth of the
    map's measure."""
    v = load_variant(name)
    layout = layout_for(name)
    shut = _shut(v)
    named = sorted(s for s in layout.spaces if s not in shut)
    discs = {s: _name_discs(layout, s) for s in named}
    for i, a in enumerate(named):
        for b in named[i + 1:]:
            assert not any(math.dist(p[:2], q[:2]) < p[2] + q[2] - 0.3
                           for p in discs[a] for q in discs[b]), f"{a} and {b}"
    units = [(*layout.spaces[s].unit, layout.unit_size_at(s) * UNIT_REACH) for s in named]
    units += [(*p, layout.unit_size_at(loc) * UNIT_REACH) for loc, p in layout.coasts.items()]
    slack = 0.1 * layout.u if name in CRAMPED else 0.3
    for sid in named:
        outline = Outline(_rings(layout, sid))
        for x, y, r in discs[sid]:
            assert all(math.dist((x, y), (ux, uy)) >= r + ur - slack
                       for ux, uy, ur in units), sid
        inside = all(outline.clearance((x, y)) >= r - 0.3 for x, y, r in discs[sid])
        if not inside:
            assert name in CRAMPED or (name == "city-country" and sid.endswith("*")), sid
            assert outline.clearance(layout.spaces[sid].label) >= -slack, sid
            assert layout.spaces[sid].label_size <= 0.6, sid


def test_1939_african_high_ocean_is_drawn_apart_from_every_land_space() -> None:
    """1939 IV rule 5.4: "The African High Ocean borders the South Atlantic, the
    Red Sea, and the Persian Gulf. It does not border any land spaces." Its
    strip under Africa was drawn touching French West Africa, Libya and Egypt
    (issue 29): now a band of background at least 8 units wide (several border
    widths) keeps it off French West Africa, Libya and Egypt and at least 5
    off every other land space, and it still shares a border with
    the three seas (and the Atlantic High Ocean, rule 5.5). At the mouth of the
    Persian Gulf, where the wider band would close the gulf, the band is
    narrower but still over three border widths."""
    v = load_variant("1939-iv")
    layout = layout_for("1939-iv")
    afh = layout.spaces["afh"].rings
    ocean = Outline(afh)
    for sid, q in v.board.provinces.items():
        if q.terrain is Terrain.SEA:
            continue
        land = layout.spaces[sid].rings
        outline = Outline(land)
        # the nearest two polygons come is at a corner of one of them
        gap = min(min(abs(outline.clearance(p)) for ring in afh for p in ring),
                  min(abs(ocean.clearance(p)) for ring in land for p in ring))
        assert gap >= (8 if sid in ("fwa", "lib", "egy") else 5), f"afh is {gap:.1f} from {sid}"
    corners = {p for ring in afh for p in ring}
    for sea in ("sao", "red", "pgu", "ath"):
        shared = [p for ring in layout.spaces[sea].rings for p in ring if p in corners]
        assert len(shared) >= 2, f"afh does not border {sea}"


def test_city_country_legend_and_cities_follow_rule_52() -> None:
    """City/Country rule .52: "To enter from land, a unit must enter from the
    surrounding Country. The other land connexions are valid for all other
    purposes." The legend said "a City has its Country's land links" (issue 29);
    it now says a unit enters a City only from its Country or a sea it touches.
    Rule .1: City and Country are two spaces, each may hold a unit: a City's
    disc lies inside its Country, and a unit on each is drawn apart from the
    other; the names (VEN*/VEN, TRI/TRI* overlapped) are apart. Rule .4: a
    City touches only the seas its dot touched; its disc is kept off the
    others where its Country has room."""
    layout = layout_for("city-country")
    root = ET.fromstring(render_svg(Position.initial(load_variant("city-country"))))
    notes = " ".join(e.text or "" for e in root.iter(f"{NS}text") if e.get("data-note"))
    assert "only from its Country" in notes and ".52" in notes
    assert "Country's land links" not in notes
    for sid, city in layout.spaces.items():
        if not sid.endswith("*"):
            continue
        country = layout.spaces[sid[:-1]]
        city_r = layout.unit_size_at(sid) * UNIT_REACH
        assert clearance(city.unit, country.rings) >= max(city.disc, city_r) - 0.05, sid
        apart = city_r + layout.unit_size_at(sid[:-1]) * UNIT_REACH
        assert math.dist(city.unit, country.unit) >= apart - 0.05, sid
    # .404 "London to North Sea only": its disc is kept off the English Channel
    for cid, sea in (("lon*", "eng"), ("lvp*", "nao"), ("bel*", "eng")):
        off = -Outline(layout.spaces[sea].rings).clearance(layout.spaces[cid].unit)
        assert off >= layout.spaces[cid].disc + layout.u, (cid, sea)
    for pair in (("ven*", "ven"), ("tri", "tri*")):
        a, b = (_name_discs(layout, s) for s in pair)
        assert not any(math.dist(p[:2], q[:2]) < p[2] + q[2] for p in a for q in b), pair


def test_twentieth_century_legend_names_its_lines_and_borders_keep_their_width() -> None:
    """Issue 29: The Twentieth Century had no legend for its canals and land
    bridges, and its outlines grew thick when a page zoomed in: the legend has a
    line of each kind in the map's colour for it, and the borders are drawn with
    a non-scaling stroke (a page's zoom keeps them as wide on screen)."""
    root = ET.fromstring(render_svg(Position.initial(load_variant("twentieth-century"))))
    lines = {e.get("data-legend-line"): e.get("stroke") for e in root.iter(f"{NS}line")
             if e.get("data-legend-line")}
    assert lines == {"canal": LINE_COLOURS["canal"], "bridge": LINE_COLOURS["bridge"]}
    texts = [e.text or "" for e in root.iter(f"{NS}text")]
    assert any(t.startswith("Canal:") and "PERMIT" in t for t in texts)
    assert any(t.startswith("Land bridge:") for t in texts)
    borders = root.find(f"{NS}path[@id='borders']")
    assert borders is not None and borders.get("vector-effect") == "non-scaling-stroke"
    standard = ET.fromstring(render_svg(Position.initial(load_variant("standard"))))
    assert not [e for e in standard.iter(f"{NS}line") if e.get("data-legend-line")]


def test_twentieth_century_crowded_names_are_apart_from_units() -> None:
    """Issue 29 named BEL/RUH, STU/BAY, PAR and NAN: their names overlap no
    other name and no unit's disc at its spot, in any space."""
    layout = layout_for("twentieth-century")
    units = [(*layout.spaces[s].unit, layout.unit_size_at(s) * UNIT_REACH)
             for s in layout.spaces]
    for sid in ("bel", "ruh", "stu", "bay", "par", "nan"):
        for x, y, r in _name_discs(layout, sid):
            assert all(math.dist((x, y), (ux, uy)) >= r + ur - 0.3 for ux, uy, ur in units), sid


def test_twin_earths_move_between_boards_is_two_short_strokes() -> None:
    """Issue 29: a move between levels was drawn as one long arrow across the
    whole of board I. A move (and a support of it) from one board to another is
    a short stroke out of the unit towards the other board, named by it, and
    one into the destination, named by the board it came from."""
    v = load_variant("twin-earths")
    layout = layout_for("twin-earths")
    pos = Position(v.name, v.start, [Unit("germany", UnitType.ARMY, "mun1"),
                                     Unit("germany", UnitType.ARMY, "kie1")], {})
    orders = {"germany": [parse_order("A MUN1 - MUN2", v),
                          parse_order("A KIE1 S A MUN1 - MUN2", v)]}
    root = ET.fromstring(render_svg(pos, orders=orders))
    strokes = [e for e in root.iter(f"{NS}line") if e.get("data-order")]
    assert len(strokes) == 4  # out of and into, for each order
    for e in strokes:
        a = (float(e.get("x1") or 0), float(e.get("y1") or 0))
        b = (float(e.get("x2") or 0), float(e.get("y2") or 0))
        assert math.dist(a, b) < layout.u * 4
        assert layout.panel_at(a) == layout.panel_at(b)
    levels = sorted(e.text or "" for e in root.iter(f"{NS}text") if e.get("data-level"))
    assert levels == ["I", "I", "II", "II"]


def test_render_reads_sahara_old_season_letters_in_every_year(tmp_path: Path) -> None:
    """Sahara rule 6 renames the seasons from 1905 (Early and Late Summer);
    docs/variants/sahara.md: "Both the old and the new names and letters are
    read in every year". `standoff render --phase F1906M` was refused where
    only L1906M worked (issue 29): both draw the same phase."""
    g = Game.new("sahara")
    rng = random.Random(1)
    while g.position.phase < Phase(1906, 1, PhaseKind.RETREAT):
        for pid, picks in random_orders(g.position, rng, 0.0, g.options, g.variant).items():
            g.submit(pid, picks)
        g.process()
    game = tmp_path / "sahara.json"
    storage.save(g, game)
    runner = CliRunner()
    drawn: dict[str, str] = {}
    for phase in ("F1906M", "L1906M", "Fall 1906, Movement", "late summer 1906 movement"):
        out = tmp_path / f"{len(drawn)}.svg"
        result = runner.invoke(cli, ["render", str(game), "--phase", phase, "-o", str(out)])
        assert result.exit_code == 0, result.output
        drawn[phase] = out.read_text()
    assert len(set(drawn.values())) == 1
    assert 'data-phase="L1906M"' in drawn["F1906M"]
    result = runner.invoke(cli, ["render", str(game), "--phase", "S1999M", "-o",
                                 str(tmp_path / "x.svg")])
    assert result.exit_code != 0 and "no phase E1999M" in result.output
    result = runner.invoke(cli, ["render", str(game), "--phase", "soon", "-o",
                                 str(tmp_path / "x.svg")])
    assert result.exit_code != 0 and "cannot read phase" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", VARIANTS)
def test_legend_entries_do_not_run_into_each_other(name: str) -> None:
    """Issue 29's legend lines made rows longer: an entry wider than its column
    takes the next one too (1939 IV's build centres ran into its land bridge's
    entry), and the notes stand under the rows."""
    root = ET.fromstring(render_svg(_midgame_position(name)))
    legend = root.find(f"{NS}g[@id='legend']")
    assert legend is not None
    size = float(legend.get("font-size") or 0)
    rows: dict[str, list[tuple[float, float]]] = {}
    for t in legend.iter(f"{NS}text"):
        if t.get("font-weight") or t.get("data-note") is not None:
            continue
        x = float(t.get("x") or 0)
        width = text_width(t.text or "", float(t.get("font-size") or size))
        rows.setdefault(t.get("y") or "", []).append((x, x + width))
    for row in rows.values():
        row.sort()
        for (_, end), (start, _) in pairwise(row):
            assert end < start - size, row
    notes = [float(t.get("y") or 0) for t in legend.iter(f"{NS}text") if t.get("data-note")]
    assert not notes or min(notes) > max(float(y) for y in rows)


def _midgame_position(name: str) -> Position:
    """The start, with a centre or more changed hands (longer counts in the legend)."""
    v = load_variant(name)
    pos = Position.initial(v)
    owned = dict(pos.centres)
    first = next(iter(v.powers))
    for sid in sorted(v.supply_centres)[:12]:
        owned[sid] = first
    return Position(v.name, pos.phase, pos.units, owned)


def _drawn(root: ET.Element) -> list[tuple[str, tuple[float, float], tuple[float, float], float]]:
    """Each unit of a picture: its location, its spot (``data-x``/``-y``), where it
    is drawn (``data-drawn-x``/``-y``, else its spot) and its radius."""
    out = []
    for e in root.iter(f"{NS}g"):
        if not e.get("data-unit"):
            continue
        spot = (float(e.get("data-x") or 0), float(e.get("data-y") or 0))
        drawn = (float(e.get("data-drawn-x") or spot[0]), float(e.get("data-drawn-y") or spot[1]))
        out.append((e.get("data-location") or "", spot, drawn, float(e.get("data-r") or 0)))
    return out


def _crowded(name: str) -> list[Position]:
    """A unit on every location (:func:`_everyone`), the start, and a position with
    a dislodged unit beside its attacker and three fleets on one sea."""
    v = load_variant(name)
    start = Position.initial(v)
    if not start.units:  # Twin Earths starts empty
        return _everyone(v)
    first = start.units[0]
    board = v.board_at(v.start)
    sea = next(p for p, q in sorted(board.provinces.items()) if q.terrain is Terrain.SEA)
    fleets = [Unit(first.power, UnitType.FLEET, sea) for _ in range(3)]
    attacker = Unit(start.units[1].power, first.type, first.location)
    fighting = Position(v.name, v.start, [attacker, *start.units[1:], *fleets], start.centres,
                        dislodged=[Dislodged(first, first.location)])
    return [*_everyone(v), start, fighting]


#: how far a unit of the fixed-size picture may be moved off its spot, over its
#: radius: the room kept between two units (declutter.GAP) is all it takes
NUDGE = 0.25


@pytest.mark.parametrize("name", VARIANTS)
def test_units_never_cover_each_other(name: str) -> None:
    """Issue 29: in The Twentieth Century's Europe units drawn at the floor size
    covered their neighbours (A EDI and F GLA). In every picture (a unit on every
    location, the start, a dislodged unit beside its attacker, three fleets on a
    sea) no two units' discs overlap; a unit the picture had to move is moved by
    NUDGE of its radius or less, so it is no further outside its space than at its
    spot by more than that (a unit at its spot: see the test above), and one moved
    further is tied to its spot by a leader line."""
    layout = layout_for(name)
    for pos in _crowded(name):
        root = ET.fromstring(render_svg(pos))
        units = _drawn(root)
        leaders = {(e.get("data-leader"), (float(e.get("x1") or 0), float(e.get("y1") or 0)),
                    (float(e.get("x2") or 0), float(e.get("y2") or 0)))
                   for e in root.iter(f"{NS}line") if e.get("data-leader")}
        for i, (a, _, at, ra) in enumerate(units):
            for b, _, bt, rb in units[i + 1:]:
                assert math.dist(at, bt) >= ra + rb - 0.1, f"{a} and {b} overlap"
        for loc, spot, drawn, r in units:
            moved = math.dist(spot, drawn)
            if moved > LEADER_SHARE * r:
                assert any(k == loc and math.dist(s, spot) < 0.1 and math.dist(d, drawn) < 0.1
                           for k, s, d in leaders), f"{loc} moved {moved:.1f}, no leader line"
            if pos.dislodged and any(str(d.unit.location) == loc for d in pos.dislodged):
                continue  # beside its attacker, not at its space's spot
            assert moved <= NUDGE * r, f"{loc} moved {moved / r:.2f} of its radius"
            rings = _rings(layout, loc)
            assert clearance(drawn, rings) >= clearance(spot, rings) - NUDGE * r, loc


def test_a_dislodged_unit_stands_beside_its_attacker_and_fleets_in_a_row() -> None:
    """A dislodged unit is drawn beside the unit that took its space, clear of it
    (it was drawn half over it), and the attacker stays on its spot."""
    pos = _crowded("standard")[-1]
    units = _drawn(ET.fromstring(render_svg(pos)))
    here = [u for u in units if u[0] == pos.dislodged[0].unit.location]
    assert len(here) == 2
    (_, spot_a, at_a, ra), (_, _, at_b, rb) = here
    assert at_a == spot_a
    assert math.dist(at_a, at_b) >= ra + rb


def test_the_page_spreads_units_as_the_renderer_does() -> None:
    """static/map.js ``spreadDiscs`` is ``declutter.spread`` step for step (the page
    spreads the units it grows, the picture its own): the same crowd of discs comes
    out in the same places from both (Node runs the page's function)."""
    node = program("node", "`bash .ci/node.sh`")
    rng = random.Random(7)
    discs = [(rng.uniform(0, 200), rng.uniform(0, 120), rng.uniform(4, 12)) for _ in range(40)]
    discs += [(100.0, 60.0, 10.0)] * 3  # three on one spot
    box = (0.0, 0.0, 200.0, 120.0)
    script = Path(__file__).resolve().parents[1] / "src/standoff/judge/web/static/map.js"
    code = (
        "const vm = require('vm'); const fs = require('fs');"
        "const ctx = {}; vm.createContext(ctx);"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(script))}, 'utf8') + "
        "'; this.spreadDiscs = spreadDiscs;', ctx);"
        f"const discs = {json.dumps([dict(x=x, y=y, r=r) for x, y, r in discs])};"
        f"process.stdout.write(JSON.stringify(ctx.spreadDiscs(discs, 2, {json.dumps(box)})));")
    out = subprocess.run([node, "-e", code], capture_output=True, text=True, check=True)
    page = json.loads(out.stdout)
    ours = spread(discs, 2.0, box)
    assert len(page) == len(ours)
    for (px, py), (x, y) in zip(page, ours, strict=True):
        assert (px, py) == pytest.approx((x, y), abs=1e-6)
    for i, (a, ra) in enumerate(zip(ours, [d[2] for d in discs], strict=True)):
        for b, rb in zip(ours[i + 1:], [d[2] for d in discs[i + 1:]], strict=True):
            assert math.dist(a, b) >= (ra + rb + 2) * 0.999
