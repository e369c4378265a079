"""Sahara (Kyalo Brooks): scenario tests, each citing the rule or ruling it tests.

Rule text and rulings (R1-R12): docs/variants/sahara.md. Single-phase
adjudication cases are in tests/cases/variants/sahara.txt; this file tests what
case files cannot: the board in force at each phase, the calendar, the NO
CONVERT notation, instructions kept across a retreat phase, and rule 7's end
of the game.
"""

from __future__ import annotations

import pytest

from standoff import IllegalOrderError, Position, Terrain, UnitType, adjudicate, load_variant
from standoff.core.adjudicator import check_order
from standoff.core.game import Game
from standoff.core.geography import Board
from standoff.core.notation import parse_order
from standoff.core.options import Options
from standoff.core.orders import NoConvert
from standoff.core.phase import Phase, PhaseKind

SAHARA = load_variant("sahara")
STD = load_variant("standard")
A, F = UnitType.ARMY, UnitType.FLEET


def board(phase: str) -> Board:
    return SAHARA.board_at(Phase.parse(phase, SAHARA.calendar))


def terrain(phase: str, prov: str) -> Terrain:
    return board(phase).provinces[prov].terrain


def centres(phase: str) -> set[str]:
    return {p.id for p in board(phase).provinces.values() if p.supply_centre}


def units(pos: Position) -> set[str]:
    return {f"{u.power} {u}" for u in pos.units}


def game_at(text: str) -> Game:
    g = Game.new("sahara")
    g.position = Position.from_text(text)
    return g


# -- the start: Standard ---------------------------------------------------------------


def test_first_board_is_standard() -> None:
    """Sahara rule 1: play starts on the Standard board (the new spaces are shut, R2)."""
    b = board("S1901M")
    assert b.army_links == STD.board.army_links
    assert b.fleet_links == STD.board.fleet_links
    assert centres("S1901M") == {p.id for p in STD.board.provinces.values() if p.supply_centre}
    for p in ("cas", "ire", "ice"):
        assert b.provinces[p].terrain is Terrain.IMPASSABLE


def test_initial_position_is_standard() -> None:
    """Sahara rule 1: the Standard starting units and home centres."""
    sahara, std = Position.initial(SAHARA), Position.initial(STD)
    assert sahara.units == std.units
    assert dict(sahara.centres) == dict(std.centres)
    assert Game.new("sahara").phase_name == "S1901M"


# -- rule 2 / R3 / R4: the seas dry ----------------------------------------------------------


def test_eastern_med_sea_then_coast_then_land_then_impassable() -> None:
    """Sahara rules 2 and 5: EAS dries after Fall 1902 (coast while AEG is a sea),
    is inland after Spring 1903 and impassable after Fall 1904."""
    assert terrain("S1901M", "eas") is Terrain.SEA
    assert terrain("S1903M", "eas") is Terrain.COAST
    assert terrain("F1903M", "eas") is Terrain.LAND
    assert terrain("F1904M", "eas") is Terrain.LAND
    assert terrain("S1905M", "eas") is Terrain.IMPASSABLE


def test_change_after_fall_is_in_force_from_the_adjustment_phase() -> None:
    """Sahara R3: "A" is Fall; the change comes after the moves and retreats and
    before the adjustments."""
    assert terrain("F1902M", "ion") is Terrain.SEA
    assert terrain("F1902R", "ion") is Terrain.SEA
    assert terrain("W1902A", "ion") is Terrain.COAST
    assert terrain("S1903M", "ion") is Terrain.COAST


def test_dried_sea_links_armies_and_fleets() -> None:
    """Sahara R4: a dried sea is land for armies, and a coast for fleets while it
    touches a sea (ION after Fall 1902 still borders AEG, ADR and TYS)."""
    b = board("S1903M")
    assert {"gre", "alb", "apu", "nap", "tun", "eas"} <= set(b.army_links["ion"])
    assert {"aeg", "adr", "tys"} <= set(b.fleet_links["ion"])
    assert "ion" not in b.army_links.get("tys", ())  # TYS is still a sea


def test_caspian_opens_after_spring_1904() -> None:
    """Sahara rule 2 and R2: the Caspian is impassable until after Spring 1904,
    then land bordering Sevastopol and Armenia; a centre from Fall 1904 (rule 3)."""
    assert terrain("S1904M", "cas") is Terrain.IMPASSABLE
    assert terrain("F1904M", "cas") is Terrain.LAND
    assert set(board("F1904M").army_links["cas"]) == {"sev", "arm"}
    assert "cas" not in centres("F1904M")
    assert "cas" in centres("W1904A")
    assert terrain("W1907A", "cas") is Terrain.IMPASSABLE  # rule 5, A07


