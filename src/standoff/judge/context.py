"""What every request handler needs: the settings, the database, the scheduler, and
the listeners of the judge's events.

One :class:`Judge` per app (``app.state.judge``), handed to routes by the
``judge`` dependency, so routes never reach for globals and a test can run
several apps (or several databases) in one process: each has its own variant
registry (``variants``), so the designers' variants of one never meet another's.

Events are told after their transaction has committed, in the process that made
them happen: ``game_started`` (a game's last seat was taken), ``phase_processed``
(``turn``, ``phase``: the phase just processed) and ``game_finished``
(``outcome``). They are for side effects such as e-mail; a listener's failure is
logged and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from .db import Database
from .memo import TurnMemo
from .settings import Settings
from .streams import StreamGate
from .variants import VariantStore

log = logging.getLogger("standoff.judge")

Listener = Callable[[str, int, dict[str, Any]], None]


@dataclass
class Judge:
    settings: Settings
    db: Database
    #: called when a phase became due now (all ready, master forced it): wakes the
    #: scheduler so it does not wait for its next look
    wake: Callable[[], None] = field(default=lambda: None)
    #: called as ``listener(event, game_id, data)`` after each event
    listeners: list[Listener] = field(default_factory=list)
    #: the judge's own variant registry: each game's rules, from the game itself
    variants: VariantStore = field(init=False)
    #: the event streams this process holds open (GET .../events)
    streams: StreamGate = field(init=False)
    #: each Winter turn's builds and removals, worked out once (``game_view``)
    adjustments: TurnMemo[dict[str, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.variants = VariantStore(self.settings)
        self.streams = StreamGate(self.settings.event_streams_max,
                                  self.settings.event_streams_per_account)
        self.adjustments = TurnMemo()

    def notify(self, event: str, game_id: int, **data: Any) -> None:
        for listener in self.listeners:
            try:
                listener(event, game_id, data)
            except Exception:
                log.exception("a listener failed on %s of game %s", event, game_id)


async def judge(request: Request) -> Judge:
    """The app's Judge. ``async`` (it does no I/O): FastAPI runs a plain ``def``
    dependency in a worker thread, one thread hop per request for nothing."""
    found: Judge = request.app.state.judge
    return found


#: a route's parameter for the app's Judge (declared once for every router)
JudgeDep = Annotated[Judge, Depends(judge)]
