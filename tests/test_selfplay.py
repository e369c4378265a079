"""Self-play: the core's batch API (``GameBatch``), the ``standoff.selfplay`` wing
(local processes and Ray) and ``standoff selfplay`` run as a real process.

The batch must not be a second rule engine: a batch game is held to be the same
record as the game played one phase at a time through the record API with the
same orders. Runs must be reproducible (same seed, same games, whatever the
number of workers), and what is written must read back and replay.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from standoff import (
    GameBatch,
    GameRecord,
    GameStateError,
    IllegalOrderError,
    Position,
    VariantError,
    available_variants,
    bots,
    declare_draw,
    game_rng,
    legal_orders,
    load_variant,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    random_orders,
    submit_orders,
    surviving_powers,
)
from standoff.selfplay import (
    SelfPlayError,
    bot_seed,
    plan,
    play_batch,
    replay,
    run_local,
    run_ray,
    stored_game,
)

BIN = Path(sys.executable).parent / "standoff"
#: one name per bundled variant file (the registry also lists aliases)
VARIANTS = sorted({load_variant(n).name for n in available_variants()})


def play_one_by_one(variant: str, seed: int, index: int, max_year: int,
                    move_bias: float) -> GameRecord:
    """The reference: a random game through the record API, a phase at a time."""
    rng = game_rng(seed, index)
    r = GameRecord.new(variant)
    while r.outcome is None and r.position.phase.year <= max_year:
        for power, orders in random_orders(r.position, rng, move_bias, r.options,
                                           r.variant).items():
            r = submit_orders(r, power, orders)
        r = process_phase(r)[0]
    if r.outcome is None and len(surviving_powers(r)) >= 2:
        r = declare_draw(r)
    return r


def first_year(variant: str) -> int:
    return Position.initial(load_variant(variant)).phase.year


# -- the batch API ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_batch_game_is_the_game_played_one_phase_at_a_time(variant: str) -> None:
    year = first_year(variant) + (5 if variant == "standard" else 1)
    batch = GameBatch.new(3, variant, max_year=year)
    phases = batch.play_random([game_rng(7, i) for i in range(3)], 0.7)
    assert batch.all_over and phases == sum(len(r.history) for r in batch.records)
    for i, record in enumerate(batch.records):
        alone = play_one_by_one(variant, 7, i, year, 0.7)
        assert record == alone
        assert record.to_dict() == alone.to_dict()
    assert all(r.history for r in batch.records)  # games did happen


def test_step_checks_given_orders_like_submit_orders() -> None:
    batch = GameBatch.new(2)
    legal = batch.legal_orders()
    assert sorted(legal) == [0, 1] and "france" in legal[0]
    orders = {0: {"france": ["A PAR - BUR", "A MAR S A PAR - BUR"], "germany": ["A MUN - BUR"]}}
    assert batch.step(orders) == []
    alone = GameRecord.new("standard")
    for power, given in orders[0].items():
        alone = submit_orders(alone, power, given)
    assert batch.record(0) == process_phase(alone)[0]
    assert batch.record(0).position.unit_at("bur") is not None
    # game 1 had no orders: every unit held, civil disorder
    assert batch.record(1).position.units == GameRecord.new("standard").position.units
    assert batch.phases == 2


def test_a_bad_order_moves_no_game() -> None:
    batch = GameBatch.new(2)
    before = batch.records
    with pytest.raises(IllegalOrderError):
        batch.step({0: {"france": ["A PAR - BUR"]}, 1: {"france": ["A PAR - MUN"]}})
    assert batch.records == before and batch.phases == 0
    with pytest.raises(IndexError, match="no game 5"):
        batch.step({5: {}})


def test_caps_end_games_in_a_draw_and_finished_games_take_no_orders() -> None:
    batch = GameBatch.new(2, max_phases=3)
    rngs = [game_rng(1, 0), game_rng(1, 1)]
    assert batch.step_random(rngs) == []
    assert batch.step_random(rngs) == []
    assert batch.step_random(rngs) == [0, 1]
    assert batch.live() == [] and batch.all_over
    for i in range(2):
        assert batch.capped(i) and batch.is_over(i)
        assert len(batch.record(i).history) == 3
        assert batch.record(i).draw == tuple(surviving_powers(batch.record(i)))
    assert batch.step_random(rngs) == [] and batch.phases == 6  # nothing left to step
    with pytest.raises(GameStateError, match="game 1 is over"):
        batch.step({1: {}})
    with pytest.raises(ValueError, match="needs a cap"):
        GameBatch.new(1).play_random([game_rng(1, 0)])
    with pytest.raises(ValueError, match="2 random generators for 1 games"):
        GameBatch.new(1).step_random(rngs)


def test_a_game_already_past_its_cap_is_not_played() -> None:
    start = GameRecord.new("standard")
    batch = GameBatch([start], max_year=1900)
    assert batch.capped(0) and batch.record(0).draw is not None
    assert batch.legal_orders() == {}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_to_its_cap(variant: str) -> None:
    year = first_year(variant) + 1
    batch = GameBatch.new(2, variant, max_year=year)
    batch.play_random([game_rng(3, 0), game_rng(3, 1)], 0.7)
    for record in batch.records:
        assert record.is_over
        assert record.winner is not None or record.position.phase.year == year + 1
        assert all(r.position.phase.year <= year for r in record.history)


def test_the_same_seed_gives_the_same_games_and_another_seed_others() -> None:
    def games(seed: int) -> list[GameRecord]:
        batch = GameBatch.new(2, max_year=1903)
        batch.play_random([game_rng(seed, i) for i in range(2)], 0.7)
        return batch.records

    assert games(5) == games(5)
    assert games(5) != games(6)
    assert game_rng(1, 12).random() != game_rng(11, 2).random()  # no (seed, index) aliasing


# -- the selfplay wing ----------------------------------------------------------------------------


def lines_by_index(results: Any) -> dict[int, str]:
    out: dict[int, str] = {}
    for result in results:
        for game in result.games:
            assert game.line is not None
            out[game.index] = game.line
    return out


def test_the_games_do_not_depend_on_the_number_of_workers() -> None:
    settings = plan(5, seed=4, max_year=1903, batch_size=2)
    alone = lines_by_index([play_batch(settings, 0, 5)])
    assert lines_by_index(run_local(settings, 1)) == alone
    assert lines_by_index(run_local(settings, 2)) == alone
    bigger = plan(5, seed=4, max_year=1903, batch_size=3)
    assert lines_by_index(run_local(bigger, 2)) == alone


def test_a_stored_game_reads_back_and_replays() -> None:
    settings = plan(3, "standard", seed=9, max_year=1904, move_bias=0.5)
    result = play_batch(settings, 10, 3)
    assert [g.index for g in result.games] == [10, 11, 12]
    for game in result.games:
        assert game.line is not None and "\n" not in game.line
        data = json.loads(game.line)
        assert data["index"] == game.index and data["seed"] == 9
        assert data["end"] == game.end == "draw" and data["phases"] == game.phases
        record = stored_game(data)
        assert record.to_dict() == data["game"]
        assert replay(data) == record == play_one_by_one("standard", 9, game.index, 1904, 0.5)
        # the stored orders, submitted again a phase at a time, reach the same position
        again = GameRecord.new("standard")
        for phase in record.history:
            assert phase.position == again.position
            for power, orders in phase.orders.items():
                again = submit_orders(again, power, orders)
            again = process_phase(again)[0]
        assert again.position == record.position


def test_settings_are_checked() -> None:
    with pytest.raises(SelfPlayError, match="--games must be at least 1"):
        plan(0)
    with pytest.raises(SelfPlayError, match="probability"):
        plan(1, move_bias=1.5)
    with pytest.raises(SelfPlayError, match="before 1939-iv's first year, 1939"):
        plan(1, "1939-iv", max_year=1920)
    with pytest.raises(VariantError, match="bundled ones"):
        plan(1, "my-variant.toml")
    assert plan(1, "twin").variant == "twin-earths"
    assert plan(1, "1939").max_year == 1939 + 19
    with pytest.raises(SelfPlayError, match="--workers must be at least 1"):
        run_local(plan(1), 0)
    with pytest.raises(SelfPlayError, match=r"unknown bot 'nope' \(bots: random, heuristic"):
        plan(1, bot="nope")
    assert plan(1, bot="heuristic").bot == "heuristic" and plan(1).bot is None


# -- self-play with a bot -------------------------------------------------------------------------


def play_bot_by_hand(variant: str, seed: int, index: int, max_year: int, bot: str
                     ) -> GameRecord:
    """The reference: the bot at every power through the record API, every power
    asked about the same record before any order of the phase is given."""
    player = bots.load(bot, seed=bot_seed(seed, index))
    r = GameRecord.new(variant)
    while r.outcome is None and r.position.phase.year <= max_year:
        asked = r
        for power in sorted(set(powers_to_order(asked)) | set(powers_that_may_order(asked))):
            orders = player.orders(asked, power)
            if orders:
                r = submit_orders(r, power, orders)
        r = process_phase(r)[0]
    if r.outcome is None and len(surviving_powers(r)) >= 2:
        r = declare_draw(r)
    return r


def test_bot_games_are_the_bots_games_and_replay() -> None:
    settings = plan(3, "standard", seed=4, max_year=1903, bot="heuristic", batch_size=2)
    result = play_batch(settings, 0, 3)
    for game in result.games:
        assert game.line is not None and game.refused == 0
        data = json.loads(game.line)
        assert data["bot"] == "heuristic" and data["end"] == game.end == "draw"
        record = stored_game(data)
        assert record == play_bot_by_hand("standard", 4, game.index, 1903, "heuristic")
        assert replay(data) == record
        # every power gave orders in the opening (no civil disorder)
        assert set(record.history[0].orders) == set(record.variant.powers)
    random_games = play_batch(plan(3, "standard", seed=4, max_year=1903), 0, 3)
    assert [json.loads(g.line or "")["game"] for g in random_games.games] != \
        [json.loads(g.line or "")["game"] for g in result.games]


def test_bot_games_do_not_depend_on_the_workers_and_follow_the_seed() -> None:
    settings = plan(4, seed=2, max_year=1902, bot="random", batch_size=1)
    alone = lines_by_index([play_batch(settings, 0, 4)])
    assert lines_by_index(run_local(settings, 2)) == alone
    again = lines_by_index([play_batch(plan(4, seed=2, max_year=1902, bot="random"), 0, 4)])
    assert again == alone
    other = lines_by_index([play_batch(plan(4, seed=3, max_year=1902, bot="random"), 0, 4)])
    assert other != alone


def test_the_ray_backend_plays_the_same_games() -> None:
    pytest.importorskip("ray")
    settings = plan(3, seed=2, max_year=1902, batch_size=2)
    assert lines_by_index(run_ray(settings, 2)) == lines_by_index([play_batch(settings, 0, 3)])


def test_without_ray_the_error_names_the_extra() -> None:
    code = ("import sys; sys.modules['ray'] = None\n"
            "from standoff.cli import main\n"
            "sys.argv = ['standoff', 'selfplay', '-n', '1', '--ray', '-o', '-']\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr == ("error: the Ray backend needs the 'ray' extra: "
                        "pip install 'standoff[ray]'\n")


# -- the command ----------------------------------------------------------------------------------


def standoff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, timeout=120)


def test_the_command_writes_one_line_per_game(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    r = standoff("selfplay", "-n", "5", "-w", "2", "--max-year", "1903", "--seed", "3",
                 "--batch", "2", "-o", str(out), "--no-progress")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    summary = r.stderr.strip()
    assert summary.startswith("5 games, ") and "0 won, 5 drawn at the 1903 cap" in summary
    lines = out.read_text().splitlines()
    data = {json.loads(line)["index"]: json.loads(line) for line in lines}
    assert sorted(data) == [0, 1, 2, 3, 4]
    total = sum(d["phases"] for d in data.values())
    assert f" {total:,} phases in " in summary
    expected = lines_by_index([play_batch(plan(5, seed=3, max_year=1903), 0, 5)])
    assert {i: json.dumps(d, separators=(",", ":")) for i, d in data.items()} == expected


def test_the_command_plays_a_bot_and_reports_phases_per_second() -> None:
    r = standoff("selfplay", "-n", "2", "-w", "1", "--bot", "heuristic", "--max-year", "1902",
                 "--seed", "7", "-o", "-", "--no-progress")
    assert r.returncode == 0, r.stderr
    games = [json.loads(line) for line in r.stdout.splitlines()]
    assert [g["bot"] for g in games] == ["heuristic", "heuristic"]
    phases = sum(g["phases"] for g in games)
    summary = r.stderr.strip()
    assert summary.startswith(f"2 games, {phases:,} phases in ")
    assert " phases/s; 0 won, 2 drawn at the 1902 cap" in summary
    assert summary.endswith("; the heuristic bot at every power")
    expected = lines_by_index([play_batch(plan(2, seed=7, max_year=1902, bot="heuristic"),
                                          0, 2)])
    assert {g["index"]: json.dumps(g, separators=(",", ":")) for g in games} == expected


def test_the_command_writes_to_stdout_any_variant(tmp_path: Path) -> None:
    r = standoff("selfplay", "-n", "2", "-w", "1", "--variant", "sahara", "--max-year", "1902",
                 "-o", "-", "--no-progress")
    assert r.returncode == 0, r.stderr
    games = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(games) == 2 and {g["variant"] for g in games} == {"sahara"}
    assert all(stored_game(g).is_over for g in games)


@pytest.mark.parametrize(("args", "message"), [
    (["-n", "0"], "error: --games must be at least 1 (got 0)"),
    (["-w", "0"], "error: --workers must be at least 1 (got 0)"),
    (["--variant", "nope"], "error: unknown variant 'nope': self-play plays the bundled ones"),
    (["--move-bias", "-1"], "error: --move-bias is a probability, from 0 to 1 (got -1.0)"),
    (["--batch", "0"], "error: --batch must be at least 1 (got 0)"),
    (["--bot", "nope"], "error: unknown bot 'nope' (bots: random, heuristic"),
    (["-o", "/nonexistent-dir/games.jsonl"], "error: No such file or directory: "
                                             "/nonexistent-dir/games.jsonl"),
])
def test_bad_settings_are_one_line_errors(args: list[str], message: str) -> None:
    base = {"-n": "1", "-o": "-"}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    r = standoff("selfplay", *[x for kv in base.items() for x in kv], "--no-progress")
    assert r.returncode == 2
    assert r.stderr.startswith(message) and r.stderr.count("\n") == 1, r.stderr
    assert r.stdout == ""


def test_ctrl_c_keeps_the_games_written(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen([str(BIN), "selfplay", "-n", "400", "-w", "2", "--batch", "1",
                             "--max-year", "1930", "-o", str(out), "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size == 0):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    text = out.read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert 1 <= len(lines) < 400
    assert stderr.strip() == f"interrupted: {len(lines)} of 400 games written to {out}"
    for line in lines:
        assert stored_game(json.loads(line)).is_over


def test_legal_orders_are_those_of_each_live_game() -> None:
    batch = GameBatch.new(2, max_phases=1)
    batch.step_random([game_rng(1, 0), game_rng(1, 1)])
    assert batch.legal_orders() == {}
    fresh = GameBatch([GameRecord.new("standard"), batch.record(0)])
    assert fresh.legal_orders() == {0: legal_orders(Position.initial(load_variant("standard")))}
