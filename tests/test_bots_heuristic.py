"""The heuristic bot's judgement where a variant's rules decide what an order is
worth: each test sets up a position and asks for one power's orders, citing the
rule the choice rests on (the rule texts: ``../shared/variants/``; the rulings:
``docs/variants/``). The contract itself (legal, complete, deterministic on
every variant) is ``tests/test_bots.py``'s.
"""

from __future__ import annotations

from standoff import (
    DEFAULT,
    GameRecord,
    PhaseKind,
    Position,
    UnitType,
    load_variant,
    process_phase,
    province_of,
    submit_orders,
)
from standoff.bots import load


def record_at(text: str) -> GameRecord:
    pos = Position.from_text(text)
    return GameRecord(load_variant(pos.variant), DEFAULT, pos)


def orders(text: str, power: str) -> list[str]:
    return load("heuristic", seed=0).orders(record_at(text), power)


def ends(given: list[str]) -> set[str]:
    """The provinces the units end in if every order succeeds."""
    out = set()
    for o in given:
        words = o.split()
        if len(words) >= 4 and words[2] == "-":
            out.add(province_of(words[3].lower()))
        elif "NO" not in words:
            out.add(province_of(words[1].lower()))
    return out


# -- Standard: centres change hands after the Fall --------------------------------------


def test_a_unit_on_a_neutral_centre_stays_there_in_the_autumn() -> None:
    """Rulebook, "Supply centres": a centre is gained by the power whose unit
    occupies it at the end of a Fall turn. F DEN, on a neutral centre in the
    autumn, holds rather than sailing off to the North Sea."""
    given = orders("standard | F1901M | germany: F DEN, A KIE, A MUN | germany: BER KIE MUN"
                   " | - | -", "germany")
    assert "F DEN H" in given or any(o.startswith("F DEN S") for o in given), given


def test_units_leave_the_home_centres_the_builds_need() -> None:
    """Rulebook, "Gaining and losing units": builds go only in unoccupied home
    centres. Germany owns seven centres with three units, all standing on its
    three home centres: in the autumn they move off, or the four builds due
    would have nowhere to go."""
    given = orders("standard | F1905M | germany: A KIE, A MUN, A BER | germany: BER KIE MUN"
                   " DEN HOL BEL SWE | - | -", "germany")
    assert not ends(given) & {"ber", "kie", "mun"}, given


# -- City/Country: a City is entered only from its Country ------------------------------


def test_no_move_into_a_city_it_cannot_enter() -> None:
    """City/Country rule .52: to enter a City from land a unit must come from
    its Country; the other land links only strike (attack, support, stand off).
    From Tyrolia the bot goes for Munich-Country, never for Munich-City."""
    for text in ("city-country | F1901M | italy: A TYR | italy: ROM* NAP* VEN* | - | -",
                 "city-country | S1902M | italy: A TYR, A VEN* | italy: ROM* NAP* VEN* | - | -"):
        given = orders(text, "italy")
        assert "A TYR - MUN*" not in given and "A VEN* - TRI*" not in given, given
        assert "A TYR - MUN" in given, given


# -- Sahara: stranded fleets (rule 2), builds anywhere (rule 4), Iceland (rule 7) ---------

#: Fall 1903: the Black Sea dries (Sahara rule 2) and every coast around it is left
#: inland; Turkey's centres pay for all its units, and it owns Greece, free
REFUSE = ("sahara | F1903M | turkey: F BLA, A CON, A ANK, A SEV, A RUM, A BUL | "
          "turkey: ANK CON SEV RUM BUL GRE | - | -")


def test_a_stranded_fleet_refuses_to_convert_when_a_build_replaces_it() -> None:
    """Sahara rule 2: a fleet left inland becomes an army unless its owner
    ordered that it not change; then it disbands. Rule 4: a power builds in any
    centre it owns that is unoccupied. After this Fall every move of F BLA ends
    inland, and an army in the dried Black Sea (worth about 1.3 to the bot) is
    worth less than a new unit in Greece (about 2.1), a build its disbanding
    makes room for, in the adjustments that follow at once: the bot orders
    NO CONVERT, the fleet disbands, and Turkey builds in Greece."""
    r = record_at(REFUSE)
    bot = load("heuristic", seed=0)
    given = bot.orders(r, "turkey")
    assert "F BLA NO CONVERT" in given, given
    r = process_phase(submit_orders(r, "turkey", given))[0]
    assert r.position.phase.kind is PhaseKind.ADJUSTMENT
    assert all(u.type is UnitType.ARMY for u in r.position.units)  # the fleet did not convert
    assert not any(u.location == "bla" for u in r.position.units)
    builds = bot.orders(r, "turkey")
    assert "BUILD A GRE" in builds, builds


