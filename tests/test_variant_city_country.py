"""City/Country Diplomacy: every rule of the text, cited by number (.1-.62).

The map is derived from Standard by the ``split_centres`` transform with the
data in ``variants/city-country.toml``; the rulings are in
``docs/variants/city-country.md``.
"""

from __future__ import annotations

import pytest

from standoff.core.adjudicator import adjudicate, check_order
from standoff.core.errors import IllegalOrderError, InvalidOrderError
from standoff.core.geography import Terrain, UnitType
from standoff.core.notation import parse_order
from standoff.core.options import Options
from standoff.core.orders import Build, Convoy, Move, Order, Retreat, SupportMove
from standoff.core.phase import Phase, PhaseKind
from standoff.core.position import Position
from standoff.core.results import Reason
from standoff.core.variant import load_variant

CC = load_variant("city-country")
STD = load_variant("standard")
B = CC.board


def _pos(units: str, phase: str = "S1901M", centres: str = "-") -> Position:
    return Position.from_text(f"city-country | {phase} | {units} | {centres} | - | -")


def _result(pos: Position, orders: dict[str, list[str]], text: str):  # type: ignore[no-untyped-def]
    res = adjudicate(pos, orders)
    want = parse_order(text, CC)
    for r in res.results:
        if r.order is not None and r.order.location == want.location:
            return res, r
    raise AssertionError(f"no result for {text}")


# -- .1: every centre split in two -------------------------------------------------


def test_every_centre_is_split_into_city_and_country() -> None:
    """City/Country .1, .11, .12: the City is the centre, the Country an ordinary space."""
    centres = {p for p, q in STD.board.provinces.items() if q.supply_centre}
    assert len(centres) == 34
    for c in centres:
        assert B.provinces[f"{c}*"].supply_centre
        assert not B.provinces[c].supply_centre
        assert B.provinces[c].terrain is STD.board.provinces[c].terrain
    assert CC.supply_centres == frozenset(f"{c}*" for c in centres)


def test_home_centres_are_the_cities_and_units_start_there() -> None:
    """City/Country .11: the supply centre is the City, so homes and the
    starting units are in the Cities (ruling: a fleet whose City touches no sea
    starts in the Country: Sevastopol, .303)."""
    assert CC.powers["germany"].home_centres == ("ber*", "kie*", "mun*")
    start = Position.initial(CC)
    kiel = start.unit_at("kie*")
    assert kiel is not None and kiel.type is UnitType.FLEET
    assert start.unit_at("sev") is not None and start.unit_at("sev*") is None


# -- .21-.23: names --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "loc"), [
    ("A Munich - Burgundy", "mun"),            # .21: the plain name is the Country
    ("A Munich-City - Burgundy", "mun*"),      # .22: "-City"
    ("A Munich* - Burgundy", "mun*"),          # .22: "*"
    ("A Munich * - Burgundy", "mun*"),
    ("A mun* - bur", "mun*"),
    ("A Munich City - Burgundy", "mun*"),
    ("A Munich-Country - Burgundy", "mun"),
])
def test_names_of_city_and_country(text: str, loc: str) -> None:
    """City/Country .21, .22, .1x."""
    order = parse_order(text, CC)
    assert isinstance(order, Move) and order.location == loc and order.dest == "bur"


@pytest.mark.parametrize(("name", "loc"), [
    ("Christiania", "nwy*"), ("Belgrade", "ser*"), ("Istanbul", "con*"),
    ("Petrograd", "stp*"), ("Copenhagen", "den*"), ("Norway", "nwy"),
    ("Tunisia", "tun"), ("Tunis*", "tun*"), ("Amsterdam", "hol*"),
])
def test_capital_names_are_the_cities(name: str, loc: str) -> None:
    """City/Country .22x: "Norway-City" = "Christiania", "Serbia-City" = "Belgrade",
    Istanbul and Petrograd; .306 names Tunis-Country "Tunisia"."""
    assert parse_order(f"A {name} H", CC).location == loc


