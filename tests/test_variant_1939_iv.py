"""1939 Diplomacy IV (Howard R. Christie): scenario tests, each citing the rule it tests.

Rule text: ../shared/variants/002_e180fbcddbbd561d.txt; the designed map and its
rulings (R1-R22): docs/variants/1939-iv.md. Single-phase adjudication cases are in
tests/cases/variants/1939_iv.txt; this file tests what case files cannot: order
results and their reasons, legality as a player is told it, builds in the Russian
build centres, the armies in civil disorder across a game, victory, and notation.
"""

from __future__ import annotations

import random

import pytest

from standoff import (
    IllegalOrderError,
    OrderResult,
    PhaseResult,
    Position,
    Reason,
    UnitType,
    adjudicate,
    load_variant,
)
from standoff.core.adjudicator import check_order
from standoff.core.adjustments import adjustment_counts
from standoff.core.errors import InvalidOrderError, NotationError, StandoffError
from standoff.core.game import Game
from standoff.core.geography import Terrain
from standoff.core.legal_orders import legal_orders, random_orders
from standoff.core.notation import parse_order
from standoff.core.phase import PhaseKind

V = load_variant("1939-iv")
A, F = UnitType.ARMY, UnitType.FLEET
HOMES = "england: EDI EGY LON LVP; france: ALG BRE MAR PAR; germany: BER KIE MUN PRU; " \
        "italy: LIB ROM SIC VEN; russia: KUI LEN MOS SEV"


def pos(text: str) -> Position:
    return Position.from_text(f"1939-iv | {text}")


def units(p: Position) -> set[str]:
    return {f"{u.power} {u}" for u in p.units}


def result(res: PhaseResult, order: str) -> OrderResult:
    """The result of the order written ``order`` (as the engine prints it)."""
    found = [r for r in res.results if r.order is not None and str(r.order) == order]
    assert len(found) == 1, [r.describe() for r in res.results]
    return found[0]


def game_at(text: str) -> Game:
    g = Game.new("1939-iv")
    g.position = pos(text)
    return g


def check(p: Position, power: str, text: str) -> str:
    return str(check_order(p, power, parse_order(text, V)))


def refused(p: Position, power: str, text: str) -> str:
    with pytest.raises(IllegalOrderError) as exc:
        check_order(p, power, parse_order(text, V))
    return exc.value.reason


# -- 1.0, 2.1, 6.1: the start -----------------------------------------------------------


def test_initial_position() -> None:
    """1939 IV 1.0 and 2.1: the five Powers' units, the seven armies in civil
    disorder, each Power owning its four home centres; the game opens in 1939."""
    p = Position.initial(V)
    assert units(p) == {
        "france F BRE", "france A PAR", "france A MAR", "france A ALG",
        "england F LON", "england F EDI", "england A LVP", "england A EGY",
        "germany F KIE", "germany A BER", "germany A MUN", "germany A PRU",
        "italy F SIC", "italy A ROM", "italy A VEN", "italy A LIB",
        "russia F LEN", "russia A MOS", "russia A SEV", "russia A KUI",
        "neutral A FIN", "neutral A POL", "neutral A RUM", "neutral A SPA",
        "neutral A SWE", "neutral A TUR", "neutral A YUG",
    }
    assert p.to_text().split(" | ")[3] == HOMES
    assert Game.new("1939-iv").phase_name == "S1939M"


def test_centres_victory_and_off_limits_spaces() -> None:
    """1939 IV 6.1 (20 centres of the 39, R12), 4.3 (Persia and Archangel are no
    centres), 7.3 (Switzerland impassable, no links) and 7.6 (nameplate and legend
    are no spaces: the map has 78 spaces)."""
    board = V.board
    centres = {p.id for p in board.provinces.values() if p.supply_centre}
    assert len(centres) == 39
    assert V.victory.centres == 20
    assert "per" not in centres and "arc" not in centres
    assert board.provinces["swi"].terrain is Terrain.IMPASSABLE
    assert not board.army_links.get("swi") and not board.fleet_links.get("swi")
    assert len(board.provinces) == 78
    for name in ("nameplate", "legend"):
        with pytest.raises(InvalidOrderError):
            parse_order(f"A {name} H", V)