def test_ireland_and_iceland_open_on_schedule() -> None:
    """Sahara rule 2 and R2: Ireland (IRI, NAO) opens after Fall 1905, Iceland
    (NAO, NWG) after Spring 1906."""
    assert terrain("F1905M", "ire") is Terrain.IMPASSABLE
    assert terrain("S1906M", "ire") is Terrain.LAND
    assert set(board("S1906M").army_links["ire"]) == {"iri", "nao"}
    assert terrain("S1906M", "ice") is Terrain.IMPASSABLE
    assert terrain("F1906M", "ice") is Terrain.LAND
    assert set(board("F1906M").army_links["ice"]) == {"nao", "nwg"}


def test_every_sea_is_dry_after_spring_1906() -> None:
    """Sahara rule 2: the lists name all nineteen seas of the Standard map."""
    b = board("F1906M")
    assert [p for p in b.provinces.values() if p.terrain is Terrain.SEA] == []
    assert b.fleet_links == {} or all(not v for v in b.fleet_links.values())


def test_stranded_fleet_becomes_army_and_event_says_so() -> None:
    """Sahara rule 2: F BLA is left inland after Fall 1903 and becomes an army."""
    pos = Position.from_text("sahara | F1903M | turkey: F BLA | - | - | -")
    res = adjudicate(pos, {"turkey": ["F bla H"]})
    assert units(res.next_position) == {"turkey A BLA"}
    assert any("BLA" in e and "becomes" in e for e in res.events)


# -- NO CONVERT --------------------------------------------------------------------------------


def test_no_convert_notation_round_trips() -> None:
    """Sahara rule 2: the owner's "it won't change" instruction."""
    order = parse_order("F bla no convert", SAHARA)
    assert isinstance(order, NoConvert)
    assert str(order) == "F BLA NO CONVERT"
    assert parse_order(str(order), SAHARA) == order


def test_no_convert_is_for_fleets_only() -> None:
    """Sahara rule 2: only a fleet can be told not to change into an army."""
    pos = Position.from_text("sahara | F1903M | turkey: A ANK, F BLA | - | - | -")
    assert check_order(pos, "turkey", parse_order("F bla no convert", SAHARA)) == \
        NoConvert(F, "bla")
    with pytest.raises(IllegalOrderError):
        check_order(pos, "turkey", parse_order("A ank no convert", SAHARA))


def test_no_convert_is_illegal_in_standard() -> None:
    """Sahara rule 2 is Sahara's own: Standard never converts, so nothing to refuse."""
    pos = Position.initial(STD)
    with pytest.raises(IllegalOrderError):
        check_order(pos, "turkey", parse_order("F ank no convert", STD))


def test_game_keeps_no_convert_beside_the_move() -> None:
    """Sahara R5: NO CONVERT is given beside the unit's movement order; the noted
    fleet moves into the AEG, which is left inland after Spring 1903: disbanded."""
    g = game_at("sahara | S1903M | italy: F ION, A NAP | italy: ROM | - | -")
    g.submit("italy", ["F ion no convert", "F ion - aeg"])
    assert sorted(str(o) for o in g.pending()["italy"]) == ["F ION - AEG", "F ION NO CONVERT"]
    g.process()
    assert units(g.position) == {"italy A NAP"}


def test_without_no_convert_the_fleet_becomes_an_army() -> None:
    """Sahara rule 2: the same move without the instruction gives an army."""
    g = game_at("sahara | S1903M | italy: F ION, A NAP | italy: ROM | - | -")
    g.submit("italy", ["F ion - aeg"])
    g.process()
    assert units(g.position) == {"italy A AEG", "italy A NAP"}


def _dislodge_noted_ion() -> Position:
    # S1903: Austria dislodges the Italian fleet in ION (ADR, ALB). ION stays a
    # coast after S1903 (ADR is a sea until A03); AEG is left inland.
    pos = Position.from_text("sahara | S1903M | austria: F ADR, F ALB; italy: F ION | - | - | -")
    res = adjudicate(pos, {"italy": ["F ion no convert"],
                           "austria": ["F adr - ion", "F alb S F adr - ion"]})
    nxt = res.next_position
    assert nxt.phase == Phase(1903, 0, PhaseKind.RETREAT)
    assert [str(d.unit) for d in nxt.dislodged] == ["F ION"]
    return nxt


def test_no_convert_survives_the_retreat_phase() -> None:
    """Sahara R5: the instruction follows the unit through its retreat: the noted
    fleet retreats to the AEG, which is left inland: disbanded, not converted."""
    res = adjudicate(_dislodge_noted_ion(), {"italy": ["F ion - aeg"]})
    assert units(res.next_position) == {"austria F ION", "austria F ALB"}
    assert any("F AEG" in e and "disbanded" in e for e in res.events)


