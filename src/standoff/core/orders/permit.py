"""PERMIT: the owner of a canal lets ``power``'s fleets pass it this turn
(``CAI PERMIT ITALY``; The Twentieth Century's straits and canals: "owning
players may also allow other players to send fleets through"). ``location`` is
the canal; no unit. Noted, then read when canal moves are adjudicated.

Where a permission's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_movement`` here (``canal_owner`` from ``order_checks.py``);
* adjudicated: ``adjudicator.py`` (``_movement`` gathers the permissions,
  ``_close_canals`` fails a fleet's move through a canal its owner did not
  open to it, before the moves are resolved in ``movement.py``);
* who may send one: ``record.py`` (``powers_that_may_order``);
* listed: ``legal_orders.py`` (``_permits``, under the canal's id);
* drawn: nothing (``render/svg.py`` passes over it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal, final

from ..geography import province_of
from ..order_checks import canal_owner, illegal
from ..phase import PhaseKind
from .base import Order, loc_text

if TYPE_CHECKING:
    from ..geography import Board, UnitType
    from ..options import Options
    from ..position import Position
    from ..variant import Variant


@final
class Permit(Order):
    __slots__ = ("power",)

    def __init__(self, unit: UnitType | None, location: str, power: str) -> None:
        super().__init__(unit, location)
        #: the power whose fleets may pass
        self.power: Final = power

    def _args(self) -> tuple[object, ...]:
        return (self.unit, self.location, self.power)

    @property
    def kind(self) -> Literal["permit"]:
        return "permit"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.MOVEMENT

    def __str__(self) -> str:
        return f"{loc_text(self.location)} PERMIT {self.power.upper()}"

    def check_movement(self, variant: Variant, board: Board, position: Position, power: str,
                       options: Options) -> Permit:
        """Only the canal's owner may permit, and not itself."""
        canal = province_of(self.location)
        if canal not in board.canals:
            raise illegal(self, f"{canal.upper()} is not a canal or strait")
        owner = canal_owner(board, position, canal)
        if owner != power:
            who = f"{owner} controls it" if owner else "nobody controls it"
            raise illegal(self, f"only the owner of {canal.upper()} may permit passage ({who})")
        if self.power == power:
            raise illegal(self, f"{power}'s own fleets pass {canal.upper()} without permission")
        return self if self.location == canal else Permit(None, canal, self.power)