# -- 2.0 / 7.5: armies in civil disorder -------------------------------------------------------


def test_neutral_armies_take_no_orders() -> None:
    """1939 IV 2.1: armies in civil disorder are given no orders: none is offered
    or accepted for them, the game asks no orders of them, and they hold. They
    belong to no Power, so they share no draw."""
    p = Position.initial(V)
    assert "neutral" not in legal_orders(p)
    g = Game.new("1939-iv")
    assert "neutral" not in g.powers_to_order()
    with pytest.raises(StandoffError):
        g.submit("neutral", ["A fin - len"])
    res = adjudicate(p, {"neutral": ["A fin - len"]})
    assert [r.reason for r in res.results] == [Reason.INVALID]
    assert units(res.next_position) == units(p)
    assert g.declare_draw() == ("england", "france", "germany", "italy", "russia")


def test_support_to_hold_a_neutral_army() -> None:
    """1939 IV 2.3: a Power may support an army in civil disorder to hold; the
    support is offered among its legal orders, succeeds, and the attack bounces."""
    p = pos(f"S1939M | germany: A BER, A PRU; neutral: A POL; russia: A MOS | {HOMES} | - | -")
    assert "A MOS S A POL" in [str(o) for o in legal_orders(p)["russia"]["mos"]]
    res = adjudicate(p, {"germany": ["A pru - pol", "A ber S A pru - pol"],
                         "russia": ["A mos S A pol"]})
    assert result(res, "A MOS S A POL").success
    bounce = result(res, "A PRU - POL")
    assert not bounce.success and bounce.reason is Reason.BOUNCED and bounce.by == ("pol",)
    assert res.next_position.unit_at("pol") == (("neutral", A, "pol"))


def test_dislodged_neutral_army_is_annihilated_without_a_retreat_phase() -> None:
    """1939 IV 7.5: the dislodged army in civil disorder is disbanded at once: it is
    reported as disbanded and the game goes straight on to the Fall, not to a
    retreat phase."""
    p = pos(f"S1939M | germany: A BER, A PRU; neutral: A POL | {HOMES} | - | -")
    res = adjudicate(p, {"germany": ["A pru - pol", "A ber S A pru - pol"]})
    assert result(res, "A PRU - POL").success
    assert [(u.power, str(u)) for u in res.disbanded] == [("neutral", "A POL")]
    nxt = res.next_position
    assert nxt.phase.kind is PhaseKind.MOVEMENT and nxt.dislodged == ()
    assert nxt.phase.name(V.calendar) == "F1939M"


def test_neutral_dislodged_beside_a_power_unit_only_the_power_retreats() -> None:
    """1939 IV 7.5: in a turn where a neutral army and a French army are both
    dislodged, the retreat phase holds only the French army, which may retreat."""
    p = pos("F1939M | france: A BEL; germany: A BER, A HOL, A PRU, A RUH; neutral: A POL"
            f" | {HOMES} | - | -")
    res = adjudicate(p, {"germany": ["A ber - pol", "A pru S A ber - pol",
                                     "A ruh - bel", "A hol S A ruh - bel"]})
    nxt = res.next_position
    assert nxt.phase.kind is PhaseKind.RETREAT
    assert [str(d) for d in nxt.dislodged] == ["A BEL<RUH"]
    assert [(u.power, str(u)) for u in res.disbanded] == [("neutral", "A POL")]
    assert check(nxt, "france", "A bel - par") == "A BEL R PAR"


