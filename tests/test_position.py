"""Positions: JSON and compact text round trips, and refusal of bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from standoff import (
    NotationError,
    StandoffError,
    adjudicate,
    available_variants,
    load_variant,
    random_orders,
)
from standoff.core.geography import Terrain, UnitType
from standoff.core.phase import Phase, PhaseKind
from standoff.core.position import Dislodged, Position, Unit, new_unit

V = load_variant("standard")
A, F = UnitType.ARMY, UnitType.FLEET
INITIAL = Position.initial(V)
INITIAL_TEXT = (
    "standard | S1901M | austria: A BUD, A VIE, F TRI; england: A LVP, F EDI, F LON; "
    "france: A MAR, A PAR, F BRE; germany: A BER, A MUN, F KIE; italy: A ROM, A VEN, F NAP; "
    "russia: A MOS, A WAR, F SEV, F STP/SC; turkey: A CON, A SMY, F ANK | "
    "austria: BUD TRI VIE; england: EDI LON LVP; france: BRE MAR PAR; germany: BER KIE MUN; "
    "italy: NAP ROM VEN; russia: MOS SEV STP WAR; turkey: ANK CON SMY | - | -"
)


def roundtrips(pos: Position) -> None:
    """Both notations read back to an equal position and re-write identically."""
    js = pos.to_json()
    back = Position.from_json(js)
    assert back == pos
    assert back.to_json() == js
    text = pos.to_text()
    back = Position.from_text(text)
    assert back == pos
    assert back.to_text() == text
    assert Position.from_json(pos.to_json(indent=2)) == pos


# -- the initial position --------------------------------------------------------------


def test_initial_position_contents() -> None:
    assert INITIAL.variant == "standard"
    assert INITIAL.phase == Phase(1901, 0, PhaseKind.MOVEMENT)
    assert len(INITIAL.units) == 22
    assert INITIAL.unit_at("stp") == Unit("russia", F, "stp/sc")
    assert len(INITIAL.centres) == 22
    assert INITIAL.centres["stp"] == "russia"
    assert INITIAL.dislodged == ()
    assert INITIAL.contested == frozenset()


def test_initial_position_text_is_the_documented_form() -> None:
    assert INITIAL.to_text() == INITIAL_TEXT
    assert Position.from_text(INITIAL_TEXT) == INITIAL


def test_initial_position_json_shape() -> None:
    data = json.loads(INITIAL.to_json())
    assert data["variant"] == "standard"
    assert data["phase"] == "S1901M"
    assert data["units"]["russia"] == ["A MOS", "A WAR", "F SEV", "F STP/SC"]
    assert data["centres"]["france"] == ["BRE", "MAR", "PAR"]
    assert "dislodged" not in data
    assert "contested" not in data


def test_initial_position_roundtrips() -> None:
    roundtrips(INITIAL)


def test_text_is_forgiving_about_spacing_case_and_power_names() -> None:
    text = "Standard|s1901m|France : a par ,  f bre|French: PAR BRE|-|-"
    pos = Position.from_text(text)
    assert pos.units == (Unit("france", A, "par"), Unit("france", F, "bre"))
    assert pos.centres == {"bre": "france", "par": "france"}
    assert pos.to_text() == "standard | S1901M | france: A PAR, F BRE | france: BRE PAR | - | -"


def test_dislodged_and_contested_roundtrip() -> None:
    text = (
        "standard | F1901R | england: F BEL, F NTH; germany: A HOL | germany: HOL | "
        "france: A PIC<BEL; germany: A BEL<NTH~ | BUR RUH"
    )
    pos = Position.from_text(text)
    # the older marker '*' is still read where no space is called 'NTH*'
    assert Position.from_text(text.replace("NTH~", "NTH*")) == pos
    assert pos.phase == Phase(1901, 1, PhaseKind.RETREAT)
    assert Dislodged(Unit("germany", A, "bel"), "nth", True) in pos.dislodged
    assert Dislodged(Unit("france", A, "pic"), "bel", False) in pos.dislodged
    assert pos.contested == frozenset({"bur", "ruh"})
    assert pos.to_text() == text
    data = json.loads(pos.to_json())
    assert data["dislodged"]["germany"] == [{"unit": "A BEL", "attacker": "NTH",
                                             "via_convoy": True}]
    assert data["contested"] == ["BUR", "RUH"]
    roundtrips(pos)


def test_position_built_in_any_order_is_the_same_position() -> None:
    units = (Unit("italy", A, "ven"), Unit("austria", F, "tri"), Unit("austria", A, "vie"))
    p1 = Position("standard", V.start, units, {"ven": "italy", "tri": "austria"})
    p2 = Position("standard", V.start, units[::-1], {"tri": "austria", "ven": "italy"})
    assert p1 == p2
    assert hash(p1) == hash(p2)
    assert p1.to_text() == p2.to_text()
    roundtrips(p1)


def test_a_unit_built_by_the_core_is_the_named_tuple_users_build() -> None:
    made = new_unit("austria", F, "tri")
    assert made == Unit("austria", F, "tri") and type(made) is Unit
    assert (made.power, made.type, made.location, made.province) == ("austria", F, "tri", "tri")
    assert repr(made) == "Unit(power='austria', type=<UnitType.FLEET: 'F'>, location='tri')"


def test_unit_at_finds_each_province_s_unit_and_nothing_elsewhere() -> None:
    units = (Unit("italy", A, "ven"), Unit("austria", F, "bul/sc"), Unit("austria", A, "vie"))
    pos = Position("standard", V.start, units, {})
    assert pos.unit_at("bul") == Unit("austria", F, "bul/sc")
    assert pos.unit_at("ven") == Unit("italy", A, "ven")
    assert pos.unit_at("tri") is None
    assert pos.units_in("vie") == [Unit("austria", A, "vie")] and pos.units_in("tri") == []


@pytest.mark.parametrize("name", sorted({load_variant(n).name for n in available_variants()}))
def test_every_position_a_phase_makes_is_in_canonical_order(name: str) -> None:
    """Retreat and adjustment phases insert their new units in place rather than
    sorting the board again: whatever phase made a position, its units and
    centres are in the order a position built from scratch has."""
    v = load_variant(name)
    rng = random.Random(11)
    pos = Position.initial(v)
    kinds = set()
    for played in range(400):
        if played >= 60 and len(kinds) == 3:
            break
        result = adjudicate(pos, random_orders(pos, rng, move_bias=0.8, variant=v), variant=v)
        nxt = result.next_position
        assert nxt.units == tuple(sorted(nxt.units)), (name, nxt.phase)
        assert list(nxt.centres) == sorted(nxt.centres), (name, nxt.phase)
        assert nxt == Position(nxt.variant, nxt.phase, list(reversed(nxt.units)),
                               dict(reversed(list(nxt.centres.items()))), nxt.dislodged,
                               nxt.contested, nxt.notes)
        kinds.add(pos.phase.kind)
        pos = nxt
    assert kinds == {PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT}, name


# -- random legal positions -----------------------------------------------------------

STANDABLE = [
    (prov, loc, t)
    for prov, p in sorted(V.board.provinces.items())
    if p.terrain is not Terrain.IMPASSABLE
    for loc in V.board.locations_of(prov) + ((prov,) if p.coasts else ())
    for t in (A, F)
    if V.board.can_stand(t, loc)
]
PROVINCES = sorted(V.board.provinces)
CENTRES = sorted(V.supply_centres)
POWERS = sorted(V.powers)
PHASES = st.one_of(
    st.builds(Phase, st.integers(1, 99999), st.integers(0, 1),
              st.sampled_from([PhaseKind.MOVEMENT, PhaseKind.RETREAT])),
    st.builds(Phase, st.integers(1, 99999), st.just(1), st.just(PhaseKind.ADJUSTMENT)),
)


def _units(slots: list[tuple[str, str, UnitType]], powers: list[str]) -> list[Unit]:
    seen: set[str] = set()
    out = []
    for (prov, loc, t), power in zip(slots, powers, strict=False):
        if prov not in seen:
            seen.add(prov)
            out.append(Unit(power, t, loc))
    return out


@st.composite
def positions(draw: st.DrawFn) -> Position:
    slots = draw(st.lists(st.sampled_from(STANDABLE), max_size=34))
    units = _units(slots, draw(st.lists(st.sampled_from(POWERS), min_size=len(slots),
                                        max_size=len(slots))))
    owned = draw(st.lists(st.sampled_from(CENTRES), unique=True))
    centres = {c: draw(st.sampled_from(POWERS)) for c in owned}
    dslots = draw(st.lists(st.sampled_from(STANDABLE), max_size=5))
    dunits = _units(dslots, draw(st.lists(st.sampled_from(POWERS), min_size=len(dslots),
                                          max_size=len(dslots))))
    dislodged = [
        Dislodged(u, draw(st.sampled_from(PROVINCES)), draw(st.booleans())) for u in dunits
    ]
    contested = draw(st.frozensets(st.sampled_from(PROVINCES), max_size=4))
    return Position("standard", draw(PHASES), tuple(units), centres, tuple(dislodged),
                    contested)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_random_positions_roundtrip(pos: Position) -> None:
    pos.check(V)
    roundtrips(pos)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_repr_pastes_back_to_an_equal_position(pos: Position) -> None:
    """repr() is something you could paste back (developers' guide)."""
    again = eval(repr(pos), {"Position": Position})
    assert again == pos and hash(again) == hash(pos)
    assert again.to_text() == pos.to_text()



@settings(max_examples=100, deadline=None)
@given(positions())
def test_text_field_count_and_json_keys(pos: Position) -> None:
    fields = pos.to_text().split(" | ")
    assert len(fields) == 6
    assert fields[4] == "-" if not pos.dislodged else fields[4] != "-"
    assert fields[5] == "-" if not pos.contested else fields[5] != "-"
    data = json.loads(pos.to_json())
    assert sum(len(v) for v in data["units"].values()) == len(pos.units)
    assert sum(len(v) for v in data["centres"].values()) == len(pos.centres)


# -- bad input ----------------------------------------------------------------------------

BASE: dict[str, Any] = json.loads(INITIAL.to_json())


def _json(**changes: Any) -> str:
    data = dict(BASE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


BAD_JSON = [
    ("malformed", "{", "json"),
    ("not an object", "[1, 2]", "object"),
    ("null", "null", "object"),
    ("string", '"standard"', "object"),
    ("missing variant", _json(variant=None), "variant"),
    ("missing phase", _json(phase=None), "phase"),
    ("unknown variant", _json(variant="atlantis"), "atlantis"),
    ("bad phase", _json(phase="Summer 1901"), "phase"),
    ("phase wrong type", _json(phase=1901), "1901"),
    ("units a list", _json(units=["A PAR"]), "units"),
    ("units entry a string", _json(units={"france": "A PAR"}), "units"),
    ("unit a number", _json(units={"france": [5]}), "5"),
    ("unit null", _json(units={"france": [None]}), "none"),
    ("unit a list", _json(units={"france": [["A", "PAR"]]}), "par"),
    ("unit without type", _json(units={"france": ["PAR"]}), "par"),
    ("unit type unknown", _json(units={"france": ["Z PAR"]}), "z par"),
    ("unknown province", _json(units={"france": ["A XYZ"]}), "xyz"),
    ("unknown power", _json(units={"narnia": ["A PAR"]}), "narnia"),
    ("fleet on land", _json(units={"france": ["F PAR"]}), "par"),
    ("army at sea", _json(units={"england": ["A NTH"]}), "nth"),
    ("fleet on split coast province", _json(units={"russia": ["F STP"]}), "stp"),
    ("army on a coast", _json(units={"russia": ["A STP/NC"]}), "stp/nc"),
    ("unit on impassable", _json(units={"france": ["A SWI"]}), "swi"),
    ("two units in one province", _json(units={"france": ["A PAR"], "germany": ["A PAR"]}),
     "par"),
    ("two fleets on two coasts", _json(units={"russia": ["F STP/NC", "F STP/SC"]}), "stp"),
    ("centre owned twice", _json(centres={"france": ["PAR"], "germany": ["PAR"]}), "par"),
    ("centre not a centre", _json(centres={"france": ["BUR"]}), "bur"),
    ("centre unknown power", _json(centres={"narnia": ["PAR"]}), "narnia"),
    ("centre unknown province", _json(centres={"france": ["XYZ"]}), "xyz"),
    ("centres not lists", _json(centres={"france": "PAR"}), "centres"),
    ("dislodged a list", _json(dislodged=[]), "dislodged"),
    ("dislodged not an object", _json(dislodged={"france": ["A PAR"]}), "dislodged"),
    ("dislodged no attacker", _json(dislodged={"france": [{"unit": "A PIC"}]}), "attacker"),
    ("dislodged bad attacker",
     _json(dislodged={"france": [{"unit": "A PIC", "attacker": "XYZ"}]}), "xyz"),
    ("dislodged fleet on land",
     _json(dislodged={"france": [{"unit": "F BUR", "attacker": "PAR"}]}), "bur"),
    ("contested a string", _json(contested="BUR"), "contested"),
    ("contested unknown", _json(contested=["XYZ"]), "xyz"),
]


@pytest.mark.parametrize(("text", "word"), [(t, w) for _, t, w in BAD_JSON],
                         ids=[n for n, _, _ in BAD_JSON])
def test_bad_json_raises_notation_error(text: str, word: str) -> None:
    with pytest.raises(NotationError) as info:
        Position.from_json(text)
    assert isinstance(info.value, StandoffError)
    assert word in str(info.value).lower()


def test_deeply_nested_json_raises_notation_error() -> None:
    with pytest.raises(NotationError):
        Position.from_json("[" * 100_000)


def test_two_dislodged_units_in_one_province_are_refused() -> None:
    with pytest.raises(NotationError, match=r"(?i)pic"):
        Position.from_text("standard | F1901R | - | - | france: A PIC<BEL, F PIC<ENG | -")


BAD_TEXT = [
    ("empty", "", "6 or 7 fields"),
    ("five fields", " | ".join(INITIAL_TEXT.split(" | ")[:5]), "6 or 7 fields"),
    ("eight fields", INITIAL_TEXT + " | F BRE | -", "6 or 7 fields"),
    ("empty notes field", INITIAL_TEXT + " | -", "leave it out"),
    ("unknown variant", INITIAL_TEXT.replace("standard", "atlantis"), "atlantis"),
    ("bad phase", INITIAL_TEXT.replace("S1901M", "S1901X"), "s1901x"),
    ("unknown province", "standard | S1901M | france: A XYZ | - | - | -", "xyz"),
    ("unknown power", "standard | S1901M | narnia: A PAR | - | - | -", "narnia"),
    ("no power", "standard | S1901M | A PAR | - | - | -", "power"),
    ("fleet on land", INITIAL_TEXT.replace("A PAR", "F PAR"), "par"),
    ("two units", "standard | S1901M | france: A PAR; germany: A PAR | - | - | -", "par"),
    ("centre twice", "standard | S1901M | - | france: PAR; germany: PAR | - | -", "par"),
    ("not a centre", "standard | S1901M | - | france: GAS | - | -", "gas"),
    ("dislodged without attacker", "standard | F1901R | - | - | france: A PIC | -", "attacker"),
    ("dislodged empty attacker", "standard | F1901R | - | - | france: A PIC< | -", "attacker"),
    ("contested unknown", "standard | F1901R | - | - | - | XYZ", "xyz"),
    ("unit without location", "standard | S1901M | france: A | - | - | -", "unit"),
]


@pytest.mark.parametrize(("text", "word"), [(t, w) for _, t, w in BAD_TEXT],
                         ids=[n for n, _, _ in BAD_TEXT])
def test_bad_text_raises_notation_error(text: str, word: str) -> None:
    with pytest.raises(NotationError) as info:
        Position.from_text(text)
    assert word in str(info.value).lower()


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_text_raises_only_notation_error(text: str) -> None:
    for read in (Position.from_text, Position.from_json):
        try:
            pos = read(text)
        except NotationError:
            continue
        assert isinstance(pos, Position)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.sampled_from(["standard", "S1901M", "A PAR", "F STP/NC", "PAR", "france", "BUR"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["france", "russia", "unit", "attacker", "via_convoy", "x"]), inner,
        max_size=3),
    max_leaves=10,
)
by_power = st.dictionaries(st.sampled_from(["france", "russia"]), st.lists(json_values, max_size=3),
                          max_size=2)


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "variant": json_values | st.just("standard"), "phase": json_values | st.just("F1901R"),
    "units": by_power, "centres": by_power, "dislodged": by_power | json_values,
    "contested": json_values}))
def test_arbitrary_json_objects_raise_only_notation_error(data: dict[str, Any]) -> None:
    try:
        pos = Position.from_json(json.dumps(data))
    except NotationError:
        return
    roundtrips(pos)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(
    ["standard", "S1901M", "F1901R", "france:", "russia:", "A PAR", "F STP/NC", "F PAR", "<BUR",
     "<NTH*", "PAR", "BUR", "-", ",", ";", " | ", "|", "x"]), max_size=14))
def test_text_salad_raises_only_notation_error(parts: list[str]) -> None:
    text = " ".join(parts)
    try:
        pos = Position.from_text(text)
    except NotationError:
        return
    roundtrips(pos)
