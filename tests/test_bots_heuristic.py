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
