"""The playtest: a designer's balance report from bot games (``standoff.playtest`` and
``standoff playtest``).

The report's figures must add up (every game ends one way; a power's draws and
wins within the games; centres within the map's), a stuck unit must be found
and an ordinary map must show none, the same seed must give the same report
whatever the number of workers, and the outputs (tables, JSON, PNG) must be
what they say. Bad input is one line, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from standoff import GameRecord, available_variants, bots, load_variant
from standoff.cli import cli
from standoff.playtest import (
    ENDS,
    PlaytestError,
    Report,
    UnitTracker,
    checkpoints,
    plan,
    play_game,
    playtest,
)
from standoff.selfplay import every_seat
from standoff.selfplay.with_bots import play


def lonely_isle(folder: Path) -> Path:
    """A designer's file with a mistake: Standard plus an island linked to nothing,
    where Austria starts with an army (it builds; ``check-variant`` flags the map)."""
    text = available_variants()["standard"].read_text(encoding="utf-8")
    text = (text.replace('name = "standard"', 'name = "lonely-isle"', 1)
            .replace('title = "Standard Diplomacy"', 'title = "Lonely Isle"', 1)
            .replace('aliases = ["classical", "std"]', "aliases = []", 1)
            .replace('units = ["A bud", "A vie", "F tri"]',
                     'units = ["A bud", "A vie", "F tri", "A isl"]', 1)
            .replace("[provinces]\n",
                     '[provinces]\nisl = { name = "Lonely Isle", terrain = "land" }\n', 1))
    path = folder / "lonely.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_report(variant: str, games: int = 3, max_year: int = 1903, **kw: Any) -> Report:
    report = playtest(plan(variant, games, max_year=max_year, **kw))
    assert report is not None
    return report


def assert_consistent(report: Report) -> None:
    """Everything that must add up in any report."""
    assert sum(report.ends.values()) == report.games
    assert set(report.ends) == set(ENDS)
    assert sum(p.solo_wins for p in report.powers) == report.ends["win"]
    # scores share 1 a game, unless nobody holds a centre or a unit at its end
    assert sum(p.balance for p in report.powers) <= len(report.powers) + 1e-9
    for p in report.powers:
        assert 0 <= p.draws <= report.ends["draw"]
        assert 0 <= p.eliminated <= report.games
        assert list(p.centres_at) == list(report.checkpoints)
    for year in report.checkpoints:
        assert sum(p.centres_at[year] for p in report.powers) <= report.supply_centres
    for game in report.played:
        assert sum(game.centres_end.values()) <= report.supply_centres
        assert (game.winner is not None) == (game.end == "win")
        assert (len(game.drawn) >= 2) == (game.end == "draw")
        assert 1 <= game.years <= report.max_year - report.first_year + 1
    assert [g.index for g in report.played] == list(range(report.games))
    years = report.max_year - report.first_year + 1
    assert all(len(s) == years for s in report.centres_by_year.values())
    assert report.lengths.min_years <= report.lengths.median_years <= report.lengths.max_years
    assert report.refused == 0  # the bots' contract: only legal orders


# -- the report ------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "last"), [("standard", 1903), ("sahara", 1903),
                                              ("1939-iv", 1941)])
def test_a_report_on_a_few_short_games_adds_up(variant: str, last: int) -> None:
    report = run_report(variant, max_year=last)
    assert_consistent(report)
    v = load_variant(variant)
    assert report.variant == v.name and report.games == 3 and report.bot == "heuristic"
    assert [p.power for p in report.powers] == list(v.powers)
    assert report.checkpoints == (last,)
    start = GameRecord.new(v).position.centre_counts()
    assert {p.power: p.centres_start for p in report.powers} == \
        {p: start.get(p, 0) for p in v.powers}


def test_standard_to_1903_is_three_draws_with_no_unit_stuck() -> None:
    """No Standard unit is ever without a legal move (every space has a neighbour
    for its unit type), and no solo is possible by 1903."""
    report = run_report("standard")
    assert report.ends == {"win": 0, "draw": 3, "no_winner": 0, "unfinished": 0}
    assert all(g.years == 3 and g.last_year == 1903 for g in report.played)
    assert report.never_moved == () and report.stuck == ()
    # every survivor shares a draw, and by 1903 nobody is out
    assert all(p.draws == 3 and p.draw_share == 1.0 and p.eliminated == 0
               for p in report.powers)


def test_a_unit_that_can_never_move_is_found(tmp_path: Path) -> None:
    """The island's army has no legal move at any movement phase: it is reported
    in every game, at its place, and no other unit is."""
    report = run_report(str(lonely_isle(tmp_path)), games=2, max_year=1902)
    assert_consistent(report)
    assert report.variant == "lonely-isle" and report.title == "Lonely Isle"
    [stuck] = report.never_moved
    assert (stuck.power, stuck.unit, stuck.games) == ("austria", "A ISL", 2)
    assert stuck.mean_movement_phases >= 1
    [place] = report.stuck
    assert (place.power, place.unit_type, place.location, place.games) == \
        ("austria", "A", "isl", 2)
    austria = next(p for p in report.powers if p.power == "austria")
    assert austria.never_moved == 2
    assert all(p.never_moved == 0 for p in report.powers if p.power != "austria")


def test_the_tracker_follows_units_that_move() -> None:
    """A unit that moves keeps its identity (it was able to move); one that never
    had the chance to stand through a movement phase is not counted."""
    record = GameRecord.new("standard")
    tracker = UnitTracker(frozenset(record.variant.powers))
    tracker.start(record)
    bot = bots.load("heuristic", seed=3)

    def observe(asked: GameRecord, after: GameRecord) -> None:
        tracker.observe(asked, after, bots.legal_for(asked))

    play(record, every_seat(record, bot), 1902, observe)
    assert tracker.never_moved() == [] and tracker.stuck == {}


def test_centres_carry_on_after_a_game_ends() -> None:
    """A game won before the last year counts its final centres at every later
    checkpoint (Sahara's winner wins by holding Iceland: games end early)."""
    report = run_report("sahara", games=2, max_year=1925, bot="random")
    assert_consistent(report)
    for p in report.powers:
        series = report.centres_by_year[p.power]
        assert series[-1] == pytest.approx(p.centres_end)


def test_the_same_seed_gives_the_same_report_whatever_the_workers() -> None:
    settings = plan("standard", 3, bot="random", max_year=1903, seed=5)
    alone, shared = playtest(settings, 1), playtest(settings, 2)
    assert alone is not None and shared is not None
    assert replace(alone, run=shared.run) == shared
    other = playtest(replace(settings, seed=6))
    assert other is not None and other.played != alone.played


def test_a_game_depends_only_on_the_settings_and_its_index() -> None:
    settings = plan("standard", 4, bot="random", max_year=1902)
    first, again = play_game(settings, 3), play_game(settings, 3)
    assert replace(first, seconds=0.0) == replace(again, seconds=0.0)


def test_checkpoint_years() -> None:
    assert checkpoints(1901, 1930, 5) == (1905, 1910, 1915, 1920, 1925, 1930)
    assert checkpoints(1901, 1912, 5) == (1905, 1910, 1912)
    assert checkpoints(1901, 1903, 5) == (1903,)
    assert checkpoints(1901, 1903, 1) == (1901, 1902, 1903)


def test_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(PlaytestError, match="--games must be at least 1"):
        plan("standard", 0)
    with pytest.raises(PlaytestError, match=r"unknown bot 'nope' \(bots: random, heuristic"):
        plan("standard", bot="nope")
    with pytest.raises(PlaytestError, match="before Standard Diplomacy's first year, 1901"):
        plan("standard", max_year=1900)
    assert plan("20th").variant == "twentieth-century"
    assert plan("20th").max_year == 1933 + 29
    own = plan(str(lonely_isle(tmp_path)))
    assert own.variant == "lonely-isle" and own.text is not None and own.path is not None


# -- the command ----------------------------------------------------------------------------


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()


def standoff(*args: str) -> Result:
    result = _runner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result


def test_the_command_prints_the_tables_and_writes_json_and_png(tmp_path: Path) -> None:
    out, png = tmp_path / "report.json", tmp_path / "report.png"
    r = standoff("playtest", "standard", "-n", "3", "--max-year", "1903", "-w", "1",
                 "--json", str(out), "--plot", str(png), "--no-progress")
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    assert "Standard Diplomacy: 3 games, the heuristic bot at every power, 1901-1903" in text
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        assert power in text
    assert "Ends: 0 solo wins, 3 draws" in text
    assert "Units never able to move: none." in text
    assert r.stderr.strip() == f"wrote the JSON {out} and the plot {png}"
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["games"] == 3 and sum(data["ends"].values()) == 3
    assert data["ends"]["win"] + data["ends"]["draw"] == 3
    assert sum(p["centres_at"]["1903"] for p in data["powers"]) <= data["supply_centres"] == 34
    assert [g["index"] for g in data["played"]] == [0, 1, 2]
    with Image.open(png) as image:
        assert image.format == "PNG" and image.size == (1400, 1000)
        assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 10  # drawn


def test_json_to_stdout_puts_the_tables_on_stderr() -> None:
    r = standoff("playtest", "sahara", "-n", "2", "--max-year", "1902", "-w", "1",
                 "--bot", "random", "--json", "-", "--no-progress")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["variant"] == "sahara" and data["bot"] == "random"
    assert "Sahara: 2 games, the random bot at every power" in (r.stderr or "")


def test_a_designers_file_on_the_command_line(tmp_path: Path) -> None:
    r = standoff("playtest", str(lonely_isle(tmp_path)), "-n", "2", "--max-year", "1902",
                 "-w", "1", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "Lonely Isle: 2 games" in r.stdout
    assert "A ISL" in r.stdout and "Units never able to move (no legal move" in r.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["nope"], "error: unknown variant 'nope'"),
    (["missing.toml"], "error: no variant file at missing.toml"),
    (["standard", "-n", "0"], "error: --games must be at least 1 (got 0)"),
    (["standard", "--bot", "zz"], "error: unknown bot 'zz' (bots: random, heuristic"),
    (["standard", "-w", "0"], "error: --workers must be at least 1 (got 0)"),
    (["standard", "--max-year", "1800"],
     "error: --max-year 1800 is before Standard Diplomacy's first year, 1901"),
    (["standard", "--plot", "x.svg"], "error: --plot writes a PNG: give a path ending in .png"),
    (["standard", "--plot", "/nonexistent-dir/x.png"],
     "error: cannot write --plot /nonexistent-dir/x.png: no folder /nonexistent-dir"),
    (["standard", "--json", "/nonexistent-dir/x.json"],
     "error: cannot write --json /nonexistent-dir/x.json: no folder"),
])
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    r = standoff("playtest", *args, "--no-progress")
    assert r.exit_code == 2
    assert (r.stderr or "").startswith(message) and (r.stderr or "").count("\n") == 1, r.stderr
    assert r.stdout == ""


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe not text")
    r = standoff("playtest", str(bad), "--no-progress")
    assert r.exit_code == 2
    assert (r.stderr or "").startswith(f"error: cannot read variant file {bad}")


def test_without_matplotlib_the_plot_names_the_extra(tmp_path: Path) -> None:
    png = str(tmp_path / "p.png")
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from standoff.cli import main\n"
            f"sys.argv = ['standoff', 'playtest', 'standard', '--plot', {png!r}]\n"
            "main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == ("error: the playtest's plot needs the 'plot' extra: "
                        "pip install 'standoff[plot]'\n")
