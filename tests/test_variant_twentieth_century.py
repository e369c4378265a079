"""The Twentieth Century (Michael David Roberts): scenario tests, each citing its rule.

Rule text: ../shared/variants/000_8d3a6505e057ee1c.txt ("20th" + the heading:
Start Date, Victory Conditions, Island Chains, Large Island Chains, Straits &
Canals, Land Bridges, Wraparound, Starting Positions). The map is
src/standoff/core/variants/twentieth-century.toml, listed space by space in
docs/variants/twentieth-century-map.md. Single-phase adjudication cases are in
tests/cases/variants/twentieth_century.txt; this file tests what case files
cannot: order results and their reasons, PERMIT orders and their notation, what
is legal at submission, several phases in a row, victory timing and the start.
"""

from __future__ import annotations

import random

import pytest

from standoff import (
    IllegalOrderError,
    Move,
    Position,
    Reason,
    Terrain,
    UnitType,
    adjudicate,
    load_variant,
)
from standoff.core.adjudicator import check_order
from standoff.core.game import Game
from standoff.core.legal_orders import legal_orders
from standoff.core.notation import parse_order
from standoff.core.orders import Permit
from standoff.core.phase import Phase, PhaseKind

V = load_variant("twentieth-century")
B = V.board
F = UnitType.FLEET


def pos(text: str) -> Position:
    """A compact position of this variant: 'PHASE | units | centres'."""
    return Position.from_text(f"twentieth-century | {text} | - | -")


def game_at(text: str) -> Game:
    g = Game.new("twentieth-century")
    g.position = pos(text)
    return g


def order(text: str) -> object:
    return parse_order(text, V)


def result_of(results: list, text: str):  # type: ignore[no-untyped-def]
    want = str(order(text))
    found = [r for r in results if r.order is not None and str(r.order) == want]
    assert len(found) == 1, (want, [r.describe() for r in results])
    return found[0]


def units(p: Position) -> set[str]:
    return {f"{u.power} {u}" for u in p.units}


# -- Start Date / Starting Positions -------------------------------------------------

#: "Starting Positions", copied from the rule text (its spellings, COLUMBIA included)
START = {
    "BRITAIN": "F lon, A edi, F gla, F qbc, A tor, A cai, A cap, A del, F bom, F hk, A sg, A syd",
    "USA": "A was, F nyo, A slo, F nol, A sfr, A anc, F haw, A pan, A luz, F min",
    "FRANCE": "A nan, A par, F mar, A con, A dam, F mad, A han, F sai, F fij",
    "USSR": "F len/wc, A mos, F sev, A orn, A oms, A tas, A irk, A vla, A kam",
    "JAPAN": "A tok, F sap, F kg, A oki, F ta, A seo, A har",
    "ITALY": "F rom, A sal, A sic, A tir, F tri, A mog",
    "GERMANY": "F bre, A ber, A dre, A stu",
    "TURKEY": "A ank, A ant, F ord, A van",
    "CHINA": "A nnj, A sha, A hef, A wuh",
    "COLUMBIA": "F crt, A buv, A bog, A mit",
    "PERSIA": "A teh, A esf, F ban",
    "MEXICO": "A maz, A mex, F mer",
    "BRAZIL": "A bra, A rec, F rdj",
}


def test_starting_position_is_the_text_list() -> None:
    """20th Starting Positions: 13 powers, 78 units exactly as listed (F Leningrad[wc]
    is F LEN/WC), each on a home centre its power owns; 20th Start Date: the game
    begins with the Spring 1933 moves."""
    start = Position.initial(V)
    want = {(V.power(p), u.strip().upper()) for p, us in START.items() for u in us.split(",")}
    assert len(want) == 78
    assert {(u.power, str(u)) for u in start.units} == want
    assert len(V.powers) == 13
    assert {V.power(p) for p in START} == set(V.powers)
    assert dict(start.centres) == {u.province: u.power for u in start.units}
    assert start.phase == Phase.parse("S1933M", V.calendar)
    assert start.phase.kind is PhaseKind.MOVEMENT
    g = Game.new("twentieth-century")
    assert g.phase_name == "S1933M"
    assert g.winner is None and not g.is_over


