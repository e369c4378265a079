"""Write the MILA saved games that ``tests/test_mila.py`` reads (``tests/data/mila/``).

Why this exists: the tests must check standoff's reading of games *as MILA's
``diplomacy`` package saves them*, but that package is AGPL-3.0 and may never be
imported by standoff or its test suite. So the games are made once, here, by MILA
itself (``to_saved_game_format``, the format of the public game archives), and
kept as data. Run it in the benchmark venv, which is the only place ``diplomacy``
is installed::

    .bench-venv/bin/python tools/make_mila_fixtures.py [-o tests/data/mila]

It writes:

* ``random_games.jsonl``: three Standard games of random legal orders (MILA's own
  ``get_all_possible_orders``, seeded), one saved game per line as the archives
  ship them, each stopped after ``--phases`` phases. Random play asks for convoys
  that are not given, so these hold the engines' commonest disagreement (DATC
  4.A.3: no fallback to the land route) besides retreats and builds.
* ``scripted.json``: one game played from fixed orders so that each situation
  the tests name is certain to be there: a convoy (England, Yorkshire to Norway),
  a dislodgement and its retreat (France out of Burgundy), builds, and the
  convoy-fallback disagreement of DATC 6.G.8 (France, Spain to Portugal "VIA"
  with no fleet convoying).
* ``build_any.json``: a game under MILA's ``BUILD_ANY`` rule in which France
  builds in Spain, a centre that is not a home centre.
* ``differences.jsonl``: one game per case of
  ``tests/cases/bench/diplomacy_differences.txt`` (the minimal situations in which
  MILA departs from DATC 3.0), set up in MILA as the case's starting position,
  the case's orders given in MILA's notation (written by ``standoff.mila``, so
  this also checks that MILA accepts our notation) and one phase played by MILA.
  The only script here that imports standoff: it reads the case file with it.
* ``civil_disorder.json``: random play in which a power that must remove units
  sends no orders, so MILA removes them by its civil-disorder rule (the 1982
  rulebook's, where standoff's default is the 2023 one: DATC 4.D.8); stopped
  after the first such winter. The seed is one where the two rules pick
  different units.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from diplomacy import Game  # AGPL: run only in .bench-venv, never imported by standoff
from diplomacy.utils.export import to_saved_game_format

ROOT = Path(__file__).resolve().parent.parent
DIFFERENCES = ROOT / "tests" / "cases" / "bench" / "diplomacy_differences.txt"
#: the random games' seeds (4 and 11 play a retreat phase within 14 phases)
RANDOM_SEEDS = (1, 4, 11)
#: a seed whose first civil-disorder winter has MILA and standoff remove different units
CIVIL_DISORDER_SEED = 0
OUT = ROOT / "tests" / "data" / "mila"

#: phase -> power -> orders of the scripted game (others hold)
SCRIPT: list[tuple[str, dict[str, list[str]]]] = [
    ("S1901M", {"ENGLAND": ["F LON - NTH", "A LVP - YOR", "F EDI - NWG"],
                "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
                "GERMANY": ["A MUN - RUH", "A BER - MUN", "F KIE - HOL"]}),
    ("F1901M", {"ENGLAND": ["F NTH C A YOR - NWY", "A YOR - NWY VIA", "F NWG S A YOR - NWY"],
                "FRANCE": ["A BUR H", "A SPA H", "F MAO - POR"],
                "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR", "F HOL H"]}),
    ("F1901R", {"FRANCE": ["A BUR R PIC"]}),
    ("W1901A", {"ENGLAND": ["F EDI B"], "GERMANY": ["F KIE B"],
                "FRANCE": ["A MAR B"]}),
    ("S1902M", {"FRANCE": ["A SPA - POR VIA", "F POR - MAO", "A PIC - BRE"]}),
    ("F1902M", {"FRANCE": ["F MAO S A SPA - POR", "A SPA - POR VIA"]}),
]

#: the BUILD_ANY game: France takes Spain, waives its build, leaves Spain and builds there
BUILD_ANY: list[tuple[str, dict[str, list[str]]]] = [
    ("S1901M", {"FRANCE": ["A MAR - SPA"]}),
    ("F1901M", {"FRANCE": ["A SPA H"]}),
    ("W1901A", {"FRANCE": ["WAIVE"]}),
    ("S1902M", {"FRANCE": ["A SPA - GAS"]}),
    ("F1902M", {"FRANCE": ["A GAS H"]}),
    ("W1902A", {"FRANCE": ["A SPA B"]}),
]


def random_orders(game: Game, rng: random.Random) -> None:
    """Random legal orders for every power: one per unit, or as many builds or
    removals as the power is due (one order a location would over-build)."""
    possible = game.get_all_possible_orders()
    for name, power in game.powers.items():
        locs = [loc for loc in game.get_orderable_locations(name) if possible.get(loc)]
        if game.get_current_phase().endswith("A"):
            due = abs(len(power.centers) - len(power.units))
            locs = rng.sample(locs, min(due, len(locs)))
        game.set_orders(name, [rng.choice(possible[loc]) for loc in locs])


def random_game(seed: int, phases: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = Game(game_id=f"random-{seed}")
    while not game.is_game_done and len(game.get_phase_history()) < phases:
        random_orders(game, rng)
        game.process()
    saved: dict[str, Any] = to_saved_game_format(game)
    return saved


def civil_disorder_game(seed: int) -> dict[str, Any]:
    """Random play until a winter in which a power due to remove units has sent no
    orders (it is in civil disorder), then one more phase."""
    rng = random.Random(seed)
    game = Game(game_id=f"civil-disorder-{seed}")
    while not game.is_game_done:
        winter = game.get_current_phase().endswith("A")
        short = winter and any(len(p.units) > len(p.centers) for p in game.powers.values())
        if short:
            possible = game.get_all_possible_orders()
            for name, power in game.powers.items():
                if len(power.units) <= len(power.centers):
                    locs = [loc for loc in game.get_orderable_locations(name)
                            if possible.get(loc)]
                    due = len(power.centers) - len(power.units)
                    game.set_orders(name, [rng.choice(possible[loc])
                                           for loc in rng.sample(locs, min(due, len(locs)))])
        else:
            random_orders(game, rng)
        game.process()
        if short:
            break
    saved: dict[str, Any] = to_saved_game_format(game)
    return saved


def difference_games() -> list[dict[str, Any]]:
    """A MILA game for each case of the differences case file (see the module's note)."""
    from standoff import parse_order
    from standoff.cases import build_position, read_cases
    from standoff.mila import mila_order

    out = []
    for case in read_cases(str(DIFFERENCES)):
        position, orders, _options, variant = build_position(case)
        game = Game(game_id=case.id)
        game.set_current_phase(position.phase.name(variant.calendar))
        for pid, power in variant.powers.items():
            game.set_units(power.name.upper(), [str(u) for u in position.units_of(pid)],
                           reset=True)
        for pid, texts in orders.items():
            mila = [mila_order(parse_order(t, variant), position) for t in texts]
            name = variant.powers[pid].name.upper()
            game.set_orders(name, mila)
            if len(game.get_orders(name)) != len(mila):
                raise SystemExit(f"{case.id}: MILA refused some of {mila}: {game.error}")
        game.process()
        saved: dict[str, Any] = to_saved_game_format(game)
        out.append(saved)
    return out


def scripted_game(game_id: str, script: list[tuple[str, dict[str, list[str]]]],
                  rules: list[str] | None = None) -> dict[str, Any]:
    game = Game(game_id=game_id) if rules is None else Game(game_id=game_id, rules=rules)
    for phase, orders in script:
        now = game.get_current_phase()
        if now != phase:
            raise SystemExit(f"{game_id}: expected phase {phase}, MILA is at {now}")
        for power, items in orders.items():
            game.set_orders(power, items)
        game.process()
    saved: dict[str, Any] = to_saved_game_format(game)
    return saved


def _fixed_hashing() -> None:
    """MILA lists possible orders from sets, whose order follows string hashing: run
    with ``PYTHONHASHSEED=0`` so a seed always plays the same game."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv],
                  {**os.environ, "PYTHONHASHSEED": "0"})


def main() -> None:
    _fixed_hashing()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", type=Path, default=OUT, help="output folder")
    ap.add_argument("--phases", type=int, default=14, help="phases per random game")
    ap.add_argument("--civil-disorder-seed", type=int, default=CIVIL_DISORDER_SEED,
                    help="the seed of civil_disorder.json")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(random_game(seed, args.phases)) for seed in RANDOM_SEEDS]
    (args.out / "random_games.jsonl").write_text("\n".join(lines) + "\n")
    (args.out / "scripted.json").write_text(json.dumps(scripted_game("scripted", SCRIPT)) + "\n")
    (args.out / "differences.jsonl").write_text(
        "".join(json.dumps(g) + "\n" for g in difference_games()))
    (args.out / "civil_disorder.json").write_text(
        json.dumps(civil_disorder_game(args.civil_disorder_seed)) + "\n")
    rules = ["NO_PRESS", "POWER_CHOICE", "BUILD_ANY"]
    (args.out / "build_any.json").write_text(
        json.dumps(scripted_game("build-any", BUILD_ANY, rules)) + "\n")
    for path in sorted(args.out.iterdir()):
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
              f"{path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
