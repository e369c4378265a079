"""Bot workers: threads that take bot jobs from the database and give the bots' orders.

``standoff serve`` runs ``bot_workers`` of them (default 1) beside its scheduler;
``standoff worker`` runs them alone, on this machine or another sharing the
PostgreSQL database, so a judge with many bot games scales by adding workers.
Each worker loops: claim a game's jobs for a phase (``bot_jobs.claim``), read the
game, ask each bot in its own bounded child process (``bot_runner``), renewing
the jobs' lease before each (``bot_jobs.renew``), check the orders with the rules
(a bot's illegal order fails its job like any other failure), and finish the jobs
(``bot_jobs.finish``); when that made the phase due, process it at once. Between
jobs it waits for a wake-up (a phase opened in this process) or the poll
interval (a phase opened elsewhere).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from . import bot_jobs
from .bot_runner import BotFailed, BotGame, BotRequest, BotRunner
from .context import Judge
from .errors import ApiError
from .models import GameRow
from .processing import process_phase
from .rules import Rules
from .variants import VariantUnavailable

log = logging.getLogger("standoff.judge")

#: the events after which a job may be waiting
WAKING_EVENTS = frozenset({"game_started", "phase_processed", "bots_queued"})


def bot_seed(game_id: int, turn: int, power: str) -> int:
    """A bot's seed for one seat and phase: the same however often it is asked
    (a reclaimed job gives the same orders), different for every seat and phase."""
    digest = hashlib.sha256(f"{game_id}:{turn}:{power}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class BotWorker:
    """``threads`` workers in this process, started and stopped together."""

    def __init__(self, judge: Judge, threads: int) -> None:
        self.judge = judge
        self.threads = threads
        self._stop = threading.Event()
        self._wake = threading.Condition()
        self._pending_wake = False
        self._threads: list[threading.Thread] = []
        #: jobs this process finished and failed (the benchmarks and tests read them)
        self.done = 0
        self.failed = 0

    def on_event(self, event: str, game_id: int, data: dict[str, Any]) -> None:
        """A judge listener: a phase opened here, so a job may be waiting."""
        if event in WAKING_EVENTS:
            self.wake()

    def wake(self) -> None:
        with self._wake:
            self._pending_wake = True
            self._wake.notify_all()

    def start(self) -> None:
        for n in range(self.threads):
            thread = threading.Thread(target=self._run, name=f"standoff-bot-worker-{n}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        self.wake()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []

    def _run(self) -> None:
        cfg = self.judge.settings
        runner = BotRunner(seconds=cfg.bot_seconds, memory_mib=cfg.bot_memory_mib,
                           prepare_seconds=cfg.bot_prepare_seconds)
        try:
            while not self._stop.is_set():
                try:
                    worked = self.work_one(runner)
                except SQLAlchemyError as exc:
                    log.error("a bot worker's database work failed (%s); trying again",
                              str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
                    worked = False
                except Exception:
                    log.exception("a bot worker failed; going on")
                    worked = False
                if not worked:
                    self._idle()
        finally:
            runner.close()

    def _idle(self) -> None:
        with self._wake:
            if not self._pending_wake:
                self._wake.wait(self.judge.settings.poll_interval)
            self._pending_wake = False

    def work_one(self, runner: BotRunner) -> bool:
        """Take the next jobs (one game's phase) and see them through; False when
        there were none. The game is read once for all of them (they share it)."""
        j = self.judge
        jobs = bot_jobs.claim(j)
        if not jobs:
            return False
        game = self._game(jobs[0])
        outcomes = []
        for n, job in enumerate(jobs):
            # the whole batch is renewed: the jobs done are stored only at the end
            if n and game is not None and job.id not in bot_jobs.renew(j, jobs):
                continue  # this worker stalled and another took the job
            started = time.monotonic()
            orders: list[str] | None = None
            error = bot_jobs.given_up(job)
            if error is None and game is not None:
                try:
                    orders = self._orders(job, game, runner)
                except BotFailed as exc:
                    error = str(exc)
            outcomes.append(bot_jobs.JobOutcome(job, orders, error, time.monotonic() - started))
            if error is None:
                self.done += 1
            else:
                self.failed += 1
        if bot_jobs.finish(j, outcomes):
            process_phase(j, jobs[0].game_id, jobs[0].turn)
            j.wake()
        return True

    def _game(self, job: bot_jobs.Claimed) -> _Game | None:
        """What the jobs' bots are asked about: the game's variant, state and rules;
        None when the game moved on (the jobs finish as stale)."""
        j = self.judge
        with j.db.read() as s:
            game = s.get(GameRow, job.game_id)
            if game is None or game.status != "active" or game.turn != job.turn:
                return None
            try:
                rules: Rules | VariantUnavailable = j.variants.rules(game)
            except VariantUnavailable as exc:
                rules = exc
            return _Game(BotGame(game.variant, game.variant_file, game.variant_sha256,
                                 game.state), rules)

    def _orders(self, job: bot_jobs.Claimed, game: _Game, runner: BotRunner) -> list[str]:
        """The bot's checked, canonical orders; :class:`BotFailed` when the bot gave
        none usable."""
        if isinstance(game.rules, VariantUnavailable):
            raise BotFailed(str(game.rules))
        request = BotRequest(game=game.bot_game, power=job.power, bot=job.bot,
                             seed=bot_seed(job.game_id, job.turn, job.power))
        given = runner.orders(request)
        try:
            return game.rules.check_orders(game.bot_game.state, job.power, given)
        except ApiError as exc:
            raise BotFailed(f"the bot gave an order the rules refuse: {exc.detail}") from exc


@dataclass(frozen=True, slots=True)
class _Game:
    """The game a batch of jobs is about, read once: what its bots are sent, and the
    rules that check what they answer."""

    bot_game: BotGame
    rules: Rules | VariantUnavailable