def test_canonical_notation_round_trips() -> None:
    """City/Country .22: the canonical form writes a City with '*'."""
    for text in ("A MUN* - BUR", "F HOL* - NTH", "A BUR S A MUN - MUN*", "F NTH C A LON* - HOL*"):
        order = parse_order(text, CC)
        assert str(order) == text
        assert parse_order(str(order), CC) == order


A, F = UnitType.ARMY, UnitType.FLEET

# The rule text's own notation: a City is "Munich-City" (.1x, .22) or "Munich *"
# (.301-.306), a Country "Norway-Country" (.21x), and a move a bare dash (.5x:
# "F Brussels-Amsterdam"). Each: the order it reads as, and its canonical form.
TEXT_FORMS = [
    ("A Munich-Munich-City", Move(A, "mun", "mun*"), "A MUN - MUN*"),              # .22, .5x
    ("A Munich-City-Burgundy", Move(A, "mun*", "bur"), "A MUN* - BUR"),            # .22, .5x
    ("A Munich-city-Burgundy", Move(A, "mun*", "bur"), "A MUN* - BUR"),
    ("A Munich City-Burgundy", Move(A, "mun*", "bur"), "A MUN* - BUR"),
    ("A mun-city-bur", Move(A, "mun*", "bur"), "A MUN* - BUR"),
    ("A Munich*-Burgundy", Move(A, "mun*", "bur"), "A MUN* - BUR"),
    ("A Munich *-Burgundy", Move(A, "mun*", "bur"), "A MUN* - BUR"),               # .301 style
    ("A Burgundy S A Paris-Paris-City", SupportMove(A, "bur", A, "par", "par*"),
     "A BUR S A PAR - PAR*"),                                                      # .22, .523
    ("F Edinburgh-City - North Sea", Move(F, "edi*", "nth"), "F EDI* - NTH"),      # .22, .51
    ("F Edinburgh-City-North Sea", Move(F, "edi*", "nth"), "F EDI* - NTH"),
    ("F Brussels-Amsterdam", Move(F, "bel*", "hol*"), "F BEL* - HOL*"),           # .5x, .22x
    ("A Norway-Country-Norway-City", Move(A, "nwy", "nwy*"), "A NWY - NWY*"),      # .21x, .22x
    ("A Sweden-Christiania", Move(A, "swe", "nwy*"), "A SWE - NWY*"),             # .22x
    ("A Christiania *-Sweden", Move(A, "nwy*", "swe"), "A NWY* - SWE"),           # .22
    ("A St Petersburg-City-Moscow", Move(A, "stp*", "mos"), "A STP* - MOS"),
    ("F Petrograd-Gulf of Bothnia", Move(F, "stp*", "bot"), "F STP* - BOT"),      # .22x
    ("A Denmark *-Denmark-Country", Move(A, "den*", "den"), "A DEN* - DEN"),      # .305
    ("A Sevastopol-Country-Sevastopol *", Move(A, "sev", "sev*"), "A SEV - SEV*"),  # .303
    ("A North Africa-Tunis *", Move(A, "naf", "tun*"), "A NAF - TUN*"),           # .306
    ("A North Africa-Tunisia", Move(A, "naf", "tun"), "A NAF - TUN"),             # .306
    ("F North Sea C A London-City-Holland-City", Convoy(F, "nth", "lon*", "hol*"),
     "F NTH C A LON* - HOL*"),
    ("A London-City-North Sea-Holland-City", Move(A, "lon*", "hol*", True),
     "A LON* - HOL* VIA CONVOY"),
    ("Build A Munich-City", Build(A, "mun*"), "BUILD A MUN*"),
    ("A Munich-City R Munich-Country", Retreat(A, "mun*", "mun"), "A MUN* R MUN"),
]


@pytest.mark.parametrize(("text", "order", "canonical"), TEXT_FORMS,
                         ids=[t for t, _, _ in TEXT_FORMS])
def test_the_rule_texts_own_notation(text: str, order: Order, canonical: str) -> None:
    """City/Country .22 ("Munich-City", "Munich *") with .5x's bare-dash moves
    ("F Brussels-Amsterdam"): the longest name is read first, so in
    "A Munich-Munich-City" the first hyphen is the move. The canonical form
    writes the City with '*' and reads back to the same order."""
    parsed = parse_order(text, CC)
    assert parsed == order
    assert str(parsed) == canonical
    assert parse_order(canonical, CC) == order