def test_colombia_is_also_spelled_columbia() -> None:
    """20th Starting Positions: the text heads Colombia's list "COLUMBIA"; both
    spellings name the power, in orders too."""
    assert V.power("COLUMBIA") == V.power("Colombia") == "colombia"
    assert order("PAN PERMIT COLUMBIA") == Permit(None, "pan", "colombia")
    p = pos("S1933M | colombia: F CRB | usa: PAN")
    res = adjudicate(p, {"Columbia": ["F crb - gop"], "USA": ["PAN PERMIT COLUMBIA"]})
    assert units(res.next_position) == {"colombia F GOP"}


# -- Island Chains -------------------------------------------------------------------

CHAINS = ("haw", "car", "mhl", "fij", "nze", "ind", "sey", "mld", "azo")


def test_island_chains_are_coastal_and_east_indies_has_the_text_seas() -> None:
    """20th Island Chains: "Island Chains are coastal provinces"; "East Indies has
    access to Java Sea, Timor Sea, Bay of Bengal, East Indian, and the Southeast
    Trades" (and nothing else: it is a group of islands)."""
    for chain in CHAINS:
        assert B.provinces[chain].terrain is Terrain.COAST, chain
        assert B.can_stand(UnitType.ARMY, chain) and B.can_stand(F, chain), chain
    assert set(B.fleet_links["ind"]) == {"jse", "tim", "ben", "ein", "set"}
    assert not B.army_links.get("ind")


def test_east_indian_to_java_sea_is_illegal_and_the_fleet_holds() -> None:
    """20th Island Chains, text example: "A Fleet may not move from East Indian to
    Java Sea": refused at submission, ignored (ILLEGAL) in adjudication, the fleet
    holds; East Indies itself may be entered."""
    p = pos("S1933M | britain: F EIN | britain: LON")
    with pytest.raises(IllegalOrderError):
        check_order(p, "britain", order("F ein - jse"))
    assert check_order(p, "britain", order("F ein - ind")) == Move(F, "ein", "ind")
    res = adjudicate(p, {"britain": ["F ein - jse"]})
    r = result_of(res.results, "F ein - jse")
    assert not r.success and r.reason is Reason.ILLEGAL
    assert units(res.next_position) == {"britain F EIN"}
    moves = {str(o) for o in legal_orders(p)["britain"]["ein"]}
    assert "F EIN - IND" in moves and "F EIN - JSE" not in moves


def test_a_fleet_in_an_island_chain_cannot_convoy() -> None:
    """20th Island Chains: chains are coastal provinces, not seas, so a fleet there
    carries no convoy (the Java Sea fleet may: text example)."""
    p = pos("S1933M | britain: A SG, F JSE, F IND, F SET | britain: SG")
    with pytest.raises(IllegalOrderError):
        check_order(p, "britain", order("F ind C A sg - wau"))
    q = pos("S1933M | britain: A SG, F JSE | britain: SG")
    assert check_order(q, "britain", order("F jse C A sg - ind"))
    assert check_order(q, "britain", order("A sg - ind"))


# -- Large Island Chains -------------------------------------------------------------


def test_cuba_and_haiti_access_as_the_text_says() -> None:
    """20th Large Island Chains: Cuba and Haiti are joined by a land bridge; no move
    to Cuba from the Northeast Trades, none to Haiti from the Gulf of Mexico or the
    Florida Channel; both reach the Sargasso Sea and the Caribbean."""
    assert "hai" in B.army_links["cub"] and "hai" in B.fleet_links["cub"]
    assert "net" not in B.fleet_links["cub"]
    assert not {"gom", "fch"} & set(B.fleet_links["hai"])
    for island in ("cub", "hai"):
        assert {"sar", "crb"} <= set(B.fleet_links[island])
    p = pos("S1933M | britain: F NET; mexico: F GOM; usa: F FCH, F SAR | usa: NOL")
    for power, text in (("britain", "F net - cub"), ("mexico", "F gom - hai"),
                        ("usa", "F fch - hai")):
        with pytest.raises(IllegalOrderError):
            check_order(p, power, order(text))
    assert check_order(p, "usa", order("F sar - hai")) == Move(F, "sar", "hai")


# -- Straits & Canals ----------------------------------------------------------------


