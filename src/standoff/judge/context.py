"""What every request handler needs: the settings, the database, the scheduler.

One :class:`Judge` per app (``app.state.judge``), handed to routes by the
``judge`` dependency, so routes never reach for globals and a test can run
several apps (or several databases) in one process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi import Request

from .db import Database
from .settings import Settings


@dataclass
class Judge:
    settings: Settings
    db: Database
    #: called when a phase became due now (all ready, master forced it): wakes the
    #: scheduler so it does not wait for its next look
    wake: Callable[[], None] = field(default=lambda: None)


def judge(request: Request) -> Judge:
    found: Judge = request.app.state.judge
    return found
