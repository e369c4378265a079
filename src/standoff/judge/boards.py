"""Planning boards: a private copy of a position, played step by step by one person.

Backstabbr's sandbox, with our engine: from any phase of a game the owner may
see (or any variant's start), a board where its owner moves any unit of any
power, orders for everyone, adjudicates with the real rules, steps back and
forward, and shares a link. Nothing of it reaches the game: a board copies a
*position* (public: the units on the map) and never reads pending orders.

A board keeps its steps (each the engine's state without history), the orders
given at each step and what they came to. Adjudicating at an earlier step, or
moving units there, drops the steps after it, as an editor's undo does. Each
account keeps at most ``boards_per_account`` boards (the oldest goes) of at most
``board_steps_max`` steps: a board is bounded in size like everything else.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .auth import Caller
from .context import Judge
from .errors import ApiError, conflict, forbidden, invalid, not_found
from .models import BoardRow
from .rules import Rules


def get_board(s: Session, key: str) -> BoardRow:
    """The board whose link holds ``key`` (404 for any other: keys are not guessed)."""
    board = s.scalars(select(BoardRow).where(BoardRow.key == key)).first()
    if board is None:
        raise not_found("there is no board at that link")
    return board


def own_board(s: Session, key: str, user_id: int) -> BoardRow:
    """The board, for a change its owner alone may make (403 for anyone else)."""
    board = s.scalars(select(BoardRow).where(BoardRow.key == key)
                      .with_for_update()).first()
    if board is None:
        raise not_found("there is no board at that link")
    if board.owner_id != user_id:
        raise forbidden("only the owner of a board changes it: make your own from it "
                        "(POST /api/v1/boards {\"board\": KEY})")
    return board


def make_board(s: Session, j: Judge, who: Caller, title: str, variant: str,
               text: str | None, sha256: str | None, state: dict[str, Any],
               now: datetime) -> BoardRow:
    """A new board of the caller's from ``state``; their oldest goes beyond the limit."""
    mine = list(s.scalars(select(BoardRow.id).where(BoardRow.owner_id == who.user_id)
                          .order_by(BoardRow.updated_at.desc(), BoardRow.id.desc())))
    keep = max(j.settings.boards_per_account - 1, 0)
    if len(mine) > keep:
        s.execute(delete(BoardRow).where(BoardRow.id.in_(mine[keep:])))
    board = BoardRow(key=secrets.token_urlsafe(16), owner_id=who.user_id, title=title[:200],
                     variant=variant, variant_file=text, variant_sha256=sha256,
                     steps=[state], orders=[{}], results=[[]], at=0, created_at=now,
                     updated_at=now)
    s.add(board)
    s.flush()
    return board


def _cut(board: BoardRow) -> None:
    """Drop the steps after the one shown (a change there starts a new future)."""
    n = board.at + 1
    board.steps, board.orders, board.results = board.steps[:n], board.orders[:n], \
        board.results[:n]


def set_orders(board: BoardRow, rules: Rules, orders: dict[str, list[str]],
               merge: bool = False) -> None:
    """Replace the orders of each power named, at the step shown, or with ``merge`` add
    them to the power's, each replacing its unit's earlier order: the engine's rule
    (``Rules.check_orders``, as a game's ``PUT .../orders``), so a page never decides
    which order another replaces. Checked by the rules, all or nothing: 400
    unreadable, 422 illegal, naming the power."""
    state = board.steps[board.at]
    given = dict(board.orders[board.at])
    for text, texts in orders.items():
        power = rules.power_id(text)
        try:
            given[power] = rules.check_orders(
                state, power, texts, [str(o) for o in given.get(power, [])] if merge else None)
        except ApiError as exc:
            raise ApiError(exc.status, f"{rules.power_names.get(power, power)}: {exc.detail}",
                           **exc.extra) from exc
        if not given[power]:
            del given[power]
    _cut(board)
    board.orders = [*board.orders[:-1], given]
    board.results = [*board.results[:-1], []]


def set_units(board: BoardRow, rules: Rules, units: dict[str, list[str]],
              centres: dict[str, list[str]] | None) -> None:
    """Put the units (and, if given, the centres) where the owner says, at the step
    shown: the rules read the position back (422 with their reason if it is none);
    the step's orders go, and the steps after it."""
    state = board.steps[board.at]
    position = {**state["position"], "units": units}
    if centres is not None:
        position["centres"] = centres
    checked = rules.checked_state({**state, "position": position, "outcome": None})
    _cut(board)
    board.steps = [*board.steps[:-1], checked]
    board.orders = [*board.orders[:-1], {}]
    board.results = [*board.results[:-1], []]


def adjudicate(board: BoardRow, rules: Rules, most: int) -> None:
    """Adjudicate the step shown with its orders (powers without orders in civil
    disorder) and show the next step."""
    if board.steps[board.at].get("outcome"):
        raise conflict("the game on this board is over: step back to play on")
    if board.at + 2 > most:
        raise conflict(f"a board keeps at most {most} steps: make a new one from this step")
    done = rules.process(board.steps[board.at], board.orders[board.at])
    _cut(board)
    board.orders = [*board.orders[:-1], done.record["orders"]]
    board.results = [*board.results[:-1], done.record["results"]]
    board.steps = [*board.steps, done.state]
    board.orders = [*board.orders, {}]
    board.results = [*board.results, []]
    board.at += 1


def go_to(board: BoardRow, step: int) -> None:
    if not 0 <= step < len(board.steps):
        raise invalid(f"this board has steps 0 to {len(board.steps) - 1}")
    board.at = step
