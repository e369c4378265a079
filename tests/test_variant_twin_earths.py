"""Twin Earths I (Don Miller): scenario tests, each citing the rule it tests.

Rule text and rulings: docs/variants/twin-earths.md. Adjudication cases (moves,
supports, convoys through levels) are in tests/cases/variants/twin_earths.txt;
this file tests what case files cannot: the start of the game, the notation,
the derived map as a whole, and rule 4's victory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from standoff import UnitCountWinner
from standoff.cli import cli
from standoff.core.adjudicator import check_order
from standoff.core.errors import IllegalOrderError, InvalidOrderError
from standoff.core.game import Game
from standoff.core.geography import Terrain, UnitType
from standoff.core.legal_orders import legal_orders
from standoff.core.notation import parse_order
from standoff.core.orders import Build, Move
from standoff.core.phase import PhaseKind
from standoff.core.position import Position
from standoff.core.variant import load_variant
from standoff.storage import load

TE = load_variant("twin-earths")
STD = load_variant("standard")
LEVELS = ("1", "2")


def at(location: str, level: str) -> str:
    """The standard location ``location`` on board level ``level`` ("stp/nc" -> "stp1/nc")."""
    prov, sep, coast = location.partition("/")
    return f"{prov}{level}{sep}{coast}"


# -- the board -------------------------------------------------------------------------


def test_map_statistics() -> None:
    """The Board: two Standard boards, 152 spaces and 68 centres in all."""
    terrain: dict[Terrain, int] = {}
    for p in TE.board.provinces.values():
        terrain[p.terrain] = terrain.get(p.terrain, 0) + 1
    assert len(TE.board.provinces) == 152 == 2 * len(STD.board.provinces)
    assert terrain == {Terrain.SEA: 38, Terrain.COAST: 84, Terrain.LAND: 28,
                       Terrain.IMPASSABLE: 2}
    assert len(TE.supply_centres) == 68 == 2 * len(STD.supply_centres)


def test_every_province_has_a_level_and_a_numbered_name() -> None:
    """The Board: level I and level II; every space is named with its level."""
    for pid, p in STD.board.provinces.items():
        for n, numeral in (("1", "I"), ("2", "II")):
            q = TE.board.provinces[f"{pid}{n}"]
            assert q.level == numeral
            assert q.name == f"{p.name} {numeral}"
            assert q.terrain is p.terrain and q.supply_centre == p.supply_centre
            assert q.coasts == tuple(at(c, n) for c in p.coasts)
    assert not set(STD.board.provinces) & set(TE.board.provinces)


@pytest.mark.parametrize("unit", [UnitType.ARMY, UnitType.FLEET])
def test_standard_links_on_both_levels_and_only_twins_across(unit: UnitType) -> None:
    """Rule 2: every Standard link exists on both levels; across levels a space
    links only to its own twin (armies land/coast, fleets sea/coast, same coast)."""
    std = STD.board.army_links if unit is UnitType.ARMY else STD.board.fleet_links
    te = TE.board.army_links if unit is UnitType.ARMY else TE.board.fleet_links
    expected: dict[str, set[str]] = {}
    for loc in std.keys() | {loc for links in std.values() for loc in links}:
        for n in LEVELS:
            other = "2" if n == "1" else "1"
            links = {at(b, n) for b in std.get(loc, ())}
            if STD.board.can_stand(unit, loc):
                links.add(at(loc, other))
            expected[at(loc, n)] = links
    actual = {loc: set(links) for loc, links in te.items() if links}
    assert actual == {loc: links for loc, links in expected.items() if links}


def test_split_coasts_link_to_the_same_coast_only() -> None:
    """Rule 2, our ruling: StP I (nc) reaches StP II (nc), not StP II (sc)."""
    links = TE.board.fleet_links
    split = [p for p in STD.board.provinces.values() if p.coasts]
    assert sorted(p.id for p in split) == ["bul", "spa", "stp"]
    for prov in split:
        for coast in prov.coasts:
            assert at(coast, "2") in links[at(coast, "1")]
            assert at(coast, "1") in links[at(coast, "2")]
            for other in prov.coasts:
                if other != coast:
                    assert at(other, "2") not in links[at(coast, "1")]
                    assert at(other, "1") not in links[at(coast, "2")]
    assert links["stp1/nc"] == frozenset({"bar1", "nwy1", "stp2/nc"})


def test_no_strike_only_links_across_levels() -> None:
    """Rule 2: there are no other cross-level links, not even attack-only ones."""
    assert TE.board.strike_only == STD.board.strike_only == frozenset()


# -- rule 1: the start -----------------------------------------------------------------


def test_initial_position_is_empty_winter_1900_with_home_centres_on_both_levels() -> None:
    """Rule 1: all centres are empty at the start; a Winter 1900 build season;
    every power owns its home centres on both levels (Russia 8, others 6)."""
    pos = Position.initial(TE)
    assert pos.phase.year == 1900 and pos.phase.kind is PhaseKind.ADJUSTMENT
    assert pos.phase.long_name(TE.calendar) == "Winter 1900, Adjustment"
    assert pos.units == ()
    counts = pos.centre_counts()
    assert counts == {"austria": 6, "england": 6, "france": 6, "germany": 6, "italy": 6,
                      "russia": 8, "turkey": 6}
    for power in STD.powers.values():
        expected = sorted(at(c, n) for c in power.home_centres for n in LEVELS)
        assert pos.centres_of(power.id) == expected
        assert sorted(TE.powers[power.id].home_centres) == expected


def _all_builds() -> dict[str, list[str]]:
    """One build per home centre: fleets on coasts of level I, armies elsewhere."""
    orders: dict[str, list[str]] = {}
    for power in TE.powers.values():
        for c in power.home_centres:
            prov = TE.board.provinces[c]
            if c.endswith("1") and prov.terrain is Terrain.COAST:
                loc = f"{c}/{prov.coasts[0]}" if prov.coasts else c
                orders.setdefault(power.id, []).append(f"Build F {loc}")
            else:
                orders.setdefault(power.id, []).append(f"Build A {c}")
    return orders


def test_winter_1900_builds_lead_to_spring_1901() -> None:
    """Rule 1: every power builds in every home centre of both levels, any mix of
    fleets and armies; then the game goes on in Spring 1901."""
    game = Game.new("twin-earths")
    assert sorted(game.powers_to_order()) == sorted(TE.powers)
    builds = _all_builds()
    for power, orders in builds.items():
        game.submit(power, orders)
    game.process()
    pos = game.position
    assert pos.phase.long_name(TE.calendar) == "Spring 1901, Movement"
    assert len(pos.units) == 6 * 6 + 8 == sum(map(len, builds.values()))
    assert len(pos.units_of("russia")) == 8
    fleets = {u.location for u in pos.units if u.type is UnitType.FLEET}
    assert {"kie1", "stp1/nc", "lon1", "tri1"} <= fleets
    assert not fleets & {"kie2", "mun1", "mun2", "stp2"}
    assert all(u.province in TE.powers[u.power].home_centres for u in pos.units)
    assert game.winner is None


def test_winter_1900_fleet_in_inland_centre_is_refused() -> None:
    """Rule 1: "they may not build Fleets in inland provinces" (Munich, Moscow...)."""
    game = Game.new("twin-earths")
    for text in ("Build F mun1", "Build F mun2"):
        with pytest.raises(IllegalOrderError):
            game.submit("germany", [text])
    with pytest.raises(IllegalOrderError):
        game.submit("russia", ["Build F mos2"])
    assert game.submit("germany", ["Build A mun1", "Build F kie2"]) == [
        Build(UnitType.ARMY, "mun1"), Build(UnitType.FLEET, "kie2")]


def test_winter_1900_a_power_sending_nothing_builds_nothing() -> None:
    """Rule 1: builds are the players' orders; a silent power simply has no units."""
    game = Game.new("twin-earths")
    game.submit("england", ["Build F lon1", "Build A lon2"])
    game.process()
    assert sorted(str(u) for u in game.position.units) == ["A LON2", "F LON1"]
    assert {u.power for u in game.position.units} == {"england"}
    assert game.position.centre_counts()["germany"] == 6


