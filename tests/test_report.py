"""The results a game master sends out after a phase (``standoff.core.report``).

Hand-made positions check each item of the mail (NMR, units without orders,
dislodged units and exactly their legal retreats, civil disorder in retreats
and adjustments, centres changing hands, counts and what each power must do
next, the game's end) in Standard, 1939 IV (neutral armies), Sahara (map
changes) and The Twentieth Century (canal permits); random games in every
variant check the report against the core itself (a re-adjudication, the
legal-order generator, ``Game.powers_to_order``); and ``standoff process``
prints it.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from standoff import storage
from standoff.cli import cli
from standoff.core.adjudicator import adjudicate
from standoff.core.errors import StandoffError
from standoff.core.game import Game
from standoff.core.legal_orders import legal_orders, random_orders
from standoff.core.orders import Retreat
from standoff.core.phase import PhaseKind
from standoff.core.position import Position
from standoff.core.report import PhaseReport, game_report, phase_report


def game_at(text: str) -> Game:
    pos = Position.from_text(text)
    g = Game.new(pos.variant)
    g.position = pos
    return g


def play(g: Game, orders: dict[str, list[str]]) -> PhaseReport:
    for power, items in orders.items():
        g.submit(power, items)
    g.process()
    return game_report(g)


def lines_of(report: PhaseReport, power: str) -> list[str]:
    """The orders section's lines for one power, as "ORDER: result"."""
    return [f"{o.order}: {o.result}" if o.order else o.result
            for o in report.orders if o.power == power]


def legal_retreats(pos: Position, power: str, loc: str) -> tuple[str, ...]:
    return tuple(o.dest.upper() for o in legal_orders(pos)[power][loc]
                 if isinstance(o, Retreat))


# -- Standard: a Fall, its retreats and the Winter -------------------------------------------

FALL = ("standard | F1901M | austria: A BUD, A GAL, A SER, A VIE, F TRI; england: F LON; "
        "russia: A RUM, A UKR, A WAR; turkey: A BUL, A GRE | austria: BUD TRI VIE; "
        "england: EDI LON LVP; russia: MOS SEV STP WAR; turkey: ANK CON SMY | - | -")


def test_movement_names_nmr_powers_and_units_without_orders() -> None:
    """England sent nothing: NMR, its fleet holds in civil disorder. Austria sent
    an order for one unit only: its other units had "no order" and held; that is
    no NMR."""
    g = game_at(FALL)
    r = play(g, {"austria": ["A bud H"], "russia": ["A ukr - gal", "A war S A ukr - gal",
                                                    "A rum H"],
                 "turkey": ["A bul - ser", "A gre S A bul - ser"]})
    assert r.nmr == ("england",)
    assert lines_of(r, "england") == ["F LON: holds (civil disorder)"]
    assert lines_of(r, "austria") == [
        "A BUD H: succeeds",
        "A GAL: no order (holds); dislodged by UKR",
        "A SER: no order (holds); dislodged by BUL",
        "A VIE: no order (holds)",
        "F TRI: no order (holds)",
    ]
    assert [o.civil_disorder for o in r.orders if o.power == "england"] == [True]
    assert not any(o.civil_disorder for o in r.orders if o.power == "austria")
    text = r.to_text()
    assert "No orders received (NMR): England\n" in text
    assert "  Turkey: A BUL - SER: succeeds\n" in text


def test_dislodged_units_get_exactly_their_legal_retreats() -> None:
    g = game_at(FALL)
    r = play(g, {"austria": ["A bud H"], "russia": ["A ukr - gal", "A war S A ukr - gal"],
                 "turkey": ["A bul - ser", "A gre S A bul - ser"]})
    assert g.position.phase.kind is PhaseKind.RETREAT
    got = {d.unit: d for d in r.dislodged}
    assert set(got) == {"A GAL", "A SER"}
    assert got["A SER"].retreats == legal_retreats(g.position, "austria", "ser") == ("ALB",)
    assert got["A GAL"].retreats == legal_retreats(g.position, "austria", "gal") == \
        ("BOH", "SIL")
    assert (got["A SER"].attacker, got["A SER"].had_order) == ("BUL", False)
    assert "  Austria: A SER, dislodged by BUL, had no order: may retreat to ALB or disband\n" \
        in r.to_text()
    assert r.next_phase_name == "Fall 1901, Retreat"
    tasks = {s.power: s.task for s in r.standings}
    assert tasks == {"austria": "retreats for 2 units", "england": "nothing",
                     "russia": "nothing", "turkey": "nothing"}
    assert "now: Fall 1901, Retreat\n  Austria: retreats for 2 units\n" in r.to_text()