def test_unpermitted_canal_move_fails_with_no_passage_and_the_fleet_holds() -> None:
    """20th Straits & Canals: only the owner of Cairo (or a power it allows) moves
    between the Aegean and the Red Sea. Italy's move is refused: NO_PASSAGE."""
    p = pos("S1933M | italy: F AEG | britain: CAI; italy: ROM")
    res = adjudicate(p, {"italy": ["F aeg - red"]})
    r = result_of(res.results, "F aeg - red")
    assert not r.success
    assert r.reason is Reason.NO_PASSAGE
    assert "no passage" in r.describe()
    assert units(res.next_position) == {"italy F AEG"}


def test_owner_moves_through_its_canal() -> None:
    """20th Straits & Canals, text example: "Britain owns Cairo. The Britain player
    may order F(Aegean Sea) to Red Sea." """
    p = pos("S1933M | britain: F AEG | britain: CAI")
    res = adjudicate(p, {"britain": ["F aeg - red"]})
    r = result_of(res.results, "F aeg - red")
    assert r.success and r.reason is Reason.NONE
    assert units(res.next_position) == {"britain F RED"}


def test_permit_is_noted_and_lets_the_named_power_through() -> None:
    """20th Straits & Canals, text example: the Britain player "may also allow Italy
    F(Aegean Sea) to Red Sea". The PERMIT order is noted; the Italian move succeeds."""
    p = pos("S1933M | italy: F AEG; britain: A LON | britain: CAI LON")
    res = adjudicate(p, {"britain": ["CAI PERMIT ITALY"], "italy": ["F aeg - red"]})
    permit = result_of(res.results, "CAI PERMIT ITALY")
    assert permit.success and permit.reason is Reason.NOTED
    assert result_of(res.results, "F aeg - red").success
    assert units(res.next_position) == {"italy F RED", "britain A LON"}


@pytest.mark.parametrize("text", ["CAI PERMIT ITALY", "Permit Italy through Cairo",
                                  "Cairo permit Italy", "cai permit italy"])
def test_permit_notation(text: str) -> None:
    """20th Straits & Canals: the owner "may also allow" a power through; the order
    is written "CAI PERMIT ITALY" (also "Permit Italy through Cairo", "Cairo permit
    Italy") and prints in the canonical form."""
    o = order(text)
    assert o == Permit(None, "cai", "italy")
    assert str(o) == "CAI PERMIT ITALY"
    assert order(str(o)) == o


def test_permit_by_a_non_owner_is_illegal() -> None:
    """20th Straits & Canals: "Owning players may also allow other players": Italy
    does not own Cairo, so its PERMIT is refused at submission and ignored (ILLEGAL)
    in adjudication, and the French fleet gets no passage."""
    p = pos("S1933M | italy: F ION; france: F AEG | britain: CAI; italy: ROM; france: PAR")
    with pytest.raises(IllegalOrderError):
        check_order(p, "italy", order("CAI PERMIT FRANCE"))
    assert check_order(p, "britain", order("CAI PERMIT FRANCE")) == Permit(None, "cai", "france")
    res = adjudicate(p, {"italy": ["CAI PERMIT FRANCE"], "france": ["F aeg - red"]})
    r = result_of(res.results, "CAI PERMIT FRANCE")
    assert not r.success and r.reason is Reason.ILLEGAL
    assert result_of(res.results, "F aeg - red").reason is Reason.NO_PASSAGE
    g = game_at("S1933M | italy: F ION | britain: CAI; italy: ROM")
    with pytest.raises(IllegalOrderError):
        g.submit("italy", ["CAI PERMIT FRANCE"])


def test_canal_moves_are_legal_at_submission_and_offered() -> None:
    """20th Straits & Canals: permission may come with the owner's orders, so a canal
    move is a legal order for anyone; the owner is offered PERMIT orders, one for
    each other power, and nobody else is."""
    p = pos("S1933M | italy: F AEG; britain: A LON | britain: CAI LON; italy: ROM")
    assert check_order(p, "italy", order("F aeg - red")) == Move(F, "aeg", "red")
    legal = legal_orders(p)
    assert "F AEG - RED" in {str(o) for o in legal["italy"]["aeg"]}
    permits = legal["britain"]["cai"]
    assert set(permits) == {Permit(None, "cai", q) for q in V.powers if q != "britain"}
    assert "cai" not in legal["italy"]
    g = game_at("S1933M | italy: F AEG; britain: A LON | britain: CAI LON; italy: ROM")
    assert g.submit("britain", ["Permit Italy through Cairo"]) == [Permit(None, "cai", "italy")]
    assert g.submit("italy", ["F aeg - red"]) == [Move(F, "aeg", "red")]


