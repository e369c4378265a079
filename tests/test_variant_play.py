"""Every bundled variant, played for years with random legal orders.

After every phase the position must still be one the rules can reach: no two
units in one space, every unit on a space its type may stand on (on the map
in force in that phase), every owned centre a supply centre of that map,
no more owned centres than the map has, and after an adjustment phase no
power with more units than centres. ``standoff check-variant`` must pass for
every bundled variant, and the CLI must play each one from ``standoff new``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from standoff import storage
from standoff.cli import cli
from standoff.core.game import Game
from standoff.core.legal_orders import random_orders
from standoff.core.phase import PhaseKind
from standoff.core.variant import available_variants, load_variant
from standoff.core.variant_check import check_variant

VARIANTS = sorted({load_variant(str(p)).name for p in available_variants().values()})


def test_the_five_variants_and_standard_are_bundled() -> None:
    assert {"standard", "sahara", "twin-earths", "city-country", "twentieth-century",
            "1939-iv"} <= set(VARIANTS)


@pytest.mark.parametrize("name", VARIANTS)
def test_check_variant_passes(name: str) -> None:
    assert check_variant(load_variant(name)) == []


def _play(g: Game, rng: random.Random, years: int) -> int:
    """Random legal orders (moves preferred) until ``years`` have passed; returns
    the number of phases played. Checks the invariants after every phase."""
    v = g.variant
    end = g.position.phase.year + years
    phases = 0
    while not g.is_over and g.position.phase.year < end:
        for pid, picks in random_orders(g.position, rng, 0.8, g.options, v).items():
            g.submit(pid, picks)
        before = g.position.phase
        g.process()
        phases += 1
        pos = g.position
        board = v.board_at(pos.phase)
        pos.check(v)  # one unit a space, each on a space it can stand on
        provinces = [u.province for u in pos.units if u.province not in board.high_seas]
        assert len(provinces) == len(set(provinces))
        for u in pos.units:
            if u.province in board.high_seas:
                assert u.type.value == "F", u  # high seas hold fleets only (1939 IV 5.1)
        for c in pos.centres:
            assert board.provinces[c].supply_centre, (c, pos.phase)
        assert len(pos.centres) <= sum(1 for p in board.provinces.values() if p.supply_centre)
        if before.kind is PhaseKind.ADJUSTMENT:
            counts = pos.centre_counts()
            for power in v.powers:
                assert len(pos.units_of(power)) <= counts.get(power, 0), (power, before)
        assert (pos.phase.kind is PhaseKind.RETREAT) == bool(pos.dislodged)
    return phases


@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_keep_the_invariants(name: str) -> None:
    for seed in (1, 2):
        g = Game.new(name)
        assert _play(g, random.Random(seed), 8) > 10


def test_sahara_random_game_ends_after_between_summers_1911() -> None:
    """Sahara rule 7: the game ends after Between Summers 1911, winner or not."""
    for seed in (3, 4):
        g = Game.new("sahara")
        _play(g, random.Random(seed), 20)
        assert g.is_over and g.draw is None
        last = g.history[-1].position.phase
        assert last.year == 1911
        ice = g.position.unit_at("ice")
        assert (g.winner == ice.power) if ice else g.no_winner


def _cli_turn(runner: CliRunner, game: str, rng: random.Random) -> str:
    """Every power sends random legal orders through the CLI; then process."""
    g = storage.load(game)
    for pid, orders in random_orders(g.position, rng, 0.0, g.options, g.variant).items():
        picks = [str(o) for o in orders]
        res = runner.invoke(cli, ["orders", game, pid, *picks])
        assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["process", game])
    assert res.exit_code == 0, res.output
    return res.output


@pytest.mark.parametrize("name", ["sahara", "twin-earths", "city-country", "twentieth-century",
                                  "1939-iv"])
def test_cli_plays_a_variant_from_new(name: str, tmp_path: Path) -> None:
    """`standoff new --variant NAME`, then orders and process through the CLI."""
    runner = CliRunner()
    game = str(tmp_path / "g.json")
    out = runner.invoke(cli, ["new", game, "--variant", name])
    assert out.exit_code == 0, out.output
    rng = random.Random(7)
    for _ in range(8):
        assert "now:" in _cli_turn(runner, game, rng)
    shown = runner.invoke(cli, ["show", game])
    assert shown.exit_code == 0 and name in shown.output


def test_cli_plays_sahara_to_its_end(tmp_path: Path) -> None:
    """Sahara rule 7 from the CLI: the game ends after Between Summers 1911."""
    runner = CliRunner()
    game = str(tmp_path / "g.json")
    assert runner.invoke(cli, ["new", game, "--variant", "sahara"]).exit_code == 0
    rng = random.Random(11)
    for _ in range(60):
        output = _cli_turn(runner, game, rng)
        if "game over" in output:
            break
    assert "game over" in output
    g = storage.load(game)
    assert g.is_over and g.history[-1].position.phase.year == 1911


def _new_from(tmp_path: Path, variant: str, start: str) -> tuple[CliRunner, str]:
    """`standoff new --variant V --position FILE` on a compact position text."""
    path = tmp_path / "start.txt"
    path.write_text(start)
    runner = CliRunner()
    game = str(tmp_path / "g.json")
    res = runner.invoke(cli, ["new", game, "--variant", variant, "--position", str(path)])
    assert res.exit_code == 0, res.output
    return runner, game


def test_cli_twin_earths_game_reaches_its_victory(tmp_path: Path) -> None:
    """Twin Earths rule 4 from the CLI: 35 units when the Winter ends wins."""
    v = load_variant("twin-earths")
    centres = [*sorted(v.supply_centres - {"war1"})[:34], "war1"]
    units = ", ".join(f"A {c.upper()}" for c in centres if c != "war1")
    owned = " ".join(c.upper() for c in centres)
    start = f"twin-earths | F1905M | russia: {units} | russia: {owned} | - | -"
    runner, game = _new_from(tmp_path, "twin", start)
    assert "now: Winter 1905" in runner.invoke(cli, ["process", game]).output
    assert runner.invoke(cli, ["orders", game, "russia", "Build A war1"]).exit_code == 0
    output = runner.invoke(cli, ["process", game]).output
    assert "game over: Russia wins (35 units" in output


def test_cli_city_country_game_reaches_its_victory(tmp_path: Path) -> None:
    """City/Country: 18 centres (Standard's condition) from the CLI, taking a
    City from its own Country (.52)."""
    v = load_variant("city-country")
    mine = sorted(c for c in v.supply_centres if c not in ("hol*", "bel*"))[:17]
    units = ", ".join(["A HOL", *(f"A {c.upper()}" for c in mine)])
    start = (f"city-country | F1901M | russia: {units} | russia: "
             f"{' '.join(c.upper() for c in mine)} | - | -")
    runner, game = _new_from(tmp_path, "city-country", start)
    assert runner.invoke(cli, ["orders", game, "russia", "A Holland - Amsterdam"]).exit_code == 0
    output = runner.invoke(cli, ["process", game]).output
    assert "game over: Russia wins (18 supply centres)" in output


def _near_victory(name: str, power: str, need: int, phase: str) -> tuple[str, str]:
    """A position where ``power`` owns ``need - 1`` centres and has one army next
    to an unowned centre: (compact position text, the army's move)."""
    v = load_variant(name)
    board = v.board
    homes = v.powers[power].home_centres
    home, target = next(
        (h, t) for h in sorted(homes) if board.provinces[h].is_land
        for t in sorted(board.army_links.get(h, ()))
        if board.provinces[t].supply_centre and t not in homes
    )
    others = sorted(v.supply_centres - {home, target})
    owned = [home, *others[: need - 2]]
    start = (f"{name} | {phase} | {power}: A {home.upper()} | {power}: "
             f"{' '.join(c.upper() for c in owned)} | - | -")
    return start, f"A {home} - {target}"


def test_cli_1939_iv_game_reaches_its_victory(tmp_path: Path) -> None:
    """1939 IV 6.1 from the CLI: twenty supply centres win."""
    start, move = _near_victory("1939-iv", "italy", 20, "F1939M")
    runner, game = _new_from(tmp_path, "1939-iv", start)
    assert runner.invoke(cli, ["orders", game, "italy", move]).exit_code == 0
    output = runner.invoke(cli, ["process", game]).output
    assert "game over: Italy wins (20 supply centres)" in output


def test_cli_twentieth_century_victory_comes_at_the_start_of_fall(tmp_path: Path) -> None:
    """20th Victory Conditions from the CLI: 74 centres "at the beginning of a Fall
    turn". Britain takes its 74th in Fall 1933; it has not won after that Fall,
    nor after the Winter or the Spring's moves until the Fall 1934 turn begins."""
    start, move = _near_victory("twentieth-century", "britain", 74, "F1933M")
    runner, game = _new_from(tmp_path, "20th", start)
    assert runner.invoke(cli, ["orders", game, "britain", move]).exit_code == 0
    output = runner.invoke(cli, ["process", game]).output
    assert "game over" not in output and "now: Winter 1933" in output
    assert storage.load(game).position.centre_counts()["britain"] == 74
    output = runner.invoke(cli, ["process", game]).output
    assert "game over" not in output and "now: Spring 1934" in output
    output = runner.invoke(cli, ["process", game]).output
    assert "game over: Britain wins (74 supply centres at the beginning of a Fall turn)" \
        in output