def test_a_stranded_fleet_converts_when_nothing_replaces_it() -> None:
    """Sahara rule 2: with more units than centres (a seventh unit, in Greece,
    the one free site gone) no build can replace the fleet: it is left to
    become an army."""
    r = record_at(REFUSE.replace("A BUL |", "A BUL, A GRE |"))
    given = load("heuristic", seed=0).orders(r, "turkey")
    assert not any("NO CONVERT" in o for o in given), given
    r = process_phase(submit_orders(r, "turkey", given))[0]
    units = r.position.units_of("turkey")  # (the fleet's army wherever its move took it)
    assert len(units) == 7 and all(u.type is UnitType.ARMY for u in units), units


def test_no_refusal_in_the_spring() -> None:
    """Sahara rule 2 with rule 1's calendar: after a Spring change no
    adjustments follow, so a disbanded fleet makes room for no build before the
    army it would become has played a season. F TYS, left inland after Spring
    1903, is never told NO CONVERT, although Italy has spare centres."""
    given = orders("sahara | S1903M | italy: F TYS, A ROM | italy: ROM NAP VEN TUN | - | -",
                   "italy")
    assert not any("NO CONVERT" in o for o in given), given


def test_iceland_is_the_goal_near_the_end() -> None:
    """Sahara rule 7: the player with the final unit in Iceland after Between
    Summers 1911 wins. In 1910 England heads for the Norwegian Sea, next to
    Iceland; in the last season its unit in Iceland stays there, supported; and
    of its two units the removal takes the other."""
    given = orders("sahara | E1910M | england: A NTH, A NWY | england: NWY | - | -", "england")
    assert "nwg" in ends(given), given
    given = orders("sahara | L1911M | england: A ICE, A NWG; france: A NAO | england: ICE"
                   " | - | -", "england")
    assert "ice" in ends(given) and "A NWG S A ICE" in given, given
    assert orders("sahara | B1911A | england: A ICE, A NWG | england: ICE | - | -",
                  "england") == ["REMOVE A NWG"]


def test_units_leave_the_spaces_the_desert_takes_in_time() -> None:
    """Sahara rule 5: at the end of certain seasons some spaces become
    impassable and every unit on them is disbanded; after Late Summer 1905 the
    Aegean and Smyrna go (the schedule in docs/variants/sahara.md, ruling R8).
    The bot reads the next board ahead (``standoff.bots.ahead``): Turkey's
    armies on both move off in that season (on today's board the Aegean is a
    centre worth holding), and all three of its units are still there after
    the change."""
    r = record_at("sahara | L1905M | turkey: A AEG, A BUL, A SMY | turkey: BUL BLA | - | -")
    given = load("heuristic", seed=0).orders(r, "turkey")
    assert not ends(given) & {"aeg", "smy"}, given
    r = process_phase(submit_orders(r, "turkey", given))[0]
    assert len(r.position.units_of("turkey")) == 3, r.position.to_text()


# -- The Twentieth Century: canals and the wrap-around seas -----------------------------

def test_a_canal_owner_lets_through_only_the_fleets_that_would_not_threaten_it() -> None:
    """Twentieth Century "Straits & Canals" and ruling R4: the owner of Cairo
    may let other powers' fleets through, per power, for one phase. Britain owns
    Cairo and two centres on the Red Sea (Sudan, Yemen). A French fleet in the
    Aegean let through would end in the Red Sea beside them: no permission. An
    Italian fleet in the Red Sea let through would end in the Aegean, which
    touches no British centre but Cairo (that it touches from either sea):
    permitted, as is Brazil, which has no fleet near the canal."""
    given = orders("twentieth-century | S1935M | britain: A CAI, A SUD; france: F AEG; "
                   "italy: F RED; brazil: F RDJ | britain: CAI SUD YEM; france: PAR; "
                   "italy: ROM; brazil: RDJ | - | -", "britain")
    assert "CAI PERMIT FRANCE" not in given, given
    assert "CAI PERMIT ITALY" in given and "CAI PERMIT BRAZIL" in given, given


