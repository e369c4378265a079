"""Victory: how a game is won, as small typed rules, and the one function that asks them.

A victory rule is a value in the spirit of godip's ``SoloWinner func(*State)
Nation`` with ``SCCountWinner(18)``: an object that looks at the position
before and after a phase and says whether the game is over and who won. The
variant's ``[victory]`` table picks one by name (:data:`standoff.core.hooks.VICTORY`)::

    [victory] centres = 18                       -> CentreCountWinner(18)
    [victory] centres = 74, at_start_of = "Fall" -> CentreCountWinner(74, at_start_of=2)
    [victory] units = 35                         -> UnitCountWinner(35)
    [victory] unit_in = "ice", after = "W1911A"  -> LastUnitIn("ice", after=W1911A)

:func:`decide_victory` is the public entry point: call it once after every
processed phase with the position the phase started from (``before``) and the
one it led to (``after``)::

    from .victory import Outcome, decide_victory

    outcome = decide_victory(variant, before, after)
    if outcome is not None:   # the game is over
        outcome.winner        # the power that won, or None: nobody won

A draw is not a victory rule's business: the players declare it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .errors import VariantError
from .phase import Calendar, Phase, PhaseKind

if TYPE_CHECKING:  # at run time only values are passed: no import cycle with variant.py
    from .position import Position
    from .variant import Variant


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game ended by its victory rule: ``winner`` is the power that won, or
    None when the game reached its end and nobody met the condition (Sahara
    rule 7 with Iceland empty)."""

    winner: str | None = None

    @property
    def no_winner(self) -> bool:
        return self.winner is None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # by the constructor's arguments, as every value of the compiled core
        return (Outcome, (self.winner,))


class VictoryRule(Protocol):
    """How a game is won (a variant's ``victory``)."""

    def decide(self, variant: Variant, before: Position, after: Position) -> Outcome | None:
        """The outcome once the phase that led from ``before`` to ``after`` has been
        processed: None while the game goes on."""
        ...

    def describe(self, calendar: Calendar) -> str:
        """The condition in words ("18 supply centres")."""
        ...

    def problems(self, variant: Variant) -> list[str]:
        """What makes the condition impossible on this variant (for check-variant)."""
        ...

    def last_phase(self) -> Phase | None:
        """The phase after which the game ends whatever happens, if there is one."""
        ...


def _leader(counts: dict[str, int], needed: int) -> Outcome | None:
    """The power with the most (the first such power in ``counts``' order), if it has
    ``needed``."""
    best = max(counts.items(), key=lambda kv: kv[1], default=None)
    if best is not None and best[1] >= needed:
        return Outcome(best[0])
    return None


@dataclass(frozen=True, slots=True)
class CentreCountWinner:
    """Own ``centres`` supply centres (Standard: 18, rulebook "Victory Criterion").

    By default counted whenever a phase has been processed, so in practice when
    centres change hands after the year's last season. With ``at_start_of`` (an
    index into the calendar's seasons) counted only as that season's movement
    phase begins (The Twentieth Century, Victory Conditions: "74 Supply Centers
    at the beginning of a Fall turn")."""

    centres: int
    at_start_of: int | None = None

    def decide(self, variant: Variant, before: Position, after: Position) -> Outcome | None:
        if self.at_start_of is not None and not (
                after.phase.kind is PhaseKind.MOVEMENT and after.phase.season == self.at_start_of):
            return None  # counted only as that season's turn begins
        return _leader(after.centre_counts(), self.centres)

    def describe(self, calendar: Calendar) -> str:
        if self.at_start_of is not None:
            return (f"{self.centres} supply centres at the beginning of a "
                    f"{calendar.seasons[self.at_start_of]} turn")
        return f"{self.centres} supply centres"

    def problems(self, variant: Variant) -> list[str]:
        have = len(variant.supply_centres)
        if self.centres > have:
            return [f"victory needs {self.centres} centres but the map has {have}"]
        return []

    def last_phase(self) -> Phase | None:
        return None


