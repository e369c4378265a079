"""The bots' arena (``benchmarks/bots.py``) runs: a real process plays a tiny
arena with the bundled random bot and prints its table and JSON; the seat
rotates over the powers; the scores are sum-of-squares; and a game is the same
whether it is played in this process or in a worker process. The benchmark's
figures themselves are in ``docs/benchmarks.md``; this only keeps the arena
runnable (seconds)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bots.py"


def _arena() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bots_arena", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bots_arena"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_one_game_arena_runs_and_prints_the_table(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--hero", "random", "--field", "random",
         "--variant", "standard", "--games", "1", "--max-year", "1902", "--json", str(out)],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "random" in lines[0] and "core" in lines[0]  # which build and bots ran
    assert lines[1].startswith("standard: 1 games, 7 powers (fair share 0.143)")
    header = lines[2].split()
    for column in ("seats", "solo", "draws", "centres", "sos", "fair", "median", "p95"):
        assert column in header
    hero, rival = lines[3].split(), lines[4].split()
    assert hero[:3] == ["hero", "random", "1"] and rival[:3] == ["field", "random", "6"]
    report = json.loads(out.read_text())
    (variant,) = report["variants"]
    (game,) = variant["games_played"]
    assert game["hero_power"] == "austria" and game["winner"] is None
    assert game["last_phase"] == "S1903M" and game["years"] == 2
    assert variant["draws"] == 1
    assert variant["hero"]["order_sets"] == len(game["hero_seconds"]) > 0
    assert variant["field"]["seats"] == 6
    total = game["hero_score"] + sum(game["field_scores"])
    assert total == pytest.approx(1.0)
    assert sum([game["hero_centres"], *game["field_centres"]]) <= 34


def test_scores_are_sum_of_squares_and_a_solo_takes_all() -> None:
    arena = _arena()
    assert arena.scores({"a": 2, "b": 2, "c": 0}, None) == {"a": 0.5, "b": 0.5, "c": 0.0}
    assert arena.scores({"a": 18, "b": 10}, "a") == {"a": 1.0, "b": 0.0}


def test_the_seat_rotates_and_a_worker_plays_the_same_game() -> None:
    arena = _arena()
    hero, rival = arena.Entrant("random"), arena.Entrant("random")
    tasks = [("standard", i, hero, rival, 5, None, 1902) for i in range(2)]
    here = list(arena.run(tasks, 1))
    pooled = list(arena.run(tasks, 2))
    assert [g.hero_power for g in here] == ["austria", "england"]
    strip = ("hero_seconds", "field_seconds", "wall_seconds")
    for a, b in zip(here, pooled, strict=True):
        assert {k: v for k, v in vars(a).items() if k not in strip} == \
            {k: v for k, v in vars(b).items() if k not in strip}
