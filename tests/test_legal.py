"""Legal orders: exact lists for known units, soundness and completeness."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from standoff import IllegalOrderError, Options, Reason, load_variant
from standoff.core.adjudicator import adjudicate, check_order
from standoff.core.game import Game
from standoff.core.geography import UnitType, province_of
from standoff.core.legal_orders import legal_orders, random_orders
from standoff.core.orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from standoff.core.phase import PhaseKind
from standoff.core.position import Position

V = load_variant("standard")
BOARD = V.board
A, F = UnitType.ARMY, UnitType.FLEET
INITIAL = Position.initial(V)


def texts(position: Position, power: str, loc: str) -> list[str]:
    return [str(o) for o in legal_orders(position)[power][loc]]


# -- exact lists, worked out by hand from the map ---------------------------------------------

EXPECTED_INITIAL = {
    # A PAR: hold; army moves BRE BUR GAS PIC; support F BRE (hold; moves to PIC, GAS,
    # the provinces both reach); A MAR moves to BUR and GAS; A MUN - BUR.
    ("france", "par"): {
        "A PAR H", "A PAR - BRE", "A PAR - BUR", "A PAR - GAS", "A PAR - PIC",
        "A PAR S F BRE", "A PAR S F BRE - GAS", "A PAR S F BRE - PIC",
        "A PAR S A MAR - BUR", "A PAR S A MAR - GAS", "A PAR S A MUN - BUR"},
    # F STP/SC: hold; BOT FIN LVN; supports into LVN from A MOS and A WAR (A MOS - STP is
    # a move into the supporter's own province).
    ("russia", "stp/sc"): {
        "F STP/SC H", "F STP/SC - BOT", "F STP/SC - FIN", "F STP/SC - LVN",
        "F STP/SC S A MOS - LVN", "F STP/SC S A WAR - LVN"},
    # F LON: hold; ENG NTH WAL YOR; F EDI to NTH/YOR, A LVP to WAL/YOR, F BRE to ENG.
    ("england", "lon"): {
        "F LON H", "F LON - ENG", "F LON - NTH", "F LON - WAL", "F LON - YOR",
        "F LON S F BRE - ENG", "F LON S F EDI - NTH", "F LON S F EDI - YOR",
        "F LON S A LVP - WAL", "F LON S A LVP - YOR"},
    # A VIE: 5 moves; holds of A BUD and F TRI; A BUD to GAL/TRI, A VEN to TRI/TYR,
    # A MUN to BOH/TYR, A WAR to GAL (F TRI reaches none of VIE's neighbours).
    ("austria", "vie"): {
        "A VIE H", "A VIE - BOH", "A VIE - BUD", "A VIE - GAL", "A VIE - TRI",
        "A VIE - TYR", "A VIE S A BUD", "A VIE S F TRI", "A VIE S A BUD - GAL",
        "A VIE S A BUD - TRI", "A VIE S A VEN - TRI", "A VIE S A VEN - TYR",
        "A VIE S A MUN - BOH", "A VIE S A MUN - TYR", "A VIE S A WAR - GAL"},
    # F ANK: ARM BLA CON; hold of A CON; F SEV to ARM/BLA; A SMY to ARM/CON.
    ("turkey", "ank"): {
        "F ANK H", "F ANK - ARM", "F ANK - BLA", "F ANK - CON", "F ANK S A CON",
        "F ANK S F SEV - ARM", "F ANK S F SEV - BLA", "F ANK S A SMY - ARM",
        "F ANK S A SMY - CON"},
}


@pytest.mark.parametrize(("power", "loc"), sorted(EXPECTED_INITIAL))
def test_initial_position_exact_orders(power: str, loc: str) -> None:
    got = texts(INITIAL, power, loc)
    assert len(got) == len(set(got)), "no order offered twice"
    assert set(got) == EXPECTED_INITIAL[power, loc]


def test_initial_position_has_every_unit_and_only_movement_orders() -> None:
    lo = legal_orders(INITIAL)
    assert sorted(lo) == sorted(V.powers)
    assert sum(len(locs) for locs in lo.values()) == 22
    assert all(o.kind in ("hold", "move", "support_hold", "support_move")
               for locs in lo.values() for os in locs.values() for o in os)  # no fleet at sea


def test_hold_first_then_moves() -> None:
    os = legal_orders(INITIAL)["france"]["par"]
    assert isinstance(os[0], Hold)


# -- soundness: every legal order passes check_order -------------------------------------------


def random_positions(seed: int, phases: int) -> list[tuple[Position, Options]]:
    rng = random.Random(seed)
    g = Game.new()
    out = []
    for _ in range(phases):
        if g.is_over:
            break
        out.append((g.position, g.options))
        for pid, picks in random_orders(g.position, rng, 0.7, g.options, g.variant).items():
            g.submit(pid, picks)
        g.process()
    return out


POSITIONS = random_positions(6, 40) + random_positions(9, 14)


def test_random_positions_cover_every_phase_kind() -> None:
    assert {p.phase.kind for p, _ in POSITIONS} == set(PhaseKind)


def test_every_legal_order_passes_check_order() -> None:
    checked = 0
    for position, options in POSITIONS:
        for power, locs in legal_orders(position, options, V).items():
            for loc, os in locs.items():
                assert os, f"no order at all for {loc} in {position.to_text()}"
                for o in os:
                    # legal orders are already normalised: checking changes nothing
                    assert check_order(position, power, o, options, V) == o, (
                        f"{o} in {position.to_text()}")
                    checked += 1
    assert checked > 1000


def test_adjudicating_legal_orders_never_gives_illegal_results() -> None:
    rng = random.Random(2)
    for position, options in POSITIONS:
        orders = {p: [rng.choice(os) for os in locs.values()]
                  for p, locs in legal_orders(position, options, V).items()}
        result = adjudicate(position, orders, options, V)
        bad = [r for r in result.results if r.reason in (Reason.ILLEGAL, Reason.INVALID)]
        assert bad == [], position.to_text()


# -- completeness: nothing check_order accepts is missing ------------------------------------------

LOCATIONS = sorted({loc for table in (BOARD.army_links, BOARD.fleet_links) for loc in table})
PROVINCES = sorted(BOARD.provinces)


def candidates(position: Position, unit_type: UnitType, loc: str) -> Iterator[Order]:
    """Every order one could write for the unit at ``loc`` in this phase."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        yield Hold(unit_type, loc)
        for d in LOCATIONS:
            yield Move(unit_type, loc, d)
            yield Move(unit_type, loc, d, True)
        for t in (A, F):
            for p in PROVINCES:
                yield SupportHold(unit_type, loc, t, p)
                for d in LOCATIONS:
                    yield SupportMove(unit_type, loc, t, p, d)
        for a in PROVINCES:
            for d in PROVINCES:
                yield Convoy(unit_type, loc, a, d)
    elif kind is PhaseKind.RETREAT:
        yield Disband(unit_type, loc)
        for d in LOCATIONS:
            yield Retreat(unit_type, loc, d)
    else:
        yield Remove(unit_type, loc)
        for t in (A, F):
            yield Build(t, loc)


