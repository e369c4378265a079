"""MILA JSON interop (``standoff.mila``): reading MILA's saved games, replaying them with
a disagreement report, exporting standoff games in that format, and the CLI.

The games in ``tests/data/mila/`` were saved by MILA's ``diplomacy`` 1.1.2 itself
(``tools/make_mila_fixtures.py``, run in the benchmark venv): the package is AGPL and
is never imported here. What MILA's tools and pydipcc make of our exports is checked
by ``benchmarks/mila_interop.py``, where they are installed.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from standoff import (
    Game,
    GameRecord,
    Options,
    PhaseKind,
    Unit,
    UnitType,
    random_orders,
    storage,
)
from standoff.mila import (
    CAUSES,
    MilaError,
    MilaGame,
    mila_order,
    position_from_state,
    read_saved_games,
    replay,
    saved_game_from_dict,
    saved_games_from_text,
    state_of_mila,
    state_of_position,
    tally,
    to_saved_game,
    variant_for,
)

DATA = Path(__file__).resolve().parent / "data" / "mila"
RANDOM = DATA / "random_games.jsonl"
SCRIPTED = DATA / "scripted.json"
BUILD_ANY = DATA / "build_any.json"
CIVIL_DISORDER = DATA / "civil_disorder.json"


def _one(path: Path) -> MilaGame:
    [game] = read_saved_games(path)
    return game


def _raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text().splitlines()[0])
    return data


def _played(seed: int, phases: int) -> GameRecord:
    """A standoff game of random legal orders, moving often (retreats, builds)."""
    rng = random.Random(seed)
    game = Game.new("standard")
    while len(game.history) < phases and not game.is_over:
        for power, orders in random_orders(game.position, rng, move_bias=0.7).items():
            if orders:
                game.submit(power, orders)
        game.process()
    return game.record


# -- reading -----------------------------------------------------------------------------------


def test_reads_json_lines_and_single_games_in_mila_notation() -> None:
    games = read_saved_games(RANDOM)
    assert [g.id for g in games] == ["random-1", "random-4", "random-11"]
    assert [g.source for g in games] == [f"random_games.jsonl:{n}" for n in (1, 2, 3)]
    scripted = _one(SCRIPTED)
    assert scripted.rules == ("NO_PRESS", "POWER_CHOICE")
    first = scripted.phases[0]
    assert first.name == "S1901M"
    assert first.state.units["RUSSIA"] == ("A WAR", "A MOS", "F SEV", "F STP/SC")
    assert first.state.centres["FRANCE"] == ("BRE", "MAR", "PAR")
    # the retreat phase: the dislodged unit is out of the units, with its retreats
    retreat = scripted.phases[2]
    assert retreat.name == "F1901R"
    assert "A BUR" not in retreat.state.units["FRANCE"]
    assert retreat.state.retreats["FRANCE"] == {"A BUR": ("BEL", "GAS", "MAR", "PAR", "PIC")}
    # the unprocessed last phase has no orders (MILA writes null)
    assert all(not o for o in scripted.phases[-1].orders.values())


def test_positions_are_mila_states_in_standoff_names() -> None:
    game = _one(SCRIPTED)
    standard = variant_for(game.rules)
    pos = position_from_state(game.phases[0].state, standard, game.where())
    assert pos.phase.name(standard.calendar) == "S1901M"
    assert pos.unit_at("stp") == Unit("russia", UnitType.FLEET, "stp/sc")
    assert pos.centres["stp"] == "russia"


# -- replay and the disagreement report ------------------------------------------------------


def test_random_games_agree_except_the_known_convoy_fallback() -> None:
    """MILA's random play asks for convoys nobody gives: where such an army is ordered
    to an adjacent province, MILA moves it by land and standoff does not (DATC 4.A.3,
    6.G.8). Every other phase agrees, retreat phases included."""
    replays = [replay(g) for g in read_saved_games(RANDOM)]
    assert [r.compared for r in replays] == [14, 14, 14]
    assert [len(r.disagreements) for r in replays] == [2, 0, 2]
    causes = {d.cause for r in replays for d in r.disagreements}
    assert causes == {"convoy-fallback-to-land"}


def test_scripted_game_convoy_retreat_builds_agree_and_6g8_is_reported() -> None:
    r = replay(_one(SCRIPTED))
    # S1901M, F1901M (a convoy Yorkshire - Norway; Burgundy dislodged), F1901R (the
    # retreat), W1901A (builds), S1902M agree; F1902M is DATC 6.G.8
    assert r.compared == 6 and r.agreed == 5
    [d] = r.disagreements
    assert d.phase == "F1902M"
    assert d.lines == ("units: MILA only FRANCE A POR; standoff only FRANCE A SPA",)
    assert d.cause == "convoy-fallback-to-land"
    [cause] = d.causes
    assert cause is CAUSES["convoy-fallback-to-land"]
    assert "6.G.8" in cause.datc and cause.standoff_right
    text = r.report()
    assert "F1902M: differs" in text and "DATC 4.A.3, 6.G.8, 6.G.20" in text
    assert "(standoff right)" in text
    assert r.to_dict()["disagreements"][0]["datc"] == ["DATC 4.A.3", "6.G.8", "6.G.20"]
    # the record: MILA's positions with standoff's results; the convoy succeeded
    f1901 = r.record.history[1]
    convoyed = [x for x in f1901.results if str(x.order) == "A YOR - NWY VIA CONVOY"]
    assert convoyed and convoyed[0].success


#: the minimal cases of tests/cases/bench/diplomacy_differences.txt, each played by MILA
#: from the case's position: the cause standoff names for MILA's different result
DIFFERENCE_CAUSES = {
    # DATC 4.A.3, 6.G.8: no fallback to the land route
    "bench: via convoy with no convoy, no land fallback": "convoy-fallback-to-land",
    "bench: failed via-convoy move does not bounce": "convoy-fallback-to-land",
    "bench: convoy intent by own fleet, convoy not given, no land fallback":
        "convoy-fallback-to-land",
    # DATC 6.D.12; then MILA's retreats after a convoyed attack (4.A.5)
    "bench: no help to dislodge own unit by a convoyed army":
        "self-support-dislodges-via-convoy + retreat-anywhere-after-convoy",
    # DATC 6.D.12 with 6.F
    "bench: own support on attack on convoying fleet does not disrupt the convoy":
        "self-support-disrupts-convoy",
    # DATC 6.E.3, 6.E.15, 5.B
    "bench: friendly supports in a head-to-head battle": "self-support-in-head-to-head",
    # DATC 4.A.5, 6.H.11
    "bench: dislodged by a convoy, retreat still only to empty provinces":
        "retreat-anywhere-after-convoy",
}


def test_every_known_cause_is_named_on_mila_own_results() -> None:
    games = read_saved_games(DATA / "differences.jsonl")
    assert {g.id for g in games} == set(DIFFERENCE_CAUSES)
    for game in games:
        r = replay(game)
        [d] = r.disagreements
        assert d.phase == game.phases[0].name
        assert d.cause == DIFFERENCE_CAUSES[game.id], (game.id, d.lines)
        assert all(c.standoff_right for c in d.causes)
        assert all(ref.startswith("DATC ") for c in d.causes for ref in c.datc[:1])


def test_build_any_rule_is_honoured_and_matters() -> None:
    """MILA's BUILD_ANY lets France build in Spain, not a home centre: replayed on
    Standard with owned-centre builds every phase agrees; the same game read as plain
    Standard differs at the build (Standard rule: home centres only, DATC 6.I.2)."""
    r = replay(_one(BUILD_ANY))
    assert r.variant.name == "standard-build-any"
    assert r.compared == 6 and not r.disagreements
    assert any("BUILD_ANY" in n for n in r.notes)
    plain = _raw(BUILD_ANY)
    plain["rules"] = ["NO_PRESS"]
    r2 = replay(saved_game_from_dict(plain, "plain"))
    [d] = r2.disagreements
    assert d.phase == "W1902A" and d.cause == "unexplained"
    assert "MILA only FRANCE A SPA" in d.lines[0]


def test_unknown_rule_is_noted() -> None:
    data = _raw(SCRIPTED)
    data["rules"] = ["NO_PRESS", "SOMETHING_NEW"]
    r = replay(saved_game_from_dict(data, "x"))
    assert r.notes == ["rule SOMETHING_NEW: unknown to standoff, its effect (if any) is not "
                       "modelled"]


def test_retreat_position_rebuilt_from_mila_lists() -> None:
    """MILA keeps only where each dislodged unit may go; standoff rebuilds the
    attacker's origin and the stand-offs from that (DATC 6.H: retreat rules), exactly."""
    rebuilt = []
    for game in read_saved_games(RANDOM):
        standard = variant_for(game.rules)
        for ph in game.phases:
            if ph.name.endswith("R"):
                pos = position_from_state(ph.state, standard, game.where(ph.name))
                assert pos.phase.kind is PhaseKind.RETREAT and pos.dislodged
                assert state_of_position(pos, standard) == state_of_mila(ph.state)
                rebuilt.append(ph.name)
    assert rebuilt == ["S1902R", "S1905R"]


