"""What a self-play run is: its settings, checked once, and its share-out into batches.

A run is fully described by a :class:`SelfPlay` value (games, variant, seed,
caps, move bias, the bot that plays every power, if any): every worker
receives the same value and plays the batches it is handed, so the games
depend on the settings and the game indices only, never on how many workers
there are or which one played what.
"""

from __future__ import annotations

from dataclasses import dataclass

from standoff import (
    GameBatch,
    Position,
    StandoffError,
    VariantError,
    available_variants,
    load_variant,
)

#: years played when no --max-year is given, counted from the variant's first year
DEFAULT_YEARS = 20


class SelfPlayError(StandoffError):
    """A self-play run that cannot start: bad settings, a missing extra."""


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """The settings of a self-play run (see :func:`plan`, which checks them)."""

    games: int
    variant: str = "standard"
    seed: int = 1
    #: the last year played: a game still going after it ends in a draw
    max_year: int = 1920
    #: the chance a unit picks among its moves (:func:`standoff.random_orders`)
    move_bias: float = 0.7
    #: games per batch: the unit of work a worker plays and sends back
    batch_size: int = 8
    #: the bundled bot (:mod:`standoff.bots`) playing every power, loaded by name
    #: in the worker; None: random legal orders (``move_bias``)
    bot: str | None = None

    def new_batch(self, count: int) -> GameBatch:
        """``count`` new games of the run, at the variant's opening position."""
        return GameBatch.new(count, self.variant, max_year=self.max_year)

    def batches(self) -> list[tuple[int, int]]:
        """(first game index, game count) of every batch, in order."""
        size = self.batch_size
        return [(first, min(size, self.games - first)) for first in range(0, self.games, size)]


def check_bot(name: str) -> str:
    """``name`` if it is a bundled bot, else one :class:`SelfPlayError` naming them
    (:mod:`standoff.bots` is imported only when a bot is asked for)."""
    from standoff import bots

    known = bots.names()
    if name not in known:
        raise SelfPlayError(f"unknown bot {name!r} (bots: {', '.join(known)})")
    return name


def plan(games: int, variant: str = "standard", seed: int = 1, max_year: int | None = None,
         move_bias: float = 0.7, batch_size: int = 8, bot: str | None = None) -> SelfPlay:
    """A checked :class:`SelfPlay`: one clear :class:`SelfPlayError` (or
    :class:`standoff.VariantError`) for anything that cannot be played.

    ``variant`` must be bundled (``standoff.available_variants()``): each worker
    process loads it by name, and a stored game names it to be read back.
    ``max_year`` defaults to :data:`DEFAULT_YEARS` years of play. ``bot``, if
    given, must be a bundled bot's name (:func:`standoff.bots.names`): the
    workers load it by name, with a seed per game."""
    if games < 1:
        raise SelfPlayError(f"--games must be at least 1 (got {games})")
    if batch_size < 1:
        raise SelfPlayError(f"--batch must be at least 1 (got {batch_size})")
    if not 0.0 <= move_bias <= 1.0:
        raise SelfPlayError(f"--move-bias is a probability, from 0 to 1 (got {move_bias})")
    if bot is not None:
        check_bot(bot)
    bundled = available_variants()
    if variant.lower() not in bundled:
        raise VariantError(f"unknown variant {variant!r}: self-play plays the bundled ones "
                           f"({', '.join(sorted({p.stem for p in bundled.values()}))})")
    v = load_variant(variant)
    first = Position.initial(v).phase.year
    year = first + DEFAULT_YEARS - 1 if max_year is None else max_year
    if year < first:
        raise SelfPlayError(f"--max-year {year} is before {v.name}'s first year, {first}")
    return SelfPlay(games, v.name, seed, year, move_bias, batch_size, bot)