# -- notation --------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "A mun - kie", "A Munich-Kiel", "A mun1 - kie", "A mun - kie1", "Build A mun",
    "F stp/nc - bar1", "A boh1 S A mun - boh1",
])
def test_order_without_level_is_invalid_and_says_the_level_is_missing(text: str) -> None:
    """The Board: "Orders without the proper level designations will not be allowed"."""
    with pytest.raises(InvalidOrderError) as info:
        parse_order(text, TE)
    message = str(info.value)
    assert "needs its board level" in message
    assert "every location names its level" in message


@pytest.mark.parametrize("text", [
    "A Munich I-Munich II", "A mun i - mun ii", "A mun1 - mun2", "A MUN1 - MUN2",
    "A munich 1 -> munich 2", "A Munich-I - Munich-II",
])
def test_level_notations_are_read(text: str) -> None:
    """The Board: "A Munich I-Munich II" and the short forms mean the same order."""
    assert parse_order(text, TE) == Move(UnitType.ARMY, "mun1", "mun2")


@pytest.mark.parametrize(("text", "canonical"), [
    ("A Munich I-Kiel I", "A MUN1 - KIE1"),
    ("A Munich I-Munich II", "A MUN1 - MUN2"),
    ("F St Petersburg I (nc) - St Petersburg II (nc)", "F STP1/NC - STP2/NC"),
    ("A mun i S A boh ii - mun ii", "A MUN1 S A BOH2 - MUN2"),
    ("F nth1 C A lon1 - nwy2", "F NTH1 C A LON1 - NWY2"),
    ("A lon1 - nwy2 via convoy", "A LON1 - NWY2 VIA CONVOY"),
    ("F kie2 S F kie1", "F KIE2 S F KIE1"),
    ("Build F stp1/sc", "BUILD F STP1/SC"),
    ("Remove A War II", "REMOVE A WAR2"),
    ("A mun2 R mun1", "A MUN2 R MUN1"),
])
def test_notation_round_trips(text: str, canonical: str) -> None:
    """Ruling R1: the canonical form is "A MUN1 - MUN2"; it reads back as the same order."""
    order = parse_order(text, TE)
    assert str(order) == canonical
    assert parse_order(canonical, TE) == order


