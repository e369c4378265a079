"""How many event streams a server process holds open, in all and per account.

A stream (``GET .../events``) stays open for as long as its reader wants, and
each one costs a look at the database every ``events_interval`` seconds; so one
account must not open thousands. The gate is per process (each of ``--workers N``
has its own), checked before a stream starts (429 with ``Retry-After``).
"""

from __future__ import annotations

import threading
from collections import Counter

from .errors import ApiError


class Place:
    """One stream's place, given back once however many times it is let go (when the
    stream's generator ends, and again when the response is done)."""

    def __init__(self, gate: StreamGate, user_id: int) -> None:
        self._gate, self._user_id = gate, user_id
        self._held = True

    def release(self) -> None:
        if self._held:
            self._held = False
            self._gate.give_back(self._user_id)


class StreamGate:
    """Places for streams: :meth:`take` one (429 when full), release it when done."""

    def __init__(self, most: int, per_account: int) -> None:
        self.most = most
        self.per_account = per_account
        self._open: Counter[int] = Counter()
        self._lock = threading.Lock()

    def take(self, user_id: int) -> Place:
        with self._lock:
            if sum(self._open.values()) >= self.most:
                raise ApiError(429, "this server follows as many games as it can; read "
                                    "GET /api/v1/games/{id} meanwhile", {"Retry-After": "30"})
            if self._open[user_id] >= self.per_account:
                raise ApiError(429, f"an account may follow at most {self.per_account} "
                                    "event streams at once: close one first",
                               {"Retry-After": "30"})
            self._open[user_id] += 1
        return Place(self, user_id)

    def give_back(self, user_id: int) -> None:
        with self._lock:
            self._open[user_id] -= 1
            if self._open[user_id] <= 0:
                del self._open[user_id]

    def held(self) -> int:
        with self._lock:
            return sum(self._open.values())
