"""DATC 3.0 and other adjudication cases, run from the case files in tests/cases.

One data-driven runner: every case of every ``tests/cases/**/*.txt`` file is a
pytest test that must adjudicate to its expected outcome. The files must also
cover every one of the 164 DATC 3.0 test cases (chapter 6) under the default
(DATC-preferred) rules. The rest of the file tests the runner itself:
``standoff.casefile`` and the ``standoff cases`` command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from standoff.casefile import Case, CaseFileError, read_cases, run_case, run_files
from standoff.cli import cli

CASE_DIR = Path(__file__).parent / "cases"
CASE_FILES = sorted(CASE_DIR.rglob("*.txt"))


def _all_cases() -> list[Case]:
    out: list[Case] = []
    for path in CASE_FILES:
        out.extend(read_cases(str(path)))
    return out


ALL_CASES = _all_cases()

#: DATC 3.0 chapter 6: section letter -> number of test cases (164 in all)
DATC_SECTIONS = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16,
                 "I": 7, "J": 11}
DATC_IDS = {f"6.{s}.{n}" for s, count in DATC_SECTIONS.items() for n in range(1, count + 1)}


def _case_id(case: Case) -> str:
    return f"{case.id} [{Path(case.path).relative_to(CASE_DIR)}]"


@pytest.mark.parametrize("case", ALL_CASES, ids=[_case_id(c) for c in ALL_CASES])
def test_case(case: Case) -> None:
    """Each case adjudicates to exactly its POSTSTATE (DATC 3.0 where the id says so)."""
    if case.skip is not None:
        pytest.fail(f"case {case.id} is marked SKIP ({case.skip}); no case may be skipped")
    assert run_case(case) == []


def test_case_files_exist_and_are_many() -> None:
    assert CASE_FILES, "no case files found under tests/cases"
    assert len(ALL_CASES) >= 164


def test_every_case_states_an_expected_outcome() -> None:
    """A case with no POSTSTATE/POSTSTATE_SAME/owners would pass vacuously."""
    vacuous = [c.id for c in ALL_CASES
               if not c.same and not {"POSTSTATE", "POSTSTATE_DISLODGED",
                                      "POSTSTATE_SUPPLYCENTER_OWNERS"} & set(c.sections)]
    assert vacuous == []


def test_no_case_is_skipped() -> None:
    assert [c.id for c in ALL_CASES if c.skip is not None] == []


def test_datc_3_0_ids_all_covered_with_default_options() -> None:
    """Every DATC 3.0 case 6.A.1 ... 6.J.11 appears at least once with no OPTIONS."""
    assert len(DATC_IDS) == 164
    covered = {c.id.split()[0] for c in ALL_CASES if not c.options}
    missing = sorted(DATC_IDS - covered, key=lambda s: (s[2], int(s.split(".")[2])))
    assert missing == []


def test_case_ids_are_unique_per_file() -> None:
    seen: set[tuple[str, str]] = set()
    dupes = []
    for c in ALL_CASES:
        key = (c.path, c.id)
        if key in seen:
            dupes.append(key)
        seen.add(key)
    assert dupes == []


# -- the runner itself ---------------------------------------------------------------

GOOD = """\
VARIANT_ALL Standard
# DATC 6.B.2: F gas - spa goes to the north coast
CASE good
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: F gas
ORDERS
  France: F gas - spa
POSTSTATE
  France: F spa/nc
END
"""

WRONG = GOOD.replace("CASE good", "CASE wrong").replace("F spa/nc", "F spa/sc")


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_runner_passes_a_correct_case(tmp_path: Path) -> None:
    [case] = read_cases(_write(tmp_path, "good.txt", GOOD))
    assert case.id == "good"
    assert run_case(case) == []


def test_runner_names_the_difference_of_a_wrong_poststate(tmp_path: Path) -> None:
    [case] = read_cases(_write(tmp_path, "wrong.txt", WRONG))
    diffs = run_case(case)
    assert diffs, "a wrong POSTSTATE must fail"
    text = "; ".join(diffs)
    assert "missing" in text and "SPA/SC" in text
    assert "unexpected" in text and "SPA/NC" in text


OWNERS = """\
CASE owners
PRESTATE_SETPHASE Fall 1901, Movement
PRESTATE_SUPPLYCENTER_OWNERS
  France: A mar
PRESTATE
  France: A gas
ORDERS
  France: A gas - spa
POSTSTATE
  France: A spa
POSTSTATE_SUPPLYCENTER_OWNERS
  France: A mar
  France: A spa
END
"""


def test_runner_checks_centre_owners(tmp_path: Path) -> None:
    """POSTSTATE_SUPPLYCENTER_OWNERS (standoff extension) is compared after a Fall phase."""
    [case] = read_cases(_write(tmp_path, "owners.txt", OWNERS))
    assert run_case(case) == []
    wrong = OWNERS.replace("France: A spa\nEND", "Germany: A spa\nEND")
    [case] = read_cases(_write(tmp_path, "owners2.txt", wrong))
    assert run_case(case) == ["centres missing: spa GERMANY", "centres unexpected: spa FRANCE"]


DISLODGED = """\
CASE dislodged
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
  France: A bur
  Germany: A mun
  Germany: A ruh
ORDERS
  Germany: A mun - bur
  Germany: A ruh S A mun - bur
