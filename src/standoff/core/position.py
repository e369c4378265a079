"""A position: everything on the board at one phase, with two notations.

JSON (``to_json``/``from_json``) for programs, and a one-line compact text
(``to_text``/``from_text``) for people and test files, in the spirit of chess
FEN::

    standard | S1901M | austria: A BUD, A VIE, F TRI; ... | austria: BUD TRI VIE; ... | - | -

Fields, separated by `` | ``: variant, phase, units per power, owned centres
per power, dislodged units (``A SER<BUD`` = dislodged by a unit from BUD,
``<BUD~`` if that attack came by convoy; ``<BUD*`` is still read when no space
is called ``BUD*``), provinces left empty by a stand-off (which retreats may
not enter), and, only when there are any, a seventh field of notes: units
whose owner ordered them not to convert if the map strands them (Sahara rule
2), kept from the movement phase to the end of the season (``BLA<``: the
dislodged unit in BLA). ``-`` marks an
empty field. Both forms round-trip exactly; anything else raises
:class:`NotationError`.
"""

from __future__ import annotations

import json
import sys
from bisect import insort
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from .buckets import bucket
from .errors import NotationError, StandoffError, VariantError
from .geography import PROVINCE_OF, UNIT_LETTER, Board, UnitType, province_of
from .phase import Phase
from .variant import Variant, VariantRegistry, load_variant


class Unit(NamedTuple):
    """A unit on the board. A named tuple: built once per unit per phase, so it
    must be cheap, and it sorts by (power, type, location) for free."""

    power: str
    type: UnitType
    location: str

    @property
    def province(self) -> str:
        return province_of(self.location)

    def __str__(self) -> str:
        return f"{UNIT_LETTER[self.type]} {self.location.upper()}"


def new_unit(power: str, unit_type: UnitType, location: str) -> Unit:
    """``Unit(power, unit_type, location)``, built as any tuple is. A named tuple's
    ``__new__`` is a Python function: every unit the compiled core builds (one
    for each unit that moves, retreats or is built) would otherwise be a trip
    through the interpreter, at twice the cost."""
    return _TUPLE_NEW(Unit, (power, unit_type, location))


#: ``tuple.__new__``, found once: looked up at each call it is a generic method
#: call of the compiled core (an attribute search of ``tuple`` before the call)
_TUPLE_NEW: Final = tuple.__new__


@dataclass(frozen=True, slots=True, order=True)
class Dislodged:
    """A unit awaiting its retreat, and where the attack that dislodged it came from."""

    unit: Unit
    attacker_from: str
    #: the attack came by convoy, so a retreat to ``attacker_from`` is allowed (DATC 4.A.5)
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit}<{self.attacker_from.upper()}{'~' if self.via_convoy else ''}"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # by the constructor's arguments, as every value of the compiled core
        return (Dislodged, (self.unit, self.attacker_from, self.via_convoy))


