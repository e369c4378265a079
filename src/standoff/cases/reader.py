"""Reading case files: the jDip/godip case-file format, as text and as positions.

The format is specified in ``docs/case-format.md``: ``CASE``,
``PRESTATE_SETPHASE``, ``PRESTATE``, ``ORDERS``, ``POSTSTATE``... plus
standoff's extensions ``POSTSTATE_SUPPLYCENTER_OWNERS``, ``VARIANT`` and
``OPTIONS``. ``SKIP <reason>`` inside a case marks it skipped. This module turns
a file into :class:`Case` objects (:func:`iter_cases`), a case into the core's
position and orders (:func:`build_position`) and into the outcome it expects
(:func:`expected_outcome`); :mod:`standoff.cases.runner` adjudicates and compares.

Why it is built this way:

* **One bad case fails alone.** Published files come from other engines and
  carry their quirks (no ``PRESTATE_SETPHASE``, ``Italy F gol`` without the
  colon, typos such as ``Germnay``). A problem is recorded on the case it is in
  (:attr:`Case.error`, with file, line and reason) and the reader goes on, so
  the rest of the file still runs; a truncated case, a stray line or an
  undecodable byte costs only the case it is in.
* **Streaming.** :func:`iter_cases` reads line by line and yields each case
  when its ``END`` is read; the runner runs it at once and drops it. A
  file of any size is read in bounded memory (lines are capped too).
* **Reading must not cost more than adjudicating.** The reader is interpreted
  while the core may be compiled, and real-game case files are mostly unit
  lines repeated from case to case. Unit lines are read by a fast path (power,
  ``A``/``F``, a location id) and memoised per variant; only other notations go
  to the full order parser. Phases, options and power tables are cached.

Only the core's public API is used: this module is an adapter.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO

from standoff import (
    Dislodged,
    Hold,
    Move,
    Options,
    Order,
    Phase,
    PhaseKind,
    Position,
    StandoffError,
    Unit,
    UnitType,
    Variant,
    load_variant,
)


class CaseFileError(StandoffError):
    """A problem in a case file: where (``line`` 0: the file as a whole) and why."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path, self.line, self.reason = path, line, reason


_SECTIONS = frozenset({
    "PRESTATE", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "PRESTATE_SUPPLYCENTER_OWNERS",
    "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SUPPLYCENTER_OWNERS",
})
_KEYWORDS = _SECTIONS | {"VARIANT_ALL", "CASE", "END", "PRESTATE_SETPHASE", "VARIANT",
                         "OPTIONS", "SKIP", "POSTSTATE_SAME"}
#: the first three letters of every keyword, in every mix of case: a line starting
#: otherwise is no keyword (the reading loop's shortcut)
_STARTS = frozenset("".join(c) for k in _KEYWORDS
                    for c in itertools.product(*((ch.lower(), ch.upper()) for ch in k[:3])))
#: a line still unended after this many characters (at the end of a block read) is
#: an error and not kept: a file with no newlines is read in bounded memory too
LINE_LIMIT = 1 << 16


@dataclass
class Case:
    """One case as read: its lines by section (with their line numbers, for errors),
    read into positions only when it runs, so reading a file stays cheap."""

    id: str
    path: str
    line: int
    variant: str
    phase_text: str = ""
    options: list[str] = field(default_factory=list)
    sections: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    same: bool = False
    skip: str | None = None
    #: the first problem found reading the case; such a case fails without running
    error: CaseFileError | None = None

    def fail(self, line: int, reason: str) -> None:
        if self.error is None:
            self.error = CaseFileError(self.path, line, reason)


# -- reading ---------------------------------------------------------------------------------


def iter_cases(path: str) -> Iterator[Case | CaseFileError]:
    """Every case of a file, each as soon as its ``END`` is read.

    A problem inside a case is that case's :attr:`Case.error`; a problem outside
    any case (a stray line, an unreadable file, a file with no case) is yielded
    as a :class:`CaseFileError` of its own. Nothing else is raised."""
    try:
        # surrogateescape: a stray byte becomes one marked character, so the line
        # it is on can be blamed instead of the whole file
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            yield from _read(path, fh)
    except (OSError, ValueError) as exc:  # missing, a directory, an I/O error
        why = getattr(exc, "strerror", None) or exc
        yield CaseFileError(path, 0, f"cannot read file: {why}")


