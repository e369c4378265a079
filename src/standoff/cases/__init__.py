"""Adjudication test cases in the jDip/godip case-file format (``docs/case-format.md``).

The adapter behind ``standoff cases``: :mod:`standoff.cases.runner` reads case
files as a stream, builds each case's position through the core's public API,
adjudicates it and compares the outcome with the expected one.
"""

from .runner import (
    LINE_LIMIT,
    Case,
    CaseFileError,
    Report,
    build_position,
    iter_cases,
    read_cases,
    run_case,
    run_files,
)

__all__ = ["LINE_LIMIT", "Case", "CaseFileError", "Report", "build_position", "iter_cases",
           "read_cases", "run_case", "run_files"]
