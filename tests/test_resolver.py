"""The guess-and-check resolver's contract with its caller (DATC chapter 5,
L. B. Kruijswijk's algorithm). What it resolves is tested through the
movement rules by the DATC cases (``test_datc.py``); here: what happens once
resolution is over, and a caller that forgets its rules.

(The decisions are a base class the compiled core calls directly, which
classes defined in a test cannot subclass when the core is compiled, so the
cases use the movement adjudicator itself.)"""

from __future__ import annotations

import pytest

from standoff import DEFAULT, Order, Position, load_variant
from standoff.core.movement import MovementAdjudicator
from standoff.core.resolver import Decisions, Resolver


def test_a_released_resolver_refuses_to_resolve_anything_new() -> None:
    """After the movement phase (DATC 6.A.1's start: every unit holds), the
    resolver drops the adjudicator (to break their reference cycle): what was
    resolved stays, and asking anything else is an error, not a silent guess."""
    v = load_variant("standard")
    pos = Position.initial(v)
    units = list(pos.units)
    orders = [Order.parse(f"{u} H", v).check_movement(v, v.board, pos, u.power, DEFAULT)
              for u in units]
    adj = MovementAdjudicator(v.board, units, list(orders), DEFAULT)
    outcome = adj.run()
    assert outcome.dislodged == []
    assert adj.resolver.resolve(0) is True  # a hold stands: resolved, kept
    with pytest.raises(RuntimeError, match="released"):
        adj.resolver.resolve(adj.n)  # the convoy path of unit 0: never asked


def test_decisions_without_rules_say_so() -> None:
    """The base class decides nothing by itself: a caller that forgets its rules
    fails with the class's name, not with a wrong answer."""
    with pytest.raises(NotImplementedError, match="Decisions decides nothing"):
        Resolver(1, Decisions()).resolve(0)
