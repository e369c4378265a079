"""What every order kind shares: :class:`Order`, the base of the kinds.

A kind is a final class subclassing :class:`Order`, in a module of its own
(see :mod:`standoff.core.orders`). The base holds the unit and location every
order has, the reading and pickling all kinds share, and the default answer
of each phase's legality check: "not allowed in this phase". A kind overrides
the checks of the phases it is given in.

Orders are immutable values, equal and hashable by their fields, so the
parser and the legal-order generator can hand out shared instances from their
memo tables. They are :class:`~standoff.core.value.Value` classes, not frozen
dataclasses (a dataclass's constructor was ~10 % of a movement phase met once):
each kind lists its constructor's arguments in ``_args``, which equality,
hashing and pickling go by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..geography import UNIT_LETTER, UnitType, province_of
from ..order_checks import illegal, own_unit
from ..value import Value

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..phase import PhaseKind
    from ..position import Dislodged, Position
    from ..variant import Variant
    from . import AdjustmentOrder, MovementOrder, OrderKind, RetreatOrder


def loc_text(location: str) -> str:
    """A location as orders write it (``STP/NC``)."""
    return location.upper()


def unit_text(unit: UnitType | None, location: str) -> str:
    """A unit as orders write it (``F STP/NC``; the location alone when the
    writer left out the type)."""
    return f"{UNIT_LETTER[unit]} {location.upper()}" if unit is not None else location.upper()


class Order(Value):
    """Base class: every order names the location of the unit (or site) it is for.

    ``unit`` is ``None`` when the writer left out the unit type; DATC 4.C.1/4.C.2
    say to follow such orders anyway, so the type is informative only. Orders
    carry no power: who gave an order is the submitter's business, not the order's.
    """

    __slots__ = ("location", "unit")

    def __init__(self, unit: UnitType | None, location: str) -> None:
        self.unit: Final = unit
        self.location: Final = location

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location)

    @property
    def kind(self) -> OrderKind:
        """The kind's short name, used in JSON and results (``"move"``): what a
        ``match`` dispatches on (mypy narrows the order by it, and checks that
        every kind is handled).

        A property returning a ``Literal`` in each kind, which is what lets mypy
        narrow on it."""
        raise NotImplementedError(f"{type(self).__name__} names no kind")

    @property
    def phase(self) -> PhaseKind:
        """The kind of phase this kind of order is given in."""
        raise NotImplementedError(f"{type(self).__name__} names no phase")

    @classmethod
    def parse(cls, text: str, variant: object | None = None,
              registry: object | None = None) -> Order:
        """Read any common notation (see :mod:`standoff.core.notation`) for
        ``variant``: a :class:`~standoff.core.variant.Variant`, or its name found in
        ``registry`` (a :class:`~standoff.core.variant.VariantRegistry`; default:
        the module's); Standard when none is given."""
        from ..notation import parse_order
        from ..variant import Variant, VariantRegistry, load_variant

        if isinstance(variant, Variant):
            return parse_order(text, variant)
        found = registry if isinstance(registry, VariantRegistry) else None
        return parse_order(text, load_variant(str(variant or "standard"), found))

    def __repr__(self) -> str:
        return f"Order.parse({str(self)!r})"

    @property
    def province(self) -> str:
        return province_of(self.location)

    # -- legality (DATC 4.E.1): one check per kind of phase -------------------------
    #
    # Each returns the order *normalised* (destination coast filled in, coasts
    # dropped where they do not matter, DATC 4.B.2/4.B.5/4.B.6; the unit's type
    # and location as they are on the board) or raises IllegalOrderError with the
    # reason a player needs to fix it. An order that is already normalised is
    # returned as it is (no copy): the movement check runs for every order of
    # every phase.

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> MovementOrder:
        """The order as ``power`` may give it in this movement phase."""
        own_unit(position, power, self)  # a missing unit is the first thing to say
        raise illegal(self, f"a {self.kind} order is not allowed in a movement phase")

    def check_retreat(self, board: Board, dislodged: Dislodged, allowed: list[str],
                      options: Options) -> RetreatOrder:
        """The order for the dislodged unit, which may retreat to ``allowed``."""
        raise illegal(self, f"a {self.kind} order is not allowed in a retreat phase")

    def check_adjustment(self, variant: Variant, board: Board, position: Position,
                         power: str, due: int) -> AdjustmentOrder:
        """The order as ``power`` may give it in this adjustment phase, ``due``
        being its builds (positive) or removals (negative) due."""
        raise illegal(self, f"a {self.kind} order is not allowed in an adjustment phase")