@pytest.mark.parametrize("text", [
    "A the Norways - Sweden", "A Sweden - the Norways", "A Sweden-the Norways",
    "A Sweden S A Norways", "F nth C A lon - the Norways", "A the Norways H",
])
def test_plural_names_are_not_one_space(text: str) -> None:
    """City/Country .23: "the Norways" is both Norway-City and Norway-Country.
    The text uses the plural to state links (.3x, .301, .302); an order moves,
    supports or convoys one unit in one space, so no order names two spaces
    (ruling R12): the order is invalid, and the message names both choices."""
    with pytest.raises(InvalidOrderError) as info:
        parse_order(text, CC)
    reason = info.value.reason
    assert "'Norway'" in reason and "'Norway-City'" in reason and ".23" in reason
    assert reason in str(info.value)


def test_a_plural_of_every_centre_is_refused_with_its_own_names() -> None:
    """City/Country .23 for each centre whose name takes a plain plural: "the
    St Petersburgs" (.301), "the Swedens" (.3x)."""
    for text, names in (("A the St Petersburgs H", ("'St Petersburg'", "'St Petersburg-City'")),
                        ("A nwy - the Swedens", ("'Sweden'", "'Sweden-City'"))):
        with pytest.raises(InvalidOrderError) as info:
            parse_order(text, CC)
        assert all(n in info.value.reason for n in names)


# -- .3, .30x: connections --------------------------------------------------------------


def test_split_spaces_keep_every_land_link() -> None:
    """City/Country .3, .3x: both parts touch every land space the centre touched
    and both parts of neighbouring centres; "both Norways are adjacent to both Swedens"."""
    for a in ("nwy", "nwy*"):
        for b in ("swe", "swe*"):
            assert b in B.army_links[a]
    assert {"bur", "ruh", "kie", "kie*", "boh", "sil", "tyr", "ber", "ber*", "mun*"} <= \
        B.army_links["mun"]
    assert "mun" in B.army_links["mun*"] and "bur" in B.army_links["mun*"]


def test_norway_city_and_st_petersburg_are_not_linked() -> None:
    """City/Country .301, .302: Norway* does not connect with the St Petersburgs;
    St Petersburg* does not connect with the Norways (the Countries still do)."""
    for a, b in (("nwy*", "stp"), ("nwy*", "stp*"), ("stp*", "nwy")):
        assert b not in B.army_links.get(a, ()) and b not in B.neighbours[a]
    assert "nwy" in B.army_links["stp"]


def test_sevastopol_city_connects_only_with_its_country() -> None:
    """City/Country .303."""
    assert B.neighbours["sev*"] == frozenset({"sev"})
    assert B.provinces["sev*"].terrain is Terrain.LAND


def test_istanbul_does_not_connect_with_asia_minor() -> None:
    """City/Country .304: no link from Istanbul to Ankara or Smyrna (either part)."""
    for p in ("ank", "ank*", "smy", "smy*"):
        assert p not in B.neighbours["con*"]
    assert {"con", "bul"} <= B.neighbours["con*"]
    assert "ank" in B.neighbours["con"]


def test_copenhagen_connects_only_with_denmark_and_sweden_country() -> None:
    """City/Country .305 and .405."""
    land = {p for p in B.neighbours["den*"] if B.provinces[p].terrain is not Terrain.SEA}
    assert land == {"den", "swe"}
    assert {"ska", "bal"} <= B.neighbours["den*"]


def test_north_africa_links_spain_tunis_and_tunisia() -> None:
    """City/Country .306: NAf connects with Spain-Country (a new link across the
    strait, armies only: ruling), Tunis* and Tunisia."""
    assert {"spa", "tun", "tun*"} <= B.army_links["naf"]
    assert "spa*" not in B.army_links["naf"]
    assert all("spa" not in loc for loc in B.fleet_links["naf"])