def test_retreats_then_centres_change_hands_and_adjustments_are_owed() -> None:
    """A dislodged unit its power gave no retreat is disbanded ("no order"); after
    the Fall's retreats the centres change hands and each power owes builds or
    removals."""
    g = game_at(FALL)
    play(g, {"austria": ["A bud H"], "russia": ["A ukr - gal", "A war S A ukr - gal",
                                                "A rum H"],
             "turkey": ["A bul - ser", "A gre S A bul - ser"]})
    r = play(g, {"austria": ["A ser R alb"]})
    assert r.nmr == ()  # only Austria had retreats to order, and it did
    assert lines_of(r, "austria") == ["A GAL: no order (disbanded)", "A SER R ALB: succeeds"]
    assert [(c.centre, c.before, c.after) for c in r.centre_changes] == [
        ("GRE", None, "turkey"), ("RUM", None, "russia"), ("SER", None, "turkey")]
    counts = {s.power: (s.centres, s.units, s.adjustment, s.task) for s in r.standings}
    assert counts == {"austria": (3, 4, -1, "remove 1"), "england": (3, 1, 2, "build 2"),
                      "russia": (5, 3, 2, "build 2"), "turkey": (5, 2, 3, "build 3")}
    text = r.to_text()
    assert "Supply centres that changed hands:\n  GRE: unowned -> Turkey\n" in text
    assert "  Austria: 3 centres, 4 units (-1)\n" in text
    assert text.endswith("now: Winter 1901, Adjustment\n  Austria: remove 1\n"
                         "  England: build 2\n  Russia: build 2\n  Turkey: build 3\n")


def test_adjustments_mark_civil_disorder_removals_and_unused_builds() -> None:
    g = game_at(FALL)
    play(g, {"austria": ["A bud H"], "russia": ["A ukr - gal", "A war S A ukr - gal",
                                                "A rum H"],
             "turkey": ["A bul - ser", "A gre S A bul - ser"]})
    play(g, {"austria": ["A ser R alb"]})
    r = play(g, {"russia": ["Build A mos"], "turkey": ["Build A con", "Build A smy", "Waive"]})
    assert r.nmr == ("austria", "england")
    # the civil-disorder rule removes the unit farthest from an owned centre
    assert lines_of(r, "austria") == ["REMOVE A ALB: removed by civil disorder"]
    assert lines_of(r, "england") == ["2 builds unused (civil disorder)"]
    assert lines_of(r, "russia") == ["BUILD A MOS: succeeds", "1 build unused (waived)"]
    assert lines_of(r, "turkey") == ["BUILD A CON: succeeds", "BUILD A SMY: succeeds",
                                     "WAIVE: succeeds"]
    assert all(o.civil_disorder == (o.power in ("austria", "england")) for o in r.orders)
    assert "  Austria: REMOVE A ALB: removed by civil disorder\n" in r.to_text()
    assert r.next_phase_name == "Spring 1902, Movement"
    tasks = {s.power: s.task for s in r.standings}
    assert tasks["russia"] == "orders for 4 units" and tasks["england"] == "orders for 1 unit"


def test_retreat_nmr_disbands_in_civil_disorder() -> None:
    g = game_at("standard | S1901M | france: A BUR, A RUH; germany: A MUN | - | - | -")
    play(g, {"france": ["A bur - mun", "A ruh S A bur - mun"], "germany": ["A mun H"]})
    r = play(g, {})
    assert r.nmr == ("germany",)
    assert lines_of(r, "germany") == ["A MUN: disbanded (civil disorder)"]
    assert r.orders[0].civil_disorder


def test_dislodged_with_nowhere_to_go_is_disbanded() -> None:
    g = game_at("standard | S1901M | england: A WAL, F LON; germany: A LVP, A YOR "
                "| - | - | -")
    r = play(g, {"england": ["A wal H", "F lon H"],
                 "germany": ["A lvp - wal", "A yor S A lvp - wal"]})
    [d] = r.dislodged
    assert (d.power, d.unit, d.attacker, d.had_order, d.disbanded) == \
        ("england", "A WAL", "LVP", True, True)
    assert "  England: A WAL, dislodged by LVP: no retreat: disbanded\n" in r.to_text()
    assert g.position.phase.kind is PhaseKind.MOVEMENT  # no retreat phase was needed


