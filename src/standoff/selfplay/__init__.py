"""Self-play at scale: many games over many processes, stored as JSON lines.

The adapter behind ``standoff selfplay``. A run's settings are one
:class:`SelfPlay` value (:func:`plan` checks them); its games are shared out
in batches (:class:`standoff.GameBatch`, the core's batch API) to worker
processes on this machine (:func:`run_local`, multiprocessing) or to Ray tasks
(:func:`run_ray`, the ``standoff[ray]`` extra), which send back each finished
game's summary and JSON line (:mod:`standoff.selfplay.games`). Every game is
seeded from the run's seed and its own index, so the games are the same
whatever the number of workers, and each stored line can be played again
(:func:`replay`). Games are random (one random legal order per unit) unless
the run names a bot to play every power (:mod:`standoff.selfplay.with_bots`,
the loop every front end that seats bots shares); :func:`run_jobs` shares any
such work among worker processes (``standoff playtest`` uses it).
"""

from .games import BatchResult, PlayedGame, entry, play_batch, replay, stored_game
from .local import run_jobs, run_local
from .on_ray import run_ray
from .plan import DEFAULT_YEARS, SelfPlay, SelfPlayError, check_bot, plan
from .with_bots import BotGame, Player, Refusal, bot_seed, every_seat, load_bot

__all__ = ["DEFAULT_YEARS", "BatchResult", "BotGame", "PlayedGame", "Player", "Refusal",
           "SelfPlay", "SelfPlayError", "bot_seed", "check_bot", "entry", "every_seat",
           "load_bot", "plan", "play_batch", "replay", "run_jobs", "run_local", "run_ray",
           "stored_game"]
