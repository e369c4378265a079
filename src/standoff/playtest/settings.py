"""What a playtest is: its settings, checked once, and the variant every game is played on.

A playtest is fully described by a :class:`Playtest` value, so every worker
process plays the games it is handed from the same value, and a game depends
only on the settings and its index (never on the number of workers).

The variant is a bundled one (by name or alias) or a designer's file (a path
ending in ``.toml``, read as ``standoff new --variant`` reads it:
:func:`standoff.storage.open_variant`). A file is read once, in the process
that plans the playtest, and its text travels with the settings: every worker
builds the variant from that text, so all the games are of one version of the
file even if the designer saves it again during the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from standoff import (
    Position,
    StandoffError,
    Variant,
    load_variant,
    storage,
    variant_from_text,
)
from standoff.selfplay import SelfPlayError, check_bot

#: years played when no ``max_year`` is given, counted from the variant's first year
DEFAULT_YEARS = 30
#: the bot that plays every power when none is named
DEFAULT_BOT = "heuristic"
#: years between the checkpoints at which the report gives mean centres
DEFAULT_EVERY = 5


class PlaytestError(StandoffError):
    """A playtest that cannot start: bad settings, an unknown bot, a missing extra."""


@dataclass(frozen=True, slots=True)
class Playtest:
    """The settings of a playtest (see :func:`plan`, which checks them)."""

    #: the variant's name (a designer's file: the name the file gives)
    variant: str
    games: int
    bot: str = DEFAULT_BOT
    seed: int = 1
    #: the last year played: a game still going after it ends in a draw
    max_year: int = 1930
    #: years between the report's centre checkpoints
    every: int = DEFAULT_EVERY
    #: a designer's file: its path and its text as read; None for a bundled variant
    path: str | None = None
    text: str | None = None

    def load(self) -> Variant:
        """The variant, built once per process."""
        key = (self.variant, self.path, self.text)
        found = _BUILT.get(key)
        if found is None:
            if self.text is None:
                found = load_variant(self.variant)
            else:
                found = variant_from_text(self.text, self.path or self.variant)
            _BUILT.clear()  # one playtest at a time in a process: keep only its variant
            _BUILT[key] = found
        return found


#: the variant of the playtest this process plays, built from its settings
_BUILT: dict[tuple[str, str | None, str | None], Variant] = {}


def plan(variant: str, games: int = 100, bot: str = DEFAULT_BOT, seed: int = 1,
         max_year: int | None = None, every: int = DEFAULT_EVERY) -> Playtest:
    """A checked :class:`Playtest`: one clear error for anything that cannot be
    played (:class:`PlaytestError`; an unknown variant or a file that cannot be
    read or built: :class:`standoff.VariantError`).

    ``variant`` is a bundled variant's name or alias, or a path ending in
    ``.toml``; ``max_year`` defaults to :data:`DEFAULT_YEARS` years of play."""
    if games < 1:
        raise PlaytestError(f"--games must be at least 1 (got {games})")
    if every < 1:
        raise PlaytestError(f"--every must be at least 1 year (got {every})")
    try:
        check_bot(bot)
    except SelfPlayError as exc:
        raise PlaytestError(str(exc)) from None
    v = storage.open_variant(variant)
    first = Position.initial(v).phase.year
    year = first + DEFAULT_YEARS - 1 if max_year is None else max_year
    if year < first:
        raise PlaytestError(f"--max-year {year} is before {v.title}'s first year, {first}")
    source = v.source
    return Playtest(v.name, games, bot, seed, year, every,
                    None if source is None else source.path,
                    None if source is None else source.text)