def test_the_end_of_the_game_is_reported() -> None:
    v = Game.new("standard").variant
    mine = sorted(v.supply_centres - {"bel", "bur"})[:17]
    g = game_at(f"standard | F1901M | france: A BUR | france: {' '.join(mine).upper()} "
                "| - | -")
    r = play(g, {"france": ["A bur - bel"]})
    assert r.is_over and r.winner == "france"
    assert r.to_text().endswith("\ngame over: France wins (18 supply centres)\n")
    data = r.to_dict()
    assert data["next"] is None
    assert data["outcome"] == {"winner": "france", "text": "France wins (18 supply centres)"}


def test_a_declared_draw_ends_the_last_report() -> None:
    g = game_at("standard | S1901M | france: A PAR; germany: A MUN | - | - | -")
    g.process()
    assert "now: Fall 1901, Movement" in game_report(g).to_text()
    g.declare_draw()
    assert game_report(g).to_text().endswith("game over: draw between France, Germany\n")


# -- the variants ------------------------------------------------------------------------------

HOMES_1939 = ("england: EDI EGY LON LVP; france: ALG BRE MAR PAR; germany: BER KIE MUN PRU; "
              "italy: LIB ROM SIC VEN; russia: KUI LEN MOS SEV")


def test_1939_iv_neutral_armies_are_never_nmr_and_die_when_dislodged() -> None:
    g = game_at(f"1939-iv | S1939M | england: F LON; germany: A BER, A PRU; neutral: A POL "
                f"| {HOMES_1939} | - | -")
    r = play(g, {"germany": ["A pru - pol", "A ber S A pru - pol"]})
    assert r.nmr == ("england",)
    assert not any(o.power == "neutral" for o in r.orders)
    assert "neutral" not in {s.power for s in r.standings}
    [d] = r.dislodged
    assert (d.power, d.unit, d.attacker, d.had_order, d.retreats) == \
        ("neutral", "A POL", "PRU", False, ())
    assert "  neutral: A POL, dislodged by PRU, had no order: no retreat: disbanded\n" \
        in r.to_text()


def test_1939_iv_high_ocean_fleets_without_an_order_each() -> None:
    """Two English fleets on the Atlantic High Ocean, one order: the other fleet
    had no order (and no high ocean fleet is ever dislodged)."""
    g = game_at(f"1939-iv | S1939M | england: F ATH, F ATH | {HOMES_1939} | - | -")
    r = play(g, {"england": ["F ath - nao"]})
    assert r.nmr == ()
    assert lines_of(r, "england") == ["F ATH - NAO: succeeds", "F ATH: no order (holds)"]


def test_sahara_map_changes_and_lost_centres() -> None:
    """After Fall 1903 the Black Sea dries (the fleet becomes an army) and Smyrna
    stops being a supply centre: Turkey loses it to nobody."""
    g = game_at("sahara | F1903M | turkey: A SMY, F BLA | turkey: ANK CON SMY | - | -")
    r = play(g, {"turkey": ["F bla H"]})
    assert "F BLA (turkey) is stranded inland and becomes A BLA" in r.events
    assert r.events == tuple(g.history[-1].events)
    assert [(c.centre, c.before, c.after) for c in r.centre_changes] == \
        [("SMY", "turkey", None)]
    text = r.to_text()
    assert "Map changes:\n  F BLA (turkey) is stranded inland and becomes A BLA\n" in text
    assert "  SMY: Turkey -> nobody (no longer a supply centre)\n" in text
    assert lines_of(r, "turkey") == ["A SMY: no order (holds)", "F BLA H: succeeds"]


def test_twentieth_century_permits_are_orders_and_canal_owners_may_permit() -> None:
    """Britain, owning Cairo, sends only a PERMIT: it is not in NMR, the PERMIT is
    reported as noted, its army had no order; next turn it may permit again."""
    g = game_at("twentieth-century | S1933M | italy: F AEG; britain: A LON | "
                "britain: CAI LON | - | -")
    r = play(g, {"britain": ["CAI PERMIT ITALY"], "italy": ["F aeg - red"]})
    assert r.nmr == ()
    assert lines_of(r, "britain") == ["CAI PERMIT ITALY: noted", "A LON: no order (holds)"]
    assert lines_of(r, "italy") == ["F AEG - RED: succeeds"]
    tasks = {s.power: s.task for s in r.standings}
    assert tasks["britain"] == "orders for 1 unit; may permit passage through CAI"


def test_twentieth_century_canal_owner_without_units_is_never_nmr() -> None:
    """Britain owns Cairo but has no units: it may PERMIT passage, it need not,
    so sending nothing is no NMR (only powers that must act are counted)."""
    g = game_at("twentieth-century | S1933M | italy: F AEG | britain: CAI LON; italy: ROM "
                "| - | -")
    assert g.powers_to_order() == ["italy"] and g.powers_that_may_order() == ["britain"]
    r = play(g, {"italy": ["F aeg - red"]})
    assert r.nmr == ()
    assert "No orders received (NMR): none\n" in r.to_text()
    tasks = {s.power: s.task for s in r.standings}
    assert tasks["britain"] == "may permit passage through CAI"


