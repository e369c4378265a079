"""Orders as typed value objects.

Every order formats to one canonical notation (``str(order)``), which
:func:`standoff.notation.parse_order` reads back to an equal order. Orders carry
no power: who gave an order is the submitter's business, not the order's.

``unit`` is ``None`` when the writer left out the unit type; DATC 4.C.1/4.C.2
say to follow such orders anyway, so the type is informative only.

Orders are immutable values, equal and hashable by their fields, so the
parser and the legal-order generator can hand out shared instances from their
memo tables (a frozen dataclass takes ~1.5 µs to build: building each order
once and reusing it is what keeps a phase fast).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .geography import UnitType, province_of


def _loc(location: str) -> str:
    return location.upper()


def _unit(unit: UnitType | None, location: str) -> str:
    return f"{unit.value} {_loc(location)}" if unit is not None else _loc(location)


@dataclass(frozen=True, slots=True, repr=False)
class Order:
    """Base class: every order names the location of the unit (or site) it is for."""

    unit: UnitType | None
    location: str

    @property
    def kind(self) -> str:
        """Short name of the order kind, used in JSON and results (``"move"``).

        A property, not a class attribute: compiled dataclasses (mypyc) would
        take a class attribute for a field."""
        return _KINDS.get(type(self), "order")

    @classmethod
    def parse(cls, text: str, variant: object | None = None) -> Order:
        """Read any common notation (see :mod:`standoff.notation`)."""
        from .notation import parse_order
        from .variant import Variant, load_variant

        v = variant if isinstance(variant, Variant) else load_variant()
        return parse_order(text, v)

    def __repr__(self) -> str:
        return f"Order.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy by the constructor's arguments: the compiled core's
        frozen classes cannot be rebuilt field by field."""
        return (type(self), tuple(getattr(self, f.name) for f in fields(self)))

    @property
    def province(self) -> str:
        return province_of(self.location)


@dataclass(frozen=True, slots=True, repr=False)
class Hold(Order):
    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} H"


@dataclass(frozen=True, slots=True, repr=False)
class Move(Order):
    dest: str
    via_convoy: bool = False

    def __str__(self) -> str:
        via = " VIA CONVOY" if self.via_convoy else ""
        return f"{_unit(self.unit, self.location)} - {_loc(self.dest)}{via}"


@dataclass(frozen=True, slots=True, repr=False)
class SupportHold(Order):
    target_unit: UnitType | None
    target: str

    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} S {_unit(self.target_unit, self.target)}"


@dataclass(frozen=True, slots=True, repr=False)
class SupportMove(Order):
    target_unit: UnitType | None
    target: str
    dest: str

    def __str__(self) -> str:
        return (
            f"{_unit(self.unit, self.location)} S "
            f"{_unit(self.target_unit, self.target)} - {_loc(self.dest)}"
        )


@dataclass(frozen=True, slots=True, repr=False)
class Convoy(Order):
    target: str
    dest: str

    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} C A {_loc(self.target)} - {_loc(self.dest)}"


@dataclass(frozen=True, slots=True, repr=False)
class Retreat(Order):
    dest: str

    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} R {_loc(self.dest)}"


@dataclass(frozen=True, slots=True, repr=False)
class Disband(Order):
    """Disband a dislodged unit (retreat phase)."""

    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} D"


@dataclass(frozen=True, slots=True, repr=False)
class Build(Order):
    def __str__(self) -> str:
        return f"BUILD {_unit(self.unit, self.location)}"


@dataclass(frozen=True, slots=True, repr=False)
class Remove(Order):
    """Remove a unit (adjustment phase)."""

    def __str__(self) -> str:
        return f"REMOVE {_unit(self.unit, self.location)}"


@dataclass(frozen=True, slots=True, repr=False)
class Waive(Order):
    """Decline one build. ``location`` is empty: a waive is for no site."""

    def __str__(self) -> str:
        return "WAIVE"


@dataclass(frozen=True, slots=True, repr=False)
class NoConvert(Order):
    """A standing instruction for this season, given beside the unit's order:
    if the map changes under this fleet and leaves it inland, it disbands
    instead of becoming an army (Sahara rule 2: "if the owner has specified
    that it won't change, it disbands")."""


    def __str__(self) -> str:
        return f"{_unit(self.unit, self.location)} NO CONVERT"


@dataclass(frozen=True, slots=True, repr=False)
class Permit(Order):
    """The owner of a canal lets ``power``'s fleets pass it this turn (The
    Twentieth Century's straits and canals: "owning players may also allow
    other players to send fleets through"). ``location`` is the canal; no unit."""

    power: str

    def __str__(self) -> str:
        return f"{_loc(self.location)} PERMIT {self.power.upper()}"


WAIVE = Waive(None, "")

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Waive)

#: the short name of each order class (see :attr:`Order.kind`)
_KINDS: dict[type[Order], str] = {
    Hold: "hold",
    Move: "move",
    SupportHold: "support_hold",
    SupportMove: "support_move",
    Convoy: "convoy",
    Retreat: "retreat",
    Disband: "disband",
    Build: "build",
    Remove: "remove",
    Waive: "waive",
    NoConvert: "no_convert",
    Permit: "permit",
}