def test_compact_position_round_trips_with_level_ids() -> None:
    """Ruling R1: level ids have no spaces, so the compact form's space-separated
    centres read back."""
    text = ("twin-earths | S1901M | germany: A MUN1, F KIE2; russia: F STP1/NC | "
            "germany: BER1 KIE2 MUN1; russia: STP1 | - | -")
    pos = Position.from_text(text)
    assert pos.to_text() == text
    assert pos.centres_of("germany") == ["ber1", "kie2", "mun1"]


# -- rule 2 and 3: legality with messages ----------------------------------------------

POS = Position.from_text(
    "twin-earths | S1901M | germany: A MUN1, A BOH2, A KIE1; england: A LON1, F NTH1 | - | - | -")


def test_move_to_non_corresponding_province_is_illegal_and_names_the_levels() -> None:
    """Rule 2: "not from Munich I to Kiel II"."""
    with pytest.raises(IllegalOrderError) as info:
        check_order(POS, "germany", parse_order("A mun1 - kie2", TE))
    message = str(info.value)
    assert "Munich I and Kiel II are on different levels" in message
    assert "corresponding space" in message


def test_support_to_non_corresponding_province_is_illegal_and_names_the_levels() -> None:
    """Rule 2: supports, like moves, only from province to corresponding province."""
    with pytest.raises(IllegalOrderError) as info:
        check_order(POS, "germany", parse_order("A kie1 S A boh2 - mun2", TE))
    assert "Kiel I and Munich II are on different levels" in str(info.value)
    with pytest.raises(IllegalOrderError):
        check_order(POS, "germany", parse_order("A mun1 S A boh2 - kie2", TE))


def test_moves_and_supports_to_the_twin_are_legal() -> None:
    """Rule 2: "from Munich I to Munich II" is allowed, as is support into the twin."""
    assert str(check_order(POS, "germany", parse_order("A mun1 - mun2", TE))) == "A MUN1 - MUN2"
    assert str(check_order(POS, "germany", parse_order("A mun1 S A boh2 - mun2", TE))) == \
        "A MUN1 S A BOH2 - MUN2"
    assert str(check_order(POS, "germany", parse_order("A boh2 S A mun1 - mun2", TE))) == \
        "A BOH2 S A MUN1 - MUN2"


