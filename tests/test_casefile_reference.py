"""Case files other engines wrote, and run-wide options: godip's and jDip's DATC 2.4
files (GPL: read beside the checkout, never copied into it; each test says so when
the file is absent) must give every case its own result, and options given for a
whole run yield to a case's own ``OPTIONS`` line (DATC 6.G.8 under 2000 and 2023).
Split from tests/test_casefile.py, which tests the reader and runner themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from standoff.cases import run_files

#: the shared reference material beside the checkout (godip's and jDip's files are GPL:
#: not copied into the repository)
DATC_REF = Path(__file__).resolve().parents[2] / "shared" / "reference" / "datc"

GODIP = DATC_REF / "godip" / "datc_v2.4_06.txt"
JDIP = DATC_REF / "jdip" / "datc_v2.4_06.txt"


def _outcome(path: Path, options: tuple[str, ...] = ()) -> tuple[int, dict[str, str]]:
    """(cases passed, case id -> its failure line) of one file."""
    report = run_files([str(path)], options=options)
    fails = {}
    for line in report.lines:
        m = re.match(r"FAIL (6\.\w\.\d+)", line)
        assert m, line
        fails[m.group(1)] = line
    assert report.failed == len(fails)
    return report.passed, fails


@pytest.mark.skipif(not GODIP.exists(), reason="godip's DATC file is not copied (GPL): "
                    "tests/cases/reader/README.md")
def test_godip_file_one_result_per_case() -> None:
    """Every case of godip's file gets its own result: all pass but 6.A.5, whose order
    names 'Germnay' (the case's error), and 6.G.8, which DATC 3.0 answers otherwise
    than 2.4 (no land fallback: the army in Belgium stays)."""
    passed, fails = _outcome(GODIP)
    assert passed == 165
    assert sorted(fails) == ["6.A.5", "6.G.8"]
    assert f"{GODIP}:117: unknown power 'Germnay'" in fails["6.A.5"]
    assert fails["6.G.8"].endswith("units missing: france A HOL; units unexpected: france A BEL")


@pytest.mark.skipif(not GODIP.exists(), reason="godip's DATC file is not copied (GPL): "
                    "tests/cases/reader/README.md")
def test_godip_file_under_the_2000_rule() -> None:
    """DATC 2.4's answer to 6.G.8 (the army ordered via convoy with no convoy goes
    over land) is the older judges' rule: with ``adjacent_convoy=2000`` for every
    case (``standoff cases -o``) godip's file fails only its typo."""
    passed, fails = _outcome(GODIP, ("adjacent_convoy=2000",))
    assert passed == 166
    assert sorted(fails) == ["6.A.5"]


def test_options_for_every_case_yield_to_the_case_own(tmp_path: Path) -> None:
    """``run_files(options=...)`` applies to each case, under its own OPTIONS line:
    DATC 6.G.8 fails under 2023 even when the run asks for 2000."""
    case = """CASE 6.G.8 {opts}
{line}
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
England: F nth
France: A bel
ORDERS
England: F nth S A bel - hol
France: A bel - hol via convoy
POSTSTATE
England: F nth
France: A hol
END
"""
    path = tmp_path / "g8.txt"
    path.write_text(case.format(opts="own", line="OPTIONS adjacent_convoy=2023") +
                    case.format(opts="run's", line=""))
    report = run_files([str(path)], options=("adjacent_convoy=2000",))
    assert (report.passed, report.failed) == (1, 1)
    assert report.lines[0].startswith("FAIL 6.G.8 own")
    printed: list[str] = []
    report = run_files([str(path)], options=("adjacent_convoy=2000",), echo=printed.append)
    assert report.lines == [] and printed[0].startswith("FAIL 6.G.8 own")


@pytest.mark.skipif(not JDIP.exists(), reason="jDip's DATC file is not copied (GPL)")
def test_jdip_file_one_result_per_case() -> None:
    """jDip's file (full names, 'by convoy') reads in full. Beyond 6.A.5 and 6.G.8 it
    differs from DATC 3.0 in 6.F.8 (its POSTSTATE leaves A bel in Belgium, which the
    DATC moves to Holland: the file's error) and 6.F.17 (the 2000 rulebook's
    paradox result, not Szykman's: it passes with OPTIONS paradox=2000)."""
    passed, fails = _outcome(JDIP)
    assert passed == 164
    assert sorted(fails) == ["6.A.5", "6.F.17", "6.F.8", "6.G.8"]
    assert "unknown power 'Germnay'" in fails["6.A.5"]
