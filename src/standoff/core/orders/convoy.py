"""CONVOY: a fleet at sea carries an army along a chain of fleets
(``F NTH C A LON - BEL``).

Where a convoy's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` here, with ``own_unit`` from ``order_checks.py``;
* adjudicated: ``movement.py`` (``MovementAdjudicator``: ``_classify`` matches
  it with the army's move, ``_route`` and ``_path`` find the chain of fleets
  not dislodged, ``backup`` settles convoy paradoxes), after ``adjudicator.py``
  (``_movement``) has read the phase's orders;
* listed: ``legal_orders.py`` (``_all_segments``, from the layout's
  ``convoy_jobs``);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, final

from ..geography import UnitType, province_of
from ..order_checks import illegal, own_unit
from ..phase import PhaseKind
from .base import Order, loc_text, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Position
    from ..variant import Variant


@final
class Convoy(Order):
    __slots__ = ("dest", "target")

    def __init__(self, unit: UnitType | None, location: str, target: str, dest: str) -> None:
        super().__init__(unit, location)
        #: the convoyed army's province
        self.target: Final = target
        #: where the army goes
        self.dest: Final = dest

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.target, self.dest)

    @property
    def kind(self) -> Literal["convoy"]:
        return "convoy"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} C A {loc_text(self.target)} - " \
               f"{loc_text(self.dest)}"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> Convoy:
        src_prov = province_of(self.location)
        unit = position.unit_at(src_prov)
        if unit is None or unit.power != power:
            unit = own_unit(position, power, self)  # raises with the reason
        if unit.type is not UnitType.FLEET:
            raise illegal(self, "only fleets can convoy")
        if not board.can_convoy_through(src_prov):
            raise illegal(self, f"a fleet in {src_prov.upper()} cannot convoy "
                                "(only fleets at sea can)")
        tprov, dprov = province_of(self.target), province_of(self.dest)
        target = position.unit_at(tprov)
        if target is None:
            raise illegal(self, f"there is no unit in {tprov.upper()} to convoy")
        if target.type is not UnitType.ARMY:
            raise illegal(self, "only armies can be convoyed")
        if dprov == tprov:
            raise illegal(self, "a convoy must go somewhere else")
        if dprov not in board.provinces or not (board.is_coastal(tprov)
                                                and board.is_coastal(dprov)):
            raise illegal(self, "convoys go from a coastal province to a coastal province")
        if src_prov not in board.convoy_route_seas(tprov, dprov, position.convoy_seas_on(board)):
            raise illegal(self, f"{unit} is on no convoy route from {tprov.upper()} "
                                f"to {dprov.upper()}")
        return Convoy(unit.type, unit.location, tprov, dprov)
