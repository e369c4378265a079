"""BUILD: a new unit in one of the power's build sites (``BUILD F STP/NC``).

Where a build's meaning lives (the paths are under ``src/standoff/core/``):

* read: :func:`standoff.core.notation.parse_order`; written: ``__str__`` here;
* checked: ``check_adjustment`` here, against the variant's build sites
  (``hooks/build_sites.py``) and the builds due (``adjustments.py``:
  ``adjustment_counts``); the batch's allowance in ``record.py``
  (``_check_allowance``);
* adjudicated: ``adjustments.py`` (``_builds``: the first legal builds up to
  the number due), called by ``adjudicator.py`` (``_adjustment``);
* listed: ``legal_orders.py`` (``_adjustments``, ``_site_builds``);
* drawn: ``render/svg.py`` (``_order``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, final

from ..geography import UnitType, province_of
from ..order_checks import illegal
from ..phase import PhaseKind
from ..position import centre_table
from .base import Order, unit_text

if TYPE_CHECKING:
    from ..geography import Board
    from ..position import Position
    from ..variant import Variant


@final
class Build(Order):
    __slots__ = ()

    @property
    def kind(self) -> Literal["build"]:
        return "build"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return f"BUILD {unit_text(self.unit, self.location)}"

    def check_adjustment(self, variant: Variant, board: Board, position: Position,
                         power: str, due: int) -> Build:
        """In one of the power's build sites (the variant's build-sites hook), a unit
        that can stand there; the type and coast filled in where the site says
        which (DATC 4.B.7, 4.C.3, 4.C.4)."""
        if due <= 0:
            raise illegal(self, f"{power} has no builds to make")
        prov = province_of(self.location)
        sites = variant.build_sites
        centres = centre_table(position.centres)
        if prov not in sites.sites(variant, power, centres, position.unit_index):
            raise illegal(self, sites.refusal(variant, board, power, prov, centres,
                                              position.unit_index))
        unit = self.unit
        p = board.provinces[prov]
        if unit is None:
            # DATC 4.C.3 (c): an army in a land area, a fleet where a coast is named.
            unit = UnitType.FLEET if self.location in p.coasts else (
                UnitType.ARMY if p.terrain.value == "land" else None)
            if unit is None:
                raise illegal(self, "say whether to build an army or a fleet")
        loc = self.location
        if unit is UnitType.ARMY:
            loc = prov
        elif p.coasts and loc not in p.coasts:
            raise illegal(self, f"say which coast of {prov.upper()} "
                                f"({', '.join(c.upper() for c in p.coasts)})")
        if not board.can_stand(unit, loc):
            raise illegal(self, f"a {'fleet' if unit is UnitType.FLEET else 'army'} "
                                f"cannot be built in {loc.upper()}")
        return self if unit is self.unit and loc == self.location else Build(unit, loc)
