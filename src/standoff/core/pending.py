"""The orders a game record holds until the next processing.

:class:`PowerOrders` is one power's orders, :class:`PendingOrders` every
power's (see :mod:`standoff.core.record`, whose records keep them and whose
:func:`~standoff.core.record.submit_orders` fills them).
"""

from __future__ import annotations

from typing import Final, final

from .orders import NoConvert, Order, Permit, Waive
from .value import Value, fields_repr


@final
class PowerOrders(Value):
    """One power's pending orders, in the order they were given.

    Each order fills a slot of its own: one per unit (its province; in a space
    several units share, such as a 1939 IV high sea, one per unit there), one
    per ``NO CONVERT`` note (its unit's province), one per ``PERMIT`` (canal and
    power), and each ``WAIVE`` its own. A later order for a filled slot takes
    the earlier one's place (:func:`submit_orders`). The order given is kept
    because the rules read it: the first legal adjustments are the ones used
    (DATC 4.D.4-4.D.6), and results are listed as the orders came.
    ``orders`` may be empty: the power sent an empty set (it has nothing to do,
    or wants its units to hold), which is not the same as sending nothing.
    """

    __slots__ = ("orders", "power")

    def __init__(self, power: str, orders: tuple[Order, ...] = ()) -> None:
        self.power: Final = power
        self.orders: Final = orders

    def _args(self) -> tuple[object, ...]:
        return (self.power, self.orders)

    def __repr__(self) -> str:
        return fields_repr(self, ("power", "orders"))

    @property
    def units(self) -> tuple[Order, ...]:
        """Orders for units or build sites (moves, holds, supports, convoys,
        retreats, disbands, builds, removals)."""
        return tuple(o for o in self.orders if not isinstance(o, (Waive, NoConvert, Permit)))

    @property
    def waives(self) -> tuple[Waive, ...]:
        return tuple(o for o in self.orders if isinstance(o, Waive))

    @property
    def notes(self) -> tuple[NoConvert, ...]:
        """``NO CONVERT`` notes given beside their units' orders (Sahara)."""
        return tuple(o for o in self.orders if isinstance(o, NoConvert))

    @property
    def permits(self) -> tuple[Permit, ...]:
        """Passage through a canal granted to another power (The Twentieth Century)."""
        return tuple(o for o in self.orders if isinstance(o, Permit))


@final
class PendingOrders(Value):
    """The orders waiting for the next processing: at most one :class:`PowerOrders`
    per power, sorted by power id. A power absent here sent nothing."""

    __slots__ = ("powers",)

    def __init__(self, powers: tuple[PowerOrders, ...] = ()) -> None:
        self.powers: Final = powers

    def _args(self) -> tuple[object, ...]:
        return (self.powers,)

    def __repr__(self) -> str:
        return fields_repr(self, ("powers",))

    def of(self, power: str) -> PowerOrders | None:
        for p in self.powers:
            if p.power == power:
                return p
        return None

    def __contains__(self, power: object) -> bool:
        return any(p.power == power for p in self.powers)

    def __len__(self) -> int:
        return len(self.powers)

    def with_orders(self, orders: PowerOrders) -> PendingOrders:
        """These pending orders with ``orders.power``'s replaced by ``orders``."""
        power = orders.power
        out: list[PowerOrders] = []
        placed = False
        for p in self.powers:
            if p.power == power:
                continue
            if not placed and p.power > power:
                out.append(orders)
                placed = True
            out.append(p)
        if not placed:
            out.append(orders)
        return PendingOrders(tuple(out))

    def without(self, power: str) -> PendingOrders:
        if power not in self:
            return self
        return PendingOrders(tuple(p for p in self.powers if p.power != power))

    def as_dict(self) -> dict[str, list[Order]]:
        """power -> its orders (new lists), by power id."""
        return {p.power: list(p.orders) for p in self.powers}


#: no orders pending
NO_ORDERS = PendingOrders()