def test_game_takes_a_neutral_country_and_builds_with_it() -> None:
    """1939 IV 2.2: the neutral army must be dislodged before Poland can be
    controlled; Germany dislodges it in Spring 1939, stands there after the Fall,
    owns Poland and builds with it in Winter 1939. The other neutral countries,
    their armies standing, stay unowned."""
    g = Game.new("1939-iv")
    g.submit("germany", ["A pru - pol", "A ber S A pru - pol"])
    g.process()
    assert g.phase_name == "F1939M"
    assert g.position.unit_at("pol") == ("germany", A, "pol")
    assert "pol" not in g.position.centres  # only the Fall changes ownership
    g.process()
    assert g.phase_name == "W1939A"
    assert g.position.centres["pol"] == "germany"
    assert not {"fin", "rum", "spa", "swe", "tur", "yug"} & set(g.position.centres)
    assert g.powers_to_order() == ["germany"]
    g.submit("germany", ["Build A pru"])
    g.process()
    assert g.phase_name == "S1940M"
    assert "germany A PRU" in units(g.position)


def test_neutral_country_emptied_in_spring_and_left_empty_stays_unowned() -> None:
    """1939 IV 2.2: dislodging the army is not enough: a Power's unit must stand in
    the country after the Fall. Germany dislodges Poland's army in Spring and leaves
    in the Fall: Poland belongs to nobody."""
    g = game_at(f"S1939M | germany: A BER, A PRU; neutral: A POL | {HOMES} | - | -")
    g.submit("germany", ["A pru - pol", "A ber S A pru - pol"])
    g.process()
    g.submit("germany", ["A pol - cze"])
    g.process()
    assert "pol" not in g.position.centres
    assert g.position.unit_at("pol") is None


# -- 3.7, 7.3: borders that are not there --------------------------------------------------


def test_no_czechoslovakia_romania_no_hungary_poland_no_switzerland() -> None:
    """1939 IV 3.7 and 7.3: the moves are refused with a reason, are not offered,
    and no unit can stand in Switzerland."""
    p = pos("S1940M | germany: A CZE, A MUN; russia: A HUN | - | - | -")
    assert "cannot reach RUM" in refused(p, "germany", "A cze - rum")
    assert "cannot reach POL" in refused(p, "russia", "A hun - pol")
    assert "SWI" in refused(p, "germany", "A mun - swi")
    offered = {str(o) for o in legal_orders(p)["germany"]["cze"]}
    assert "A CZE - RUM" not in offered and "A CZE - HUN" in offered
    assert not any("SWI" in str(o) for o in legal_orders(p)["germany"]["mun"])
    with pytest.raises(NotationError):
        pos("S1940M | germany: A SWI | - | - | -")


# -- 5.0: the high oceans ------------------------------------------------------------------------


def test_high_ocean_fleet_cannot_support_but_can_convoy() -> None:
    """1939 IV 5.2 and R9: a support from a high ocean is illegal (refused with a
    reason, never offered, reported ILLEGAL); a convoy from it is legal."""
    p = pos("S1940M | england: A EGY, F AFH, F RED, F SAO, F NAO; france: F MAO | - | - | -")
    assert "cannot give support" in refused(p, "england", "F afh S F sao - ath")
    assert "cannot give support" in refused(p, "england", "F afh S F red")
    offered = [str(o) for o in legal_orders(p)["england"]["afh"]]
    assert not any(" S " in o for o in offered)
    assert "F AFH C A EGY - FWA" in offered
    assert check(p, "england", "F afh C A egy - fwa") == "F AFH C A EGY - FWA"
    res = adjudicate(p, {"england": ["F afh S F sao - mao", "F sao - mao"]})
    illegal = [r for r in res.results if r.reason is Reason.ILLEGAL]
    assert len(illegal) == 1 and "cannot give support" in illegal[0].detail
    assert result(res, "F SAO - MAO").reason is Reason.BOUNCED