def test_twentieth_century_unpermitted_canal_move_holds() -> None:
    g = game_at("twentieth-century | S1933M | italy: F AEG; britain: A LON | "
                "britain: CAI LON; italy: ROM | - | -")
    r = play(g, {"italy": ["F aeg - red"]})
    assert r.nmr == ("britain",)
    [line] = lines_of(r, "italy")
    assert line.startswith("F AEG - RED: fails (no passage")


# -- every variant, against the core -------------------------------------------------------------

VARIANTS = ["standard", "sahara", "twin-earths", "city-country", "twentieth-century", "1939-iv"]


def _random_game(name: str, seed: int, phases: int) -> Game:
    """A random game where powers now and then send nothing or leave a unit out."""
    rng = random.Random(seed)
    g = Game.new(name)
    while not g.is_over and len(g.history) < phases:
        for pid, picks in random_orders(g.position, rng, 0.7, g.options, g.variant).items():
            if rng.random() < 0.15:
                continue  # NMR
            for order in picks[:-1] if rng.random() < 0.2 else picks:
                with contextlib.suppress(StandoffError):  # e.g. one build too many
                    g.submit(pid, [order])
        g.process()
    return g


@pytest.mark.parametrize(("name", "seed"),  # seeds whose games have dislodgements
                         [(name, 5 if name == "sahara" else 7) for name in VARIANTS])
def test_reports_agree_with_the_core(name: str, seed: int) -> None:
    """Every phase of a random game: the NMRs are the powers the game waited for
    that sent nothing; the dislodged units are those the adjudication dislodged,
    each with exactly its legal retreats or disbanded; the counts are the
    position's; a saved and reloaded game gives the same report."""
    g = _random_game(name, seed, 50)
    again = storage.loads(storage.dumps(g))
    for i, rec in enumerate(g.history):
        r = game_report(g, i)
        after = g.history[i + 1].position if i + 1 < len(g.history) else g.position
        # a judge holding only the saved game gets the same mail
        assert game_report(again, i) == r
        last = i == len(g.history) - 1
        assert phase_report(rec, after, g.variant, g.options,
                            winner=g.winner if last else None,
                            no_winner=g.no_winner and last) == r
        probe = Game.new(name)
        probe.position = rec.position
        sent = {p for p, os in rec.orders.items() if os}
        assert set(r.nmr) == set(probe.powers_to_order()) - sent
        assert g.variant.neutral not in r.nmr
        if rec.position.phase.kind is PhaseKind.MOVEMENT:
            res = adjudicate(rec.position, rec.orders, g.options, g.variant)
            gone = {(u.power, str(u)) for u in res.disbanded}
            retreating = {(d.unit.power, str(d.unit)) for d in res.next_position.dislodged}
            assert {(d.power, d.unit) for d in r.dislodged} == gone | retreating
            for d in r.dislodged:
                assert d.disbanded == ((d.power, d.unit) in gone)
                if not d.disbanded:
                    loc = d.unit.split()[1].lower()
                    assert d.retreats == legal_retreats(after, d.power, loc)
        centres = after.centre_counts()
        for s in r.standings:
            assert (s.centres, s.units) == (centres.get(s.power, 0),
                                            len(after.units_of(s.power)))
        text = r.to_text()
        assert all(r.name(p) in text for p in r.nmr)
        assert text == r.to_text() and json.loads(json.dumps(r.to_dict())) == r.to_dict()


# -- the command line ------------------------------------------------------------------------------


def test_process_prints_the_report_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    path = str(tmp_path / "g.json")
    assert runner.invoke(cli, ["new", path]).exit_code == 0
    assert runner.invoke(cli, ["orders", path, "france", "A PAR - BUR"]).exit_code == 0
    out = runner.invoke(cli, ["process", path])
    assert out.exit_code == 0, out.output
    g = storage.load(path)
    assert out.output == game_report(g).to_text()
    assert "  France: A MAR: no order (holds)\n  France: A PAR - BUR: succeeds\n" in out.output
    assert "No orders received (NMR): Austria, England, Germany, Italy, Russia, Turkey\n" \
        in out.output
    out = runner.invoke(cli, ["process", path, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data == game_report(storage.load(path)).to_dict()
    assert data["phase"] == "F1901M" and data["next"]["phase_name"] == "Spring 1902, Movement"
    assert "france" in data["nmr"]
