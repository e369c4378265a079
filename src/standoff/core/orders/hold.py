"""HOLD: the unit stays where it is (``A PAR H``). A unit with no order holds too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import province_of
from ..legality import own_unit
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