def test_switzerland_is_passable() -> None:
    """City/Country .307."""
    assert B.provinces["swi"].terrain is Terrain.LAND
    assert B.army_links["swi"] == frozenset({"bur", "mar", "mar*", "mun", "mun*", "pie", "tyr"})
    res, r = _result(_pos("germany: A MUN"), {"germany": ["A mun - swi"]}, "A mun - swi")
    assert r.success and res.next_position.unit_at("swi") is not None


# -- .4: sea contact of the Cities ----------------------------------------------------


@pytest.mark.parametrize(("city", "seas"), [
    ("kie*", {"bal", "hel"}),   # .401
    ("gre*", {"ion", "aeg"}),   # .402
    ("rom*", {"tys"}),          # .403
    ("lon*", {"nth"}),          # .404
    ("den*", {"ska", "bal"}),   # .405
])
def test_cities_the_text_places_on_the_sea(city: str, seas: set[str]) -> None:
    """City/Country .401-.405."""
    touched = {p for p in B.neighbours[city] if B.provinces[p].terrain is Terrain.SEA}
    assert touched == seas


def test_inland_cities_take_no_fleets() -> None:
    """City/Country .4: a City whose dot does not touch the sea is inland; a fleet
    cannot be built there (illegal build) even in a coastal home centre."""
    assert not B.can_stand(UnitType.FLEET, "sev*")
    pos = Position.from_text("city-country | W1901A | - | russia: SEV* | - | -")
    with pytest.raises(IllegalOrderError) as info:
        check_order(pos, "russia", parse_order("Build F sev*", CC))
    assert "cannot be built" in str(info.value)


# -- .5: entering a City ------------------------------------------------------------------


def test_a_fleet_enters_a_city_from_its_sea() -> None:
    """City/Country .51: a fleet enters a City from a sea the City touches."""
    res, r = _result(_pos("england: F NTH"), {"england": ["F nth - lon*"]}, "F nth - lon*")
    assert r.success and res.next_position.unit_at("lon*") is not None


def test_a_fleet_cannot_reach_a_city_from_a_sea_it_does_not_touch() -> None:
    """City/Country .404: London touches the North Sea only, so F ENG - London* is illegal."""
    with pytest.raises(IllegalOrderError):
        check_order(_pos("england: F ENG"), "england", parse_order("F eng - lon*", CC))


def test_a_convoyed_army_enters_a_city_from_its_sea() -> None:
    """City/Country .51: a convoyed army lands in a City from the sea it touches."""
    res, r = _result(_pos("england: A YOR, F NTH"),
                     {"england": ["A yor - lon* via convoy", "F nth C A yor - lon*"]},
                     "A yor - lon*")
    assert r.success and res.next_position.unit_at("lon*") is not None


def test_an_army_enters_a_city_from_its_country() -> None:
    """City/Country .52: a unit enters a City from land only from its Country."""
    res, r = _result(_pos("france: A PAR"), {"france": ["A par - par*"]}, "A par - par*")
    assert r.success and res.next_position.unit_at("par*") is not None


def test_an_army_from_another_land_space_strikes_but_does_not_enter() -> None:
    """City/Country .52, .5x: from another land space the move is legal and
    succeeds as an attack, but the unit stays where it is."""
    res, r = _result(_pos("france: A BUR"), {"france": ["A bur - par*"]}, "A bur - par*")
    assert not r.success and r.reason is Reason.NO_ENTRY
    assert res.next_position.unit_at("bur") is not None
    assert res.next_position.unit_at("par*") is None


def test_brussels_amsterdam_stands_off() -> None:
    """City/Country .5x, .522: "F Brussels-Amsterdam" cannot enter Amsterdam but
    stands off a unit going there from Holland."""
    pos = _pos("england: F BEL*; germany: A HOL")
    res, r = _result(pos, {"england": ["F Brussels - Amsterdam"],
                           "germany": ["A Holland - Amsterdam"]}, "A hol - hol*")
    assert not r.success and r.reason is Reason.BOUNCED
    assert res.next_position.unit_at("hol*") is None
    assert res.next_position.unit_at("hol") is not None
    assert res.next_position.unit_at("bel*") is not None