def test_civil_disorder_removals_are_a_rule_option() -> None:
    """Italy must remove a unit and sends no orders: MILA removes by the 1982 rulebook
    (distance to a home centre), standoff by default by the 2023 one (to any owned
    centre); DATC 4.D.8 leaves it to a rule option. Replayed with MILA's choice, the
    phase agrees."""
    game = _one(CIVIL_DISORDER)
    [d] = replay(game).disagreements
    assert d.phase == "W1901A"
    assert d.lines == ("units: MILA only ITALY A PIE; standoff only ITALY F TYS",)
    assert d.cause == "civil-disorder-removals-1982"
    [cause] = d.causes
    assert cause.datc == ("DATC 4.D.8",) and cause.standoff_right is None
    assert "a rule option" in cause.describe()
    again = replay(game, Options(civil_disorder="1982"))
    assert again.compared == 3 and not again.disagreements


# -- export and round trips --------------------------------------------------------------------


def test_standoff_game_round_trip_through_mila_json() -> None:
    """standoff -> MILA JSON -> standoff: the same position at every phase (retreat
    phases included), the same orders (in MILA's notation), and standoff agrees with
    itself on every phase."""
    kinds = set()
    for seed in range(4):
        record = _played(seed, 40)
        kinds |= {h.position.phase.kind for h in record.history}
        text = json.dumps(to_saved_game(record, f"rt-{seed}"))
        [game] = saved_games_from_text(text, "rt.json")
        r = replay(game)
        assert r.compared == len(record.history) and not r.disagreements and not r.notes
        for a, b in zip(record.history, r.record.history, strict=True):
            assert a.position == b.position
            mine = {p: [mila_order(o, a.position) for o in os if o.kind != "waive"]
                    for p, os in a.orders.items()}
            theirs = {p: [mila_order(o, b.position) for o in os]
                      for p, os in b.orders.items()}
            assert {p: o for p, o in mine.items() if o} == theirs
        assert r.record.position == record.position
    assert kinds == {PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT}


