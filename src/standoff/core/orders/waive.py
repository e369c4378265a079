"""WAIVE: the power declines one build (``WAIVE``). ``location`` is empty: a
waive is for no site.

Where a waive's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_adjustment`` here (the power must have builds due); the
  batch's allowance in ``record.py`` (``_check_allowance``);
* adjudicated: ``adjustments.py`` (``_builds``: it uses up one build);
* listed: ``legal_orders.py`` (``_site_builds`` offers it beside each site's
  builds);
* drawn: nothing (``render/svg.py`` passes over it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..order_checks import illegal
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