def test_moves_into_a_high_ocean_always_succeed() -> None:
    """1939 IV 5.1: any number of fleets of any Powers: every move in succeeds (even
    from two sides at once), the fleet already there holds successfully and is not
    dislodged by a supported attack."""
    p = pos("S1940M | england: F ATH; france: F MAO, F SAO; germany: F NAO | - | - | -")
    res = adjudicate(p, {"england": ["F ath H"],
                         "france": ["F mao - ath", "F sao S F mao - ath"],
                         "germany": ["F nao - ath"]})
    for order in ("F MAO - ATH", "F SAO S F MAO - ATH", "F NAO - ATH", "F ATH H"):
        r = result(res, order)
        assert r.success and r.dislodged_by is None, r.describe()
    nxt = res.next_position
    assert nxt.dislodged == ()
    assert sorted(u.power for u in nxt.units_in("ath")) == ["england", "france", "germany"]


def test_orders_for_several_fleets_of_one_power_on_a_high_ocean() -> None:
    """1939 IV 5.1: a Power with two fleets on a high ocean orders each of them:
    every order for that space goes to another of its fleets; a third order is one
    too many and is illegal."""
    p = pos("S1940M | germany: F ATH, F ATH | - | - | -")
    res = adjudicate(p, {"germany": ["F ath H", "F ath - mao", "F ath - nao"]})
    assert units(res.next_position) == {"germany F ATH", "germany F MAO"}
    illegal = [r for r in res.results if r.reason is Reason.ILLEGAL]
    assert [str(r.order) for r in illegal] == ["F ATH - NAO"]
    assert "already has an order" in illegal[0].detail


def test_game_keeps_one_order_per_fleet_on_a_high_ocean() -> None:
    """1939 IV 5.1 (game flow): orders submitted together for a Power's two fleets
    on the Atlantic High Ocean both stay pending and both fleets move. Engine bug:
    Game.submit files orders by province, so the second order replaces the first
    and only one fleet moves."""
    g = game_at("S1940M | germany: F ATH, F ATH | - | - | -")
    g.submit("germany", ["F ath - mao", "F ath - nao"])
    assert sorted(str(o) for o in g.pending()["germany"]) == ["F ATH - MAO", "F ATH - NAO"]
    g.process()
    assert units(g.position) == {"germany F MAO", "germany F NAO"}


def test_random_orders_give_each_fleet_on_a_high_ocean_its_own_pick() -> None:
    """1939 IV 5.1: several fleets of one Power on a high ocean share the ocean's
    legal orders, and a random player (self-play, the demo's bots) orders each of
    them, not only the first; every pick is one of the ocean's legal orders."""
    p = pos("S1940M | germany: F ATH, F ATH, F ATH, A BER | - | - | -")
    legal = {str(o) for o in legal_orders(p)["germany"]["ath"]}
    for seed in range(20):
        picks = random_orders(p, random.Random(seed), 0.7)["germany"]
        at_sea = [str(o) for o in picks if o.location == "ath"]
        assert len(at_sea) == 3 and set(at_sea) <= legal
        assert len(picks) == 4


def test_random_orders_remove_each_fleet_of_a_stack_on_a_high_ocean() -> None:
    """1939 IV 5.1: any number of fleets may be on the high ocean, so one location
    can hold several units to remove. Germany, one centre and four units (three
    fleets on the Atlantic High Ocean) removes three: a random player gives three
    removals (not one for the whole ocean), and one unit is left."""
    p = pos("W1940A | germany: F ATH, F ATH, F ATH, A BER | germany: BER | - | -")
    assert adjustment_counts(V, p) == {"germany": -3}
    for seed in range(5):
        picks = random_orders(p, random.Random(seed), 0.7)["germany"]
        assert len(picks) == 3 and all(o.kind == "remove" for o in picks), picks
        left = adjudicate(p, {"germany": [str(o) for o in picks]}).next_position
        assert len(left.units_of("germany")) == 1


