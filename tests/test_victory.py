"""Victory rules (standoff.core.victory): each rule on its own, through decide_victory,
citing the rule text of the variant that uses it."""

from __future__ import annotations

import pickle

import pytest

from standoff import (
    CentreCountWinner,
    LastUnitIn,
    Outcome,
    Position,
    UnitCountWinner,
    UnitType,
    decide_victory,
    load_variant,
)
from standoff.core.phase import Phase

STANDARD = load_variant("standard")
SAHARA = load_variant("sahara")
TWIN = load_variant("twin-earths")
TWENTIETH = load_variant("twentieth-century")
IV = load_variant("1939-iv")

SEVENTEEN = "BEL BER BRE DEN EDI HOL KIE LON LVP MAR NAP NWY PAR POR SPA SWE TUN"


def pos(text: str) -> Position:
    return Position.from_text(text)


# -- the rules each variant file chooses --------------------------------------------------


@pytest.mark.parametrize(("variant", "rule"), [
    ("standard", CentreCountWinner(18)),
    ("city-country", CentreCountWinner(18)),
    ("1939-iv", CentreCountWinner(20)),
    ("twentieth-century", CentreCountWinner(74, at_start_of=1)),
    ("twin-earths", UnitCountWinner(35)),
    ("sahara", LastUnitIn("ice", after=Phase.parse("W1911A", SAHARA.calendar))),
])
def test_each_variant_file_names_its_rule(variant: str, rule: object) -> None:
    assert load_variant(variant).victory == rule


def test_outcome_is_a_value() -> None:
    assert Outcome("france").winner == "france" and not Outcome("france").no_winner
    assert Outcome().no_winner and Outcome(None) == Outcome()
    assert pickle.loads(pickle.dumps(Outcome("england"))) == Outcome("england")


# -- Standard: 18 centres ------------------------------------------------------------------


def test_standard_18_centres_win() -> None:
    """Rulebook, Victory Criterion: a power that controls 18 supply centres wins."""
    before = pos(f"standard | F1901M | france: A BUR | france: {SEVENTEEN} | - | -")
    after = pos(f"standard | W1901A | france: A MUN | france: {SEVENTEEN} MUN | - | -")
    assert decide_victory(STANDARD, before, after) == Outcome("france")


def test_standard_17_centres_do_not_win() -> None:
    before = pos(f"standard | F1901M | france: A BUR | france: {SEVENTEEN} | - | -")
    after = pos(f"standard | W1901A | france: A RUH | france: {SEVENTEEN} | - | -")
    assert decide_victory(STANDARD, before, after) is None
    assert CentreCountWinner(18).describe(STANDARD.calendar) == "18 supply centres"


def test_centre_count_beyond_the_map_is_a_problem() -> None:
    assert CentreCountWinner(18).problems(STANDARD) == []
    assert CentreCountWinner(35).problems(STANDARD) == [
        "victory needs 35 centres but the map has 34"]


# -- Twin Earths: 35 units after a Winter ----------------------------------------------------


def _twin(phase: str, n: int) -> Position:
    spaces = [c for c in sorted(TWIN.supply_centres)
              if TWIN.board.can_stand(UnitType.ARMY, c)][:n]
    units = ", ".join(f"A {s.upper()}" for s in spaces)
    return pos(f"twin-earths | {phase} | russia: {units} | "
               f"russia: {' '.join(s.upper() for s in spaces)} | - | -")


def test_twin_earths_35_units_when_a_winter_ends() -> None:
    """Twin Earths rule 4: "a player wins when he has 35 units on the board at the
    completion of a Winter season"."""
    assert decide_victory(TWIN, _twin("W1905A", 35), _twin("S1906M", 35)) == Outcome("russia")


def test_twin_earths_35_units_within_a_year_do_not_win_yet() -> None:
    """Rule 4: counted only at the completion of a Winter."""
    assert decide_victory(TWIN, _twin("S1905M", 35), _twin("F1905M", 35)) is None
    assert decide_victory(TWIN, _twin("F1905M", 35), _twin("W1905A", 35)) is None


def test_twin_earths_34_units_do_not_win() -> None:
    assert decide_victory(TWIN, _twin("W1905A", 34), _twin("S1906M", 34)) is None
    assert UnitCountWinner(35).describe(TWIN.calendar) == (
        "35 units on the board at the end of a Winter")