def meaning(order: Order) -> Order:
    """Collapse what legal_orders.py offers once per meaning (see its docstring)."""
    if isinstance(order, Move) and order.via_convoy and \
            province_of(order.dest) not in BOARD.army_links.get(order.location, ()):
        return Move(order.unit, order.location, order.dest)  # convoy implied
    if isinstance(order, SupportMove):
        return SupportMove(order.unit, order.location, order.target_unit, order.target,
                           province_of(order.dest))  # supports are offered without a coast
    return order


def accepted(position: Position, power: str, cands: Iterator[Order]) -> set[Order]:
    out = set()
    for c in cands:
        with contextlib.suppress(IllegalOrderError):
            out.add(meaning(check_order(position, power, c, Options(), V)))
    return out


CONVOY_POS = Position.from_text(
    "standard | S1901M | england: A LON, F NTH, F ENG, A YOR; france: A BRE, F MAO, A PIC; "
    "germany: F HEL, A HOL | - | - | -")


@pytest.mark.parametrize(("position", "power", "loc"), [
    (INITIAL, "france", "par"),
    (INITIAL, "russia", "stp/sc"),
    (INITIAL, "italy", "ven"),
    (CONVOY_POS, "england", "lon"),
    (CONVOY_POS, "england", "nth"),
    (CONVOY_POS, "england", "eng"),
    (CONVOY_POS, "germany", "hel"),
    (CONVOY_POS, "france", "bre"),
    (CONVOY_POS, "france", "mao"),
], ids=["initial-par", "initial-stp", "initial-ven", "convoy-lon", "convoy-nth", "convoy-eng",
        "convoy-hel", "convoy-bre", "convoy-mao"])
