"""MOVE: the unit moves to an adjacent space, or an army goes by convoy
(``A PAR - BUR``, ``A LON - BEL VIA CONVOY``). Given in a retreat phase, a move
is read as a retreat (``F TRI - ALB``).

Where a move's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` here, with ``own_unit``, ``fleet_destination``
  (which coast), ``army_can_reach``, ``convoy_possible`` and ``level_note`` from
  ``order_checks.py`` (a canal's passage is adjudicated, not checked: see
  ``permit.py``); ``check_retreat`` here makes it a
  :class:`~standoff.core.orders.Retreat` (``retreat_to`` in ``retreat.py``);
* adjudicated: ``movement.py`` (``MovementAdjudicator``: ``_classify`` files
  it, ``_move`` decides it, ``_attack`` and ``_prevent`` are its strengths,
  ``_head_to_head``, ``_path`` and ``_route`` for a convoyed army,
  ``_chooses_convoy`` for DATC 4.A.3, ``_why_move`` explains a failure),
  after ``adjudicator.py`` (``_movement``) has read the phase's orders and
  closed canals to fleets without leave (``_close_canals``);
* listed: ``legal_orders.py`` (``_UnitMenu.moves``; ``_convoyed_move`` and
  ``_ConvoyPlan`` for moves by convoy);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, final

from ..errors import quote
from ..geography import UnitType, province_of
from ..order_checks import (
    army_can_reach,
    convoy_possible,
    fleet_destination,
    illegal,
    level_note,
    own_unit,
)
from ..phase import PhaseKind
from .base import Order, loc_text, unit_text
from .retreat import Retreat, retreat_to

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Dislodged, Position
    from ..variant import Variant


@final
class Move(Order):
    __slots__ = ("dest", "via_convoy")

    def __init__(self, unit: UnitType | None, location: str, dest: str,
                 via_convoy: bool = False) -> None:
        super().__init__(unit, location)
        self.dest: Final = dest
        #: the army goes by convoy even to an adjacent province (DATC 4.A.3)
        self.via_convoy: Final = via_convoy

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.dest, self.via_convoy)

    @property
    def kind(self) -> Literal["move"]:
        return "move"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        via = " VIA CONVOY" if self.via_convoy else ""
        return f"{unit_text(self.unit, self.location)} - {loc_text(self.dest)}{via}"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> Move:
        src_prov = province_of(self.location)
        unit = position.unit_at(src_prov)
        if unit is None or unit.power != power:
            unit = own_unit(position, power, self)  # raises with the reason
        same_unit = self.unit is unit.type and self.location == unit.location
        dest = province_of(self.dest)
        if dest == src_prov:
            raise illegal(self, "a unit cannot move to its own province")
        if unit.type is UnitType.FLEET:
            if self.via_convoy:
                raise illegal(self, "only armies can be convoyed")
            if same_unit and self.dest in board.fleet_links.get(unit.location, ()):
                return self
            dest = fleet_destination(board, unit, self.dest, options, self)
            return Move(unit.type, unit.location, dest)
        if dest not in board.provinces:
            raise illegal(self, f"unknown province {quote(self.dest)}")
        if not army_can_reach(board, position, unit.location, dest):
            raise illegal(self, f"{unit} cannot reach {dest.upper()}, not even by convoy"
                                f"{level_note(board, unit.location, dest)}")
        if self.via_convoy and not convoy_possible(board, position, src_prov, dest) and not (
                options.adjacent_convoy == "2000" and dest in board.army_links.get(src_prov, ())):
            # like DATC 6.D.32: no fleets could convoy it, so the order is ignored; but
            # under the 2000 rule an adjacent army with no convoy goes over land (DATC 2.x
            # 6.G.8), fleets on the board or not
            raise illegal(self, f"no fleets could convoy {unit} to {dest.upper()}")
        if same_unit and dest == self.dest:
            return self
        return Move(unit.type, unit.location, dest, self.via_convoy)

    def check_retreat(self, board: Board, dislodged: Dislodged, allowed: list[str],
                      options: Options) -> Retreat:
        return retreat_to(self, self.dest, dislodged, allowed, options)