def test_random_orders_order_a_canal_owners_unit_and_permit_apart() -> None:
    """20th Straits & Canals: the owner of a canal "may also allow other players to
    send fleets through", while its unit standing in the canal is ordered like any
    unit. Turkey opens with an army in Ankara, its canal: a random player gives
    that army exactly one of its own orders every time, and beside it any set of
    PERMIT orders (each of the twelve other powers with even chances: about six,
    never the same number every time)."""
    from standoff.core.legal_orders import random_orders

    start = Position.initial(V)
    offered = legal_orders(start)["turkey"]["ank"]
    unit_orders = {o for o in offered if not isinstance(o, Permit)}
    permits = {o for o in offered if isinstance(o, Permit)}
    sizes = []
    for seed in range(40):
        picks = random_orders(start, random.Random(seed), 0.5, variant=V)
        for power, given in picks.items():
            units_ordered = [o for o in given if not isinstance(o, Permit)]
            assert len(units_ordered) == len(start.units_of(power)), (power, given)
        turkey = picks["turkey"]
        assert len([o for o in turkey if o in unit_orders]) == 1, turkey
        given_permits = [o for o in turkey if isinstance(o, Permit)]
        assert set(given_permits) <= permits
        sizes.append(len(given_permits))
    assert len(set(sizes)) >= 3 and 4 <= sum(sizes) / len(sizes) <= 8, sizes


def test_permission_lasts_only_the_phase_it_is_given() -> None:
    """20th Straits & Canals: permission is an order of the movement phase; in the
    next movement phase the Italian fleet needs a new one and, without it, holds."""
    g = game_at("S1933M | italy: F AEG; britain: A LON | britain: CAI LON; italy: ROM")
    g.submit("britain", ["CAI PERMIT ITALY"])
    g.submit("italy", ["F aeg - red"])
    g.process()
    assert g.phase_name == "F1933M"
    assert "italy F RED" in units(g.position)
    g.submit("italy", ["F red - aeg"])
    g.process()
    r = result_of(g.history[-1].results, "F red - aeg")
    assert r.reason is Reason.NO_PASSAGE
    assert "italy F RED" in units(g.position)


def test_the_owner_is_the_owner_of_the_centre() -> None:
    """20th Straits & Canals: "the owner of these provinces" is the owner of the
    supply centre. An enemy army standing in Cairo neither gives its power passage
    nor blocks the owner's move; once Italy owns Cairo, Italy passes and permits,
    and Britain needs Italy's leave."""
    p = pos("S1933M | italy: A CAI, F AEG | britain: CAI; italy: ROM")
    res = adjudicate(p, {"italy": ["F aeg - red"]})
    assert result_of(res.results, "F aeg - red").reason is Reason.NO_PASSAGE
    q = pos("S1933M | italy: A CAI; britain: F RED | britain: CAI; italy: ROM")
    res = adjudicate(q, {"britain": ["F red - aeg"]})
    assert result_of(res.results, "F red - aeg").success
    assert units(res.next_position) == {"italy A CAI", "britain F AEG"}
    taken = pos("S1934M | italy: F AEG; britain: A CAI, F HOA | italy: CAI; britain: LON")
    with pytest.raises(IllegalOrderError):
        check_order(taken, "britain", order("CAI PERMIT FRANCE"))
    legal = legal_orders(taken)
    assert Permit(None, "cai", "france") in legal["italy"]["cai"]
    assert not [o for o in legal["britain"]["cai"] if isinstance(o, Permit)]  # A CAI's orders
    res = adjudicate(taken, {"italy": ["F aeg - red"]})
    assert result_of(res.results, "F aeg - red").success
    back = pos("S1934M | britain: F RED | italy: CAI; britain: LON")
    res = adjudicate(back, {"britain": ["F red - aeg"]})
    assert result_of(res.results, "F red - aeg").reason is Reason.NO_PASSAGE


