"""DISBAND: a dislodged unit leaves the board (``F TRI D``). Given in an
adjustment phase, a disband is read as a removal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..phase import PhaseKind
from .base import Order, unit_text
from .remove import Remove, unit_to_remove

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Dislodged, Position
    from ..variant import Variant


@final
class Disband(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["disband"]:
        return "disband"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.RETREAT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} D"

    def check_retreat(self, board: Board, dislodged: Dislodged, allowed: list[str],
                      options: Options) -> Disband:
        u = dislodged.unit
        return Disband(u.type, u.location)

    def check_adjustment(self, variant: Variant, board: Board, position: Position,
                         power: str, due: int) -> Remove:
        unit = unit_to_remove(self, position, power, due)
        return Remove(unit.type, unit.location)
