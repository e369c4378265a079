"""A game's events for one reader, as a stream of server-sent events.

Pages, bots and scripts need not poll: ``GET /api/v1/games/{id}/events`` stays
open and says what changed, as it changes. The stream is made from what the
reader may already read and nothing else: every ``events_interval`` seconds it
takes the reader's own view of the game (``game_view.game_out``: the phase, the
clock, per power whether it has submitted and is ready, who plays it, never
orders) and the number of messages the reader may read (``press_access``), and
sends the differences:

* ``game``: the whole view, first (so a client starts from it) and whenever the
  game's status, clock or outcome changes (started, paused, extended, ended by a
  win or a vote);
* ``phase``: a phase was processed: ``{"turn", "phase", "status"}``;
* ``power``: one power's line changed (submitted, ready, a bot or a person now,
  on leave, open): ``{"power", ...}`` as in the view;
* ``press``: messages the reader may read arrived: ``{"new": n}`` (the messages
  themselves are read from ``GET .../messages``);
* ``end``: the reader may no longer see the game (``{"detail"}``), then the
  stream closes.

Looking at the database from each stream, whatever server process holds it,
works with any number of processes; the streams a process serves are bounded
(``event_streams_max``, ``event_streams_per_account``: 429 beyond), and each look
is one short read in a worker thread, never under a lock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from .access import get_game, require_view, seat_of, seats_of
from .auth import Caller
from .context import Judge
from .game_view import game_out
from .models import Message
from .press_access import visible_press

#: the view's fields whose change is a ``game`` event
GAME_FIELDS = ("status", "paused", "deadline", "remaining", "outcome", "set_aside")


@dataclass(frozen=True, slots=True)
class Look:
    """What the reader saw at one look: the view (JSON-ready) and the press count."""

    view: dict[str, Any]
    press: int


def look(j: Judge, game_id: int, who: Caller) -> Look:
    """The reader's view of the game now; 403/404 as ``GET /games/{id}`` answers."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        seats = seats_of(s, game_id)
        require_view(game, who, seats)
        mine = seat_of(seats, who.user_id)
        member = mine is not None or who.user_id == game.master_id
        view = game_out(s, game, who, j).model_dump(mode="json", by_alias=True)
        press = 0
        if member:
            power = mine.power if mine is not None else None
            press = int(s.scalar(select(func.count()).select_from(Message).where(
                visible_press(game_id, who, power))) or 0)
    return Look(view, press)


def changes(before: Look, after: Look) -> list[tuple[str, dict[str, Any]]]:
    """The events between two looks, in the order a client should apply them."""
    out: list[tuple[str, dict[str, Any]]] = []
    old, new = before.view, after.view
    if new["turn"] != old["turn"]:
        out.append(("phase", {"turn": new["turn"], "phase": new["phase"],
                              "status": new["status"]}))
    if any(new.get(k) != old.get(k) for k in GAME_FIELDS) or new["turn"] != old["turn"]:
        out.append(("game", new))
    for power, line in new["powers"].items():
        if old["powers"].get(power) != line:
            out.append(("power", {"power": power, **line}))
    if after.press > before.press:
        out.append(("press", {"new": after.press - before.press}))
    return out


def encode(kind: str, data: dict[str, Any], number: int) -> dict[str, str]:
    """One server-sent event (sse-starlette's dict)."""
    return {"event": kind, "data": json.dumps(data, separators=(",", ":")),
            "id": str(number)}
