"""Orders for the units of no power: the variant's ``[neutral] orders`` names one.

* ``civil_disorder`` (:class:`CivilDisorder`, the default): neutral units are in
  civil disorder and get no orders, so each holds and may be supported (1939 IV
  rule 2.2: the neutral armies "are in civil disorder"; rule 7.5: they are
  annihilated when dislodged, which the adjudicator does for every unit of no
  power, whatever orders it had).

Each is a :class:`NeutralOrders`, asked once per movement
phase of a variant with neutral units.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..orders import Convoy, Hold, Move, SupportHold, SupportMove
    from ..position import Position
    from ..variant import Variant


class NeutralOrders(Protocol):
    """What the units of no power are ordered to do (``[neutral] orders``)."""

    def orders(self, variant: Variant, position: Position
               ) -> list[Hold | Move | SupportHold | SupportMove | Convoy]:
        """Orders for the units of no power in this movement phase, checked as any
        power's orders are (a unit given none holds)."""
        ...


@dataclass(frozen=True, slots=True)
class CivilDisorder:
    """No orders: every neutral unit holds (1939 IV rule 2.2)."""

    def orders(self, variant: Variant, position: Position
               ) -> list[Hold | Move | SupportHold | SupportMove | Convoy]:
        return []