def test_unnoted_retreat_into_a_dried_sea_converts() -> None:
    """Sahara rule 2 (control): without NO CONVERT the retreated fleet becomes an army."""
    pos = Position.from_text("sahara | S1903M | austria: F ADR, F ALB; italy: F ION | - | - | -")
    res = adjudicate(pos, {"austria": ["F adr - ion", "F alb S F adr - ion"]})
    res = adjudicate(res.next_position, {"italy": ["F ion - aeg"]})
    assert units(res.next_position) == {"austria F ION", "austria F ALB", "italy A AEG"}


def test_no_convert_stays_with_the_unit_not_the_space() -> None:
    """Sahara rule 2 / R5 (engine bug): F ANK is told NO CONVERT and moves to ARM;
    F BLA (not noted) moves into ANK. After Fall 1903 both are inland: the noted
    fleet disbands, the other becomes an army."""
    pos = Position.from_text("sahara | F1903M | turkey: F ANK, F BLA | - | - | -")
    res = adjudicate(pos, {"turkey": ["F ank no convert", "F ank - arm", "F bla - ank"]})
    assert units(res.next_position) == {"turkey A ANK"}


def test_no_convert_does_not_pass_to_the_dislodger_after_a_retreat() -> None:
    """Sahara rule 2 / R5 (engine bug): the noted Turkish F BLA is dislodged by a
    Russian fleet and retreats to ARM. After Fall 1903 everything around the Black
    Sea is inland: the Turkish fleet disbands; the Russian fleets, never told NO
    CONVERT, become armies."""
    pos = Position.from_text("sahara | F1903M | russia: F SEV, F RUM; "
                             "turkey: F BLA, A ANK, A CON | - | - | -")
    res = adjudicate(pos, {"turkey": ["F bla no convert"],
                           "russia": ["F sev - bla", "F rum S F sev - bla"]})
    assert [str(d.unit) for d in res.next_position.dislodged] == ["F BLA"]
    res = adjudicate(res.next_position, {"turkey": ["F bla - arm"]})
    assert units(res.next_position) == {"russia A BLA", "russia A RUM",
                                        "turkey A ANK", "turkey A CON"}


# -- rule 3 / R6-R10: centres ---------------------------------------------------------------------


def test_duplicate_listings_are_no_ops() -> None:
    """Sahara R7: "GoL" gained again in S05, "Tri" gained in S06 and lost again in
    A09, "Tyr" lost in S10, "Nap" impassable again in A06: no effect."""
    assert "lyo" in centres("S1905M") and "lyo" in centres("F1905M")
    assert "tri" in centres("S1906M") and "tri" in centres("F1906M")
    assert "tri" not in centres("W1908A")
    assert all("tyr" not in centres(ph) for ph in ("S1901M", "S1906M", "S1910M", "F1910M"))
    assert terrain("W1905A", "nap") is Terrain.IMPASSABLE
    assert terrain("W1906A", "nap") is Terrain.IMPASSABLE


def test_amy_is_smyrna() -> None:
    """Sahara R8: "Amy" (A05) is Smyrna; Armenia is listed beside it."""
    assert terrain("F1905M", "smy") is Terrain.LAND
    assert terrain("W1905A", "smy") is Terrain.IMPASSABLE
    assert terrain("W1905A", "arm") is Terrain.IMPASSABLE


def test_impassable_space_is_no_centre() -> None:
    """Sahara R9: the Aegean turns impassable after Fall 1905 and stops being a
    centre then, not in Spring 1906 where its loss is listed."""
    assert "aeg" in centres("F1905M")
    assert "aeg" not in centres("W1905A")


def test_iceland_is_a_centre_from_spring_1909() -> None:
    """Sahara rule 3: Iceland becomes a centre after Spring 1909 and stays one."""
    assert "ice" not in centres("S1909M")
    for ph in ("F1909M", "W1909A", "S1910M", "F1911M", "W1911A", "S1912M"):
        assert "ice" in centres(ph)


def test_only_iceland_after_fall_1911() -> None:
    """Sahara R10: "All the rest except Ice" after Fall 1911."""
    assert centres("F1911M") == {"bal", "edi", "ice", "lon", "lvp", "nwg"}
    assert centres("W1911A") == {"ice"}


def test_build_in_any_owned_empty_centre() -> None:
    """Sahara rule 4 / R11: a build in an owned centre that is not a home centre."""
    pos = Position.from_text("sahara | W1904A | - | austria: WAR ALB | - | -")
    assert str(check_order(pos, "austria", parse_order("Build A war", SAHARA))) == "BUILD A WAR"
    with pytest.raises(IllegalOrderError):
        check_order(pos, "austria", parse_order("Build A ser", SAHARA))


