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
from typing import Final, Literal, get_args

from .errors import NotationError


class PhaseKind(str, Enum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"

    @property
    def label(self) -> str:
        return {"M": "Movement", "R": "Retreat", "A": "Adjustment"}[self.value]


#: Which years an optional season is played in (City/Country rule .62): the
#: values of the rule option ``optional_seasons``.
OptionalSeasonYears = Literal["never", "odd", "even", "always"]
OPTIONAL_SEASON_YEARS: tuple[OptionalSeasonYears, ...] = get_args(OptionalSeasonYears)


@dataclass(frozen=True, slots=True)
class Era:
    """New season names from a given year on (Sahara rule 6: "Early Summer"...)."""

    from_year: int
    seasons: tuple[str, ...]
    adjustment_season: str

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(s[0].upper() for s in self.seasons)

    @property
    def adjustment_letter(self) -> str:
        return self.adjustment_season[0].upper()


@dataclass(frozen=True, slots=True)
class Calendar:
    """Season names in playing order; adjustments follow the last one.

    ``optional`` seasons are played only in the years a game option chooses
    (:data:`OPTIONAL_SEASON_YEARS`); a phase keeps the season's index in the
    full list, so "Summer" is always season 1 and "Fall" always season 2 and
    phases order correctly whichever years have a summer. ``letters`` are the
    short-notation letters (default: first letter); ``eras`` rename the
    seasons from a year on, and both the old and the new names are read.
    """

    seasons: tuple[str, ...] = ("Spring", "Fall")
    adjustment_season: str = "Winter"
    letters: tuple[str, ...] = ()
    adjustment_letter: str = ""
    optional: frozenset[int] = frozenset()
    eras: tuple[Era, ...] = ()

    def __post_init__(self) -> None:
        if not self.letters:
            object.__setattr__(self, "letters", tuple(s[0].upper() for s in self.seasons))
        if not self.adjustment_letter:
            object.__setattr__(self, "adjustment_letter", self.adjustment_season[0].upper())
        if len(self.letters) != len(self.seasons):
            raise NotationError("a calendar needs one letter per season")
        if len(self.seasons) - 1 in self.optional or 0 in self.optional:
            raise NotationError("the first and last seasons cannot be optional")

    def _era(self, year: int) -> Era | None:
        found = None
        for era in self.eras:
            if year >= era.from_year:
                found = era
        return found

    def season_name(self, year: int, index: int) -> str:
        era = self._era(year)
        return era.seasons[index] if era else self.seasons[index]

    def adjustment_name(self, year: int) -> str:
        era = self._era(year)
        return era.adjustment_season if era else self.adjustment_season

    def _letters(self, year: int) -> tuple[tuple[str, ...], str]:
        era = self._era(year)
        if era is None:
            return self.letters, self.adjustment_letter
        return era.letters, era.adjustment_letter

    def season_letter(self, year: int, index: int) -> str:
        return self._letters(year)[0][index]

    def adjustment_letter_in(self, year: int) -> str:
        return self._letters(year)[1]

    def _names(self) -> list[tuple[str, str, tuple[str, ...], str]]:
        """(season letters, adjustment letter, season names, adjustment name) of every era."""
        out = [("".join(self.letters), self.adjustment_letter, self.seasons,
                self.adjustment_season)]
        for era in self.eras:
            out.append(("".join(era.letters), era.adjustment_letter, era.seasons,
                        era.adjustment_season))
        return out

    def season_index(self, name: str) -> int:
        """Find a season by full name or letter (of any era), case-insensitively."""
        low = " ".join(name.lower().split())
        for letters, _, names, _ in self._names():
            for i, s in enumerate(names):
                if s.lower() == low or letters[i].lower() == low:
                    return i
        raise NotationError(f"unknown season {name!r} (expected one of {', '.join(self.seasons)})")

    def is_adjustment_name(self, name: str) -> bool:
        low = " ".join(name.lower().split())
        for letters, adj_letter, _, adj in self._names():
            if low == adj.lower() or (low == adj_letter.lower() and
                                      low not in letters.lower()):
                return True
        return False

    def plays(self, year: int, index: int, optional_years: OptionalSeasonYears = "never"
              ) -> bool:
        """Is this season played in ``year``? Optional seasons per the game option."""
        if index not in self.optional:
            return True
        return (optional_years == "always" or (optional_years == "odd" and year % 2 == 1)
                or (optional_years == "even" and year % 2 == 0))


_KIND_RANK: Final = {"M": 0, "R": 1, "A": 2}  # keyed by letter; a str enum finds its letter's entry
#: each kind's letter, without ``Enum.value`` (a Python-level property on 3.11)
_KIND_LETTER: Final[dict[PhaseKind, str]] = {k: k.value for k in PhaseKind}


class Phase:
    """A point in the game: an immutable value, ordered chronologically
    (movement, retreat, adjustment).

    A plain class rather than a frozen dataclass: several are made per phase
    adjudicated, and a hand-written constructor is compiled with the core (a
    dataclass's stays interpreted)."""

    __slots__ = ("kind", "season", "year")

    def __init__(self, year: int, season: int, kind: PhaseKind) -> None:
        self.year = year
        #: index into the calendar's seasons; adjustments use the last season's index.
        self.season = season
        self.kind = kind

    def _key(self) -> tuple[int, int, int]:
        return (self.year, self.season, _KIND_RANK[self.kind])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self.year == other.year and self.season == other.season and \
            self.kind is other.kind

    def __hash__(self) -> int:
        return hash((self.year, self.season, self.kind))  # a str enum hashes as its letter

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return self._key() >= other._key()

    def __repr__(self) -> str:
        return f"Phase({self.year}, {self.season}, PhaseKind.{self.kind.name})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Phase, (self.year, self.season, self.kind))

    def name(self, calendar: Calendar) -> str:
        """Short notation, e.g. ``S1901M``; ``W1901A`` for adjustments."""
        if self.kind is PhaseKind.ADJUSTMENT:
            letter = calendar.adjustment_letter_in(self.year)
        else:
            letter = calendar.season_letter(self.year, self.season)
        return f"{letter}{self.year}{_KIND_LETTER[self.kind]}"

    def long_name(self, calendar: Calendar) -> str:
        """e.g. ``Spring 1901, Movement`` (in the season names of that year)."""
        season = (
            calendar.adjustment_name(self.year)
            if self.kind is PhaseKind.ADJUSTMENT
            else calendar.season_name(self.year, self.season)
        )
        return f"{season} {self.year}, {self.kind.label}"

    def is_last_season(self, calendar: Calendar) -> bool:
        return self.season == len(calendar.seasons) - 1

    def next_retreat(self) -> Phase:
        return Phase(self.year, self.season, PhaseKind.RETREAT)

    def next_after_turn(self, calendar: Calendar,
                        optional_years: OptionalSeasonYears = "never") -> Phase:
        """The phase after this season's movement/retreats (ignoring skips);
        optional seasons are played in the years ``optional_years`` names."""
        if self.kind is PhaseKind.ADJUSTMENT:
            return Phase(self.year + 1, 0, PhaseKind.MOVEMENT)
        if self.is_last_season(calendar):
            return Phase(self.year, self.season, PhaseKind.ADJUSTMENT)
        nxt = self.season + 1
        while not calendar.plays(self.year, nxt, optional_years):
            nxt += 1
        return Phase(self.year, nxt, PhaseKind.MOVEMENT)

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
        last = len(calendar.seasons) - 1
        if kind is PhaseKind.ADJUSTMENT:
            if calendar.is_adjustment_name(season):
                return cls(year, last, kind)
            idx = calendar.season_index(season)
            if idx != last:
                raise NotationError(f"{text!r}: adjustments happen only after the last season")
            return cls(year, last, kind)
        if calendar.is_adjustment_name(season):
            raise NotationError(f"{text!r}: {calendar.adjustment_season} has only adjustments")
        return cls(year, calendar.season_index(season), kind)


_SHORT = re.compile(r"([A-Za-z])(\d{1,5})([MRAmra])")
_LONG = re.compile(r"([A-Za-z]+(?:\s+[A-Za-z]+)*?)\s+(\d{1,5})\s*,?\s*([A-Za-z]+)")
