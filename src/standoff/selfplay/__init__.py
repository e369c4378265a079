"""Random self-play at scale: many games over many processes, stored as JSON lines.

The adapter behind ``standoff selfplay``. A run's settings are one
:class:`SelfPlay` value (:func:`plan` checks them); its games are shared out
in batches (:class:`standoff.GameBatch`, the core's batch API) to worker
processes on this machine (:func:`run_local`, multiprocessing) or to Ray tasks
(:func:`run_ray`, the ``standoff[ray]`` extra), which send back each finished
game's summary and JSON line (:mod:`standoff.selfplay.games`). Every game is
seeded from the run's seed and its own index, so the games are the same
whatever the number of workers, and each stored line can be played again
(:func:`replay`).
"""

from .games import BatchResult, PlayedGame, entry, play_batch, replay, stored_game
from .local import run_local
from .on_ray import run_ray
from .plan import DEFAULT_YEARS, SelfPlay, SelfPlayError, plan

__all__ = ["DEFAULT_YEARS", "BatchResult", "PlayedGame", "SelfPlay", "SelfPlayError", "entry",
           "plan", "play_batch", "replay", "run_local", "run_ray", "stored_game"]