def _read(path: str, fh: IO[str]) -> Iterator[Case | CaseFileError]:
    """The reading loop. Kept flat and local-variable heavy: it runs once per line."""
    variant = "standard"
    case: Case | None = None
    lines: list[tuple[int, str]] | None = None  # the current section's lines
    stray = False  # a stray line outside any case was reported (one report per run)
    found = no = 0
    keywords, sections, starts = _KEYWORDS, _SECTIONS, _STARTS
    for raw in itertools.chain.from_iterable(_blocks(fh)):
        no += 1
        text = raw.split("#", 1)[0].strip() if "#" in raw else raw.strip()
        if text.isascii():
            problem = ""
        elif text == _LONG:
            problem = f"line longer than {LINE_LIMIT} characters"
        else:
            problem = _bad_byte(text)
            text = text.lstrip("\ufeff")  # a byte-order mark
        if problem:
            if case is not None:
                case.fail(no, problem)
            else:
                yield CaseFileError(path, no, problem)
            continue
        if not text:
            continue
        if lines is not None and text[:3] not in starts:
            lines.append((no, text))  # a section line (most lines): no keyword starts so
            continue
        word, _, rest = text.partition(" ")
        if "\t" in word:
            word, _, rest = text.partition("\t")
        key, rest, outside = word.upper(), rest.strip(), False
        if key not in keywords:
            if lines is not None and ("_" not in word or not word.isupper()):
                lines.append((no, text))
            elif case is not None:
                case.fail(no, f"unknown keyword {word!r}" if word.isupper()
                          else f"{text!r} outside a section (PRESTATE, ORDERS...)")
            else:
                outside = True
        elif key == "CASE":
            if case is not None:
                case.fail(case.line, f"case {case.id} has no END "
                                     f"(CASE {rest} starts at line {no})")
                yield case
            case = Case(rest or f"line {no}", path, no, variant)
            found += 1
            lines, stray = None, False
        elif key == "VARIANT_ALL":
            variant = rest
            if case is not None:
                case.fail(no, "VARIANT_ALL inside a case (use VARIANT)")
        elif case is None:
            outside = True
        elif key in sections:
            lines = None if rest else case.sections.setdefault(key, [])
            if rest:
                case.fail(no, f"unexpected {rest!r} after {key}")
        elif key == "END":
            yield case
            case, lines = None, None
        else:
            lines = None
            if key == "PRESTATE_SETPHASE":
                case.phase_text = rest
            elif key == "VARIANT":
                case.variant = rest
            elif key == "OPTIONS":
                case.options.extend(rest.split())
            elif key == "SKIP":
                case.skip = rest or "skipped"
            else:  # POSTSTATE_SAME
                case.same = True
        if outside and not stray:  # reported once until the next CASE
            stray = True
            yield CaseFileError(path, no, f"{word!r} outside a CASE ... END block")
    if case is not None:
        case.fail(case.line, f"case {case.id} has no END (the file ends at line {no})")
        yield case
    if not found and not stray:
        yield CaseFileError(path, 0, "no cases in the file (no CASE ... END block)")


#: stands for a line longer than LINE_LIMIT: a lone surrogate no decoded file holds
#: (surrogateescape gives 0xdc80-0xdcff only)
_LONG = chr(0xDC00)  # chr(): mypyc takes no surrogate literals
_CHUNK = 1 << 16


def _blocks(fh: IO[str]) -> Iterator[list[str]]:
    """The file's lines, without their newline, a block at a time: one C-level
    split per 64 KiB is the cheapest way to read lines in Python, and unlike
    iterating the file it bounds the memory a line can take (a longer one
    comes out as :data:`_LONG`)."""
    carry, long = "", False
    while block := fh.read(_CHUNK):
        lines = (carry + block).split("\n")
        carry = lines.pop()
        if long:
            if not lines:
                carry = ""
                continue
            lines[0], long = _LONG, False
        if len(carry) > LINE_LIMIT:
            carry, long = "", True
        yield lines
    if long or carry:
        yield [_LONG if long else carry]


