"""Adjudication test cases in the jDip/godip case-file format.

The format is specified in ``docs/case-format.md``: ``CASE``,
``PRESTATE_SETPHASE``, ``PRESTATE``, ``ORDERS``, ``POSTSTATE``... plus
standoff's extensions ``POSTSTATE_SUPPLYCENTER_OWNERS``, ``VARIANT`` and
``OPTIONS``. ``SKIP <reason>`` inside a case marks it skipped. A file that
cannot be read is reported with its name, line and reason; reading never
raises anything but :class:`CaseFileError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path

from .adjudicator import adjudicate
from .errors import StandoffError
from .geography import UnitType, province_of
from .notation import parse_order
from .options import Options
from .orders import Move
from .phase import Phase, PhaseKind
from .position import Dislodged, Position, Unit
from .variant import Variant, load_variant


class CaseFileError(StandoffError):
    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}")
        self.path, self.line, self.reason = path, line, reason


_SECTIONS = {
    "PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE_SUPPLYCENTER_OWNERS",
    "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SUPPLYCENTER_OWNERS",
}


@dataclass
class Case:
    id: str
    path: str
    line: int
    variant: str
    phase_text: str = ""
    options: list[str] = field(default_factory=list)
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    same: bool = False
    skip: str | None = None


def read_cases(path: str) -> list[Case]:
    """Parse a case file; raise :class:`CaseFileError` on the first problem."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CaseFileError(path, 0, f"cannot read file: {exc}") from exc
    cases: list[Case] = []
    variant = "standard"
    case: Case | None = None
    section: str | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        key = word.upper()
        rest = rest.strip()
        if key == "VARIANT_ALL":
            variant = rest
        elif key == "CASE":
            if case is not None:
                raise CaseFileError(path, no, f"CASE {rest} starts before case {case.id} ENDs")
            case = Case(rest or f"line {no}", path, no, variant)
            section = None
        elif case is None:
            raise CaseFileError(path, no, f"{word!r} outside a CASE ... END block")
        elif key == "END":
            if not case.phase_text:
                raise CaseFileError(path, no, f"case {case.id} has no PRESTATE_SETPHASE")
            cases.append(case)
            case = None
        elif key == "PRESTATE_SETPHASE":
            case.phase_text = rest
        elif key == "VARIANT":
            case.variant = rest
        elif key == "OPTIONS":
            case.options.extend(rest.split())
        elif key == "SKIP":
            case.skip = rest or "skipped"
        elif key == "POSTSTATE_SAME":
            case.same = True
            section = None
        elif key in _SECTIONS and not rest:
            section = key
            case.sections.setdefault(key, [])
        elif section is not None:
            case.sections[section].append((no, line))
        else:
            raise CaseFileError(path, no, f"unknown keyword {word!r}")
    if case is not None:
        raise CaseFileError(path, case.line, f"case {case.id} has no END")
    return cases


def _power_and_rest(variant: Variant, case: Case, no: int, line: str,
                    neutral: bool = False) -> tuple[str, str]:
    """The power of a ``Power: ...`` line; with ``neutral``, units in civil
    disorder may be listed too (1939 IV: ``Neutral: A fin``)."""
    power, sep, rest = line.partition(":")
    if not sep:
        raise CaseFileError(case.path, no, f"expected 'Power: ...', found {line!r}")
    if neutral and variant.neutral and power.strip().lower() == variant.neutral:
        return variant.neutral, rest.strip()
    try:
        return variant.power(power), rest.strip()
    except StandoffError as exc:
        raise CaseFileError(case.path, no, str(exc)) from exc


def _units(variant: Variant, case: Case, name: str) -> list[Unit]:
    out = []
    for no, line in case.sections.get(name, []):
        power, rest = _power_and_rest(variant, case, no, line, neutral=True)
        try:
            o = parse_order(rest, variant)
        except StandoffError as exc:
            raise CaseFileError(case.path, no, str(exc)) from exc
        if o.unit is None:
            raise CaseFileError(case.path, no, f"unit type missing in {rest!r}")
        out.append(Unit(power, o.unit, o.location))
    return out


