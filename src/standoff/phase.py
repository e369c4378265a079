"""Phases and the calendar that orders them.

A phase is (year, season, kind). The seasons come from the variant's calendar
data, so a variant with three seasons or an "Autumn" instead of a "Fall" needs
no code. Short notation: ``S1901M``, ``F1901R``, ``W1901A`` (season letter,
year, M/R/A), as used by most judges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import total_ordering

from .errors import NotationError


class PhaseKind(str, Enum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    @property
    def label(self) -> str:
        return {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[self.value]


@dataclass(frozen=True, slots=True)
class Calendar:
    """Season names in playing order; adjustments follow the last one."""

    seasons: tuple[str, ...] = ("Spring", "Fall")
    adjustment_season: str = "Winter"

    def letter(self, season: str) -> str:
        return season[0].upper()

    def season_index(self, name: str) -> int:
        """Find a season by full name or letter, case-insensitively."""
        low = name.lower()
        for i, s in enumerate(self.seasons):
            if s.lower() == low or s[0].lower() == low:
                return i
        raise NotationError(f"unknown season {name!r} (expected one of {', '.join(self.seasons)})")


_KIND_RANK = {"M": 0, "R": 1, "A": 2}


@total_ordering
@dataclass(frozen=True, slots=True)
class Phase:
    """A point in the game. Ordered chronologically (movement, retreat, adjustment)."""

    year: int
    #: index into the calendar's seasons; adjustments use the last season's index.
    season: int
    kind: PhaseKind

    def _key(self) -> tuple[int, int, int]:
        return (self.year, self.season, _KIND_RANK[self.kind.value])

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._key() < other._key()

    def name(self, calendar: Calendar) -> str:
        """Short notation, e.g. ``S1901M``; ``W1901A`` for adjustments."""
        if self.kind is PhaseKind.ADJUSTMENT:
            letter = calendar.letter(calendar.adjustment_season)
        else:
            letter = calendar.letter(calendar.seasons[self.season])
        return f"{letter}{self.year}{self.kind.value}"

    def long_name(self, calendar: Calendar) -> str:
        """e.g. ``Spring 1901, Movement``."""
        season = (
            calendar.adjustment_season
            if self.kind is PhaseKind.ADJUSTMENT
            else calendar.seasons[self.season]
        )
        return f"{season} {self.year}, {self.kind.label}"

    @property
    def is_movement(self) -> bool:
        return self.kind is PhaseKind.MOVEMENT

    def is_last_season(self, calendar: Calendar) -> bool:
        return self.season == len(calendar.seasons) - 1

    def next_retreat(self) -> Phase:
        return Phase(self.year, self.season, PhaseKind.RETREAT)

    def next_after_turn(self, calendar: Calendar) -> Phase:
        """The phase after this season's movement/retreats (ignoring skips)."""
        if self.kind is PhaseKind.ADJUSTMENT:
            return Phase(self.year + 1, 0, PhaseKind.MOVEMENT)
        if self.is_last_season(calendar):
            return Phase(self.year, self.season, PhaseKind.ADJUSTMENT)
        return Phase(self.year, self.season + 1, PhaseKind.MOVEMENT)

    @classmethod
    def parse(cls, text: str, calendar: Calendar) -> Phase:
        """Read ``S1901M`` or ``Spring 1901, Movement`` (any case)."""
        t = text.strip()
        m = _SHORT.fullmatch(t)
        if m:
            letter, year, kind = m.group(1), int(m.group(2)), PhaseKind(m.group(3).upper())
            return cls._make(calendar, letter, year, kind, text)
        m = _LONG.fullmatch(t)
        if m:
            season, year, kind_word = m.group(1), int(m.group(2)), m.group(3).lower()
            kinds = {
                "movement": PhaseKind.MOVEMENT,
                "move": PhaseKind.MOVEMENT,
                "moves": PhaseKind.MOVEMENT,
                "retreat": PhaseKind.RETREAT,
                "retreats": PhaseKind.RETREAT,
                "adjustment": PhaseKind.ADJUSTMENT,
                "adjustments": PhaseKind.ADJUSTMENT,
                "build": PhaseKind.ADJUSTMENT,
                "builds": PhaseKind.ADJUSTMENT,
            }
            if kind_word not in kinds:
                raise NotationError(f"unknown phase type {m.group(3)!r} in {text!r}")
            return cls._make(calendar, season, year, kinds[kind_word], text)
        raise NotationError(
            f"cannot read phase {text!r} (expected e.g. 'S1901M' or 'Spring 1901, Movement')"
        )

    @classmethod
    def _make(cls, calendar: Calendar, season: str, year: int, kind: PhaseKind, text: str) -> Phase:
        if kind is PhaseKind.ADJUSTMENT:
            adj = calendar.adjustment_season
            last = len(calendar.seasons) - 1
            if season.lower() in (adj.lower(), adj[0].lower()):
                return cls(year, last, kind)
            idx = calendar.season_index(season)
            if idx != last:
                raise NotationError(f"{text!r}: adjustments happen only after the last season")
            return cls(year, last, kind)
        adj = calendar.adjustment_season.lower()
        if season.lower() == adj or (season.lower() == adj[0] and
                                     adj[0] not in (s[0].lower() for s in calendar.seasons)):
            raise NotationError(f"{text!r}: {calendar.adjustment_season} has only adjustments")
        return cls(year, calendar.season_index(season), kind)


_SHORT = re.compile(r"([A-Za-z])(\d{1,5})([MRAmra])")
_LONG = re.compile(r"([A-Za-z]+)\s+(\d{1,5})\s*,?\s*([A-Za-z]+)")
