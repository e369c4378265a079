"""DISBAND: a dislodged unit leaves the board (``F TRI D``). Given in an
adjustment phase, a disband is read as a removal.

Where a disband's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_retreat`` here; ``check_adjustment`` makes it a
  :class:`~standoff.core.orders.Remove`;
* adjudicated: ``retreats.py`` (``adjudicate_retreats``) in a retreat phase,
  ``adjustments.py`` (``_removals``) in an adjustment phase;
* listed: ``legal_orders.py`` (``_retreats``);
* drawn: ``render/svg.py`` (``_order``).
"""

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
