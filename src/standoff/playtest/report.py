"""The balance report: a playtest's games summed up per power, per year and per place.

Every figure is defined here once, and the table, the plot and the JSON all
show these values:

* **ends**: solo wins (the victory rule's winner), draws (games stopped after
  the last year with two or more survivors: a draw they share), no winner (the
  victory rule ended the game with nobody, as Sahara's may) and unfinished
  (stopped after the last year with one survivor short of victory); they add
  up to the games played.
* per power: **solo wins** (and the share of games), **draws shared** (drawn
  games it survived to share, and the share of the drawn games), **eliminated**
  (games it left with no units and no centres, the share of games, and the mean
  year it happened), **centres** at the start, at each checkpoint year and at
  the end, averaged over the games (a game that ended before a checkpoint
  counts its final centres there: the board stood still once the game was
  won), and the **balance score**: the mean sum-of-squares score (a solo
  winner 1, the others 0; otherwise a power's centres squared over the sum of
  every power's squares, or its units where no power holds a centre at the
  end) times the number of powers, so 1.0 is a fair share and 2.0 twice it.
* **game lengths** in years (the first and the last year played both counted):
  mean, median, shortest, longest; and phases.
* **units never able to move** (:mod:`standoff.playtest.units`): per power and
  unit as it stood, in how many games, and stuck unit-phases by place.

:func:`summarise` builds the :class:`Report` from the games' summaries, in
index order, so the same games give the same report whatever order the
workers finished them in; only the run's timings (:class:`RunFigures`) vary.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from standoff import BUILD, Position, Variant

from .games import GameSummary
from .settings import Playtest

#: the ends, in the order they are shown
ENDS = ("win", "draw", "no_winner", "unfinished")


@dataclass(frozen=True, slots=True)
class PowerFigures:
    """One power's figures over all the games."""

    power: str
    name: str
    solo_wins: int
    #: solo wins over games
    win_rate: float
    #: drawn games it shared
    draws: int
    #: draws shared over drawn games (0 when no game was drawn)
    draw_share: float
    eliminated: int
    #: eliminations over games
    elimination_rate: float
    #: the mean year it was eliminated, in the games where it was
    mean_elimination_year: float | None
    centres_start: int
    #: checkpoint year -> mean centres at the end of that year
    centres_at: dict[int, float]
    #: mean centres at the end of the games
    centres_end: float
    #: mean sum-of-squares score times the number of powers: 1.0 is a fair share
    balance: float
    #: its units never able to move, over all the games
    never_moved: int


@dataclass(frozen=True, slots=True)
class Lengths:
    """How long the games were, in years (first and last both counted) and phases."""

    mean_years: float
    median_years: float
    min_years: int
    max_years: int
    mean_phases: float


@dataclass(frozen=True, slots=True)
class StuckUnit:
    """A unit never able to move, as it stood, over the games where one did."""

    power: str
    unit: str
    #: games with such a unit there
    games: int
    #: such units (a game may have several, one after another)
    units: int
    #: the mean movement phases each stood through
    mean_movement_phases: float


