"""SUPPORT: the unit lends its strength to another's hold or move
(``A MAR S A PAR``, ``A MAR S A PAR - BUR``). Two kinds, which share their checks.

Where a support's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` of each kind here, with ``own_unit``,
  ``army_can_reach`` and ``level_note`` from ``order_checks.py``;
* adjudicated: ``movement.py`` (``MovementAdjudicator``: ``_classify`` matches
  it with the order it names or makes it void, ``_support`` decides whether it
  is cut, ``_support_count`` adds it to a hold or a move, ``_paradox_exempt``
  for convoys), after ``adjudicator.py`` (``_movement``) has read the phase's
  orders;
* listed: ``legal_orders.py`` (``_UnitMenu``'s ``army_targets`` and
  ``fleet_targets``, offered where a unit stands);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, final

from ..geography import UnitType, province_of
from ..order_checks import army_can_reach, illegal, level_note, own_unit
from ..phase import PhaseKind
from .base import Order, loc_text, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Position, Unit
    from ..variant import Variant


def _supporter_and_target(order: SupportHold | SupportMove, position: Position, power: str,
                          board: Board) -> tuple[Unit, str, Unit, str]:
    """The supporting unit and its province, the supported one and its province:
    what both kinds check first."""
    src_prov = province_of(order.location)
    unit = position.unit_at(src_prov)
    if unit is None or unit.power != power:
        unit = own_unit(position, power, order)  # raises with the reason
    if src_prov in board.high_seas:
        raise illegal(order, f"a fleet on a high sea ({src_prov.upper()}) cannot give support")
    tprov = province_of(order.target)
    target = position.unit_at(tprov)
    if target is None:
        raise illegal(order, f"there is no unit in {tprov.upper()} to support")
    if tprov == src_prov:
        raise illegal(order, "a unit cannot support itself")
    return unit, src_prov, target, tprov


@final
class SupportHold(Order):
    __slots__ = ("target", "target_unit")

    def __init__(self, unit: UnitType | None, location: str, target_unit: UnitType | None,
                 target: str) -> None:
        super().__init__(unit, location)
        self.target_unit: Final = target_unit
        #: the supported unit's location
        self.target: Final = target

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.target_unit, self.target)

    @property
    def kind(self) -> Literal["support_hold"]:
        return "support_hold"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} S {unit_text(self.target_unit, self.target)}"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> SupportHold:
        unit, _, target, tprov = _supporter_and_target(self, position, power, board)
        if not board.reaches_province(unit.type, unit.location, tprov):
            raise illegal(self, f"{unit} cannot reach {tprov.upper()}, so cannot support there"
                                f"{level_note(board, unit.location, tprov)}")
        if self.unit is unit.type and self.location == unit.location and \
                self.target_unit is target.type and self.target == tprov:
            return self
        return SupportHold(unit.type, unit.location, target.type, tprov)


@final
class SupportMove(Order):
    __slots__ = ("dest", "target", "target_unit")

    def __init__(self, unit: UnitType | None, location: str, target_unit: UnitType | None,
                 target: str, dest: str) -> None:
        super().__init__(unit, location)
        self.target_unit: Final = target_unit
        #: the supported unit's location
        self.target: Final = target
        #: where the supported move goes
        self.dest: Final = dest

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.target_unit, self.target, self.dest)

    @property
    def kind(self) -> Literal["support_move"]:
        return "support_move"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return (
            f"{unit_text(self.unit, self.location)} S "
            f"{unit_text(self.target_unit, self.target)} - {loc_text(self.dest)}"
        )

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> SupportMove:
        unit, src_prov, target, tprov = _supporter_and_target(self, position, power, board)
        dprov = province_of(self.dest)
        if dprov == src_prov:
            raise illegal(self, "a unit cannot support a move into its own province")
        if dprov == tprov:
            raise illegal(self, "a move to its own province cannot be supported")
        if not board.reaches_province(unit.type, unit.location, dprov):
            raise illegal(self, f"{unit} cannot reach {dprov.upper()}, so cannot support "
                                f"there{level_note(board, unit.location, dprov)}")
        if target.type is UnitType.FLEET:
            if not board.reaches_province(UnitType.FLEET, target.location, dprov) and \
                    not board.canal_through(target.location, dprov):
                raise illegal(self, f"{target} cannot reach {dprov.upper()}")
            if self.dest != dprov and self.dest not in board.links(UnitType.FLEET,
                                                                   target.location):
                # 2023 rulebook: a coast named in a support must be reachable (DATC 4.B.4)
                raise illegal(self, f"{target} cannot reach {self.dest.upper()}")
        else:
            avoid = src_prov if unit.type is UnitType.FLEET else None
            if not army_can_reach(board, position, target.location, dprov, avoid):
                raise illegal(self, f"{target} cannot reach {dprov.upper()}")
        # A coast named in the support must match the move's coast (DATC 6.B.9).
        dest = self.dest if target.type is UnitType.FLEET and "/" in self.dest else dprov
        if self.unit is unit.type and self.location == unit.location and \
                self.target_unit is target.type and self.target == tprov and self.dest == dest:
            return self
        return SupportMove(unit.type, unit.location, target.type, tprov, dest)
