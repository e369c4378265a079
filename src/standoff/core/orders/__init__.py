"""Orders as typed value objects: one module per kind.

Each kind is a final, immutable class subclassing :class:`Order`
(``base.py``), in a module that holds all the kind means on its own: its
fields, its canonical notation (``str(order)``, which
:func:`standoff.core.notation.parse_order` reads back to an equal order: every
kind is parsed there, in ``notation.py``, not in its own module), its
``kind`` name (a ``Literal``), the ``phase`` it is given in, and its legality
checks (``check_movement``, ``check_retreat``, ``check_adjustment``: the
order normalised, or :class:`~standoff.core.errors.IllegalOrderError`). The
questions several checks ask are in :mod:`standoff.core.order_checks`.

The kinds, by the phase they are given in:

* movement: ``hold.py`` (:class:`Hold`), ``move.py`` (:class:`Move`; a retreat
  when given in a retreat phase), ``support.py`` (:class:`SupportHold` and
  :class:`SupportMove`, which share their checks), ``convoy.py``
  (:class:`Convoy`), and two standing instructions, noted rather than
  adjudicated: ``no_convert.py`` (:class:`NoConvert`), ``permit.py``
  (:class:`Permit`);
* retreat: ``retreat.py`` (:class:`Retreat`), ``disband.py`` (:class:`Disband`;
  a removal when given in an adjustment phase);
* adjustment: ``build.py`` (:class:`Build`), ``waive.py`` (:class:`Waive`),
  ``remove.py`` (:class:`Remove`).

What the rest of the core does with a kind (the adjudicator's movement pass,
the movement classifier, retreat and adjustment adjudication, the random
players, the renderer) is a ``match`` on ``order.kind`` ending in
``case _: assert_never(...)``: mypy narrows the order in each case and fails
where a kind is left out.

Adding a kind: write its module; list it below, in :data:`OrderKind` and in
the union of its phase; export it from ``standoff/__init__.py``; teach
:mod:`~standoff.core.notation` to read it. ``mypy`` then names every dispatch
that must say what the new kind does.
"""

from __future__ import annotations

from typing import Literal, cast, get_args

from .base import Order
from .build import Build
from .convoy import Convoy
from .disband import Disband
from .hold import Hold
from .move import Move
from .no_convert import NoConvert
from .permit import Permit
from .remove import Remove
from .retreat import Retreat
from .support import SupportHold, SupportMove
from .waive import WAIVE, Waive

#: the short name of each kind (:attr:`Order.kind`)
OrderKind = Literal[
    "hold", "move", "support_hold", "support_move", "convoy", "no_convert", "permit",
    "retreat", "disband",
    "build", "remove", "waive",
]

#: the orders of a movement phase, as their checks return them
MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy | NoConvert | Permit
#: the orders of a retreat phase
RetreatOrder = Retreat | Disband
#: the orders of an adjustment phase
AdjustmentOrder = Build | Remove | Waive
#: an order of any kind: what a ``match`` over every kind takes
AnyOrder = MovementOrder | RetreatOrder | AdjustmentOrder

#: every kind's class
ORDER_CLASSES: tuple[type[Order], ...] = get_args(AnyOrder)
_KNOWN = frozenset(ORDER_CLASSES)


def narrow_order(order: Order) -> AnyOrder:
    """``order`` typed as the union of the kinds, for a ``match`` that mypy checks
    for exhaustiveness (every order is of one of the kinds; anything else is a
    TypeError)."""
    if type(order) not in _KNOWN:
        raise TypeError(f"{type(order).__name__} is not a kind of order of standoff")
    return cast("AnyOrder", order)


__all__ = [
    "ORDER_CLASSES", "WAIVE", "AdjustmentOrder", "AnyOrder", "Build", "Convoy", "Disband",
    "Hold", "Move", "MovementOrder", "NoConvert", "Order", "OrderKind", "Permit", "Remove",
    "Retreat", "RetreatOrder", "SupportHold", "SupportMove", "Waive", "narrow_order",
]