def test_a_lone_fleet_cannot_convoy_to_the_other_level() -> None:
    """Rule 3: the army passes between levels only at twin seas, so with F nth1
    alone no route to Norway II exists and the move is illegal (DATC 6.D.32)."""
    with pytest.raises(IllegalOrderError):
        check_order(POS, "england", parse_order("A lon1 - nwy2", TE))
    order = check_order(POS, "england", parse_order("A lon1 - nwy1", TE))
    assert isinstance(order, Move) and (order.location, order.dest) == ("lon1", "nwy1")


def test_twin_fleets_make_a_convoy_through_levels_legal() -> None:
    """Rule 3: with fleets in NTH I and NTH II the route LON I - NTH I - NTH II - NWY II exists."""
    pos = Position.from_text(
        "twin-earths | S1901M | england: A LON1, F NTH1, F NTH2 | - | - | -")
    order = check_order(pos, "england", parse_order("A lon1 - nwy2", TE))
    assert isinstance(order, Move) and (order.location, order.dest) == ("lon1", "nwy2")
    # but a crossing between non-corresponding seas (NTH I / ENG II) is no route
    pos = Position.from_text(
        "twin-earths | S1901M | england: A LON1, F NTH1, F ENG2 | - | - | -")
    with pytest.raises(IllegalOrderError):
        check_order(pos, "england", parse_order("A lon1 - bel2", TE))


def test_legal_orders_agree_on_convoys_through_levels() -> None:
    """Rule 3: the legal-order list offers the move to Norway II only with both
    twin fleets, and never a move to a non-corresponding space of level II overland."""
    one = Position.from_text("twin-earths | S1901M | england: A LON1, F NTH1 | - | - | -")
    two = Position.from_text(
        "twin-earths | S1901M | england: A LON1, F NTH1, F NTH2 | - | - | -")
    with_one = {str(o) for o in legal_orders(one)["england"]["lon1"]}
    with_two = {str(o) for o in legal_orders(two)["england"]["lon1"]}
    assert "A LON1 - NWY1" in with_one and "A LON1 - NWY1" in with_two
    assert "A LON1 - NWY2" not in with_one
    assert "A LON1 - NWY2" in with_two
    assert "A LON1 - LON2" in with_one
    assert not {"A LON1 - WAL2", "A LON1 - YOR2 VIA CONVOY"} & with_one
    assert "F NTH1 C A LON1 - NWY2" in {str(o) for o in legal_orders(two)["england"]["nth1"]}


def test_convoy_through_levels_in_a_game() -> None:
    """Rule 3: a multiple convoy through levels, played in a Game."""
    game = Game.new("twin-earths")
    game.position = Position.from_text(
        "twin-earths | S1901M | england: A LON1, F NTH1, F NTH2; russia: F BAR2 | - | - | -")
    game.submit("england", ["A London I - Norway II", "F North Sea I C A London I - Norway II",
                            "F North Sea II C A London I - Norway II"])
    game.process()
    assert {str(u) for u in game.position.units_of("england")} == {"A NWY2", "F NTH1", "F NTH2"}


# -- rule 4: victory -------------------------------------------------------------------


def _spaces(n: int, skip: tuple[str, ...] = ()) -> list[str]:
    """``n`` supply centres an army can stand on, in a fixed order."""
    out = [c for c in sorted(TE.supply_centres)
           if TE.board.can_stand(UnitType.ARMY, c) and c not in skip]
    assert len(out) >= n
    return out[:n]


def _position(phase: str, units: list[str], centres: list[str],
              extra_units: str = "germany: A BUR1") -> Position:
    """Russian armies in ``units``, Russian centres ``centres``, and a German army."""
    us = ", ".join(f"A {u.upper()}" for u in units)
    cs = " ".join(c.upper() for c in centres)
    return Position.from_text(f"twin-earths | {phase} | russia: {us}; {extra_units} | "
                              f"russia: {cs} | - | -")


def _game(pos: Position) -> Game:
    game = Game.new("twin-earths")
    game.position = pos
    return game


def _finish_year(game: Game) -> None:
    """Process (with civil-disorder orders) until the year changes."""
    year = game.position.phase.year
    for _ in range(5):
        game.process()
        if game.position.phase.year != year or game.is_over:
            return
    pytest.fail("the year did not end")