def test_support_naming_a_crowded_high_ocean() -> None:
    """1939 IV 5.3: a support for a move out of a high ocean holding several movers
    to that space backs the supporter's own fleet; with two foreign movers it cannot
    say which, and is void."""
    p = pos("S1940M | england: F ATH, F IRI; france: F MAO; germany: F ATH | - | - | -")
    res = adjudicate(p, {"england": ["F ath - mao", "F iri S F ath - mao"],
                         "germany": ["F ath - mao"]})
    assert result(res, "F IRI S F ATH - MAO").success
    assert res.next_position.unit_at("mao") == ("england", F, "mao")
    assert [str(d) for d in res.next_position.dislodged] == ["F MAO<ATH"]

    p = pos("S1940M | england: F IRI; germany: F ATH; italy: F ATH | - | - | -")
    res = adjudicate(p, {"england": ["F iri S F ath - mao"],
                         "germany": ["F ath - mao"], "italy": ["F ath - mao"]})
    void = result(res, "F IRI S F ATH - MAO")
    assert not void.success and void.reason is Reason.VOID
    assert res.next_position.unit_at("mao") is None


def test_retreats_onto_a_high_ocean() -> None:
    """1939 IV 5.1: a dislodged fleet may retreat onto a high ocean that holds
    fleets, and two such retreats both succeed; the 1976 rule that no unit retreats
    to the space its attacker came from is not lifted by 5.1."""
    p = pos("S1940M | england: F IRI, F WES; france: F MAO; germany: F ATH | - | - | -")
    res = adjudicate(p, {"england": ["F iri - mao", "F wes S F iri - mao"]})
    nxt = res.next_position
    assert [str(d) for d in nxt.dislodged] == ["F MAO<IRI"]
    assert "F MAO R ATH" in [str(o) for o in legal_orders(nxt)["france"]["mao"]]

    p = pos("S1940R | england: F MAO, F SAO; germany: F ATH | - | "
            "france: F MAO<IRI; italy: F SAO<WES | -")
    res = adjudicate(p, {"france": ["F mao - ath"], "italy": ["F sao - ath"]})
    assert all(r.success for r in res.results)
    assert sorted(u.power for u in res.next_position.units_in("ath")) == \
        ["france", "germany", "italy"]

    p = pos("S1940R | england: F MAO; germany: F ATH | - | france: F MAO<ATH | -")
    assert "ATH" in refused(p, "france", "F mao - ath")


# -- 4.0 / 7.1: the Russian build centres ------------------------------------------------------


def test_russia_builds_in_persia_and_archangel() -> None:
    """1939 IV 4.1, 4.2: entitled to two builds with every home centre occupied,
    Russia may build in Persia (a fleet names its coast) and Archangel."""
    p = pos("W1939A | russia: F LEN, A MOS, A SEV, A KUI | russia: KUI LEN MOS SEV LAT NWY"
            " | - | -")
    assert adjustment_counts(V, p) == {"russia": 2}
    assert check(p, "russia", "Build F per/nc") == "BUILD F PER/NC"
    assert check(p, "russia", "Build F persia/sc") == "BUILD F PER/SC"
    assert check(p, "russia", "Build A per") == "BUILD A PER"
    assert check(p, "russia", "Build F arc") == "BUILD F ARC"
    assert "coast" in refused(p, "russia", "Build F per")
    offered = {str(o) for o in legal_orders(p)["russia"]["per"]}
    assert offered >= {"BUILD A PER", "BUILD F PER/NC", "BUILD F PER/SC"}
    assert "BUILD F PER" not in offered
    res = adjudicate(p, {"russia": ["Build F per/sc", "Build F arc"]})
    assert all(r.success for r in res.results)
    assert {"russia F PER/SC", "russia F ARC"} <= units(res.next_position)