def test_mila_game_round_trip_keeps_every_state() -> None:
    """MILA JSON -> standoff (saved game file) -> MILA JSON: every phase's units,
    retreats and centres as MILA recorded them."""
    for path in (SCRIPTED, RANDOM):
        for game in read_saved_games(path):
            record = replay(game).record
            record = storage.loads_record(storage.dumps(record))
            again = saved_game_from_dict(to_saved_game(record, game.id), "again")
            assert [p.name for p in again.phases] == [p.name for p in game.phases]
            for a, b in zip(game.phases, again.phases, strict=True):
                assert state_of_mila(a.state) == state_of_mila(b.state), a.name


def test_export_has_the_structure_of_mila_files() -> None:
    mila = _raw(SCRIPTED)
    ours = to_saved_game(_played(2, 12), "ours")
    assert set(ours) == set(mila)
    assert ours["map"] == "standard"
    for theirs_phase, our_phase in zip(mila["phases"], ours["phases"], strict=False):
        assert set(our_phase) >= set(theirs_phase) - {"messages"}
        assert set(our_phase["state"]) == set(theirs_phase["state"])
        for key in ("units", "retreats", "centers", "homes", "builds", "civil_disorder"):
            assert set(our_phase["state"][key]) == set(theirs_phase["state"][key])
        assert set(our_phase["orders"]) == set(theirs_phase["orders"])
    assert ours["phases"][0]["state"]["units"] == {
        p: sorted(us) for p, us in mila["phases"][0]["state"]["units"].items()}
    assert ours["phases"][0]["state"]["homes"] == mila["phases"][0]["state"]["homes"]
    names = [p["name"] for p in ours["phases"]]
    assert all(re.fullmatch(r"[SFW]\d{4}[MRA]", n) for n in names)
    unit = re.compile(r"\*?[AF] [A-Z]{3}(/[NESW]C)?")
    order = re.compile(r"[AF] [A-Z]{3}(/[NESW]C)? ([HBD]|- [A-Z]{3}(/[NESW]C)?( VIA)?|"
                       r"R [A-Z]{3}(/[NESW]C)?|S [AF] [A-Z]{3}(/[NESW]C)?( - [A-Z]{3})?|"
                       r"C A [A-Z]{3} - [A-Z]{3})")
    for ph in ours["phases"]:
        for units in ph["state"]["units"].values():
            assert all(unit.fullmatch(u) for u in units), units
        for items in ph["orders"].values():
            assert all(order.fullmatch(o) for o in items), items
        for result in ph["results"].values():
            assert set(result) <= {"bounce", "void", "cut", "dislodged", "no convoy",
                                   "disband"}


