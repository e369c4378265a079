"""Games played by bots: every seat asked about one record, then the phase processed.

What the front ends that seat bots share (``standoff selfplay --bot``,
``standoff playtest``, ``standoff demo --bots``, the Gymnasium wrapper's bot
opponents), so that a bot is asked the same way everywhere:

* every power that must or may order this phase (a canal owner with nothing
  else to do may permit) is asked, in alphabetical order, about the *same*
  record, before any of the phase's orders are submitted: no bot sees another
  power's orders of the phase (:func:`ask`);
* an empty answer is not submitted (the power has nothing to do); an order set
  the core refuses is not submitted either: that power is in civil disorder
  for the phase, and the refusal is kept (:class:`Refusal`), since the bots'
  contract says it never happens and a report should say when it did
  (:func:`submit`);
* a game is played to the variant's victory or past ``max_year``, and then
  ended as :class:`standoff.GameBatch` ends a capped game (a draw shared by two
  or more survivors), so random and bot self-play end their games alike
  (:func:`play`).

A bot is anything with an ``orders(record, power) -> list[str]`` method
(:class:`Player`; the bundled bots of :mod:`standoff.bots`, loaded by name with
:func:`load_bot`). Bots are seeded per game from the run's seed and the game's
index (:func:`bot_seed`), so a run is the same whichever process plays which
game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Protocol

from standoff import (
    GameBatch,
    GameRecord,
    Order,
    StandoffError,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    submit_orders,
)

from .plan import SelfPlayError


class Player(Protocol):
    """What a seat needs of a bot (the bots' contract, ``docs/bots.md``)."""

    def orders(self, record: GameRecord, power: str) -> list[str]: ...


#: called after each phase with the record the bots were asked about (its
#: pending orders not yet given) and the record after the phase was processed
PhaseObserver = Callable[[GameRecord, GameRecord], None]


@dataclass(frozen=True, slots=True)
class Refusal:
    """An order set the core refused: that power sent nothing that phase."""

    phase: str
    power: str
    orders: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class BotGame:
    """A game played to its end by :func:`play`."""

    record: GameRecord
    #: ended by ``max_year`` rather than by the victory rule
    capped: bool
    #: phases processed
    phases: int
    refused: tuple[Refusal, ...]

    @property
    def end(self) -> str:
        """``"win"``, ``"no_winner"``, ``"draw"`` or ``"cap"``, as self-play's lines
        name a game's end (:mod:`standoff.selfplay.games`)."""
        if self.capped:
            return "draw" if self.record.draw is not None else "cap"
        return "win" if self.record.winner is not None else "no_winner"


def load_bot(name: str, seed: int) -> Player:
    """The bundled bot ``name`` with ``seed``; an unknown name is a
    :class:`SelfPlayError` naming the bots (not the library's ``ValueError``)."""
    from standoff import bots

    try:
        return bots.load(name, seed=seed)
    except ValueError as exc:
        raise SelfPlayError(str(exc)) from None


def bot_seed(seed: int, index: int) -> int:
    """The bots' seed for game ``index`` of a run seeded with ``seed``: 32 bits
    from both numbers (:class:`random.Random` hashes a text seed with SHA-512,
    the same in every process), apart from the random games' own streams."""
    return Random(f"standoff-bots:{seed}:{index}").getrandbits(32)


def ask(record: GameRecord, players: Mapping[str, Player]) -> list[tuple[str, list[str]]]:
    """(power, its orders) for every power that must or may order now and has a
    player, each asked about ``record`` itself, alphabetically."""
    due = sorted(set(powers_to_order(record)) | set(powers_that_may_order(record)))
    return [(p, list(players[p].orders(record, p))) for p in due if p in players]


def submit(record: GameRecord, answers: Sequence[tuple[str, Sequence[str | Order]]]
           ) -> tuple[GameRecord, list[Refusal]]:
    """``record`` with every non-empty answer submitted; a refused one is left out
    (that power sends nothing) and returned as a :class:`Refusal`."""
    refused: list[Refusal] = []
    for power, orders in answers:
        if not orders:
            continue
        try:
            record = submit_orders(record, power, orders)
        except StandoffError as exc:
            refused.append(Refusal(record.phase_name, power, tuple(str(o) for o in orders),
                                   str(exc)))
    return record, refused


def play(record: GameRecord, players: Mapping[str, Player], max_year: int,
         observe: PhaseObserver | None = None) -> BotGame:
    """Play ``record`` on, every seat in ``players`` asked each phase (a power with
    no player sends nothing), until the victory rule ends the game or a phase of
    a year after ``max_year`` is reached; a game the cap stops is a draw shared
    by its survivors when there are two or more (as :class:`standoff.GameBatch`
    ends it)."""
    phases = 0
    refused: list[Refusal] = []
    while record.outcome is None and record.position.phase.year <= max_year:
        asked = record
        record, bad = submit(asked, ask(asked, players))
        refused += bad
        record = process_phase(record)[0]
        phases += 1
        if observe is not None:
            observe(asked, record)
    ended = GameBatch([record], max_year=max_year)
    return BotGame(ended.record(0), ended.capped(0), phases, tuple(refused))


def every_seat(record: GameRecord, player: Player) -> dict[str, Player]:
    """One player at every power of the record's variant."""
    return dict.fromkeys(record.variant.powers, player)
