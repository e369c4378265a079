"""REMOVE: the power takes one of its units off the board (``REMOVE A WAR``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import province_of
from ..legality import illegal
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
