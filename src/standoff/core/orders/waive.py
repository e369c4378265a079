"""WAIVE: the power declines one build (``WAIVE``). ``location`` is empty: a
waive is for no site."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..legality import illegal
from ..phase import PhaseKind
from .base import Order

if TYPE_CHECKING:
    from ..geography import Board
    from ..position import Position
    from ..variant import Variant


@final
class Waive(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["waive"]:
        return "waive"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return "WAIVE"

    def check_adjustment(self, variant: Variant, board: Board, position: Position,
                         power: str, due: int) -> Waive:
        if due <= 0:
            raise illegal(self, f"{power} has no builds to waive")
        return self


#: the one waive there is (orders are values: every WAIVE is equal to it)
WAIVE = Waive(None, "")
