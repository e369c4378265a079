"""Phases: short and long notation, round trips, order and bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standoff import NotationError, StandoffError, load_variant
from standoff.core.phase import Calendar, Phase, PhaseKind

CAL = load_variant("standard").calendar
M, R, A = PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT
SPRING, FALL = 0, 1


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("S1901M", Phase(1901, SPRING, M)),
        ("s1901m", Phase(1901, SPRING, M)),
        ("F1901R", Phase(1901, FALL, R)),
        ("W1901A", Phase(1901, FALL, A)),
        ("F1901A", Phase(1901, FALL, A)),
        (" S1905M ", Phase(1905, SPRING, M)),
        ("Spring 1901, Movement", Phase(1901, SPRING, M)),
        ("SPRING 1901, MOVEMENT", Phase(1901, SPRING, M)),
        ("spring 1901 movement", Phase(1901, SPRING, M)),
        ("Spring 1902,Moves", Phase(1902, SPRING, M)),
        ("Spring 1901, Retreat", Phase(1901, SPRING, R)),
        ("Fall 1901, Movement", Phase(1901, FALL, M)),
        ("Fall 1901, Retreat", Phase(1901, FALL, R)),
        ("Fall 1901, Retreats", Phase(1901, FALL, R)),
        ("Winter 1901, Adjustment", Phase(1901, FALL, A)),
        ("Winter 1901, Builds", Phase(1901, FALL, A)),
        ("Fall 1901, Adjustment", Phase(1901, FALL, A)),
        ("Fall 1901, Adjustments", Phase(1901, FALL, A)),
    ],
)
def test_parse(text: str, phase: Phase) -> None:
    assert Phase.parse(text, CAL) == phase


def test_adjustments_are_named_after_winter_whichever_way_they_were_written() -> None:
    for text in ("Winter 1901, Adjustment", "Fall 1901, Adjustment", "W1901A", "F1901A"):
        phase = Phase.parse(text, CAL)
        assert phase.name(CAL) == "W1901A"
        assert phase.long_name(CAL) == "Winter 1901, Adjustment"


@pytest.mark.parametrize(
    ("phase", "short", "long"),
    [
        (Phase(1901, SPRING, M), "S1901M", "Spring 1901, Movement"),
        (Phase(1901, SPRING, R), "S1901R", "Spring 1901, Retreat"),
        (Phase(1901, FALL, M), "F1901M", "Fall 1901, Movement"),
        (Phase(1901, FALL, R), "F1901R", "Fall 1901, Retreat"),
        (Phase(1901, FALL, A), "W1901A", "Winter 1901, Adjustment"),
        (Phase(2024, SPRING, M), "S2024M", "Spring 2024, Movement"),
    ],
)
def test_names(phase: Phase, short: str, long: str) -> None:
    assert phase.name(CAL) == short
    assert phase.long_name(CAL) == long
    assert Phase.parse(short, CAL) == phase
    assert Phase.parse(long, CAL) == phase


phases = st.one_of(
    st.builds(Phase, st.integers(0, 99999), st.sampled_from([SPRING, FALL]),
              st.sampled_from([M, R])),
    st.builds(Phase, st.integers(0, 99999), st.just(FALL), st.just(A)),
)


@settings(max_examples=200, deadline=None)
@given(phases)
def test_name_and_long_name_roundtrip(phase: Phase) -> None:
    assert Phase.parse(phase.name(CAL), CAL) == phase
    assert Phase.parse(phase.long_name(CAL), CAL) == phase
    assert Phase.parse(phase.long_name(CAL).upper(), CAL) == phase
    assert Phase.parse(phase.name(CAL).lower(), CAL) == phase


def test_phases_order_chronologically() -> None:
    game = ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M", "F1902M", "W1902A",
            "S1910M"]
    phases = [Phase.parse(t, CAL) for t in game]
    assert sorted(phases) == phases
    assert sorted(reversed(phases)) == phases


def test_the_turn_sequence() -> None:
    s1901m = Phase.parse("S1901M", CAL)
    assert s1901m.next_retreat() == Phase.parse("S1901R", CAL)
    assert s1901m.next_after_turn(CAL) == Phase.parse("F1901M", CAL)
    assert Phase.parse("F1901M", CAL).next_after_turn(CAL) == Phase.parse("W1901A", CAL)
    assert Phase.parse("W1901A", CAL).next_after_turn(CAL) == Phase.parse("S1902M", CAL)
    assert Phase.parse("F1901M", CAL).is_last_season(CAL)
    assert not s1901m.is_last_season(CAL)
    assert s1901m.kind is PhaseKind.MOVEMENT
    assert Phase.parse("F1901R", CAL).kind is PhaseKind.RETREAT


def test_a_calendar_with_other_season_names() -> None:
    cal = Calendar(seasons=("Spring", "Summer", "Autumn"), adjustment_season="Winter")
    assert Phase.parse("Summer 1901, Movement", cal) == Phase(1901, 1, M)
    assert Phase.parse("A1901R", cal) == Phase(1901, 2, R)
    autumn_adj = Phase.parse("Autumn 1901, Adjustment", cal)
    assert autumn_adj == Phase(1901, 2, A)
    assert autumn_adj.name(cal) == "W1901A"
    with pytest.raises(NotationError):
        Phase.parse("Summer 1901, Adjustment", cal)
    with pytest.raises(NotationError):
        Phase.parse("Fall 1901, Movement", cal)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("", "phase"),
        ("   ", "phase"),
        ("1901", "1901"),
        ("Spring", "spring"),
        ("S1901", "s1901"),
        ("X1901M", "season"),
        ("S1901X", "s1901x"),
        ("S-1901M", "s-1901m"),
        ("S123456M", "s123456m"),
        ("Sp1901M", "sp1901m"),
        ("Summer 1901, Movement", "summer"),
        ("Spring 1901, Dance", "dance"),
        ("Spring 1901, Adjustment", "adjustment"),
        ("S1901A", "adjustment"),
        ("Winter 1901, Movement", "winter"),
        ("Winter 1901, Retreat", "winter"),
        ("W1901M", "w"),
        ("Spring, 1901, Movement", "spring, 1901"),
        ("S1901M extra", "extra"),
    ],
)
def test_bad_phases_raise_notation_error(text: str, word: str) -> None:
    with pytest.raises(NotationError) as info:
        Phase.parse(text, CAL)
    assert isinstance(info.value, StandoffError)
    assert word in str(info.value).lower()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        phase = Phase.parse(text, CAL)
    except NotationError:
        return
    assert Phase.parse(phase.name(CAL), CAL) == phase
