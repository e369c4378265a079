"""A worker's job: play a batch of games, and the JSON line each game is stored as.

:func:`play_batch` is what runs in a worker process (multiprocessing or Ray):
a plain top-level function of plain values, so it pickles under ``spawn`` and
ships to a Ray cluster. It plays random games with :class:`standoff.GameBatch`,
or, when the run names a bot, each game with that bot at every power
(:mod:`standoff.selfplay.with_bots`: the bot loaded by name in the worker,
seeded per game), and sends back each game's summary and, unless only counts
are wanted (a benchmark), its JSON line, made in the worker so the parent only
writes.

One line per game::

    {"index": 7, "seed": 1, "variant": "standard", "max_year": 1920,
     "move_bias": 0.7, "bot": null, "phases": 84, "end": "draw", "winner": null,
     "game": {...GameRecord.to_dict()...}}

``end`` is ``"win"`` (the victory rule's winner), ``"no_winner"`` (the
victory rule ended it with nobody), ``"draw"`` (stopped at ``max_year``, a
draw shared by the survivors) or ``"cap"`` (stopped at ``max_year`` with a
lone survivor short of victory). ``index`` and the settings beside it are
enough to play the game again (:func:`replay`); ``bot`` is the bot that played
every power (``move_bias`` then plays no part), or null for random orders;
``game`` is the whole record,
read back by :func:`standoff.GameRecord.from_dict` (:func:`stored_game`).
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from standoff import GameRecord, game_rng

from .plan import SelfPlay
from .with_bots import BotGame, bot_seed, every_seat, load_bot, play

#: the cyclic collector's thresholds in a worker (CPython's default: 700, 10, 10)
WORKER_GC_THRESHOLDS = (200_000, 20, 100)


def tune_worker_gc() -> None:
    """Make a worker process's garbage collector run less often.

    Random self-play allocates a great many short-lived values and almost no
    reference cycles, so the default collector mostly scans live game
    records for nothing: freezing what the worker loaded (the variant, the
    map's tables) and collecting the youngest objects every 50,000
    allocations instead of every 700 gave 8-12% more phases per second
    (compiled core, measured on a busy shared machine), and every 200,000
    another 4-5% (10,550 -> 11,030 phases per CPU-second over three runs each,
    the same peak memory: a game's records die with its batch, and self-play
    makes no reference cycles for the collector to find). Only for worker
    processes: this is a process-wide setting, not the caller's to have
    changed for it."""
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game, as a worker reports it."""

    index: int
    phases: int
    #: "win", "no_winner", "draw" or "cap" (see the module's description)
    end: str
    winner: str | None
    #: the game's JSON line (no newline), or None when only counts were asked for
    line: str | None
    #: order sets the core refused a bot (those powers sent nothing that phase)
    refused: int = 0


@dataclass(frozen=True, slots=True)
class BatchResult:
    """A worker's answer for one batch."""

    games: tuple[PlayedGame, ...]
    #: the time the worker spent playing and writing the batch (wall clock)
    seconds: float
    #: the processor time it spent on it (on a busy machine, less than ``seconds``)
    cpu_seconds: float

    @property
    def phases(self) -> int:
        return sum(g.phases for g in self.games)


def play_batch(settings: SelfPlay, first: int, count: int, keep: bool = True) -> BatchResult:
    """Play games ``first`` .. ``first + count - 1`` of the run to their end."""
    if settings.bot is not None:
        return _play_bots(settings, first, count, keep)
    start, cpu = time.perf_counter(), time.process_time()
    batch = settings.new_batch(count)
    rngs = [game_rng(settings.seed, first + k) for k in range(count)]
    batch.play_random(rngs, settings.move_bias)
    games = []
    for k in range(count):
        record = batch.record(k)
        end = _end(record, batch.capped(k))
        line = json.dumps(entry(settings, first + k, record, end), separators=(",", ":")) \
            if keep else None
        games.append(PlayedGame(first + k, len(record.history), end, record.winner, line))
    return BatchResult(tuple(games), time.perf_counter() - start, time.process_time() - cpu)


def _play_bots(settings: SelfPlay, first: int, count: int, keep: bool) -> BatchResult:
    """The batch's games one after another, the run's bot at every power."""
    assert settings.bot is not None
    start, cpu = time.perf_counter(), time.process_time()
    games = []
    for index in range(first, first + count):
        played = _bot_game(settings, index)
        record = played.record
        line = json.dumps(entry(settings, index, record, played.end), separators=(",", ":")) \
            if keep else None
        games.append(PlayedGame(index, played.phases, played.end, record.winner, line,
                                len(played.refused)))
    return BatchResult(tuple(games), time.perf_counter() - start, time.process_time() - cpu)


def _bot_game(settings: SelfPlay, index: int) -> BotGame:
    assert settings.bot is not None
    bot = load_bot(settings.bot, bot_seed(settings.seed, index))
    start = settings.new_batch(1).record(0)
    return play(start, every_seat(start, bot), settings.max_year)


def _end(record: GameRecord, capped: bool) -> str:
    if capped:
        return "draw" if record.draw is not None else "cap"
    return "win" if record.winner is not None else "no_winner"


def entry(settings: SelfPlay, index: int, record: GameRecord, end: str) -> dict[str, Any]:
    """The stored form of one game (see the module's description)."""
    return {"index": index, "seed": settings.seed, "variant": settings.variant,
            "max_year": settings.max_year, "move_bias": settings.move_bias,
            "bot": settings.bot, "phases": len(record.history), "end": end, "winner": record.winner,
            "game": record.to_dict()}


def stored_game(data: Mapping[str, Any]) -> GameRecord:
    """The game a line holds, read back as a record."""
    return GameRecord.from_dict(dict(data["game"]))


def replay(data: Mapping[str, Any]) -> GameRecord:
    """Play a stored game again from its seed and index: the same record."""
    bot = data.get("bot")
    settings = SelfPlay(int(data["index"]) + 1, str(data["variant"]), int(data["seed"]),
                        int(data["max_year"]), float(data["move_bias"]), 1,
                        None if bot is None else str(bot))
    index = int(data["index"])
    if settings.bot is not None:
        return _bot_game(settings, index).record
    batch = settings.new_batch(1)
    batch.play_random([game_rng(settings.seed, index)], settings.move_bias)
    return batch.record(0)