def test_35_units_at_the_end_of_winter_win() -> None:
    """Rule 4: "a player wins when he has 35 units on the board at the completion
    of a Winter season" (no adjustments needed: checked when the year ends)."""
    cs = _spaces(35)
    game = _game(_position("F1905M", cs, cs))
    game.process()  # the Fall
    assert game.winner is None
    _finish_year(game)
    assert game.position.phase.year == 1906
    assert len(game.position.units_of("russia")) == 35
    assert game.winner == "russia" and game.is_over


def test_35_units_in_spring_do_not_win_until_a_winter_ends() -> None:
    """Rule 4: the count is taken only at the completion of a Winter."""
    cs = _spaces(35)
    game = _game(_position("S1905M", cs, cs))
    game.process()
    assert game.position.phase.long_name(TE.calendar) == "Fall 1905, Movement"
    assert game.winner is None and not game.is_over
    game.process()
    assert game.position.phase.long_name(TE.calendar) == "Winter 1905, Adjustment"
    assert game.winner is None and not game.is_over
    game.process()  # nothing to adjust; the Winter ends
    assert game.position.phase.long_name(TE.calendar) == "Spring 1906, Movement"
    assert game.winner == "russia"


def test_reaching_35_units_by_a_winter_build_wins() -> None:
    """Rule 4: the units counted are those after the Winter builds."""
    cs = _spaces(35, skip=("mos1",))
    assert "mos1" in TE.powers["russia"].home_centres
    game = _game(_position("W1905A", cs[:34], [*cs[:34], "mos1"]))
    game.submit("russia", ["Build A mos1"])
    game.process()
    assert game.position.phase.year == 1906
    assert len(game.position.units_of("russia")) == 35
    assert game.winner == "russia"


def test_34_units_after_the_winter_do_not_win() -> None:
    """Rule 4: 35 units in the Fall but only 34 centres: one is removed in the
    Winter, so Russia does not win."""
    cs = _spaces(35)
    game = _game(_position("W1905A", cs, cs[:34]))
    game.process()  # civil disorder removes one unit
    assert game.position.phase.year == 1906
    assert len(game.position.units_of("russia")) == 34
    assert game.winner is None and not game.is_over


def test_35_centres_without_35_units_do_not_win() -> None:
    """Rule 4 replaces the 18-centre victory: 35 centres but 20 units is no win."""
    cs = _spaces(35)
    game = _game(_position("F1905M", cs[:20], cs))
    _finish_year(game)
    assert game.position.phase.year == 1906
    assert game.position.centre_counts()["russia"] == 35
    assert len(game.position.units_of("russia")) < 35
    assert game.winner is None and not game.is_over


def test_variant_declares_the_units_victory() -> None:
    """Rule 4: the variant's victory is 35 units, not a centre count."""
    assert TE.victory == UnitCountWinner(35)
    assert "35 units" in TE.victory.describe(TE.calendar)


# -- persistence and the CLI -------------------------------------------------------------


def test_game_round_trips_through_json_after_winter_1900() -> None:
    """Rule 1 game start survives a save and load (history with level ids)."""
    game = Game.new("twin-earths")
    game.submit("russia", ["Build A mos1", "Build F sev2"])
    game.process()
    game.submit("russia", ["A mos1 - mos2"])
    again = Game.from_dict(game.to_dict())
    assert again.position == game.position
    assert again.pending() == game.pending()
    assert again.history[0].position.phase.year == 1900


def test_cli_plays_winter_1900(tmp_path: Path) -> None:
    """The commands of docs/variants/twin-earths.md "Playing" work as written."""
    path = str(tmp_path / "g.json")
    runner = CliRunner()
    result = runner.invoke(cli, ["new", path, "--variant", "twin-earths"])
    assert result.exit_code == 0, result.output
    assert "Winter 1900" in result.output
    result = runner.invoke(cli, ["orders", path, "russia", "Build A mos1", "Build F sev2"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["orders", path, "germany", "Build A mun"])
    assert result.exit_code == 2
    assert "needs its board level" in result.output
    result = runner.invoke(cli, ["process", path])
    assert result.exit_code == 0, result.output
    assert "Spring 1901" in result.output
    game = load(path)
    assert {str(u) for u in game.position.units} == {"A MOS1", "F SEV2"}
