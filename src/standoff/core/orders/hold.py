"""HOLD: the unit stays where it is (``A PAR H``). A unit with no order holds too.

Where a hold's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` here (``own_unit`` from ``order_checks.py``);
* adjudicated: ``movement.py`` (``MovementAdjudicator``: ``_classify`` leaves it
  as a hold, ``_hold`` is the strength it defends with), after
  ``adjudicator.py`` (``_movement``) has read the phase's orders;
* listed: ``legal_orders.py`` (``_UnitMenu.hold``);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import province_of
from ..order_checks import own_unit
from ..phase import PhaseKind
from .base import Order, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Position
    from ..variant import Variant


@final
class Hold(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["hold"]:
        return "hold"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} H"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> Hold:
        unit = position.unit_at(province_of(self.location))
        if unit is None or unit.power != power:
            unit = own_unit(position, power, self)  # raises with the reason
        if self.unit is unit.type and self.location == unit.location:
            return self
        return Hold(unit.type, unit.location)