def test_build_centres_refused() -> None:
    """1939 IV 4.2 (Archangel needs Leningrad), 7.1 (Persia needs a home centre),
    4.1 ("if Russia is entitled to a build") and 4.1-4.3 (Russia's alone)."""
    p = pos("W1940A | russia: A MOS; germany: A LEN | russia: MOS LAT; germany: LEN | - | -")
    assert "LEN" in refused(p, "russia", "Build A arc")
    assert check(p, "russia", "Build A per") == "BUILD A PER"

    p = pos("W1940A | russia: A LAT | russia: LAT NWY | - | -")
    assert adjustment_counts(V, p) == {}  # nowhere to build: Persia is closed too
    assert refused(p, "russia", "Build A per")

    p = pos(f"W1939A | russia: F LEN, A MOS, A SEV, A KUI | {HOMES} | - | -")
    assert "no builds" in refused(p, "russia", "Build A per")

    p = pos("W1939A | england: F LON, F EDI, A LVP | england: EDI EGY LON LVP MDE | - | -")
    assert adjustment_counts(V, p) == {"england": 1}
    assert "PER is not a home centre" in refused(p, "england", "Build F per/sc")
    res = adjudicate(p, {"england": ["Build F per/sc", "Build A egy"]})
    assert [r.reason for r in res.results] == [Reason.ILLEGAL, Reason.NONE]
    assert units(res.next_position) == {"england F LON", "england F EDI", "england A LVP",
                                        "england A EGY"}


def test_units_in_build_centres_earn_nothing() -> None:
    """1939 IV 4.3: Persia and Archangel are not supply centres: Russia, with four
    centres and five units (one in Persia) after the Fall, must remove one."""
    g = game_at("F1940M | russia: F LEN, A MOS, A SEV, A KUI, A CAU | "
                "russia: KUI LEN MOS SEV | - | -")
    g.submit("russia", ["A cau - per"])
    g.process()
    assert "per" not in g.position.centres
    assert g.phase_name == "W1940A"
    assert adjustment_counts(V, g.position) == {"russia": -1}


# -- 6.1: victory ---------------------------------------------------------------------------------


NINETEEN = "EDI EGY LON LVP BEL HOL DEN NWY EIR POR BRE PAR MAR ALG KIE BER MUN PRU MDE"


def test_twenty_centres_win_after_the_fall() -> None:
    """1939 IV 6.1: nineteen centres are not enough; England, with 19, takes a 20th
    in the Fall and wins; the same army standing there in Spring decides nothing yet."""
    g = game_at(f"F1944M | england: A LON | england: {NINETEEN} | - | -")
    g.process()
    assert g.winner is None and not g.is_over
    g = game_at(f"S1945M | england: A HUN, A LON | england: {NINETEEN} | - | -")
    assert len(g.position.centres) == 19
    g.process()
    assert not g.is_over and g.winner is None
    g.process()
    assert g.position.centres["hun"] == "england"
    assert g.winner == "england" and g.is_over


# -- notation ----------------------------------------------------------------------------------


def test_names_and_position_text() -> None:
    """1939 IV 3.2, 5.4, 5.5 and R17: the names of the text (Constantinople for
    Turkey, AtH/AfH, Marseilles) are read; a position with neutral armies and two
    fleets of one Power on a high ocean round-trips through its text."""
    assert str(parse_order("F Atlantic High Ocean - African High Ocean", V)) == "F ATH - AFH"
    assert str(parse_order("F AfH - Persian Gulf", V)) == "F AFH - PGU"
    assert str(parse_order("A Constantinople - Greece", V)) == "A TUR - GRE"
    assert str(parse_order("A Marseilles - Spain", V)) == "A MAR - SPA"
    text = ("1939-iv | S1940M | germany: F ATH, F ATH; neutral: A FIN, A POL | "
            "germany: BER | - | -")
    p = Position.from_text(text)
    assert p.to_text() == text
    assert len(p.units_in("ath")) == 2
    assert Position.from_json(p.to_json()) == p