POSTSTATE
  Germany: A bur
  Germany: A ruh
POSTSTATE_DISLODGED
  France: A bur
END
"""


def test_runner_checks_dislodged_units(tmp_path: Path) -> None:
    [case] = read_cases(_write(tmp_path, "dis.txt", DISLODGED))
    assert run_case(case) == []
    no_dislodged = DISLODGED.replace("POSTSTATE_DISLODGED\n  France: A bur\n", "")
    [case] = read_cases(_write(tmp_path, "dis2.txt", no_dislodged))
    assert run_case(case) == ["dislodged unexpected: france A BUR"]


def test_run_files_counts_passes_and_failures(tmp_path: Path) -> None:
    report = run_files([_write(tmp_path, "good.txt", GOOD), _write(tmp_path, "w.txt", WRONG)])
    assert (report.passed, report.failed) == (1, 1)
    assert report.summary() == "1 passed, 1 failed"
    [line] = report.lines
    assert line.startswith("FAIL wrong") and "SPA/SC" in line


BROKEN = {
    "unknown_keyword": (GOOD.replace("PRESTATE_SETPHASE", "PRESTATE_SETPHASE_X"), 4,
                        "unknown keyword"),
    "missing_end": (GOOD.replace("END\n", ""), 3, "no END"),
    "unknown_option": (GOOD.replace("PRESTATE_SETPHASE", "OPTIONS frobnicate=yes\n"
                                    "PRESTATE_SETPHASE"), None, "unknown option"),
    "unknown_power": (GOOD.replace("France: F gas - spa", "Narnia: F gas - spa"), 8,
                      "unknown power"),
    "bad_value": (GOOD.replace("PRESTATE_SETPHASE", "OPTIONS paradox=never\n"
                               "PRESTATE_SETPHASE"), None, "paradox"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_file_reported_as_path_line_reason(tmp_path: Path, name: str) -> None:
    """A file that cannot be read is reported as ``path:line: reason`` and fails."""
    text, line, reason = BROKEN[name]
    path = _write(tmp_path, f"{name}.txt", text)
    report = run_files([path])
    assert report.failed == 1 and report.passed == 0
    out = "\n".join(report.lines)
    lineno = str(line) if line is not None else r"\d+"
    assert re.search(rf"{re.escape(path)}:{lineno}: .*{reason}", out, re.IGNORECASE), out
    assert report.summary() == "0 passed, 1 failed"


@pytest.mark.parametrize("prestate", [
    "  Germany: F mun",                   # a fleet on land
    "  Germany: A kie\n  France: A kie",  # two units in one province
], ids=["fleet_on_land", "two_units_in_kie"])
def test_impossible_prestate_is_an_error(tmp_path: Path, prestate: str) -> None:
    """A PRESTATE the rules cannot reach is refused (as Position.from_text refuses it),
    not adjudicated into a vacuous pass."""
    text = GOOD.replace("  France: F gas\n", prestate + "\n").replace(
        "POSTSTATE\n  France: F spa/nc\n", "POSTSTATE_SAME\n")
    path = _write(tmp_path, "impossible.txt", text)
    report = run_files([path])
    assert (report.passed, report.failed) == (0, 1), report.lines
    assert re.search(rf"{re.escape(path)}:\d+: ", "\n".join(report.lines))


def test_read_cases_raises_casefile_error_only(tmp_path: Path) -> None:
    with pytest.raises(CaseFileError) as info:
        read_cases(_write(tmp_path, "kw.txt", BROKEN["unknown_keyword"][0]))
    assert info.value.line == 4
    with pytest.raises(CaseFileError):
        read_cases(str(tmp_path / "does-not-exist.txt"))
    with pytest.raises(CaseFileError):
        read_cases(_write(tmp_path, "outside.txt", "PRESTATE\nEND\n"))


def test_skipped_case_is_counted_not_run(tmp_path: Path) -> None:
    path = _write(tmp_path, "skip.txt", WRONG.replace("CASE wrong", "CASE wrong\nSKIP later"))
    report = run_files([path], verbose=True)
    assert (report.passed, report.failed, report.skipped) == (0, 0, 1)
    assert report.summary() == "0 passed, 0 failed, 1 skipped"


# -- the `standoff cases` command ---------------------------------------------------------


def test_cli_cases_all_repo_files_pass() -> None:
    result = CliRunner().invoke(cli, ["cases", *map(str, CASE_FILES)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == f"{len(ALL_CASES)} passed, 0 failed"
    assert "Traceback" not in result.output


def test_cli_cases_exit_1_and_closing_line_on_failure(tmp_path: Path) -> None:
    files = [_write(tmp_path, "good.txt", GOOD), _write(tmp_path, "wrong.txt", WRONG),
             _write(tmp_path, "bad.txt", BROKEN["missing_end"][0])]
    result = CliRunner().invoke(cli, ["cases", *files])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1] == "1 passed, 2 failed"
    assert any("wrong" in ln and "SPA/SC" in ln for ln in lines)
    assert any(f"{files[2]}:3: " in ln for ln in lines)
    assert "Traceback" not in result.output


def test_cli_cases_verbose_lists_passes() -> None:
    result = CliRunner().invoke(cli, ["cases", "--verbose", str(CASE_DIR / "datc" / "6A.txt")])
    assert result.exit_code == 0
    assert "ok   6.A.1" in result.output