def test_completeness_movement(position: Position, power: str, loc: str) -> None:
    unit = position.unit_at(province_of(loc))
    assert unit is not None
    offered = {meaning(o) for o in legal_orders(position)[power][loc]}
    missing = accepted(position, power, candidates(position, unit.type, loc)) - offered
    assert missing == set()


def test_completeness_retreats_and_adjustments() -> None:
    later = [(p, o) for p, o in POSITIONS if p.phase.kind is not PhaseKind.MOVEMENT][:6]
    assert any(p.phase.kind is PhaseKind.RETREAT for p, _ in later)
    for position, _ in later:
        lo = legal_orders(position)
        if position.phase.kind is PhaseKind.RETREAT:
            for d in position.dislodged:
                u = d.unit
                offered = set(lo[u.power][u.location])
                assert accepted(position, u.power, candidates(position, u.type, u.location)) \
                    <= offered
            continue
        for power, sites in lo.items():
            offered = {o for os in sites.values() for o in os}
            got: set[Order] = set()
            for loc in LOCATIONS:
                for t in (A, F):
                    got |= accepted(position, power, iter([Build(t, loc), Remove(t, loc)]))
            assert got <= offered
            if any(isinstance(o, Build) for o in offered):
                assert WAIVE in offered


def test_convoy_via_is_offered_for_adjacent_and_implied_otherwise() -> None:
    """DATC 4.A.3: an adjacent move a convoy could also make is offered both ways."""
    lon = set(texts(CONVOY_POS, "england", "lon"))
    assert {"A LON - YOR", "A LON - WAL"} <= lon
    assert "A LON - YOR VIA CONVOY" in lon  # LON-NTH-YOR
    assert "A LON - BEL" in lon and "A LON - BEL VIA CONVOY" not in lon
    assert "A LON - HOL" in lon and "A LON - PIC" in lon and "A LON - BRE" in lon
    assert "A LON - SPA" in lon  # LON-ENG-MAO-SPA


def test_via_convoy_with_no_possible_route_is_illegal() -> None:
    """DATC 6.D.32 / 4.E.1: an order impossible in this situation (here: an army
    'via convoy' to an inland province, no fleet at sea) is illegal and ignored."""
    with pytest.raises(IllegalOrderError):
        check_order(INITIAL, "france", Move(A, "par", "bur", True))


def test_illegal_via_convoy_unit_holds_and_keeps_hold_support() -> None:
    """DATC 6.D.32 analogue: the ignored order leaves A PAR holding, so A PIC's hold
    support counts and the supported attack from BUR only bounces."""
    pos = Position.from_text("standard | S1901M | france: A PAR, A PIC; "
                             "germany: A BUR, A GAS | - | - | -")
    result = adjudicate(pos, {"france": ["A PAR - BUR VIA CONVOY", "A PIC S A PAR"],
                              "germany": ["A BUR - PAR", "A GAS S A BUR - PAR"]})
    assert result.next_position.dislodged == ()
    assert result.next_position.unit_at("par") is not None
    assert result.next_position.unit_at("par").power == "france"