class Position:
    """Everything on the board at one phase: an immutable value (never mutated
    after it is built; equal and hashable by its contents).

    A plain class rather than a frozen dataclass: one is built for every phase
    adjudicated, and a hand-written constructor is several times cheaper than
    a dataclass's (which stays interpreted even in the compiled core).
    """

    __slots__ = ("_cache", "_counts", "_index", "centres", "contested", "dislodged",
                 "notes", "phase", "units", "variant")

    def __init__(self, variant: str, phase: Phase, units: Iterable[Unit],
                 centres: Mapping[str, str], dislodged: Iterable[Dislodged] = (),
                 contested: Iterable[str] = frozenset(),
                 notes: Iterable[str] = frozenset()) -> None:
        self.variant = variant
        self.phase = phase
        # Canonical order, so equal positions compare and serialise identically.
        self.units: tuple[Unit, ...] = units.units if isinstance(units, InOrder) \
            else tuple(sorted(units))
        self.dislodged: tuple[Dislodged, ...] = tuple(sorted(dislodged)) if dislodged else ()
        #: owned supply centres: province -> power
        self.centres: Mapping[str, str] = centres if isinstance(centres, _Sorted) \
            else _Sorted(sorted(centres.items()))
        #: provinces left empty by a stand-off in the movement phase before a retreat
        self.contested: frozenset[str] = contested if isinstance(contested, frozenset) \
            else frozenset(contested)
        #: units whose owner ordered NO CONVERT this season (Sahara rule 2): their
        #: locations, or ``"loc<"`` for a dislodged unit awaiting its retreat
        self.notes: frozenset[str] = notes if isinstance(notes, frozenset) \
            else frozenset(notes)
        #: province -> the index in ``units`` of its (first) unit: every province
        #: holding a unit, which is also what retreats and builds ask ("occupied?");
        #: the one table built per position (the unit is ``units[i]``)
        index: dict[str, int] = {}
        for i, u in enumerate(self.units):
            # (province_of registers a location no board has named: see PROVINCE_OF)
            index.setdefault(province_of(u.location), i)
        self._index = index
        self._cache: dict[str, frozenset[str]] = {}
        #: the adjustment counts (:func:`~standoff.core.adjustments.adjustment_counts`),
        #: once asked for or handed over by the phase that made this position: the
        #: adjudicator, the legal orders and every submission all need them
        self._counts: dict[str, int] | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def _key(self) -> tuple[object, ...]:
        return (self.variant, self.phase, self.units, dict(self.centres), self.dislodged,
                self.contested, self.notes)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy by the constructor's arguments (positions cross process
        boundaries in self-play; the compiled class cannot be rebuilt slot by slot)."""
        return (Position, (self.variant, self.phase, self.units, dict(self.centres),
                           self.dislodged, self.contested, self.notes))

    def __repr__(self) -> str:
        try:
            return f"Position.from_text({self.to_text()!r})"
        except StandoffError:  # a variant no longer registered: say what there is
            return (f"Position({self.variant!r}, {self.phase!r}, {self.units!r}, "
                    f"{dict(self.centres)!r}, {self.dislodged!r}, {set(self.contested)!r}, "
                    f"{set(self.notes)!r})")

    def convoy_seas(self, registry: VariantRegistry | None = None) -> frozenset[str]:
        """Sea provinces holding a fleet (where convoy routes could run); cached. The
        variant is found in ``registry`` (default: the module's)."""
        cached = self._cache.get("convoy_seas")
        if cached is None:
            board = load_variant(self.variant, registry).board_at(self.phase)
            cached = self.convoy_seas_on(board)
        return cached

    def convoy_seas_on(self, board: Board) -> frozenset[str]:
        """:attr:`convoy_seas`, for a caller that has the board in force already
        (finding it again through the variant registry costs as much as the scan)."""
        cached = self._cache.get("convoy_seas")
        if cached is None:
            table = PROVINCE_OF  # (a unit's ``province``, a named tuple's property, is slower)
            convoyable = board.convoyable
            fleet = UnitType.FLEET
            found = []
            for u in self.units:
                if u.type is fleet:
                    prov = table[u.location]
                    if prov in convoyable:
                        found.append(prov)
            cached = self._cache["convoy_seas"] = frozenset(found)
        return cached

    def __hash__(self) -> int:
        return hash((self.variant, self.phase, self.units, self.dislodged, self.contested))

    # -- what the phases share with the position -----------------------------------

    @property
    def unit_index(self) -> dict[str, int]:
        """Province -> the index in :attr:`units` of its (first) unit: every
        province holding a unit. The one table built per position, shared rather
        than rebuilt: the adjudicator finds each order's unit by it, the legal
        orders lay out a phase with it, retreats and builds ask it which
        provinces are occupied. A plain dict (the compiled core indexes it
        natively); read it, never change it."""
        return self._index

    def known_counts(self) -> dict[str, int] | None:
        """The adjustment counts kept on this position (see
        :meth:`keep_counts`), or None while nobody has worked them out."""
        return self._counts

    def keep_counts(self, counts: dict[str, int]) -> None:
        """Keep ``counts``, this position's adjustment counts
        (:func:`~standoff.core.adjustments.adjustment_counts`), on it: the
        adjudicator, the legal orders and every submission ask for them, and the
        phase that made an adjustment position has worked them out already.
        A memo of what the position's contents decide, so the value (its
        equality, hash and JSON) does not change."""
        self._counts = counts

    # -- queries -------------------------------------------------------------------

    def unit_at(self, province: str) -> Unit | None:
        """The unit in a province (for a multi-unit province: the first)."""
        i = self._index.get(province)
        return None if i is None else self.units[i]

    def unit_of(self, power: str, province: str) -> Unit | None:
        """``power``'s unit in a province, or the unit there if it has no such unit.

        Spaces that hold several units (1939 IV high oceans) are why an order
        names its power's unit, not simply the one unit in the space.
        """
        unit = self.unit_at(province)
        if unit is None or unit.power == power:
            return unit
        for u in self.units_in(province):
            if u.power == power:
                return u
        return unit

    def units_in(self, province: str) -> list[Unit]:
        """Every unit in a province (several only in spaces of unlimited capacity)."""
        first = self._index.get(province)
        if first is None:
            return []
        out = []
        for u in self.units[first:]:
            if province_of(u.location) == province:
                out.append(u)
        return out

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in centre_table(self.centres).items() if p == power)

    def centre_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for p in centre_table(self.centres).values():
            counts[p] = counts.get(p, 0) + 1
        return counts

    @classmethod
    def initial(cls, variant: Variant) -> Position:
        units = [Unit(p.id, t, loc) for p in variant.powers.values() for t, loc in p.units]
        units += [Unit(variant.neutral, t, loc) for t, loc in variant.neutral_units]
        centres = {province_of(c): p.id for p in variant.powers.values() for c in p.home_centres}
        return cls(variant.name, variant.start, tuple(units), centres)

    # -- JSON ----------------------------------------------------------------------

    def to_dict(self, registry: VariantRegistry | None = None) -> dict[str, Any]:
        """The JSON object; the variant is found in ``registry`` (default: the
        module's :data:`~standoff.core.variant.DEFAULT_REGISTRY`)."""
        v = load_variant(self.variant, registry)
        cal = v.calendar
        units: dict[str, list[str]] = {}
        for u in self.units:
            bucket(units, u.power).append(str(u))
        centres: dict[str, list[str]] = {}
        for c, p in self.centres.items():
            bucket(centres, p).append(c.upper())
        out: dict[str, Any] = {
            "variant": self.variant,
            "phase": self.phase.name(cal),
            "units": dict(sorted(units.items())),
            "centres": {p: sorted(cs) for p, cs in sorted(centres.items())},
        }
        if self.dislodged:
            dis: dict[str, list[dict[str, Any]]] = {}
            for d in self.dislodged:
                bucket(dis, d.unit.power).append(
                    {"unit": str(d.unit), "attacker": d.attacker_from.upper(),
                     "via_convoy": d.via_convoy}
                )
            out["dislodged"] = dis
        if self.contested:
            out["contested"] = sorted(c.upper() for c in self.contested)
        if self.notes:
            out["notes"] = sorted(c.upper() for c in self.notes)
        return out

    def to_json(self, indent: int | None = None, registry: VariantRegistry | None = None
                ) -> str:
        return json.dumps(self.to_dict(registry), indent=indent)

    @classmethod
    def from_dict(cls, data: Any, registry: VariantRegistry | None = None) -> Position:
        """A position from its JSON object, its variant found in ``registry``
        (default: the module's)."""
        if not isinstance(data, dict):
            raise NotationError("a position must be a JSON object")
        try:
            variant = load_variant(str(data["variant"]), registry)
            phase = Phase.parse(str(data["phase"]), variant.calendar)
            units = [
                _unit(variant, power, _str(text, "unit"))
                for power, texts in _mapping(data.get("units", {}), "units").items()
                for text in _list(texts, "units")
            ]
            centres = {}
            for power, cs in _mapping(data.get("centres", {}), "centres").items():
                pid = variant.power(power)
                for c in _list(cs, "centres"):
                    prov = _province(variant, _str(c, "centre"))
                    if prov in centres:
                        raise NotationError(f"centre {c} owned twice")
                    centres[prov] = pid
            dislodged = []
            for power, items in _mapping(data.get("dislodged", {}), "dislodged").items():
                for item in _list(items, "dislodged"):
                    if not isinstance(item, dict):
                        raise NotationError("a dislodged unit must be an object")
                    dislodged.append(
                        Dislodged(
                            _unit(variant, power, _str(item["unit"], "unit")),
                            _province(variant, _str(item["attacker"], "attacker")),
                            bool(item.get("via_convoy", False)),
                        )
                    )
            contested = {_province(variant, _str(c, "contested province"))
                         for c in _list(data.get("contested", []), "contested")}
            notes = {_location(variant, _str(c, "note")) for c in _list(data.get("notes", []),
                                                                         "notes")}
        except KeyError as exc:
            raise NotationError(f"position is missing the field {exc.args[0]!r}") from exc
        except VariantError as exc:
            raise NotationError(str(exc)) from exc
        pos = cls(variant.name, phase, tuple(units), centres, tuple(dislodged),
                  frozenset(contested), frozenset(notes))
        pos.check(variant)
        return pos

    @classmethod
    def from_json(cls, text: str, registry: VariantRegistry | None = None) -> Position:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"position is not valid JSON: {exc}") from exc
        except RecursionError:
            raise NotationError("position JSON is nested too deeply") from None
        return cls.from_dict(data, registry)

    # -- compact text ------------------------------------------------------------

    def to_text(self, registry: VariantRegistry | None = None) -> str:
        d = self.to_dict(registry)
        units = "; ".join(f"{p}: {', '.join(us)}" for p, us in d["units"].items()) or "-"
        centres = "; ".join(f"{p}: {' '.join(cs)}" for p, cs in d["centres"].items()) or "-"
        by_power: dict[str, list[str]] = {}
        for dis in self.dislodged:
            bucket(by_power, dis.unit.power).append(str(dis))
        dislodged = "; ".join(f"{p}: {', '.join(ds)}" for p, ds in sorted(by_power.items()))
        contested = " ".join(d.get("contested", []))
        fields = [self.variant, d["phase"], units, centres, dislodged or "-", contested or "-"]
        if self.notes:
            fields.append(" ".join(d["notes"]))
        return " | ".join(fields)

    @classmethod
    def from_text(cls, text: str, registry: VariantRegistry | None = None) -> Position:
        parts = [p.strip() for p in text.strip().split("|")]
        if len(parts) not in (6, 7):
            raise NotationError(
                f"a compact position has 6 or 7 fields separated by '|', found {len(parts)}"
            )
        variant_name, phase, units, centres, dislodged, contested = parts[:6]
        try:
            provinces = load_variant(variant_name, registry).board.provinces
        except VariantError as exc:
            raise NotationError(str(exc)) from exc
        data: dict[str, Any] = {"variant": variant_name, "phase": phase}
        data["units"] = {p: [u.strip() for u in v.split(",") if u.strip()]
                         for p, v in _groups(units)}
        data["centres"] = {p: v.split() for p, v in _groups(centres)}
        dis: dict[str, list[dict[str, Any]]] = {}
        for p, v in _groups(dislodged):
            for item in v.split(","):
                unit, sep, rest = item.strip().partition("<")
                if not sep or not rest:
                    raise NotationError(f"dislodged unit {item.strip()!r} needs '<ATTACKER'")
                rest = rest.strip()
                convoy = rest.endswith("~") or (rest.endswith("*") and
                                                rest.lower() not in provinces)
                bucket(dis, p).append({"unit": unit.strip(),
                                       "attacker": rest[:-1] if convoy else rest,
                                       "via_convoy": convoy})
        data["dislodged"] = dis
        data["contested"] = [] if contested == "-" else contested.split()
        if len(parts) == 7:
            if parts[6] in ("", "-"):
                raise NotationError("the seventh field lists NO CONVERT units; "
                                    "leave it out when there are none")
            data["notes"] = parts[6].split()
        return cls.from_dict(data, registry)

    # -- consistency -----------------------------------------------------------------

    def check(self, variant: Variant) -> None:
        """Refuse positions the rules cannot reach (two units in one space...)."""
        board = variant.board_at(self.phase)
        seen: dict[str, int] = {}
        for u in self.units:
            if not board.can_stand(u.type, u.location):
                raise NotationError(f"{u} ({u.power}) cannot stand on {u.location.upper()}")
            seen[u.province] = seen.get(u.province, 0) + 1
        for prov, n in seen.items():
            cap = board.provinces[prov].capacity
            if cap and n > cap:
                raise NotationError(f"{n} units in {prov.upper()}, which holds {cap}")
        for c in self.centres:
            if not board.provinces[c].supply_centre:
                raise NotationError(f"{c.upper()} is not a supply centre")
        dislodged_in: set[str] = set()
        for d in self.dislodged:
            if d.unit.province in dislodged_in:
                raise NotationError(f"two dislodged units in {d.unit.province.upper()}")
            dislodged_in.add(d.unit.province)
            if not board.can_stand(d.unit.type, d.unit.location):
                raise NotationError(f"dislodged {d.unit} cannot stand on {d.unit.location.upper()}")


