"""What the benchmarks compare after a phase, read alike from every engine.

standoff, ``diplomacy`` 1.1.2 (MILA) and pydipcc each describe a position in
their own terms; a :class:`State` is the part all three must agree on after a
phase -- units, dislodged units and where each may retreat, centre ownership
and the next phase's name -- so that a replay can tell whether the engines
reached the same position, and so time each phase from a common input.
Imported by ``adjudication.py`` and ``legal_orders.py``, which run in the
benchmark venv (``setup_env.py``): ``diplomacy`` is never imported elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diplomacy import Game  # AGPL: benchmark environment only

from standoff import Phase, PhaseKind, Position
from standoff.core.variant import load_variant
from standoff.mila import State, state_of_position

VARIANT = load_variant("standard")
CAL = VARIANT.calendar
BOARD = VARIANT.board

#: a phase's orders as recorded: power -> order texts (MILA notation)
Orders = Mapping[str, list[str]]


def dip_state(game: Game) -> State:
    units, dis, rets = set(), set(), set()
    cen: list[tuple[str, str]] = []
    for power in game.powers.values():
        for u in power.units:
            units.add((power.name, u[0], u[2:]))
        for u, where in power.retreats.items():
            dis.add((power.name, u[0], u[2:]))
            rets.add((power.name, u, frozenset(where)))
        cen.extend((c, power.name) for c in power.centers)
    return State(game.get_current_phase(), frozenset(units), frozenset(dis), frozenset(rets),
                 tuple(sorted(cen)))


def so_state(pos: Position) -> State:
    return state_of_position(pos, VARIANT)


def position_from_dip(game: Game) -> Position:
    """diplomacy's position as a standoff Position (movement and adjustment phases only)."""
    phase = Phase.parse(game.get_current_phase(), CAL)
    assert phase.kind is not PhaseKind.RETREAT
    # read through standoff's JSON reader, as any position from outside would be
    return Position.from_dict({
        "variant": VARIANT.name, "phase": phase.name(CAL),
        "units": {p.name: list(p.units) for p in game.powers.values()},
        "centres": {p.name: list(p.centers) for p in game.powers.values()},
    })


def dip_play(game: Game, orders: Orders) -> None:
    for power, items in orders.items():
        game.set_orders(power, items)
    game.process()



def pdc_state(game: Any) -> State:
    """pydipcc's position (``game.get_state()``) in the same terms.

    pydipcc keeps a dislodged unit that has nowhere to go among the dislodged
    and stops at a retreat phase for it; ``diplomacy`` and standoff disband it
    at once. Such a unit is left out here: it is gone either way (see
    :func:`peers.PydipccReplay.play`, which steps over that empty phase)."""
    s = game.get_state()
    units = frozenset((power, u[0], u[2:]) for power, us in s["units"].items()
                      for u in us if not u.startswith("*"))
    dis, rets = set(), set()
    for power, where in s["retreats"].items():
        for u, options in where.items():
            if options:
                dis.add((power, u[0], u[2:]))
                rets.add((power, u, frozenset(options)))
    cen = tuple(sorted((c, power) for power, cs in s["centers"].items() for c in cs))
    return State(s["name"], units, frozenset(dis), frozenset(rets), cen)