@dataclass(frozen=True, slots=True)
class StuckPlace:
    """Where units stood without a legal move: unit-phases at one place."""

    power: str
    unit_type: str
    location: str
    #: games where it happened
    games: int
    #: movement phases, all games together, a unit stood there without a legal move
    unit_phases: int


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game, in brief (for the JSON and for a designer's own analysis)."""

    index: int
    end: str
    winner: str | None
    drawn: tuple[str, ...]
    last_year: int
    years: int
    phases: int
    centres_end: dict[str, int]
    eliminated: dict[str, int]
    never_moved: int
    refused: int


@dataclass(frozen=True, slots=True)
class RunFigures:
    """How the run went (the only figures that differ between two runs)."""

    seconds: float
    phases: int
    phases_per_second: float
    workers: int
    build: str


@dataclass(frozen=True, slots=True)
class Report:
    """A playtest's balance report (see the module for every figure's meaning)."""

    variant: str
    title: str
    bot: str
    seed: int
    games: int
    first_year: int
    max_year: int
    supply_centres: int
    #: end -> games (:data:`ENDS`)
    ends: dict[str, int]
    lengths: Lengths
    checkpoints: tuple[int, ...]
    powers: tuple[PowerFigures, ...]
    #: power -> mean centres at the end of each year, ``first_year`` to ``max_year``
    centres_by_year: dict[str, tuple[float, ...]]
    #: power -> year -> solo wins that year
    wins_by_year: dict[str, dict[int, int]]
    never_moved: tuple[StuckUnit, ...]
    stuck: tuple[StuckPlace, ...]
    #: order sets the rules refused the bot, all games together (the bots'
    #: contract says none: more than 0 is a bot's bug, or the variant's)
    refused: int
    played: tuple[GameLine, ...]
    run: RunFigures

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (years as keys become strings in JSON)."""
        return asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)


def checkpoints(first: int, last: int, every: int) -> tuple[int, ...]:
    """The checkpoint years: every ``every`` years counting ``first`` as the
    first (1905, 1910... for a Standard game from 1901 with 5), and ``last``."""
    years = list(range(first + every - 1, last + 1, every))
    if not years or years[-1] != last:
        years.append(last)
    return tuple(years)


def summarise(settings: Playtest, variant: Variant, games: Sequence[GameSummary],
              seconds: float, workers: int) -> Report:
    """The report of ``games`` (each game once; any order)."""
    played = sorted(games, key=lambda g: g.index)
    if not played:
        raise ValueError("a report needs at least one game")
    powers = list(variant.powers)
    first = Position.initial(variant).phase.year
    years = list(range(first, settings.max_year + 1))
    start = Position.initial(variant).centre_counts()
    ends = {e: sum(g.end == e for g in played) for e in ENDS}
    n = len(played)
    series = {p: [_centres(g, p, years) for g in played] for p in powers}
    by_year = {p: tuple(statistics.fmean(s[i] for s in series[p]) for i in range(len(years)))
               for p in powers}
    marks = checkpoints(first, settings.max_year, settings.every)
    balance = _balance(played, powers)
    figures = []
    for p in powers:
        wins = sum(g.winner == p for g in played)
        draws = sum(p in g.drawn for g in played if g.end == "draw")
        gone = [g.eliminated[p] for g in played if p in g.eliminated]
        figures.append(PowerFigures(
            p, variant.powers[p].name, wins, wins / n, draws,
            draws / ends["draw"] if ends["draw"] else 0.0, len(gone), len(gone) / n,
            statistics.fmean(gone) if gone else None, start.get(p, 0),
            {y: by_year[p][y - first] for y in marks},
            statistics.fmean(g.centres[p][-1] if g.centres[p] else 0 for g in played),
            balance[p], sum(u.power == p for g in played for u in g.never_moved)))
    wins_by_year: dict[str, dict[int, int]] = {}
    for g in played:
        if g.winner is not None:
            years_won = wins_by_year.setdefault(g.winner, {})
            years_won[g.last_year] = years_won.get(g.last_year, 0) + 1
    lengths = [g.years for g in played]
    phases = sum(g.phases for g in played)
    return Report(
        variant.name, variant.title, settings.bot, settings.seed, n, first, settings.max_year,
        len(variant.supply_centres), ends,
        Lengths(statistics.fmean(lengths), statistics.median(lengths), min(lengths),
                max(lengths), statistics.fmean(g.phases for g in played)),
        marks, tuple(figures), by_year, wins_by_year, _never_moved(played), _stuck(played),
        sum(g.refused for g in played),
        tuple(GameLine(g.index, g.end, g.winner, g.drawn, g.last_year, g.years, g.phases,
                       {p: g.centres[p][-1] if g.centres[p] else 0 for p in powers},
                       dict(g.eliminated), len(g.never_moved), g.refused) for g in played),
        RunFigures(seconds, phases, phases / seconds if seconds > 0 else 0.0, workers, BUILD))


def _centres(game: GameSummary, power: str, years: Sequence[int]) -> list[int]:
    """A power's centres at the end of each of ``years``, the final count carried
    on past the game's end."""
    held = game.centres[power]
    return [held[min(y - game.first_year, len(held) - 1)] if held else 0 for y in years]


def _balance(games: Sequence[GameSummary], powers: Sequence[str]) -> dict[str, float]:
    """Mean sum-of-squares score per power, times the number of powers."""
    totals = dict.fromkeys(powers, 0.0)
    for g in games:
        for p, score in _scores(g, powers).items():
            totals[p] += score
    return {p: totals[p] / len(games) * len(powers) for p in powers}


def _scores(game: GameSummary, powers: Sequence[str]) -> Mapping[str, float]:
    if game.winner is not None:
        return {p: 1.0 if p == game.winner else 0.0 for p in powers}
    strength = {p: game.centres[p][-1] if game.centres[p] else 0 for p in powers}
    if not any(strength.values()):
        strength = {p: game.units.get(p, 0) for p in powers}
    total = sum(s * s for s in strength.values())
    return {p: strength[p] ** 2 / total if total else 0.0 for p in powers}


def _never_moved(games: Sequence[GameSummary]) -> tuple[StuckUnit, ...]:
    found: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for g in games:
        for u in g.never_moved:
            found.setdefault((u.power, u.unit), []).append((g.index, u.movement_phases))
    rows = [StuckUnit(power, unit, len({i for i, _ in seen}), len(seen),
                      statistics.fmean(m for _, m in seen))
            for (power, unit), seen in found.items()]
    return tuple(sorted(rows, key=lambda r: (-r.units, r.power, r.unit)))


def _stuck(games: Sequence[GameSummary]) -> tuple[StuckPlace, ...]:
    found: dict[tuple[str, str, str], list[int]] = {}
    for g in games:
        for place, phases in g.stuck.items():
            found.setdefault(place, []).append(phases)
    rows = [StuckPlace(power, kind, location, len(seen), sum(seen))
            for (power, kind, location), seen in found.items()]
    return tuple(sorted(rows, key=lambda r: (-r.unit_phases, r.power, r.location)))
