"""Adjudication test cases in the jDip/godip case-file format (``docs/case-format.md``).

The adapter behind ``standoff cases``, in two rooms: :mod:`standoff.cases.reader`
reads case files as a stream and each case into the core's position, orders and
expected outcome; :mod:`standoff.cases.runner` adjudicates each case through the
core's public API and compares the outcome with the expected one.
"""

from .reader import (
    LINE_LIMIT,
    Case,
    CaseFileError,
    build_position,
    iter_cases,
    read_cases,
)
from .runner import Report, run_case, run_files

__all__ = ["LINE_LIMIT", "Case", "CaseFileError", "Report", "build_position", "iter_cases",
           "read_cases", "run_case", "run_files"]
