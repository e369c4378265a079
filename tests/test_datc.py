"""DATC 3.0 and other adjudication cases, run from the case files in tests/cases.

One data-driven runner: every case of every ``tests/cases/**/*.txt`` file is a
pytest test that must adjudicate to its expected outcome. The files must also
cover every one of the 164 DATC 3.0 test cases (chapter 6) under the default
(DATC-preferred) rules. The runner itself (``standoff.cases``, ``standoff
cases``) is tested in tests/test_casefile.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from standoff.cases import Case, read_cases, run_case

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