#: the range surrogateescape maps undecodable bytes to
_ESCAPED_LOW, _ESCAPED_HIGH = chr(0xDC80), chr(0xDCFF)


def _bad_byte(text: str) -> str:
    """The reason to refuse a line holding a byte that is not UTF-8 ("" if none)."""
    for ch in text:
        if _ESCAPED_LOW <= ch <= _ESCAPED_HIGH:
            return f"byte 0x{ord(ch) - 0xDC00:02x} is not UTF-8"
    return ""


def read_cases(path: str) -> list[Case]:
    """Every case of a file, strictly: raise :class:`CaseFileError` on the first
    problem (for callers that want all or nothing; the runner uses :func:`iter_cases`)."""
    out = []
    for item in iter_cases(path):
        if isinstance(item, CaseFileError):
            raise item
        if item.error is not None:
            raise item.error
        out.append(item)
    return out


# -- lines of a case ---------------------------------------------------------------------------


class _BadLine(StandoffError):
    """A line that cannot be read (turned into a :class:`CaseFileError` with its line)."""


class _Table:
    """Per-variant reading tables, built once: power names longest first, location
    ids for the unit fast path, and a bounded memo of unit lines already read."""

    MEMO_LIMIT = 100_000

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        powers: dict[str, str] = {}
        for p in variant.powers.values():
            for name in (p.id, p.name, p.adjective, *p.aliases):
                powers.setdefault(" ".join(name.lower().split()), p.id)
        self.powers = powers
        if variant.neutral:
            powers.setdefault(variant.neutral.lower(), variant.neutral)
        #: (name, power), longest first: ``Italy F gol`` and multi-word names
        self.prefixes = sorted(powers.items(), key=lambda kv: -len(kv[0]))
        #: location ids (the board's own interned strings) for the unit fast path
        self.locations = {loc.lower(): loc for pid, prov in variant.board.provinces.items()
                          for loc in (pid, *prov.coasts)}
        #: memo: line -> its unit, line -> (province, power) for centre owners (the
        #: same lines: the unit type of an owner line is ignored), bad line -> why
        self.units: dict[str, Unit] = {}
        self.owners: dict[str, tuple[str, str]] = {}
        self.bad: dict[str, str] = {}
        #: memo: order line -> (power, order text)
        self.orders: dict[str, tuple[str, str]] = {}
        self.homes = {h.split("/", 1)[0]: p.id for p in variant.powers.values()
                      for h in p.home_centres}
        #: for the error message
        self.names = ", ".join(p.name for p in variant.powers.values())

    def split(self, line: str, neutral: bool = False) -> tuple[str, str]:
        """(power, rest) of ``Power: ...`` or ``Power ...`` (longest power name first)."""
        head, sep, rest = line.partition(":")
        power = self.powers.get(" ".join(head.lower().split())) if sep else None
        if power is None:
            norm = " ".join(line.split())
            low = norm.lower()
            for name, p in self.prefixes:
                n = len(name)
                if low.startswith(name) and (n == len(low) or low[n] in " :"):
                    power, rest = p, norm[n:].lstrip()
                    rest = rest[1:] if rest.startswith(":") else rest
                    break
            else:
                word = head.strip() if sep else line.partition(" ")[0]
                raise _BadLine(f"unknown power {word!r} in {self.variant.title} "
                               f"(powers: {self.names})")
        if power == self.variant.neutral and not neutral:
            raise _BadLine(f"{line!r}: units of no power take no orders")
        return power, rest.strip()

    def order(self, line: str) -> tuple[str, str]:
        """(power, order text) of an ``ORDERS`` line, memoised."""
        found = self.orders.get(line)
        if found is None:
            if len(self.orders) >= self.MEMO_LIMIT:
                self.orders.clear()
            found = self.orders[line] = self.split(line)
        return found

    def unit(self, line: str) -> Unit:
        """The unit of a ``Power: A xxx`` line, memoised (and why not, for a bad line)."""
        found = self.units.get(line)
        if found is not None:
            return found
        reason = self.bad.get(line)
        if reason is None:
            if len(self.units) + len(self.bad) >= self.MEMO_LIMIT:
                self.units.clear()
                self.bad.clear()
                self.owners.clear()
            try:
                found = self._unit(line)
            except StandoffError as exc:
                reason = self.bad[line] = str(exc)
            else:
                self.units[line] = found
                self.owners[line] = (found.location.split("/", 1)[0], found.power)
                return found
        raise _BadLine(reason)

    def _unit(self, line: str) -> Unit:
        power, rest = self.split(line, neutral=True)
        words = rest.split()
        if len(words) == 2:
            kind, loc = _TYPES.get(words[0].lower()), self.locations.get(words[1].lower())
            if kind is not None and loc is not None:
                return Unit(power, kind, loc)
        order = Order.parse(rest, self.variant)
        if type(order) is not Hold:
            raise _BadLine(f"expected a unit such as 'A par', found {rest!r}")
        if order.unit is None:
            raise _BadLine(f"unit type missing in {rest!r}")
        return Unit(power, order.unit, order.location)


