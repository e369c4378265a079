"""REMOVE: the power takes one of its units off the board (``REMOVE A WAR``).

Where a removal's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_adjustment`` here (the power's own unit, a removal due); the
  batch's allowance in ``record.py`` (``_check_allowance``);
* adjudicated: ``adjustments.py`` (``_removals``; what a power did not remove,
  ``civil_disorder_removals`` chooses), called by ``adjudicator.py``
  (``_adjustment``);
* listed: ``legal_orders.py`` (``_adjustments``);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import province_of
from ..order_checks import illegal
from ..phase import PhaseKind
from .base import Order, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..position import Position, Unit
    from ..variant import Variant


@final
class Remove(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["remove"]:
        return "remove"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return f"REMOVE {unit_text(self.unit, self.location)}"

    def check_adjustment(self, variant: Variant, board: Board, position: Position,
                         power: str, due: int) -> Remove:
        unit = unit_to_remove(self, position, power, due)
        if self.unit is unit.type and self.location == unit.location:
            return self
        return Remove(unit.type, unit.location)


def unit_to_remove(order: Order, position: Position, power: str, due: int) -> Unit:
    """The unit ``order`` removes (a removal, or a disband given in an adjustment
    phase): ``power``'s unit in the order's province, when it has removals due."""
    if due >= 0:
        raise illegal(order, f"{power} has no units to remove")
    prov = province_of(order.location)
    unit = position.unit_of(power, prov)
    if unit is None or unit.power != power:
        raise illegal(order, f"no unit of {power} in {prov.upper()}")
    return unit
