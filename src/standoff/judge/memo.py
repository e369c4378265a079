"""A small memo of what a game's turn always gives the same answer to.

A turn's position never changes while the turn lasts, yet a running judge asks the
same question of it again and again: every open event stream asks for its reader's
view of the game once a second, and in a Winter that view carries each power's
builds and removals, which the rules work out from the whole position. The answer is
kept here per (game id, turn), for the few hundred most recent turns, one memo per
judge (so two judges in one process, as the tests run them, never share answers).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")


class TurnMemo(Generic[V]):
    """Values by (game id, turn), the least recently used forgotten past ``most``;
    safe to share between threads."""

    def __init__(self, most: int = 512) -> None:
        self.most = most
        self._items: OrderedDict[tuple[int, int], V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, turn: int) -> V | None:
        with self._lock:
            found = self._items.get((game_id, turn))
            if found is not None:
                self._items.move_to_end((game_id, turn))
            return found

    def put(self, game_id: int, turn: int, value: V) -> None:
        with self._lock:
            self._items[(game_id, turn)] = value
            self._items.move_to_end((game_id, turn))
            while len(self._items) > self.most:
                self._items.popitem(last=False)