def test_a_canal_move_can_be_supported() -> None:
    """20th Straits & Canals: a canal move is a normal move; the Horn of Africa borders
    the Red Sea, so a fleet there may support F Aegean Sea - Red Sea, and the
    supported move dislodges the Italian fleet holding in the Red Sea."""
    p = pos("S1933M | britain: F AEG, F HOA; italy: F RED | britain: CAI; italy: ROM")
    assert check_order(p, "britain", order("F hoa S F aeg - red"))
    res = adjudicate(p, {"britain": ["F aeg - red", "F hoa S F aeg - red"],
                         "italy": ["F red H"]})
    assert result_of(res.results, "F aeg - red").success
    assert [str(d.unit) for d in res.next_position.dislodged] == ["F RED"]


def test_the_other_straits() -> None:
    """20th Straits & Canals: Ankara (Black Sea - Aegean, Turkey's) and Panama
    (Caribbean - Gulf of Panama, the USA's) work the same way."""
    p = pos("S1933M | ussr: F BLA; colombia: F CRB | turkey: ANK; usa: PAN")
    res = adjudicate(p, {"ussr": ["F bla - aeg"], "colombia": ["F crb - gop"]})
    assert result_of(res.results, "F bla - aeg").reason is Reason.NO_PASSAGE
    assert result_of(res.results, "F crb - gop").reason is Reason.NO_PASSAGE
    res = adjudicate(p, {"ussr": ["F bla - aeg"], "colombia": ["F crb - gop"],
                         "turkey": ["ANK PERMIT USSR"], "usa": ["Permit Colombia through Panama"]})
    assert units(res.next_position) == {"ussr F AEG", "colombia F GOP"}


# -- Land Bridges --------------------------------------------------------------------

BRIDGES = [("ire", "gla"), ("sic", "sal"), ("den", "nor"), ("den", "swe"), ("kar", "cey"),
           ("sg", "mls"), ("kg", "tok"), ("tok", "sap"), ("luz", "min"), ("cub", "hai")]


@pytest.mark.parametrize(("a", "b"), BRIDGES)
def test_land_bridges_carry_armies_and_fleets(a: str, b: str) -> None:
    """20th Land Bridges: "Armies and Fleets may move from one province to the other
    connected by the land bridge" (text example: A Salerno - Sicily)."""
    p = pos(f"S1933M | italy: A {a.upper()} | italy: ROM")
    assert check_order(p, "italy", order(f"A {a} - {b}")) == Move(UnitType.ARMY, a, b)
    q = pos(f"S1933M | italy: F {b.upper()} | italy: ROM")
    assert check_order(q, "italy", order(f"F {b} - {a}")) == Move(F, b, a)


# -- Wraparound ----------------------------------------------------------------------


def test_kuril_trench_westerlies_north_pacific() -> None:
    """20th Wraparound, text example: "Japanese F(Kuril Trench) to Westerlies.
    Japanese F(Westerlies) to North Pacific." From the Asian edge of the map to the
    American one in two moves (no direct Kuril Trench - North Pacific link)."""
    g = game_at("S1933M | japan: F KUR | japan: TOK")
    with pytest.raises(IllegalOrderError):
        g.submit("japan", ["F kur - npa"])
    g.submit("japan", ["F kur - wst"])
    g.process()
    assert units(g.position) == {"japan F WST"}
    g.submit("japan", ["F wst - npa"])
    g.process()
    assert units(g.position) == {"japan F NPA"}


def test_a_fleet_crosses_the_map_edge_through_the_antarctic_pacific() -> None:
    """20th Wraparound: "A Fleet may move ... from one side of the map to the other in
    these sea zones": Tasman Sea (Australia) - Antarctic Pacific - Chile Basin (South
    America)."""
    g = game_at("S1933M | britain: F TSM | britain: SYD")
    g.submit("britain", ["F tsm - apa"])
    g.process()
    g.submit("britain", ["F apa - cba"])
    g.process()
    assert units(g.position) == {"britain F CBA"}