def test_units_in_civil_disorder_belong_to_nobody() -> None:
    """1939 IV rule 2.2: the neutral armies are no power's; a unit count never
    counts them (1939 IV's own victory is by centres: the rule is tried alone)."""
    start = Position.initial(IV)
    after = Position(start.variant, Phase(start.phase.year + 1, 0, start.phase.kind),
                     start.units, start.centres)
    neutral = sum(1 for u in start.units if u.power == IV.neutral)
    assert neutral > max(len(start.units_of(p)) for p in IV.powers)
    assert UnitCountWinner(neutral).decide(IV, start, after) is None


# -- Sahara: the last unit in Iceland after W1911A -----------------------------------------


def test_sahara_unit_in_iceland_after_between_summers_1911_wins() -> None:
    """Sahara rule 7: the player with a unit in Iceland after Between Summers 1911
    wins."""
    before = pos("sahara | B1911A | england: A ICE | england: ICE | - | -")
    after = pos("sahara | S1912M | england: A ICE | england: ICE | - | -")
    assert decide_victory(SAHARA, before, after) == Outcome("england")


def test_sahara_iceland_empty_ends_the_game_with_no_winner() -> None:
    """Sahara rule 7 / R12: with nobody in Iceland the game still ends, unwon."""
    before = pos("sahara | B1911A | england: A LON | - | - | -")
    after = pos("sahara | S1912M | england: A LON | - | - | -")
    outcome = decide_victory(SAHARA, before, after)
    assert outcome == Outcome(None) and outcome is not None and outcome.no_winner


def test_sahara_iceland_before_the_end_decides_nothing() -> None:
    """Rule 7: a unit in Iceland in 1911 itself decides nothing yet."""
    before = pos("sahara | F1911M | england: A ICE | england: ICE | - | -")
    after = pos("sahara | B1911A | england: A ICE | england: ICE | - | -")
    assert decide_victory(SAHARA, before, after) is None
    rule = SAHARA.victory
    assert rule.last_phase() == Phase.parse("W1911A", SAHARA.calendar)
    assert rule.describe(SAHARA.calendar).startswith("the last unit in ICE after ")
    assert LastUnitIn("xyz", after=rule.last_phase() or SAHARA.start).problems(SAHARA) == [
        "victory names unknown space 'xyz'"]


# -- The Twentieth Century: 74 centres at the beginning of a Fall turn -----------------------

OTHERS = [c for c in sorted(TWENTIETH.supply_centres) if c not in ("del", "kas")][:72]
SEVENTY_FOUR = " ".join(c.upper() for c in ["del", "kas", *OTHERS])


def _twentieth(phase: str) -> Position:
    return pos(f"twentieth-century | {phase} | britain: A DEL | britain: {SEVENTY_FOUR} | - | -")


def test_twentieth_74_centres_as_a_fall_turn_begins_win() -> None:
    """20th Victory Conditions: "74 Supply Centers at the beginning of a Fall turn"."""
    outcome = decide_victory(TWENTIETH, _twentieth("S1934M"), _twentieth("F1934M"))
    assert outcome == Outcome("britain")
    assert TWENTIETH.victory.describe(TWENTIETH.calendar) == (
        "74 supply centres at the beginning of a Fall turn")


def test_twentieth_74_centres_at_other_times_decide_nothing() -> None:
    """20th Victory Conditions: not after the Winter, nor as Spring or its retreats end
    (the Fall turn begins after Spring's retreats)."""
    assert decide_victory(TWENTIETH, _twentieth("F1933M"), _twentieth("W1933A")) is None
    assert decide_victory(TWENTIETH, _twentieth("W1933A"), _twentieth("S1934M")) is None
    assert decide_victory(TWENTIETH, _twentieth("S1934M"), _twentieth("S1934R")) is None


def test_twentieth_73_centres_do_not_win() -> None:
    seventy_three = " ".join(c.upper() for c in ["del", *OTHERS])
    after = pos(f"twentieth-century | F1934M | britain: A DEL | britain: {seventy_three} | - | -")
    assert decide_victory(TWENTIETH, _twentieth("S1934M"), after) is None
