"""The ``standoff`` command line: commands, output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from standoff import storage
from standoff.cli import cli
from standoff.core.position import Position
from standoff.storage import savefile


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 keeps stderr apart by default


def run(*args: str, input: str | None = None) -> Result:
    result = _runner().invoke(cli, list(args), input=input)
    out = result.output + (result.stderr or "")
    assert "Traceback" not in out, out
    # an uncaught exception would be a traceback for a real user
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result


def err(result: Result) -> str:
    return result.stderr or ""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = run("new", str(path))
    assert result.exit_code == 0
    return path


# -- a game from the command line ------------------------------------------------------------


def test_new_creates_a_game(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = run("new", str(path), "-o", "paradox=1982")
    assert result.exit_code == 0
    assert "Spring 1901, Movement" in result.stdout
    g = storage.load(path)
    assert g.phase_name == "S1901M" and g.options.paradox == "1982"


def test_new_refuses_existing_file_without_force(game: Path) -> None:
    before = game.read_bytes()
    result = run("new", str(game))
    assert result.exit_code == 5
    assert "--force" in err(result)
    assert game.read_bytes() == before
    assert run("new", str(game), "--force").exit_code == 0


@pytest.mark.parametrize("args", [("-o", "nonsense=1"), ("-o", "paradox=never"),
                                  ("-o", "novalue"), ("--variant", "atlantis")])
def test_new_unknown_option_or_variant_exit_2(tmp_path: Path, args: tuple[str, str]) -> None:
    path = tmp_path / "g.json"
    result = run("new", str(path), *args)
    assert result.exit_code == 2
    assert err(result).startswith("error: ")
    assert not path.exists()


def test_orders_process_show_history(game: Path) -> None:
    result = run("orders", str(game), "France", "A PAR - BUR", "f bre - mao")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["accepted: A PAR - BUR", "accepted: F BRE - MAO"]
    shown = run("show", str(game))
    assert shown.exit_code == 0
    assert "orders from france: A PAR - BUR, F BRE - MAO" in shown.stdout
    assert shown.stdout.splitlines()[0] == Position.from_text(
        shown.stdout.splitlines()[0]).to_text()
    result = run("process", str(game))
    assert result.exit_code == 0
    assert "France: A PAR - BUR: succeeds" in result.stdout
    assert "now: Fall 1901, Movement" in result.stdout
    assert storage.load(game).position.unit_at("bur") is not None
    shown = run("show", str(game), "--history")
    assert "Spring 1901, Movement:" in shown.stdout
    data = json.loads(run("show", str(game), "--json").stdout)
    assert data["position"]["phase"] == "F1901M" and len(data["history"]) == 1


def test_orders_from_file_and_replace(game: Path, tmp_path: Path) -> None:
    orders = tmp_path / "orders.txt"
    orders.write_text("A PAR - BUR  # to Burgundy\n\nA MAR - SPA\n", encoding="utf-8")
    assert run("orders", str(game), "france", "-f", str(orders)).exit_code == 0
    assert run("orders", str(game), "france", "--replace", "F BRE - MAO").exit_code == 0
    assert [str(o) for o in storage.load(game).pending()["france"]] == ["F BRE - MAO"]
    assert run("orders", str(game), "germany", "-f", "-",
               input="A MUN - RUH\n").exit_code == 0
    assert "germany" in storage.load(game).pending()


@pytest.mark.parametrize(("order", "code", "word"), [
    ("A PAR - XYZ", 2, "invalid order"),
    ("fly to the moon", 2, "invalid order"),
    ("A PAR - MUN", 3, "illegal order"),
    ("A MUN - RUH", 3, "illegal order"),
])
def test_bad_orders_rejected_and_game_untouched(game: Path, order: str, code: int,
                                                word: str) -> None:
    run("orders", str(game), "france", "A MAR - SPA")
    before = game.read_bytes()
    result = run("orders", str(game), "france", "A PAR - BUR", order)
    assert result.exit_code == code
    assert word in err(result)
    assert game.read_bytes() == before


def test_orders_file_in_json_for_that_power(game: Path, tmp_path: Path) -> None:
    """The JSON orders file the README documents (and adjudicate reads)."""
    mine = tmp_path / "france.json"
    mine.write_text('{"France": ["A PAR - BUR", "A MAR - SPA"]}', encoding="utf-8")
    result = run("orders", str(game), "france", "-f", str(mine))
    assert result.exit_code == 0, err(result)
    assert sorted(str(o) for o in storage.load(game).pending()["france"]) == [
        "A MAR - SPA", "A PAR - BUR"]


def test_orders_file_in_json_naming_another_power_refused(game: Path, tmp_path: Path) -> None:
    both = tmp_path / "both.json"
    both.write_text('{"france": ["A PAR - BUR"], "germany": ["A MUN - RUH"]}',
                    encoding="utf-8")
    before = game.read_bytes()
    result = run("orders", str(game), "france", "-f", str(both))
    assert result.exit_code == 2
    assert err(result) == (f"error: {both} gives orders for germany: this command submits "
                           "France's only (send each power's orders with its own command)\n")
    assert game.read_bytes() == before


@pytest.mark.parametrize(("orders", "code", "message"), [
    (["Germany: A MAR - GAS"], 3, "it is labelled Germany, but it is submitted for France"),
    (["A PAR - BUR", "German A MAR - GAS"], 3, "labelled German"),
    (["A PAR - BUR", "A MAR - SPA", "A par - pic"], 3,
     "a second order for PAR in one submission (the first: A PAR - BUR)"),
])
def test_orders_that_would_fail_later_are_refused_now(game: Path, orders: list[str], code: int,
                                                      message: str) -> None:
    before = game.read_bytes()
    result = run("orders", str(game), "france", *orders)
    assert result.exit_code == code and message in err(result)
    assert game.read_bytes() == before


def test_an_order_labelled_with_its_own_power_is_fine(game: Path) -> None:
    result = run("orders", str(game), "france", "France: A PAR - BUR", "French A MAR - SPA")
    assert result.exit_code == 0
    assert result.stdout == "accepted: A PAR - BUR\naccepted: A MAR - SPA\n"


def test_a_huge_bad_order_is_quoted_short(game: Path, tmp_path: Path) -> None:
    """A megabyte of junk gives one short line, not the megabyte echoed twice."""
    junk = tmp_path / "junk.txt"
    junk.write_text("A PAR - " + "x" * 1_000_000 + "\n", encoding="utf-8")
    result = run("orders", str(game), "france", "-f", str(junk))
    assert result.exit_code == 2
    line = err(result)
    assert line.count("\n") == 1 and len(line) < 300
    assert "\u2026 (1000008 characters)" in line and "\u2026 (1000000 characters)" in line


def test_orders_wait_for_a_game_being_changed(game: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holding the game: wait, and if it never lets go, say so (exit 5)."""
    import fcntl

    monkeypatch.setattr(savefile, "LOCK_TIMEOUT", 0.1)
    before = game.read_bytes()
    fd = os.open(game, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        result = run("orders", str(game), "france", "A PAR - BUR")
    finally:
        os.close(fd)
    assert result.exit_code == 5 and "being changed by another process" in err(result)
    assert game.read_bytes() == before
    assert run("orders", str(game), "france", "A PAR - BUR").exit_code == 0


def test_no_orders_given_is_a_state_error(game: Path) -> None:
    assert run("orders", str(game), "france").exit_code == 5


def test_draw_then_game_over(game: Path) -> None:
    result = run("draw", str(game), "France", "Germany")
    assert result.exit_code == 0
    assert "draw declared: france, germany" in result.stdout
    assert "draw between france, germany" in run("show", str(game)).stdout
    before = game.read_bytes()
    for args in (("process", str(game)), ("draw", str(game)),
                 ("orders", str(game), "france", "A PAR H")):
        result = run(*args)
        assert result.exit_code == 5
        assert "over" in err(result)
    assert game.read_bytes() == before


def test_draw_of_one_power_refused(game: Path) -> None:
    before = game.read_bytes()
    result = run("draw", str(game), "France")
    assert result.exit_code == 5
    assert "a draw needs at least two surviving powers" in err(result)
    assert game.read_bytes() == before


def test_draw_default_all_survivors(game: Path) -> None:
    result = run("draw", str(game))
    assert result.exit_code == 0
    assert storage.load(game).draw == ("austria", "england", "france", "germany", "italy",
                                       "russia", "turkey")


@pytest.mark.parametrize("content", [None, "", "not json", '{"format": "standoff-game"}',
                                     "{truncated"])
@pytest.mark.parametrize("command", [("process",), ("show",), ("draw",),
                                     ("orders", "france", "A PAR H")])
def test_corrupt_or_missing_game_exit_4(tmp_path: Path, content: str | None,
                                        command: tuple[str, ...]) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run(command[0], str(path), *command[1:])
    assert result.exit_code == 4, err(result)
    assert err(result).startswith("error: ")
    if content is None:
        assert not path.exists()
    else:
        assert path.read_text(encoding="utf-8") == content


def test_legal_on_corrupt_game_exit_4(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    content = '{"format": "standoff-game", "version": 1, "game": {}}'
    path.write_text(content, encoding="utf-8")
    result = run("legal", str(path))
    assert result.exit_code == 4 and "checksum" in err(result)
    assert path.read_text(encoding="utf-8") == content


def test_tampered_game_exit_4_and_unchanged(game: Path) -> None:
    text = game.read_text(encoding="utf-8").replace('"A PAR"', '"A PIC"', 1)
    game.write_text(text, encoding="utf-8")
    result = run("process", str(game))
    assert result.exit_code == 4 and "checksum" in err(result)
    assert game.read_text(encoding="utf-8") == text


def test_legal_lists_orders_for_a_game_and_a_position(game: Path, tmp_path: Path) -> None:
    result = run("legal", str(game), "--power", "France")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert {ln.split(":")[0] for ln in lines} == {"france BRE", "france MAR", "france PAR"}
    assert "A PAR - BUR" in result.stdout
    pos = tmp_path / "pos.txt"
    pos.write_text("standard | S1901M | france: A PAR; germany: A MUN | - | - | -\n")
    result = run("legal", str(pos))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "france PAR: A PAR H | A PAR - BRE | A PAR - BUR | A PAR - GAS | A PAR - PIC | "
        "A PAR S A MUN - BUR",
        "germany MUN: A MUN H | A MUN - BER | A MUN - BOH | A MUN - BUR | A MUN - KIE | "
        "A MUN - RUH | A MUN - SIL | A MUN - TYR | A MUN S A PAR - BUR",
    ]


def test_options_lists_every_option_with_its_datc_issue() -> None:
    result = run("options")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 10
    assert any(ln.startswith("optional_seasons = never | odd | even | always")
               and "(City/Country .62)" in ln for ln in lines)
    assert any(ln.startswith("paradox = szykman | 2000 | 1982") and "4.A.2" in ln
               for ln in lines)
    assert any(ln.startswith("civil_disorder = 2023 | 1982") for ln in lines)


@pytest.mark.parametrize("seed", ["1", "2"])
def test_demo_quiet_ends_with_winner_or_draw(seed: str, tmp_path: Path) -> None:
    saved = tmp_path / "demo.json"
    result = run("demo", "--quiet", "--seed", seed, "--save", str(saved))
    assert result.exit_code == 0
    [line] = result.stdout.splitlines()
    assert "phases played;" in line
    assert " wins (" in line or "draw between" in line
    g = storage.load(saved)
    assert g.is_over


def test_demo_short_game_is_a_draw_and_prints_phases() -> None:
    result = run("demo", "--max-year", "1902", "--seed", "4")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Spring 1901, Movement")
    assert "draw between" in lines[-1] and "Spring 1903, Movement" in lines[-1]


# -- adjudicate -----------------------------------------------------------------------------

POSITION = ("standard | S1901M | france: A PAR, A MAR; germany: A MUN | "
            "france: PAR MAR; germany: MUN | - | -")
ORDER_LINES = ("# a comment\nFrance: A PAR - BUR\nFrance: A MAR S A PAR - BUR\n"
               "Germany: A MUN - BUR\n")
ORDER_JSON = json.dumps({"france": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                         "Germany": ["A MUN - BUR"]})


def _files(tmp_path: Path, position: str, orders: str) -> tuple[str, str]:
    p, o = tmp_path / "pos", tmp_path / "orders"
    p.write_text(position, encoding="utf-8")
    o.write_text(orders, encoding="utf-8")
    return str(p), str(o)


@pytest.mark.parametrize("pos_form", ["text", "json"])
@pytest.mark.parametrize("orders", [ORDER_LINES, ORDER_JSON], ids=["lines", "json"])
def test_adjudicate_text_output(tmp_path: Path, pos_form: str, orders: str) -> None:
    position = POSITION if pos_form == "text" else Position.from_text(POSITION).to_json()
    p, o = _files(tmp_path, position, orders)
    result = run("adjudicate", p, o)
    assert result.exit_code == 0, err(result)
    lines = result.stdout.splitlines()
    assert "france: A PAR - BUR: succeeds" in lines
    assert "germany: A MUN - BUR: fails (bounced with PAR)" in lines
    nxt = Position.from_text(lines[-1])
    assert nxt.phase.name(_cal()) == "F1901M"
    assert nxt.unit_at("bur") is not None and nxt.unit_at("bur").power == "france"


def _cal() -> Any:
    from standoff import load_variant

    return load_variant("standard").calendar


@pytest.mark.parametrize("pos_form", ["text", "json"])
@pytest.mark.parametrize("orders", [ORDER_LINES, ORDER_JSON], ids=["lines", "json"])
def test_adjudicate_json_output(tmp_path: Path, pos_form: str, orders: str) -> None:
    position = POSITION if pos_form == "text" else Position.from_text(POSITION).to_json()
    p, o = _files(tmp_path, position, orders)
    result = run("adjudicate", p, o, "--json")
    assert result.exit_code == 0, err(result)
    data = json.loads(result.stdout)
    assert data["phase"] == "S1901M"
    by_order = {r["order"]: r for r in data["results"]}
    assert by_order["A PAR - BUR"]["success"] is True
    assert by_order["A MUN - BUR"] == {"power": "germany", "order": "A MUN - BUR",
                                       "success": False, "reason": "bounced", "by": ["PAR"]}
    nxt = Position.from_dict(data["next"])
    assert data["next"]["phase"] == "F1901M"
    assert {str(u) for u in nxt.units} == {"A BUR", "A MAR", "A MUN"}
    assert data["disbanded"] == []


def test_adjudicate_reads_stdin_and_reports_disbanded(tmp_path: Path) -> None:
    position = ("standard | S1901M | france: A ROM; italy: A TUS, A VEN, A NAP, A APU | "
                "italy: NAP ROM VEN | - | -")
    o = tmp_path / "o.txt"
    o.write_text("Italy: A NAP - ROM\nItaly: A APU S A NAP - ROM\n", encoding="utf-8")
    result = run("adjudicate", "-", str(o), input=position)
    assert result.exit_code == 0
    assert "france: A ROM disbanded (no retreat)" in result.stdout


def test_adjudicate_reports_bad_orders_as_results(tmp_path: Path) -> None:
    p, o = _files(tmp_path, POSITION, "France: A PAR - XYZ\nFrance: A MAR - MUN\n"
                                      "Narnia: A PAR H\n")
    result = run("adjudicate", p, o, "--json")
    reasons = sorted(r.get("reason", "") for r in json.loads(result.stdout)["results"])
    assert reasons == ["illegal", "invalid", "invalid"]
    # every result is printed, but unreadable orders are invalid input: exit 2 (README)
    assert result.exit_code == 2
    assert err(result).startswith("error: 2 order(s) could not be read and were treated as "
                                  "holds: france: invalid order 'A PAR - XYZ'")
    assert err(result).count("\n") == 1


def test_adjudicate_illegal_orders_alone_exit_0(tmp_path: Path) -> None:
    """An illegal order is adjudicated as a hold (DATC 4.E.1): a result, not an error."""
    p, o = _files(tmp_path, POSITION, "France: A MAR - MUN\n")
    result = run("adjudicate", p, o)
    assert result.exit_code == 0 and err(result) == ""
    assert "illegal" in result.stdout


@pytest.mark.parametrize(("position", "orders"), [
    ("standard | S1901M | nonsense", "France: A PAR H\n"),
    ("{not json", "France: A PAR H\n"),
    (POSITION, "France A PAR H\n"),      # no 'Power:'
    (POSITION, '{"france": "A PAR H"}'),  # not a list
    (POSITION, "{broken json"),
])
def test_adjudicate_unreadable_input_exit_2(tmp_path: Path, position: str, orders: str) -> None:
    p, o = _files(tmp_path, position, orders)
    result = run("adjudicate", p, o)
    assert result.exit_code == 2
    assert err(result).startswith("error: ")


def test_adjudicate_missing_file_and_bad_option_exit_2(tmp_path: Path) -> None:
    p, o = _files(tmp_path, POSITION, ORDER_LINES)
    assert run("adjudicate", str(tmp_path / "nope"), o).exit_code == 2
    result = run("adjudicate", p, o, "-o", "frobnicate=1")
    assert result.exit_code == 2 and "unknown option" in err(result)


@pytest.mark.parametrize("which", ["position", "orders"])
def test_adjudicate_non_utf8_file_is_an_error_not_a_traceback(tmp_path: Path,
                                                              which: str) -> None:
    """Exit code 2 for unreadable input (cli docstring); never a traceback."""
    p, o = _files(tmp_path, POSITION, ORDER_LINES)
    Path(p if which == "position" else o).write_bytes(b"\xff\xfe\x00 not text")
    result = run("adjudicate", p, o)
    assert result.exit_code == 2
    assert err(result).startswith("error: ")


def test_legal_and_orders_file_non_utf8_is_an_error(game: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00 not text")
    assert run("legal", str(bad)).exit_code == 2
    before = game.read_bytes()
    assert run("orders", str(game), "france", "-f", str(bad)).exit_code == 2
    assert game.read_bytes() == before


def test_cases_command_missing_file_counts_as_failed(tmp_path: Path) -> None:
    result = run("cases", str(tmp_path / "nope.txt"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed"