def test_fleet_needed_by_only_route_cannot_support_it() -> None:
    """DATC 6.D.31: F NTH is the only route LON-HOL, so it cannot support that move."""
    nth = set(texts(CONVOY_POS, "england", "nth"))
    assert "F NTH C A LON - HOL" in nth
    assert "F NTH S A LON - HOL" not in nth
    assert "F HEL S A LON - HOL" in set(texts(CONVOY_POS, "germany", "hel"))


def test_fleet_on_one_of_two_routes_may_support_the_convoyed_move() -> None:
    """DATC 6.D.31: LON-BEL goes by NTH or by ENG, so neither fleet is needed and
    each may support the move; with ENG gone, NTH is needed and may not."""
    two = Position.from_text("standard | S1901M | england: A LON, F NTH, F ENG | - | - | -")
    assert "F NTH S A LON - BEL" in set(texts(two, "england", "nth"))
    assert "F ENG S A LON - BEL" in set(texts(two, "england", "eng"))
    one = Position.from_text("standard | S1901M | england: A LON, F NTH | - | - | -")
    assert "F NTH C A LON - BEL" in set(texts(one, "england", "nth"))
    assert "F NTH S A LON - BEL" not in set(texts(one, "england", "nth"))


@pytest.mark.parametrize("variant", ["standard", "twentieth-century", "1939-iv", "sahara",
                                     "twin-earths", "city-country"])
def test_seas_every_convoy_route_needs_are_those_no_chain_avoids(variant: str) -> None:
    """DATC 6.D.31: the legal orders let a fleet support a convoyed move only if some
    route avoids it. They take that from one search of the induced routes
    (``Board.convoy_routes``: the seas every route needs); the adjudicator asks
    ``Board.sea_path_exists`` with the sea excluded, which searches every chain.
    The two must agree for every army, destination, sea and fleet layout."""
    board = load_variant(variant).board
    seas = sorted(p for p, prov in board.provinces.items() if prov.convoys)
    coasts = sorted(p for p in board.provinces if board.is_coastal(p))
    rng = random.Random(variant)
    checked = 0
    for _ in range(40):
        fleets = frozenset(rng.sample(seas, min(len(seas), rng.randint(3, 14))))
        for src in rng.sample(coasts, min(len(coasts), 12)):
            for dest, routes in board.convoy_routes(src, fleets).items():
                spare = {s for s in routes.seas
                         if board.sea_path_exists(src, dest, fleets, s)}
                assert routes.seas - routes.needed == spare, (src, dest, sorted(fleets))
                assert board.sea_path_exists(src, dest, fleets)
                checked += 1
    assert checked > 100


# -- DATC 6.G.19: convoy orders only for fleets some route needs ----------------------------------

G19 = Position.from_text("standard | S1901M | france: A MAR, F WES; italy: F LYO, A SPA | "
                         "- | - | -")


def test_datc_6_g_19_unnecessary_fleet_gets_no_convoy_order() -> None:
    """DATC 6.G.19: F WES is on no route MAR-SPA without a short cut, so it may not
    convoy it; it is needed for MAR/SPA to NAF/TUN only."""
    wes = [o for o in legal_orders(G19)["france"]["wes"] if isinstance(o, Convoy)]
    assert {(o.target, o.dest) for o in wes} == {("mar", "naf"), ("mar", "tun"),
                                                 ("spa", "naf"), ("spa", "tun")}
    with pytest.raises(IllegalOrderError):
        check_order(G19, "france", Convoy(F, "wes", "mar", "spa"))
    lyo = {(o.target, o.dest) for o in legal_orders(G19)["italy"]["lyo"]
           if isinstance(o, Convoy)}
    assert lyo == {("mar", "spa"), ("mar", "pie"), ("mar", "tus"), ("mar", "naf"),
                   ("mar", "tun"), ("spa", "mar"), ("spa", "pie"), ("spa", "tus")}