def test_finished_game_ends_with_mila_completed_phase() -> None:
    game = Game.from_record(_played(3, 6))
    game.declare_draw()
    data = to_saved_game(game.record, "draw")
    assert data["phases"][-1]["name"] == "COMPLETED"
    [again] = saved_games_from_text(json.dumps(data), "draw.json")
    r = replay(again)
    assert r.compared == 6 and not r.disagreements
    assert r.record.position == game.record.position


def test_export_refuses_a_variant_without_a_mila_map() -> None:
    with pytest.raises(MilaError, match="variant 'sahara' has no MILA map"):
        to_saved_game(GameRecord.new("sahara"))


# -- malformed input ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "message"), [
    ("[1, 2]\nnot json\n", "bad.json:1: a saved game is a JSON object, not a list"),
    ("\n\n", "bad.json: no game in the file"),
    ('{"id": "g", "map": "modern", "phases": []}', "bad.json:1: game g: map 'modern' is not "
                                                   "supported"),
    ('{"id": "g", "phases": []}', "bad.json:1: game g: no 'phases' list"),
    ('{"id": "g", "phases": [{"name": "S1901M", "state": []}]}',
     "bad.json:1: game g, phase S1901M: the phase has no 'state' object"),
    ('{"id": "g", "phases": [{"name": "S1901M", "state": {"units": {"FRANCE": "A PAR"}, '
     '"centers": {}}}]}', "game g, phase S1901M: units of FRANCE must be a list of strings"),
    ('{"id": "g", "phases": [{"name": "X1901M", "state": {"units": {}, "centers": {}}}]}',
     "game g, phase X1901M: 'X1901M' is not a phase name"),
    ('{"id": "g", "phases": [{"name": "S1901M", "state": {"units": {"FRANCE": ["A XYZ"]}, '
     '"centers": {}}}]}', "game g, phase S1901M:"),
])
def test_malformed_games_are_one_line_errors(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(MilaError) as info:
        for game in read_saved_games(path):
            replay(game)
    assert message in str(info.value)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "standoff", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=60)


def test_cli_import_report_save_and_export(tmp_path: Path) -> None:
    r = _cli("mila", "import", str(SCRIPTED), "--report", "-o", "game.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "6 phases replayed, 5 agree, 1 differ" in r.stdout
    assert "cause convoy-fallback-to-land" in r.stdout and "6.G.8" in r.stdout
    assert storage.load(tmp_path / "game.json").phase_name == "W1902A"
    r = _cli("mila", "export", "game.json", "-o", "out.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "wrote out.json: 7 phases\n"
    [game] = read_saved_games(tmp_path / "out.json")
    assert game.id == "game" and len(game.phases) == 7
    r = _cli("mila", "import", str(CIVIL_DISORDER), "--option", "civil_disorder=1982",
             cwd=tmp_path)
    assert r.stdout == "civil_disorder.json:1: game civil-disorder-0: 3 phases replayed, " \
                       "3 agree, 0 differ\n"
    r = _cli("mila", "import", str(RANDOM), cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == \
        "3 games: 42 phases replayed, 38 agree, 4 differ"


@pytest.mark.parametrize(("args", "message", "code"), [
    (("mila", "import", "missing.json"), "error: No such file or directory", 2),
    (("mila", "import", "bad.json"), "error: bad.json:2: not a JSON saved game", 2),
    (("mila", "import", str(RANDOM), "-o", "x.json"), "3 games; -o saves one", 2),
    (("mila", "import", str(RANDOM), "--game", "nope"), "no game with id 'nope'", 2),
    (("mila", "import", str(SCRIPTED), "--option", "bogus=1"), "unknown option 'bogus'", 2),
    (("mila", "export", "sahara.json", "-o", "x.json"), "variant 'sahara' has no MILA map", 2),
    # not a standoff game file: the saved-game reader's "corrupt game" exit code
    (("mila", "export", "bad.json", "-o", "x.json"), "error: bad.json is not valid JSON", 4),
])
def test_cli_errors_are_one_line(args: tuple[str, ...], message: str, code: int,
                                 tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(SCRIPTED.read_text() + "{oops\n")
    storage.create(GameRecord.new("sahara"), tmp_path / "sahara.json")
    r = _cli(*args, cwd=tmp_path)
    assert r.returncode == code, r.stderr
    assert r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_the_summary_counts_one_phase_in_the_singular() -> None:
    assert tally(1, 1, 0) == "1 phase replayed, 1 agree, 0 differ"
    assert tally(42, 38, 4) == "42 phases replayed, 38 agree, 4 differ"
