"""RETREAT: a dislodged unit moves to a space it may retreat to (``F TRI R ALB``).

Where a retreat's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_retreat`` here, against the spaces
  ``retreats.py`` (``retreat_targets``) allows;
* adjudicated: ``retreats.py`` (``adjudicate_retreats``: two retreats to one
  space both fail), called by ``adjudicator.py`` (``_retreat``);
* listed: ``legal_orders.py`` (``_retreats``);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, final

from ..errors import IllegalOrderError
from ..geography import UnitType, province_of
from ..phase import PhaseKind
from .base import Order, loc_text, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Dislodged


@final
class Retreat(Order):
    __slots__ = ("dest",)

    def __init__(self, unit: UnitType | None, location: str, dest: str) -> None:
        super().__init__(unit, location)
        self.dest: Final = dest

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.dest)

    @property
    def kind(self) -> Literal["retreat"]:
        return "retreat"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.RETREAT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} R {loc_text(self.dest)}"

    def check_retreat(self, board: Board, dislodged: Dislodged, allowed: list[str],
                      options: Options) -> Retreat:
        return retreat_to(self, self.dest, dislodged, allowed, options)


def retreat_to(order: Order, dest: str, dislodged: Dislodged, allowed: list[str],
               options: Options) -> Retreat:
    """``order`` (a retreat, or a move given in a retreat phase) as the retreat of
    ``dislodged`` to ``dest``, which must be among ``allowed``: a fleet's coast is
    filled in when only one fits (unless omitted coasts fail), an army's dropped."""
    u = dislodged.unit
    if u.type is UnitType.FLEET and "/" not in dest:
        fits = [loc for loc in allowed if province_of(loc) == province_of(dest)]
        if len(fits) == 1 and options.omitted_coast == "attempt":
            dest = fits[0]
    elif u.type is UnitType.ARMY:
        dest = province_of(dest)
    if dest not in allowed:
        why = ("nowhere to retreat to" if not allowed else
               f"may retreat only to {', '.join(a.upper() for a in sorted(allowed))}")
        raise IllegalOrderError(str(order), f"{u} cannot retreat to {dest.upper()}: {why}")
    return Retreat(u.type, u.location, dest)
