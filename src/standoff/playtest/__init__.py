"""Playtests for variant designers: many games played by a bot, and a balance report.

The adapter behind ``standoff playtest``. A playtest's settings are one
:class:`Playtest` value (:func:`plan` checks them: a bundled variant or a
designer's ``.toml`` file, the bot, the seed, the last year); its games are
played by the bot at every power (:mod:`standoff.playtest.games`, over
self-play's loop and worker pool: :mod:`standoff.selfplay`), each summed up as
it goes (centres at each year's end, eliminations, units that could never
move: :mod:`standoff.playtest.units`), and the summaries make one
:class:`Report` (:mod:`standoff.playtest.report`, where every figure is
defined), which the command shows as a table, writes as JSON, and draws as a
PNG (:func:`write_plot`, the ``plot`` extra).

    >>> from standoff.playtest import plan, playtest
    >>> report = playtest(plan("standard", games=2, max_year=1902))
    >>> report.games, sum(report.ends.values()), report.ends["draw"]
    (2, 2, 2)
    >>> [p.name for p in report.powers][:3]
    ['Austria', 'England', 'France']

A pure-Python wing over the public API; Matplotlib only for the picture.
"""

from .games import GameSummary, play_game
from .plot import check_plotting, write_plot
from .report import (
           ENDS,
           GameLine,
           Lengths,
           PowerFigures,
           Report,
           RunFigures,
           StuckPlace,
           StuckUnit,
           checkpoints,
           summarise,
)
from .runner import games, playtest
from .settings import DEFAULT_BOT, DEFAULT_EVERY, DEFAULT_YEARS, Playtest, PlaytestError, plan
from .units import NeverMoved, UnitTracker

__all__ = ["DEFAULT_BOT", "DEFAULT_EVERY", "DEFAULT_YEARS", "ENDS", "GameLine", "GameSummary",
           "Lengths", "NeverMoved", "Playtest", "PlaytestError", "PowerFigures", "Report",
           "RunFigures", "StuckPlace", "StuckUnit", "UnitTracker", "check_plotting",
           "checkpoints", "games", "plan", "play_game", "playtest", "summarise", "write_plot"]
