"""One playtest game: played by the bot at every power, summed up as it goes.

:func:`play_game` is what a worker process runs (a top-level function of plain
values: it pickles under ``spawn``). It plays game ``index`` of the playtest
with the loop every front end that seats bots shares
(:func:`standoff.selfplay.with_bots.play`: the bot, loaded by name and seeded
from the playtest's seed and the game's index, asked at every power about the
same record each phase), and watches each processed phase:

* the centres each power holds at the end of each year (after the year's last
  phase: a Standard year's Winter adjustments; the final position, for the
  year a game ends in);
* the year each power leaves the game (no units, none dislodged, no centres);
* every unit, for the units never able to move (:mod:`standoff.playtest.units`),
  from the legal orders the bundled bots have just worked out for the same
  position (:func:`standoff.bots.legal_for` hands them over instead of working
  them out again).

What comes back is a :class:`GameSummary`: plain values, small, no record.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from standoff import GameRecord, PhaseKind, Position
from standoff.bots import legal_for
from standoff.selfplay import bot_seed, every_seat, load_bot
from standoff.selfplay.with_bots import play

from .settings import Playtest
from .units import NeverMoved, UnitTracker


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What the report needs of one game."""

    index: int
    #: "win" (the victory rule's winner), "draw" (stopped after ``max_year``, shared
    #: by the survivors), "no_winner" (the victory rule ended it with nobody, as
    #: Sahara's may) or "unfinished" (stopped after ``max_year`` with one survivor
    #: short of victory)
    end: str
    winner: str | None
    #: the powers sharing the draw (empty unless ``end == "draw"``)
    drawn: tuple[str, ...]
    first_year: int
    #: the year of the last phase played
    last_year: int
    phases: int
    #: power -> centres at the end of each year, ``first_year`` to ``last_year``
    centres: dict[str, tuple[int, ...]]
    #: power -> units at the end
    units: dict[str, int]
    #: power -> the year it left the game, for those that did
    eliminated: dict[str, int]
    never_moved: tuple[NeverMoved, ...]
    #: (power, unit type letter, location) -> movement phases a unit stood there
    #: without a legal move
    stuck: dict[tuple[str, str, str], int]
    #: order sets the rules refused the bot (the power sent nothing that phase)
    refused: int
    #: wall time to play it, in seconds
    seconds: float

    @property
    def years(self) -> int:
        """Years played, the first and the last counted."""
        return self.last_year - self.first_year + 1


def _alive(position: Position) -> set[str]:
    """Powers with units, dislodged units or centres."""
    return ({u.power for u in position.units} | {d.unit.power for d in position.dislodged}
            | set(position.centres.values()))


class _Watcher:
    """The per-phase observer: year-end centres, eliminations, units."""

    def __init__(self, start: GameRecord) -> None:
        self.powers = list(start.variant.powers)
        self.by_year: dict[int, dict[str, int]] = {}
        self.eliminated: dict[str, int] = {}
        self.alive = _alive(start.position) & set(self.powers)
        self.units = UnitTracker(frozenset(self.powers))
        self.units.start(start)

    def __call__(self, asked: GameRecord, after: GameRecord) -> None:
        position = asked.position
        legal = legal_for(asked) if position.phase.kind is PhaseKind.MOVEMENT else None
        self.units.observe(asked, after, legal)
        year = position.phase.year
        if after.position.phase.year != year or after.outcome is not None:
            self.by_year[year] = after.position.centre_counts()
        alive = _alive(after.position)
        for power in sorted(self.alive - alive):
            self.eliminated[power] = year
        self.alive &= alive


def play_game(settings: Playtest, index: int) -> GameSummary:
    """Game ``index`` of the playtest, played to its end and summed up."""
    start_time = time.perf_counter()
    start = GameRecord.new(settings.load())
    bot = load_bot(settings.bot, bot_seed(settings.seed, index))
    watch = _Watcher(start)
    played = play(start, every_seat(start, bot), settings.max_year, watch)
    record = played.record
    first = start.position.phase.year
    last = max(watch.by_year, default=first)
    centres: dict[str, tuple[int, ...]] = {}
    held = start.position.centre_counts()
    per_year: list[dict[str, int]] = []
    for year in range(first, last + 1):
        held = watch.by_year.get(year, held)  # (a year with no phase keeps the last count)
        per_year.append(held)
    for power in watch.powers:
        centres[power] = tuple(counts.get(power, 0) for counts in per_year)
    units = dict.fromkeys(watch.powers, 0)
    for unit in record.position.units:
        if unit.power in units:
            units[unit.power] += 1
    end = {"cap": "unfinished"}.get(played.end, played.end)
    drawn = tuple(record.draw) if record.draw is not None else ()
    return GameSummary(index, end, record.winner, drawn, first, last, played.phases, centres,
                       units, watch.eliminated, tuple(watch.units.never_moved()),
                       dict(watch.units.stuck), len(played.refused),
                       time.perf_counter() - start_time)


def play_job(job: tuple[Playtest, int]) -> GameSummary:
    """:func:`play_game` for the worker pool (one argument: the job)."""
    return play_game(*job)
