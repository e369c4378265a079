"""NO CONVERT: a standing instruction for this season, given beside the unit's
order (``F ION NO CONVERT``): if the map changes under this fleet and leaves it
inland, it disbands instead of becoming an army (Sahara rule 2: "if the owner
has specified that it won't change, it disbands"). Noted, not adjudicated.

Where its meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` here (``own_unit`` from ``order_checks.py``);
* noted: ``adjudicator.py`` (``_movement`` keeps the unit's location among the
  phase's notes; the position carries them to the retreats);
* acted on: ``map_change_effects.py`` (``apply_map_change``: the fleet left
  inland disbands rather than becoming an army);
* listed: never (``legal_orders.py`` offers orders for the unit alone: an
  instruction beside them is the player's to add);
* drawn: nothing (``render/svg.py`` passes over it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import UnitType, province_of
from ..order_checks import illegal, own_unit
from ..phase import PhaseKind
from .base import Order, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..options import Options
    from ..position import Position
    from ..variant import Variant


@final
class NoConvert(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["no_convert"]:
        return "no_convert"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return f"{unit_text(self.unit, self.location)} NO CONVERT"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> NoConvert:
        unit = position.unit_at(province_of(self.location))
        if unit is None or unit.power != power:
            unit = own_unit(position, power, self)  # raises with the reason
        if unit.type is not UnitType.FLEET:
            raise illegal(self, "only a fleet can be told not to convert")
        checked = self if self.unit is unit.type and self.location == unit.location \
            else NoConvert(unit.type, unit.location)
        if variant.stranded_fleets != "army":
            raise illegal(checked, f"{variant.title} never turns stranded fleets into armies, "
                                   "so there is nothing to refuse")
        return checked