# -- rule 6: the calendar -------------------------------------------------------------------


def test_season_names_from_1905() -> None:
    """Sahara rule 6: Early Summer, Late Summer and Between Summers from 1905."""
    cal = SAHARA.calendar
    e = Phase.parse("E1905M", cal)
    assert e == Phase.parse("S1905M", cal) == Phase.parse("Early Summer 1905, Movement", cal)
    assert e == Phase.parse("Spring 1905, Movement", cal)
    assert e.name(cal) == "E1905M"
    assert e.long_name(cal) == "Early Summer 1905, Movement"
    late = Phase.parse("Late Summer 1905, Movement", cal)
    assert late == Phase.parse("F1905M", cal) == Phase.parse("L1905M", cal)
    assert late.name(cal) == "L1905M"
    adj = Phase.parse("Between Summers 1905, Adjustment", cal)
    assert adj == Phase.parse("W1905A", cal) == Phase.parse("B1905A", cal)
    assert adj.kind is PhaseKind.ADJUSTMENT
    assert adj.long_name(cal) == "Between Summers 1905, Adjustment"
    old = Phase.parse("S1904M", cal)
    assert old.name(cal) == "S1904M" and old.long_name(cal) == "Spring 1904, Movement"
    assert Phase.parse("W1904A", cal).long_name(cal) == "Winter 1904, Adjustment"


def test_game_phase_name_changes_in_1905() -> None:
    """Sahara rule 6: a game moving from Winter 1904 into 1905 shows E1905M."""
    g = game_at("sahara | F1904M | england: A LON | england: LON | - | -")
    g.process()
    assert g.phase_name == "E1905M"
    g.process()
    assert g.phase_name == "L1905M"


# -- rule 7 / R12: the end of the game ----------------------------------------------------


def test_unit_in_iceland_after_between_summers_1911_wins() -> None:
    """Sahara rule 7 / R12: the owner of the unit in Iceland after Between Summers
    1911 wins; nothing is decided before."""
    g = game_at("sahara | F1911M | england: A ICE, A LON; france: A EDI | england: LON | - | -")
    g.process()
    assert g.phase_name == "B1911A"
    assert not g.is_over
    assert dict(g.position.centres) == {"ice": "england"}
    g.submit("england", ["Remove A lon"])
    g.process()
    assert g.position.phase == Phase.parse("S1912M", SAHARA.calendar)
    assert g.winner == "england"
    assert not g.no_winner


def test_iceland_empty_nobody_wins() -> None:
    """Sahara rule 7 / R12: with nobody in Iceland the game ends without a winner."""
    g = game_at("sahara | F1911M | england: A LON | england: LON | - | -")
    g.process()
    assert not g.is_over
    g.process()
    assert g.no_winner is True
    assert g.winner is None
    assert g.is_over


def test_game_ends_when_between_summers_1911_is_skipped() -> None:
    """Sahara R12: with nothing to adjust the game ends at the start of 1912."""
    g = game_at("sahara | F1911M | england: A ICE | england: ICE | - | -")
    g.process()
    assert g.position.phase == Phase.parse("S1912M", SAHARA.calendar)
    assert g.winner == "england"


def test_no_winner_before_1911_even_in_iceland() -> None:
    """Sahara rule 7: a unit in Iceland earlier decides nothing."""
    g = game_at("sahara | F1910M | england: A ICE | england: ICE | - | -")
    g.process()
    assert not g.is_over
    assert g.phase_name == "E1911M"


def test_eighteen_centres_do_not_win() -> None:
    """Sahara R12: rule 7 names the only winner; 18 centres are no victory."""
    owned = "lon lvp edi bel hol den kie ber mun par bre swe nwy stp mos war sev rum"
    g = game_at(f"sahara | F1906M | england: A LON | england: {owned.upper()} | - | -")
    assert len(g.position.centres) == 18
    g.process()
    assert g.winner is None and not g.is_over


@pytest.mark.parametrize(("disruption", "arrives"), [("all_routes", True), ("any_route", False)])
def test_rule_1_the_1971_rulebook_choices_are_options(disruption: str, arrives: bool) -> None:
    """Sahara rule 1 (R1): the 1971 rulebook's choices are options; here its
    multi-route convoy rule (DATC 4.A.1): one disrupted route stops the army."""
    pos = Position.from_text("sahara | S1901M | england: A LON, F ENG, F NTH; "
                             "france: F BRE, F MAO | - | - | -")
    res = adjudicate(pos, {"england": ["A lon - bel", "F eng C A lon - bel",
                                       "F nth C A lon - bel"],
                           "france": ["F bre - eng", "F mao S F bre - eng"]},
                     Options(convoy_disruption=disruption))
    assert (res.next_position.unit_at("bel") is not None) is arrives