def build_position(case: Case) -> tuple[Position, dict[str, list[str]], Options, Variant]:
    """The case's starting position, orders (power -> text) and options."""
    try:
        variant = load_variant(case.variant)
        options = Options.parse(case.options)
        phase = Phase.parse(case.phase_text, variant.calendar)
    except StandoffError as exc:
        raise CaseFileError(case.path, case.line, str(exc)) from exc
    units = _units(variant, case, "PRESTATE")
    owners = _units(variant, case, "PRESTATE_SUPPLYCENTER_OWNERS")
    if "PRESTATE_SUPPLYCENTER_OWNERS" in case.sections:
        centres = {u.province: u.power for u in owners}
    else:
        centres = {province_of(h): p.id for p in variant.powers.values() for h in p.home_centres}
    dislodged_units = _units(variant, case, "PRESTATE_DISLODGED")
    attacks: dict[str, tuple[str, bool]] = {}
    contested: set[str] = set()
    occupied = {u.province for u in units}
    board = variant.board_at(phase)
    for no, line in case.sections.get("PRESTATE_RESULTS", []):
        verdict, _, rest = line.partition(":")
        power, text = _power_and_rest(variant, case, no, rest.strip())
        try:
            o = parse_order(text, variant)
        except StandoffError as exc:
            raise CaseFileError(case.path, no, str(exc)) from exc
        if not isinstance(o, Move):
            continue
        dest = province_of(o.dest)
        if verdict.strip().upper() == "SUCCESS":
            by_convoy = o.via_convoy or (
                o.unit is UnitType.ARMY and dest not in board.army_links.get(o.province, ()))
            attacks[dest] = (o.province, by_convoy)
        elif dest not in occupied:
            contested.add(dest)
    dislodged = []
    for u in dislodged_units:
        origin, convoy = attacks.get(u.province, ("", False))
        dislodged.append(Dislodged(u, origin, convoy))
    contested -= {d for d in attacks}
    position = Position(variant.name, phase, tuple(units), centres, tuple(dislodged),
                        frozenset(contested))
    try:
        position.check(variant)
    except StandoffError as exc:
        raise CaseFileError(case.path, case.line, f"impossible starting position: {exc}") from exc
    orders: dict[str, list[str]] = {}
    for no, line in case.sections.get("ORDERS", []):
        power, text = _power_and_rest(variant, case, no, line)
        orders.setdefault(power, []).append(text)
    if phase.kind is PhaseKind.ADJUSTMENT:
        for p in variant.powers:
            orders.setdefault(p, [])
    return position, orders, options, variant


def run_case(case: Case) -> list[str]:
    """Adjudicate a case; return the differences from the expected outcome."""
    position, orders, options, variant = build_position(case)
    outcome = adjudicate(position, orders, options, variant)
    nxt = outcome.next_position
    got_units = _counted((u.power, u.type, u.location) for u in nxt.units)
    got_dis = {(d.unit.power, d.unit.type, d.unit.location) for d in nxt.dislodged}
    if case.same:
        want_units = _counted((u.power, u.type, u.location) for u in position.units)
        want_dis: set[tuple[str, UnitType, str]] = set()
    else:
        want_units = _counted((u.power, u.type, u.location)
                              for u in _units(variant, case, "POSTSTATE"))
        want_dis = {(u.power, u.type, u.location)
                    for u in _units(variant, case, "POSTSTATE_DISLODGED")}
    diffs = []
    if case.same or "POSTSTATE" in case.sections:
        diffs += _diff("units", want_units, got_units)
    if case.same or "POSTSTATE_DISLODGED" in case.sections or "POSTSTATE" in case.sections:
        diffs += _diff("dislodged", want_dis, got_dis)
    if "POSTSTATE_SUPPLYCENTER_OWNERS" in case.sections:
        want_sc = {(u.province, u.power)
                   for u in _units(variant, case, "POSTSTATE_SUPPLYCENTER_OWNERS")}
        diffs += _diff("centres", want_sc, set(nxt.centres.items()))
    return diffs


def _counted(units: Iterable[tuple[str, UnitType, str]]) -> set[tuple[object, ...]]:
    """Units as a set that still counts duplicates (several fleets of one power
    on one high sea): the second is ``(power, type, loc, 2)``."""
    seen: dict[tuple[str, UnitType, str], int] = {}
    out: set[tuple[object, ...]] = set()
    for u in units:
        n = seen[u] = seen.get(u, 0) + 1
        out.add(u if n == 1 else (*u, n))
    return out


def _diff(what: str, want: Set[tuple[object, ...]], got: Set[tuple[object, ...]]) -> list[str]:
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
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    lines: list[str] = field(default_factory=list)

    def summary(self) -> str:
        s = f"{self.passed} passed, {self.failed} failed"
        return s + (f", {self.skipped} skipped" if self.skipped else "")


def run_files(paths: list[str], variant: str | None = None, verbose: bool = False) -> Report:
    """Run every case of every file (the ``standoff cases`` command)."""
    report = Report()
    for path in paths:
        try:
            cases = read_cases(path)
        except CaseFileError as exc:
            report.failed += 1
            report.lines.append(f"ERROR {exc}")
            continue
        for case in cases:
            if variant:
                case.variant = variant
            for line in _run_one(case, report, verbose):
                report.lines.append(line)
    return report


def _run_one(case: Case, report: Report, verbose: bool) -> Iterator[str]:
    if case.skip is not None:
        report.skipped += 1
        if verbose:
            yield f"SKIP {case.id}: {case.skip}"
        return
    try:
        diffs = run_case(case)
    except StandoffError as exc:
        report.failed += 1
        yield f"FAIL {case.id} ({case.path}:{case.line}): {exc}"
        return
    if diffs:
        report.failed += 1
        yield f"FAIL {case.id} ({case.path}:{case.line}): " + "; ".join(diffs)
    else:
        report.passed += 1
        if verbose:
            yield f"ok   {case.id}"
