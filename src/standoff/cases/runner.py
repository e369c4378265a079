"""Running case files: adjudicate each case and compare with what it expects.

:mod:`standoff.cases.reader` reads a file into cases, each case into a position
and orders and into its expected outcome; this module adjudicates the case
through the core's public API and reports the differences (:func:`run_case`),
and runs whole files as they are read (:func:`run_files`, the ``standoff cases``
command): each case as soon as its ``END`` is read, then dropped, so a file of
any size runs in bounded memory. One case that cannot be read, or that hits a
bug, is one failure, never the end of the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass, field

from standoff import StandoffError, UnitType, adjudicate

from .reader import Case, CaseFileError, build_position, expected_outcome, iter_cases


def run_case(case: Case) -> list[str]:
    """Adjudicate a case; return the differences from the expected outcome.
    Raises :class:`CaseFileError` when the case cannot be read."""
    position, orders, options, variant = build_position(case)
    outcome = adjudicate(position, orders, options, variant)
    nxt = outcome.next_position
    want = expected_outcome(case, position, variant)
    diffs = []
    if want.units is not None:
        diffs += _diff("units", _counted(want.units), _counted(nxt.units))
    if want.dislodged is not None:
        diffs += _diff("dislodged", want.dislodged, {d.unit for d in nxt.dislodged})
    if want.centres is not None and want.centres != nxt.centres:
        diffs += _diff("centres", set(want.centres.items()), set(nxt.centres.items()))
    return diffs


def _counted(units: Iterable[tuple[str, UnitType, str]]) -> Set[tuple[object, ...]]:
    """Units as a set that still counts duplicates (several fleets of one power
    on one high sea): the second is ``(power, type, loc, 2)``."""
    units = units if isinstance(units, (list, tuple)) else list(units)
    plain = set(units)
    if len(plain) == len(units):
        return plain
    seen: dict[tuple[str, UnitType, str], int] = {}
    out: set[tuple[object, ...]] = set()
    for u in units:
        n = seen[u] = seen.get(u, 0) + 1
        out.add(u if n == 1 else (*u, n))
    return out


def _diff(what: str, want: Set[tuple[object, ...]], got: Set[tuple[object, ...]]) -> list[str]:
    if want == got:
        return []

    def show(items: Set[tuple[object, ...]]) -> str:
        return ", ".join(sorted(" ".join(str(x).upper() if i else str(x) for i, x in enumerate(t))
                                for t in items))
    out = []
    missing, extra = set(want) - set(got), set(got) - set(want)
    if missing:
        out.append(f"{what} missing: {show(missing)}")
    if extra:
        out.append(f"{what} unexpected: {show(extra)}")
    return out


@dataclass
class Report:
    """The counts of a run, and its report lines when no ``echo`` takes them."""

    passed: int = 0
    failed: int = 0
    skipped: int = 0
    lines: list[str] = field(default_factory=list)

    def summary(self) -> str:
        s = f"{self.passed} passed, {self.failed} failed"
        return s + (f", {self.skipped} skipped" if self.skipped else "")


def run_files(paths: list[str], variant: str | None = None, verbose: bool = False,
              options: Sequence[str] = (), echo: Callable[[str], None] | None = None
              ) -> Report:
    """Run every case of every file as it is read (the ``standoff cases`` command).
    Each unreadable case, stray line or unreadable file is one failure.

    ``options`` (``key=value``) apply to every case; a case's own ``OPTIONS``
    line overrides them. With ``echo``, each report line is handed to it as soon
    as its case has run (a huge failing file prints as it goes) instead of being
    kept in :attr:`Report.lines`."""
    report = Report()
    keep = echo if echo is not None else report.lines.append
    for path in paths:
        for item in iter_cases(path):
            if isinstance(item, CaseFileError):
                report.failed += 1
                keep(f"ERROR {item}")
                continue
            if variant:
                item.variant = variant
            if options:
                item.options[:0] = options
            line = _run_one(item, report, verbose)
            if line:
                keep(line)
    return report


def _run_one(case: Case, report: Report, verbose: bool) -> str:
    """Run a case, count it; the line to print ("" for none)."""
    if case.skip is not None and case.error is None:
        report.skipped += 1
        return f"SKIP {case.id}: {case.skip}" if verbose else ""
    try:
        diffs = run_case(case)
    except StandoffError as exc:  # a CaseFileError names its own file and line
        report.failed += 1
        where = "" if isinstance(exc, CaseFileError) else f" ({case.path}:{case.line})"
        return f"FAIL {case.id}{where}: {exc}"
    except Exception as exc:  # a bug, not the file's fault: still one case, not the run
        report.failed += 1
        return (f"FAIL {case.id} ({case.path}:{case.line}): internal error "
                f"{type(exc).__name__}: {exc}")
    if diffs:
        report.failed += 1
        return f"FAIL {case.id} ({case.path}:{case.line}): " + "; ".join(diffs)
    report.passed += 1
    return f"ok   {case.id}" if verbose else ""
