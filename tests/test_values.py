"""Values survive pickling and copying, in the pure Python and the compiled core.

Self-play and search send positions, orders and results between processes
(``multiprocessing`` pickles them) and copy games; the compiled core's classes
cannot be rebuilt attribute by attribute, so each says how to rebuild it
(``__reduce__``). CI runs this file on both builds (``tests/test_build.py``).
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from standoff import Options, Order, Phase, PhaseKind, Position, adjudicate, load_variant
from standoff.core.geography import Board, Province, Terrain, UnitType
from standoff.core.legal_orders import random_orders
from standoff.core.phase import Calendar
from standoff.core.position import Dislodged, Unit
from standoff.core.variant import Power, Variant, register_variant
from standoff.core.victory import CentreCountWinner

V = load_variant("standard")


def _round_trips(value: object) -> None:
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert again == value
        assert type(again) is type(value)


def _played(seed: int, phases: int) -> list[Position]:
    rng = random.Random(seed)
    pos = Position.initial(V)
    seen = [pos]
    for _ in range(phases):
        pos = adjudicate(pos, random_orders(pos, rng, move_bias=0.7)).next_position
        seen.append(pos)
    return seen


def test_positions_of_a_played_game_round_trip() -> None:
    seen = _played(6, 40)
    assert any(p.dislodged for p in seen), "the game should reach a retreat phase"
    for pos in seen:
        _round_trips(pos)
        assert pickle.loads(pickle.dumps(pos)).to_text() == pos.to_text()


@pytest.mark.parametrize("text", ["A PAR - BUR", "F STP/SC - BOT", "A VEN S A TYR - TRI",
                                  "F ADR C A TRI - APU", "A TRI - APU VIA CONVOY",
                                  "BUILD F STP/NC", "REMOVE A WAR", "WAIVE", "F TRI R ALB",
                                  "F TRI D", "A PAR H", "A MUN S A BER"])
def test_orders_round_trip(text: str) -> None:
    _round_trips(Order.parse(text))


def test_phases_options_results_and_dislodged_units_round_trip() -> None:
    _round_trips(Phase(1901, 1, PhaseKind.RETREAT))
    _round_trips(Options(paradox="1982", civil_disorder="1982"))
    _round_trips(Dislodged(Unit("austria", UnitType.ARMY, "ser"), "bud", True))
    result = adjudicate(Position.initial(V), {"france": ["A PAR - BUR"],
                                              "germany": ["A MUN - BUR", "A MUN - XYZ"]})
    for r in result.results:
        _round_trips(r)


def test_a_game_round_trips_whole() -> None:
    from standoff.core.game import Game

    game = Game.new("standard")
    rng = random.Random(5)
    for _ in range(6):
        for power, orders in random_orders(game.position, rng, move_bias=0.6).items():
            game.submit(power, orders)
        game.process()
    again = pickle.loads(pickle.dumps(game))
    assert again.position == game.position
    assert [r.position for r in again.history] == [r.position for r in game.history]
    assert [r.results for r in again.history] == [r.results for r in game.history]
    assert again.variant is game.variant  # the variant travels by name
    assert copy.deepcopy(game).position == game.position


def test_a_variant_unknown_by_name_is_refused_with_the_reason() -> None:
    board = Board.build([Province("a", "A", Terrain.LAND, supply_centre=True),
                         Province("b", "B", Terrain.LAND)], [("a", "b")], [])
    unregistered = Variant("nowhere-test", "Nowhere", (), {"p": Power("p", "P", "P", ("a",), ())},
                           board, Calendar(), Phase(1901, 0, PhaseKind.MOVEMENT),
                           CentreCountWinner(1))
    with pytest.raises(pickle.PicklingError, match="register_variant"):
        pickle.dumps(unregistered)
    register_variant(unregistered)
    assert pickle.loads(pickle.dumps(unregistered)) is unregistered