@dataclass(frozen=True, slots=True)
class UnitCountWinner:
    """Have ``units`` units on the board when the year's adjustment season ends
    (Twin Earths rule 4: "35 units on the board at the completion of a Winter
    season"). Counted after the builds, whenever the year changes (also when
    there was nothing to adjust); units in civil disorder belong to no power."""

    units: int

    def decide(self, variant: Variant, before: Position, after: Position) -> Outcome | None:
        if after.phase.year == before.phase.year:
            return None  # units count only when a Winter has ended
        neutral = variant.neutral
        counts: dict[str, int] = {}
        for u in after.units:
            if u.power != neutral:
                counts[u.power] = counts.get(u.power, 0) + 1
        return _leader(counts, self.units)

    def describe(self, calendar: Calendar) -> str:
        return f"{self.units} units on the board at the end of a {calendar.adjustment_season}"

    def problems(self, variant: Variant) -> list[str]:
        return []

    def last_phase(self) -> Phase | None:
        return None


@dataclass(frozen=True, slots=True)
class LastUnitIn:
    """The game ends once phase ``after`` is over; the power with a unit in
    ``space`` then wins, and with the space empty nobody does (Sahara rule 7:
    "the player with a unit in Iceland after Between Summers 1911 wins")."""

    space: str
    after: Phase

    def decide(self, variant: Variant, before: Position, after: Position) -> Outcome | None:
        if not after.phase > self.after:
            return None
        unit = after.unit_at(self.space)
        return Outcome(None if unit is None else unit.power)

    def describe(self, calendar: Calendar) -> str:
        return f"the last unit in {self.space.upper()} after {self.after.long_name(calendar)}"

    def problems(self, variant: Variant) -> list[str]:
        if self.space not in variant.board.provinces:
            return [f"victory names unknown space {self.space!r}"]
        return []

    def last_phase(self) -> Phase | None:
        return self.after


# -- reading [victory] (the rules are registered by these names in core/hooks) ------------


def centres_rule(table: Mapping[str, Any], calendar: Calendar) -> CentreCountWinner:
    """``centres = 18``, with ``at_start_of = "Fall"`` if counted as that season begins."""
    at = table.get("at_start_of")
    if at is not None and at not in calendar.seasons:
        raise VariantError("[victory] at_start_of names a season of the calendar "
                           f"({', '.join(calendar.seasons)}) and goes with centres")
    return CentreCountWinner(int(table["centres"]),
                             None if at is None else calendar.seasons.index(at))


def units_rule(table: Mapping[str, Any], calendar: Calendar) -> UnitCountWinner:
    """``units = 35``."""
    _only_centres_count_at_start(table, calendar)
    return UnitCountWinner(int(table["units"]))


def unit_in_rule(table: Mapping[str, Any], calendar: Calendar) -> LastUnitIn:
    """``unit_in = "ice"`` with ``after = "W1911A"``."""
    _only_centres_count_at_start(table, calendar)
    if "after" not in table:
        raise VariantError("[victory] unit_in needs after (the last phase, e.g. \"W1911A\")")
    return LastUnitIn(str(table["unit_in"]), Phase.parse(str(table["after"]), calendar))


def _only_centres_count_at_start(table: Mapping[str, Any], calendar: Calendar) -> None:
    if "at_start_of" in table:
        raise VariantError("[victory] at_start_of names a season of the calendar "
                           f"({', '.join(calendar.seasons)}) and goes with centres")


def decide_victory(variant: Variant, before: Position, after: Position) -> Outcome | None:
    """Whether processing the phase that led from ``before`` to ``after`` ended the
    game by the variant's victory rule: None while it goes on, else the
    :class:`Outcome` (a winner, or nobody). Call it once per processed phase."""
    return variant.victory.decide(variant, before, after)