def changed_owners(centres: Mapping[str, str], changes: Mapping[str, str]) -> Mapping[str, str]:
    """``centres`` with ``changes`` applied (province -> new owner), still in the
    canonical order when no new province joins it, so the next position need not
    sort it again (the common case after a Fall: centres change hands)."""
    if isinstance(centres, _Sorted) and all(p in centres for p in changes):
        out: dict[str, str] = _Sorted(centres)
    else:
        out = dict(centres)
    out.update(changes)
    return out


def centre_table(centres: Mapping[str, str]) -> dict[str, str]:
    """A centre table as the dict a position keeps (the table itself, not a copy,
    when it is one), for code that reads it through the compiled core's dict
    primitives rather than the generic mapping protocol."""
    return centres if isinstance(centres, dict) else dict(centres)


class InOrder:
    """Units already in canonical order, as the phase that made them keeps them (a
    retreat or a build is inserted in place): a position takes them unsorted."""

    __slots__ = ("units",)

    def __init__(self, units: Iterable[Unit]) -> None:
        self.units: tuple[Unit, ...] = tuple(units)

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units)


def insert_unit(units: list[Unit], unit: Unit) -> None:
    """Put ``unit`` into ``units``, kept in canonical order."""
    insort(units, unit)


class _Sorted(dict[str, str]):
    """A centre table already in canonical order: positions share it unsorted-free.
    Positions never mutate it; it is a dict only to stay cheap to read."""