def test_convoy_orders_only_where_a_route_exists() -> None:
    far = Position.from_text("standard | S1901M | england: F NAO, A LON | - | - | -")
    assert not any(isinstance(o, Convoy) for o in legal_orders(far)["england"]["nao"])
    # NAO touches LVP and CLY (and only seas otherwise): just the adjacent convoy LVP-CLY
    near = Position.from_text("standard | S1901M | england: F NAO, A LVP | - | - | -")
    nao = {str(o) for o in legal_orders(near)["england"]["nao"] if isinstance(o, Convoy)}
    assert nao == {"F NAO C A LVP - CLY"}
    assert "A LVP - CLY VIA CONVOY" in texts(near, "england", "lvp")


# -- retreat and adjustment phases -----------------------------------------------------------------


def test_retreat_orders_exclude_attacker_origin_and_occupied() -> None:
    pos = Position.from_text("standard | S1901R | germany: A BUR, A RUH | - | "
                             "france: A BUR<MUN | -")
    assert texts(pos, "france", "bur") == ["A BUR D", "A BUR R BEL", "A BUR R GAS",
                                           "A BUR R MAR", "A BUR R PAR", "A BUR R PIC"]
    contested = Position.from_text("standard | S1901R | germany: A BUR, A RUH | - | "
                                   "france: A BUR<MUN | PAR PIC")
    assert texts(contested, "france", "bur") == ["A BUR D", "A BUR R BEL", "A BUR R GAS",
                                                 "A BUR R MAR"]


def test_adjustment_orders_builds_and_removals() -> None:
    pos = Position.from_text("standard | W1901A | russia: A WAR; turkey: A CON, A SMY, F ANK, "
                             "A BUL | russia: STP MOS WAR; turkey: ANK CON SMY | - | -")
    lo = legal_orders(pos)
    assert {loc: [str(o) for o in os] for loc, os in lo["russia"].items()} == {
        "stp": ["BUILD A STP", "BUILD F STP/NC", "BUILD F STP/SC", "WAIVE"],
        "mos": ["BUILD A MOS", "WAIVE"],
    }
    assert {loc: [str(o) for o in os] for loc, os in lo["turkey"].items()} == {
        u.location: [f"REMOVE {u}"] for u in pos.units if u.power == "turkey"}


def test_a_canal_owner_standing_in_its_canal_gets_both_unit_orders_and_permits() -> None:
    """The Twentieth Century, Straits & Canals: the owner "may also allow other players
    to send fleets through" (PERMIT), while its unit in the canal space is ordered
    as any unit. Turkey's army opens in Ankara (a canal): both kinds of order are
    offered there, and every one of them is legal."""
    from standoff import Permit, check_order

    v = load_variant("twentieth-century")
    pos = Position.initial(v)
    offered = legal_orders(pos, Options(), v)["turkey"]["ank"]
    permits = [o for o in offered if isinstance(o, Permit)]
    unit_orders = [o for o in offered if not isinstance(o, Permit)]
    assert {p.power for p in permits} == set(v.powers) - {"turkey"}
    assert "A ANK H" in [str(o) for o in unit_orders] and len(unit_orders) > 1
    for o in offered:
        assert check_order(pos, "turkey", o, Options(), v) == o


class _OtherRandom(random.Random):
    """A generator of another class: random_orders draws through its own choice()."""


@pytest.mark.parametrize("bias", [0.0, 0.7])
def test_random_orders_pick_as_rng_choice_over_the_legal_orders(bias: float) -> None:
    """A random pick is ``rng.choice`` over the location's legal orders (or, with the
    move bias's chance, over its moves), whichever way random_orders computes it:
    the compiled draw for a plain Random and a subclass's own choice() agree, and
    both are picks from legal_orders' lists."""
    for seed, (position, options) in enumerate(POSITIONS):
        plain = random_orders(position, random.Random(seed), bias, options)
        other = random_orders(position, _OtherRandom(seed), bias, options)
        assert plain == other
        legal = legal_orders(position, options)
        for power, picks in plain.items():
            offered = {o for orders in legal[power].values() for o in orders}
            assert set(picks) <= offered