def test_a_fleet_crosses_the_edge_of_the_map_through_a_wrap_around_sea() -> None:
    """Twentieth Century "Wrap-around seas": the Bering Sea is one space at both
    edges of the map, beside Anchorage on one and Kamchatka on the other. A US
    fleet in Anchorage, every American centre already the USA's, sails into the
    Bering Sea in the spring and takes Russia's Kamchatka, two steps away that
    way (the rest of the world lies between them the other way), in the
    autumn."""
    r = record_at("twentieth-century | S1935M | usa: F ANC, A SFR | usa: ANC SFR HAW WAS SLO"
                  " NYO NOL PAN LUZ MIN; ussr: KAM VLA IRK MOS | - | -")
    bot = load("heuristic", seed=0)
    given = bot.orders(r, "usa")
    assert "F ANC - BSE" in given, given
    r = process_phase(submit_orders(r, "usa", given))[0]
    given = bot.orders(r, "usa")
    assert "F BSE - KAM" in given, given
    r = process_phase(submit_orders(r, "usa", given))[0]
    assert r.position.centres["kam"] == "usa", r.position.to_text()


# -- 1939 IV: high oceans (5.1) and neutral armies (2.1, 7.5) ----------------------------

#: Spring 1945: Britain's two fleets east of Suez, every centre about the Mediterranean
#: already British, Germany's around the Atlantic
HIGH = ("1939-iv | S1945M | england: F PGU, F RED; germany: A LON, A EDI, A LVP, F MAO, A SPA,"
        " A POR | england: EGY MDE TUR GRE LIB TUN ALG ROM SIC VEN YUG BUL; germany: LON EDI"
        " LVP EIR POR SPA BRE PAR MAR BEL HOL | - | -")


def test_two_fleets_go_to_one_high_ocean() -> None:
    """1939 IV rule 5.1: any number of fleets may be on the high ocean at any
    time (ruling R24: a move into it never fails). England's way to Germany's
    Atlantic centres from the Persian Gulf and the Red Sea is the African High
    Ocean (5.4): both fleets go there in the same phase, and both arrive. The
    space's capacity is read from the board (``capacity = 0``), not the
    variant's name."""
    r = record_at(HIGH)
    given = load("heuristic", seed=0).orders(r, "england")
    assert "F PGU - AFH" in given and "F RED - AFH" in given, given
    r = process_phase(submit_orders(r, "england", given))[0]
    assert [u.location for u in r.position.units_of("england")] == ["afh", "afh"]
    again = load("heuristic", seed=0).orders(r, "england")
    assert len(again) == 2 and all(o.startswith("F AFH") for o in again), again


def test_a_neutral_army_is_attacked_with_a_support() -> None:
    """1939 IV rules 2.1, 2.2 and 7.5, ruling R23: Poland's neutral army holds
    in civil disorder, is annihilated when dislodged, and its centre then goes
    to whoever occupies it after a Fall. In the autumn Germany attacks it from
    Prussia with Berlin's support (alone the attack would only bounce) and
    owns Poland after the turn."""
    r = record_at("1939-iv | F1939M | germany: A BER, A PRU, A CZE, F KIE; neutral: A POL,"
                  " A SWE | germany: BER KIE MUN PRU | - | -")
    given = load("heuristic", seed=0).orders(r, "germany")
    assert "A PRU - POL" in given and "A BER S A PRU - POL" in given, given
    r = process_phase(submit_orders(r, "germany", given))[0]
    assert r.position.centres["pol"] == "germany", r.position.to_text()


def test_a_neutral_army_is_no_threat() -> None:
    """1939 IV rule 2.1: a neutral army is in civil disorder; it holds and never
    attacks. So Denmark, beside Sweden's neutral army, is as safe a centre to
    take as Holland, and nearer Sweden: Germany's fleet in Kiel goes for
    Denmark (counting the army as a threat to it, the bot went for Holland)."""
    given = orders("1939-iv | F1939M | germany: A PRU, F KIE; neutral: A POL, A SWE |"
                   " germany: BER KIE MUN PRU | - | -", "germany")
    assert "F KIE - DEN" in given, given