def test_wrap_seas_are_single_spaces() -> None:
    """20th Wraparound: each of the six seas "connect[s] both ends of the map": one
    space, reaching the spaces at both edges."""
    sides = {"bse": ("kam", "anc"), "wst": ("kur", "npa"), "wpa": ("izu", "haw"),
             "eco": ("ngu", "haw"), "sop": ("nze", "sec"), "apa": ("tsm", "cba")}
    for sea, (west, east) in sides.items():
        assert B.provinces[sea].terrain is Terrain.SEA
        assert {west, east} <= set(B.fleet_links[sea]), sea


# -- Victory Conditions --------------------------------------------------------------

#: 72 centres besides Delhi and Kashmir (a neutral centre next to Delhi)
OTHERS = [c for c in sorted(V.supply_centres) if c not in ("del", "kas")][:72]


def test_74th_centre_taken_in_fall_wins_only_when_the_next_fall_begins() -> None:
    """20th Victory Conditions: "74 Supply Centers at the beginning of a Fall turn".
    Britain takes its 74th centre in Fall 1933; it has not won after that Fall, nor
    after the Winter adjustments or the Spring moves, and wins as the Fall 1934 turn
    begins."""
    owned = " ".join(c.upper() for c in ["del", *OTHERS])
    g = game_at(f"F1933M | britain: A DEL | britain: {owned}")
    assert g.position.centre_counts()["britain"] == 73
    g.submit("britain", ["A del - kas"])
    g.process()
    assert g.phase_name == "W1933A"
    assert g.position.centre_counts()["britain"] == 74
    assert g.winner is None
    g.process()
    assert g.phase_name == "S1934M"
    assert g.winner is None and not g.is_over
    g.process()
    assert g.phase_name == "F1934M"
    assert g.winner == "britain" and g.is_over


def test_74_centres_after_winter_win_at_the_start_of_fall() -> None:
    """20th Victory Conditions: with 74 centres in Winter the game goes on through
    Spring and is won when the Fall movement phase begins."""
    owned = " ".join(c.upper() for c in ["del", "kas", *OTHERS])
    g = game_at(f"W1933A | britain: A DEL | britain: {owned}")
    g.process()
    assert g.phase_name == "S1934M" and g.winner is None
    g.process()
    assert g.winner == "britain"


def test_the_check_comes_after_the_spring_retreats() -> None:
    """20th Victory Conditions: the Fall turn begins after Spring's retreats, not
    when Spring's moves end."""
    rest = [c for c in OTHERS if c != "lon"][:71]
    owned = " ".join(c.upper() for c in ["del", "kas", "lon", *rest])
    assert len(set(owned.split())) == 74
    g = game_at(f"S1934M | britain: A LON; france: F NAT, F NTH | britain: {owned}")
    g.submit("france", ["F nat - lon", "F nth S F nat - lon"])
    g.process()
    assert g.position.phase.kind is PhaseKind.RETREAT
    assert g.winner is None and not g.is_over
    g.submit("britain", ["A lon - edi"])
    g.process()
    assert g.phase_name == "F1934M"
    assert g.winner == "britain"


def test_73_centres_do_not_win() -> None:
    """20th Victory Conditions: 73 centres at the beginning of a Fall turn are not 74."""
    owned = " ".join(c.upper() for c in ["del", *OTHERS])
    g = game_at(f"W1933A | britain: A DEL | britain: {owned}")
    g.process()
    g.process()
    assert g.phase_name == "F1934M"
    assert g.winner is None and not g.is_over


def test_game_keeps_permits_beside_the_canal_units_order() -> None:
    """20th Straits & Canals: a canal's owner may give its own unit in the canal an
    order and permit several powers in the same turn; Game keeps all of them."""
    from standoff.core.game import Game

    g = Game.new("twentieth-century")
    g.submit("turkey", ["A ank - bul", "ANK PERMIT ITALY", "Permit USSR through Ankara"])
    g.submit("turkey", ["ANK PERMIT BRITAIN"])
    kept = sorted(str(o) for o in g.pending()["turkey"])
    assert kept == ["A ANK - BUL", "ANK PERMIT BRITAIN", "ANK PERMIT ITALY", "ANK PERMIT USSR"]
