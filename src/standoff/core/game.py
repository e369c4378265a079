"""A whole game, for the CLI and scripts: a mutable holder of a :class:`GameRecord`.

The game itself is data (:mod:`standoff.core.record`): an immutable record
and pure functions that give the next one. :class:`Game` keeps the current
record in ``game.record`` and replaces it as orders are submitted and phases
processed, so code that plays a game step by step (the CLI, bots, tests) can
say ``game.submit(...)``, ``game.process()``.

Orders are checked when submitted (an invalid or illegal order raises at once,
and nothing already submitted is lost), and may be replaced until the phase
is processed. Processing adjudicates the phase with whatever was submitted;
powers that sent nothing are in civil disorder (units hold, dislodged units
disband, removals chosen by the civil-disorder rule). The game ends when the
variant's victory rule says so (:func:`standoff.decide_victory`), or when a
draw is declared.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .adjudicator import PhaseResult
from .options import DEFAULT, Options
from .orders import Order
from .position import Position
from .record import (
    GameRecord,
    PhaseRecord,
    clear_orders,
    concede,
    declare_draw,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    submit_checked,
    surviving_powers,
    with_position,
)
from .variant import Variant, load_variant

__all__ = ["Game", "PhaseRecord"]


class Game:
    """A game being played: ``record`` is its current :class:`GameRecord`; every
    change replaces it with the next one (records are never changed)."""

    def __init__(self, variant: Variant, options: Options = DEFAULT,
                 record: GameRecord | None = None) -> None:
        self.record: GameRecord = record if record is not None else \
            GameRecord.new(variant, options)

    @classmethod
    def new(cls, variant: str | Variant = "standard", options: Options = DEFAULT) -> Game:
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        return cls(v, options)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        return cls(record.variant, record.options, record)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy a game whole (its variant by name)."""
        return (_restore_game, (self.record,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.record == self.record

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} {self.phase_name}>"

    # -- state ---------------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.record.variant

    @property
    def options(self) -> Options:
        return self.record.options

    @property
    def position(self) -> Position:
        return self.record.position

    @position.setter
    def position(self, position: Position) -> None:
        """Set the game up at another position (``standoff new --position``, tests)."""
        self.record = with_position(self.record, position)

    @property
    def history(self) -> tuple[PhaseRecord, ...]:
        return self.record.history

    @property
    def winner(self) -> str | None:
        return self.record.winner

    @property
    def draw(self) -> tuple[str, ...] | None:
        return self.record.draw

    @property
    def no_winner(self) -> bool:
        """The game reached its last phase and nobody met the victory condition."""
        return self.record.no_winner

    @property
    def phase_name(self) -> str:
        return self.record.phase_name

    @property
    def is_over(self) -> bool:
        return self.record.outcome is not None

    def powers_to_order(self) -> list[str]:
        """Powers that must act this phase (:func:`standoff.powers_to_order`)."""
        return powers_to_order(self.record)

    def powers_that_may_order(self) -> list[str]:
        """Powers that may act without having to (:func:`standoff.powers_that_may_order`)."""
        return powers_that_may_order(self.record)

    def survivors(self) -> list[str]:
        """The powers still in the game: with units or centres."""
        return surviving_powers(self.record)

    # -- orders -------------------------------------------------------------------

    def submit(self, power: str, orders: Iterable[str | Order], replace_all: bool = False
               ) -> list[Order]:
        """Check and record orders for ``power``; return them normalised.

        All-or-nothing (:func:`standoff.submit_orders`): if any order is invalid
        or illegal the error is raised and the pending orders are unchanged. A
        new order for a unit replaces its earlier one; ``replace_all`` first
        drops every pending order of the power."""
        self.record, checked = submit_checked(self.record, power, orders, replace_all)
        return checked

    def clear_orders(self, power: str) -> None:
        self.record = clear_orders(self.record, power)

    def pending(self) -> dict[str, list[Order]]:
        """power -> its pending orders, by power id (a power that sent an empty
        set is there with an empty list)."""
        return self.record.pending.as_dict()

    # -- processing ----------------------------------------------------------------

    def process(self) -> PhaseResult:
        """Adjudicate the current phase and move to the next."""
        self.record, result = process_phase(self.record)
        return result

    def declare_draw(self, powers: Iterable[str] | None = None) -> tuple[str, ...]:
        """End the game in a draw shared by ``powers`` (default: every survivor);
        see :func:`standoff.declare_draw`."""
        self.record = declare_draw(self.record, powers)
        draw = self.record.draw
        assert draw is not None
        return draw

    def concede(self, winner: str) -> str:
        """End the game with ``winner`` (id, name or adjective) conceded the win by
        the other players; see :func:`standoff.concede`. The winner's id.

        >>> game = Game.new("standard")
        >>> game.concede("French"), game.winner, game.is_over
        ('france', 'france', True)
        """
        self.record = concede(self.record, winner)
        winner_id = self.record.winner
        assert winner_id is not None
        return winner_id

    # -- JSON ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return self.record.to_dict()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game; raises StandoffError (or KeyError/TypeError) on bad data."""
        return cls.from_record(GameRecord.from_dict(data))


def _restore_game(record: GameRecord) -> Game:
    """The inverse of :meth:`Game.__reduce__`."""
    return Game.from_record(record)