def test_brussels_amsterdam_cuts_support() -> None:
    """City/Country .5x, .523: the move cuts a support given from Amsterdam."""
    pos = _pos("england: F BEL*; germany: A HOL*, A RUH; france: A KIE")
    res, r = _result(pos, {"england": ["F bel* - hol*"],
                           "germany": ["A hol* S A ruh - kie", "A ruh - kie"],
                           "france": ["A kie H"]}, "A hol* S A ruh - kie")
    assert not r.success and r.reason is Reason.CUT and r.by == ("bel*",)
    assert res.next_position.unit_at("kie").power == "france"


def test_a_strike_dislodges_the_unit_in_the_city() -> None:
    """City/Country .522: dislodgement of a unit in the City even without entering."""
    pos = _pos("england: F BEL*, A BEL; germany: A HOL*")
    res = adjudicate(pos, {"england": ["F bel* - hol*", "A bel S F bel* - hol*"]})
    nxt = res.next_position
    assert nxt.phase.kind is PhaseKind.RETREAT
    assert [str(d.unit) for d in nxt.dislodged] == ["A HOL*"]
    assert nxt.unit_at("bel*") is not None and nxt.unit_at("hol*") is None


def test_support_into_a_city_along_a_strike_link() -> None:
    """City/Country .523: support into a City along any link: A Bur supports
    A Par - Par* and the attack dislodges the unit in Paris."""
    pos = _pos("france: A PAR, A BUR; germany: A PAR*")
    res = adjudicate(pos, {"france": ["A par - par*", "A bur S A par - par*"]})
    paris = res.next_position.unit_at("par*")
    assert paris is not None and paris.power == "france"
    assert [str(d.unit) for d in res.next_position.dislodged] == ["A PAR*"]


def test_leaving_a_city_is_allowed_along_any_link() -> None:
    """City/Country .521: moves from the City use every land link."""
    res, r = _result(_pos("germany: A MUN*"), {"germany": ["A mun* - bur"]}, "A mun* - bur")
    assert r.success and res.next_position.unit_at("bur") is not None


def test_a_struck_unit_stays_and_holds_its_own_space() -> None:
    """City/Country .5: a unit whose strike succeeds never left: a unit moving
    into its space meets it (hold strength 1) and bounces."""
    pos = _pos("france: A BUR, A PIC")
    res = adjudicate(pos, {"france": ["A bur - par*", "A pic - bur"]})
    assert res.next_position.unit_at("bur") is not None
    assert res.next_position.unit_at("pic") is not None


def test_a_retreat_into_a_city_must_come_from_its_country() -> None:
    """City/Country .52: a retreat is an entry, so not along a strike link."""
    pos = Position.from_text(
        "city-country | S1901R | france: A BUR; germany: A MUN, A RUH | - | "
        "france: A BUR<MUN | -")
    with pytest.raises(IllegalOrderError) as info:
        check_order(pos, "france", parse_order("A bur R par*", CC))
    assert "PAR*" in str(info.value)
    assert check_order(pos, "france", parse_order("A bur R par", CC)) is not None


# -- .62: three seasons --------------------------------------------------------------


def test_three_seasons_in_odd_years_as_an_option() -> None:
    """City/Country .62: the GM may add a Summer in some years (option
    optional_seasons = odd | even | always; default never)."""
    cal = CC.calendar
    spring = Phase.parse("S1901M", cal)
    assert spring.next_after_turn(cal) == Phase.parse("F1901M", cal)
    summer = spring.next_after_turn(cal, "odd")
    assert summer == Phase.parse("U1901M", cal) and summer.long_name(cal) == \
        "Summer 1901, Movement"
    assert summer.next_after_turn(cal, "odd") == Phase.parse("F1901M", cal)
    assert Phase.parse("S1902M", cal).next_after_turn(cal, "odd") == Phase.parse("F1902M", cal)
    pos = _pos("france: A PAR")
    res = adjudicate(pos, {"france": ["A par - bur"]}, Options(optional_seasons="odd"))
    assert res.next_position.phase == summer
    res = adjudicate(res.next_position, {"france": ["A bur - par*"]},
                     Options(optional_seasons="odd"))
    assert res.next_position.phase == Phase.parse("F1901M", cal)