def _groups(text: str) -> Iterable[tuple[str, str]]:
    if text.strip() == "-":
        return []
    out = []
    for chunk in text.split(";"):
        if not chunk.strip():
            continue
        power, sep, rest = chunk.partition(":")
        if not sep:
            raise NotationError(f"expected 'power: ...', found {chunk.strip()!r}")
        out.append((power.strip(), rest.strip()))
    return out


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise NotationError(f"a {what} must be a string, found {value!r}")
    return value


def _mapping(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotationError(f"'{what}' must be an object keyed by power")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError(f"'{what}' entries must be lists")
    return value


def _province(variant: Variant, text: str) -> str:
    p = sys.intern(text.strip().lower())  # interned like the board's ids: see geography
    if p not in variant.board.provinces:
        raise NotationError(f"unknown province {text!r}")
    return p


def _location(variant: Variant, text: str) -> str:
    loc = sys.intern(text.strip().lower())
    if province_of(loc.removesuffix("<")) not in variant.board.provinces:
        raise NotationError(f"unknown location {text!r} in {variant.title}")
    return loc


def _unit(variant: Variant, power: str, text: str) -> Unit:
    kind, _, loc = text.strip().partition(" ")
    try:
        unit_type = UnitType(kind.upper())
    except ValueError:
        raise NotationError(f"bad unit {text!r} (expected e.g. 'A PAR' or 'F STP/SC')") from None
    loc = sys.intern(loc.strip().lower())
    if province_of(loc) not in variant.board.provinces:
        raise NotationError(f"unknown province in unit {text!r}")
    owner = variant.neutral if variant.neutral and power.strip().lower() == variant.neutral \
        else variant.power(power)
    return Unit(owner, unit_type, loc)