_TYPES = {"a": UnitType.ARMY, "f": UnitType.FLEET, "army": UnitType.ARMY,
          "fleet": UnitType.FLEET}


@lru_cache(maxsize=32)
def _table(variant: Variant) -> _Table:
    return _Table(variant)


@lru_cache(maxsize=256)
def _phase(variant: Variant, text: str) -> Phase:
    """A case's phase; none given is Spring 1901, Movement (the spec), i.e. the
    first season of 1901 whatever the variant calls it."""
    if not text:
        return Phase(1901, 0, PhaseKind.MOVEMENT)
    return Phase.parse(text, variant.calendar)


@lru_cache(maxsize=256)
def _options(options: tuple[str, ...]) -> Options:
    return Options.parse(list(options))


def _units(table: _Table, case: Case, name: str) -> list[Unit]:
    """The units of a section. Almost every line of a real file was seen before:
    a plain subscript of the memo, and the reader only on a miss."""
    lines = case.sections.get(name)
    if not lines:
        return []
    units = table.units
    try:
        return [units[t] for _, t in lines]
    except KeyError:
        return _read_units(table, case, lines)


def _owners(table: _Table, case: Case, name: str) -> list[tuple[str, str]]:
    """(province, power) of each line of a centre-owner section (memoised as units)."""
    lines = case.sections.get(name, [])
    owners = table.owners
    try:
        return [owners[t] for _, t in lines]
    except KeyError:
        return [(u.location.split("/", 1)[0], u.power) for u in _read_units(table, case, lines)]


def _read_units(table: _Table, case: Case, lines: list[tuple[int, str]]) -> list[Unit]:
    out = []
    for no, line in lines:
        try:
            out.append(table.unit(line))
        except _BadLine as exc:
            raise CaseFileError(case.path, no, str(exc)) from None
    return out


def build_position(case: Case) -> tuple[Position, dict[str, list[str]], Options, Variant]:
    """The case's starting position, orders (power -> text), options and variant.
    Raises :class:`CaseFileError` (with the line) for anything it cannot read."""
    if case.error is not None:
        raise case.error
    try:
        variant = load_variant(case.variant)
        options = _options(tuple(case.options))
        phase = _phase(variant, case.phase_text)
    except StandoffError as exc:
        raise CaseFileError(case.path, case.line, str(exc)) from None
    table = _table(variant)
    units = _units(table, case, "PRESTATE")
    if "PRESTATE_SUPPLYCENTER_OWNERS" in case.sections:
        centres = dict(_owners(table, case, "PRESTATE_SUPPLYCENTER_OWNERS"))
    else:
        centres = dict(table.homes)
    dislodged: tuple[Dislodged, ...] = ()
    contested: frozenset[str] = frozenset()
    if "PRESTATE_DISLODGED" in case.sections or "PRESTATE_RESULTS" in case.sections:
        dislodged, contested = _retreat_state(table, case, phase, units)
    position = Position(variant.name, phase, units, centres, dislodged, contested)
    try:
        position.check(variant)
    except StandoffError as exc:
        raise CaseFileError(case.path, case.line, f"impossible starting position: {exc}") \
            from None
    orders: dict[str, list[str]] = {}
    for no, line in case.sections.get("ORDERS", ()):
        try:
            power, text = table.order(line)
        except _BadLine as exc:
            raise CaseFileError(case.path, no, str(exc)) from None
        orders.setdefault(power, []).append(text)
    if phase.kind is PhaseKind.ADJUSTMENT:
        for p in variant.powers:
            orders.setdefault(p, [])
    return position, orders, options, variant


