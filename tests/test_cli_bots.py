"""``standoff demo --bots``: the bundled bots at the powers of a demo game.

The orders played must be the bots' (asked about the record of the phase, as
every front end asks them), the seating must be what ``--bots`` says (a name
for all; ``POWER=NAME`` pairs with ``*`` for the rest; powers left out give
random orders), a seed must give the same game, and a bad value must be one
line naming the choices.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from standoff import GameRecord, bots, load_variant, process_phase, storage, submit_orders
from standoff.cli import cli
from standoff.cli.demo import BotsError, parse_bots


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()


def run(*args: str) -> Result:
    result = _runner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result


def replayed_orders(saved: Path) -> list[tuple[GameRecord, dict[str, list[str]]]]:
    """(the record at each phase, the orders each power gave in it)."""
    game = storage.load(saved)
    record = GameRecord.new(game.variant)
    out = []
    for phase in game.history:
        assert record.position == phase.position
        given = {p: [str(o) for o in orders] for p, orders in phase.orders.items()}
        out.append((record, given))
        for power, orders in given.items():
            record = submit_orders(record, power, orders)
        record = process_phase(record)[0]
    return out


def test_one_bot_at_every_power_plays_its_orders(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    r = run("demo", "--bots", "heuristic", "--max-year", "1902", "--seed", "3",
            "--save", str(saved))
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "every power: heuristic"
    assert lines[1].startswith("Spring 1901, Movement")
    assert "draw between" in lines[-1]
    bot = bots.load("heuristic", seed=3)
    phases = replayed_orders(saved)
    assert len(phases) >= 4
    for record, given in phases:
        for power in record.variant.powers:
            assert sorted(given.get(power, [])) == sorted(bot.orders(record, power)), \
                (record.phase_name, power)


def test_named_powers_and_the_rest(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    r = run("demo", "--bots", "France=random, *=heuristic", "--max-year", "1901",
            "--seed", "5", "--save", str(saved))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[0] == \
        "France: random; Austria, England, Germany, Italy, Russia, Turkey: heuristic"
    record, given = replayed_orders(saved)[0]
    assert sorted(given["france"]) == sorted(bots.load("random", seed=5).orders(record, "france"))
    assert sorted(given["italy"]) == sorted(bots.load("heuristic", seed=5).orders(record, "italy"))


def test_powers_left_out_give_random_orders() -> None:
    r = run("demo", "--bots", "russia=heuristic", "--max-year", "1901", "-q")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("\n") == 1  # quiet: the summary only
    loud = run("demo", "--bots", "russia=heuristic", "--max-year", "1901")
    assert loud.stdout.splitlines()[0] == \
        "Russia: heuristic; Austria, England, France, Germany, Italy, Turkey: random orders"


def test_a_seed_gives_the_same_game() -> None:
    args = ("demo", "--bots", "random", "--max-year", "1903", "--seed", "9")
    first = run(*args)
    assert first.exit_code == 0 and first.stdout == run(*args).stdout
    assert first.stdout != run("demo", "--bots", "random", "--max-year", "1903",
                               "--seed", "10").stdout


def test_without_bots_the_demo_is_unchanged() -> None:
    r = run("demo", "--max-year", "1902", "--seed", "4")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].startswith("Spring 1901, Movement")


def test_the_seating_is_parsed() -> None:
    v = load_variant("standard")
    assert parse_bots("search", v) == dict.fromkeys(v.powers, "search")
    assert parse_bots("FRANCE=search,german=random", v) == {"france": "search",
                                                            "germany": "random"}
    seats = parse_bots("*=random,england=heuristic", v)
    assert seats["england"] == "heuristic" and seats["turkey"] == "random" and len(seats) == 7


@pytest.mark.parametrize(("spec", "message"), [
    ("nope", "error: --bots: unknown bot 'nope' (bots: random, heuristic"),
    ("france=nope", "error: --bots: unknown bot 'nope' (bots: random, heuristic"),
    ("atlantis=random", "error: --bots: unknown power 'atlantis' in Standard Diplomacy "
                        "(powers: Austria, England"),
    ("france=", "error: --bots takes NAME, or POWER=NAME,...[,*=NAME]: 'france=' is not "
                "POWER=NAME"),
    ("france=random,,", "error: --bots takes NAME, or POWER=NAME,...[,*=NAME] (got"),
    ("france=random,France=heuristic", "error: --bots seats France twice"),
    ("*=random,*=heuristic", "error: --bots names '*' twice"),
])
def test_bad_values_are_one_line_naming_the_choices(spec: str, message: str) -> None:
    r = run("demo", "--bots", spec, "--max-year", "1901")
    assert r.exit_code == 2
    assert (r.stderr or "").startswith(message) and (r.stderr or "").count("\n") == 1, r.stderr
    assert r.stdout == ""
    with pytest.raises(BotsError):
        parse_bots(spec, load_variant("standard"))