def _retreat_state(table: _Table, case: Case, phase: Phase, units: list[Unit]
                   ) -> tuple[tuple[Dislodged, ...], frozenset[str]]:
    """The dislodged units with their attackers, and the provinces left empty by a
    stand-off, from ``PRESTATE_DISLODGED`` and the movement's ``PRESTATE_RESULTS``.

    A stand-off is two or more failed moves into a province that is empty after
    the movement (docs/case-format.md). A single failed move (a convoy that
    failed, a move cut off) blocks no retreat: DATC 6.H.9 and 6.H.12 are written
    that way in godip's and jDip's files."""
    variant = table.variant
    army_links = variant.board_at(phase).army_links
    attacks: dict[str, tuple[str, bool]] = {}
    failed: dict[str, int] = {}
    occupied = {u.location.split("/", 1)[0] for u in units}
    for no, line in case.sections.get("PRESTATE_RESULTS", ()):
        try:
            verdict, _, rest = line.partition(" ")
            verdict, rest = verdict.rstrip(":").upper(), rest.lstrip(" \t:")
            if verdict not in ("SUCCESS", "FAILURE"):
                head = line.partition(":")[0]
                raise _BadLine(f"expected 'SUCCESS: ...' or 'FAILURE: ...', found {head!r}")
            _, text = table.split(rest)
            order = Order.parse(text, variant)
        except StandoffError as exc:
            raise CaseFileError(case.path, no, str(exc)) from None
        if not isinstance(order, Move):
            continue
        src, dest = order.location.split("/", 1)[0], order.dest.split("/", 1)[0]
        if verdict == "SUCCESS":
            by_convoy = order.via_convoy or (
                order.unit is UnitType.ARMY and dest not in army_links.get(order.location, ()))
            attacks[dest] = (src, by_convoy)
        elif dest not in occupied:
            failed[dest] = failed.get(dest, 0) + 1
    dislodged = []
    for u in _units(table, case, "PRESTATE_DISLODGED"):
        origin, convoy = attacks.get(u.location.split("/", 1)[0], ("", False))
        dislodged.append(Dislodged(u, origin, convoy))
    contested = frozenset(p for p, n in failed.items() if n >= 2 and p not in attacks)
    return tuple(dislodged), contested


# -- the expected outcome ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expected:
    """What a case expects after adjudication; None where the case does not say."""

    units: Sequence[Unit] | None
    dislodged: set[Unit] | None
    centres: dict[str, str] | None


def expected_outcome(case: Case, position: Position, variant: Variant) -> Expected:
    """The case's ``POSTSTATE`` sections read (``POSTSTATE_SAME``: the units of
    ``position``, the starting one, and nobody dislodged). Raises
    :class:`CaseFileError` (with the line) for a line it cannot read."""
    table = _table(variant)
    sections = case.sections
    units: Sequence[Unit] | None = None
    dislodged: set[Unit] | None = None
    centres: dict[str, str] | None = None
    if case.same or "POSTSTATE" in sections:
        units = position.units if case.same else _units(table, case, "POSTSTATE")
    if case.same or "POSTSTATE_DISLODGED" in sections or "POSTSTATE" in sections:
        dislodged = set() if case.same else set(_units(table, case, "POSTSTATE_DISLODGED"))
    if "POSTSTATE_SUPPLYCENTER_OWNERS" in sections:
        centres = dict(_owners(table, case, "POSTSTATE_SUPPLYCENTER_OWNERS"))
    return Expected(units, dislodged, centres)
