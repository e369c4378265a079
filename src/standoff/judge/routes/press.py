"""Routes for press: messages between the powers of a game, read markers, unread counts.

Who may write and read what, the messages' ids and the conversations are
``press.py`` (the rules) and ``press_access.py`` (who reads which message); a
route here reads or locks the game, calls them and answers. Writing a message
locks the game's row (``access.game_for_update``): the lock orders the game's
messages, so their numbers grow in commit order.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy.exc import IntegrityError

from .. import press
from ..access import game_for_update, get_game
from ..auth import CallerDep
from ..context import JudgeDep
from ..errors import ERROR_RESPONSES
from ..schemas import ConversationOut, GameId, MessageIn, MessageOut, ReadIn

router = APIRouter(prefix="/api/v1", tags=["press"], responses=ERROR_RESPONSES)


@router.post("/games/{game_id}/messages", status_code=201, response_model=MessageOut,
             response_model_by_alias=True)
def post_message(game_id: GameId, body: MessageIn, who: CallerDep, j: JudgeDep) -> MessageOut:
    """Send a message to some powers (a list: private or group press) or to ``"all"``
    (public press), as the game's press mode allows."""
    text = press.message_text(body.body, j.settings.press_max_chars)
    with j.db.write() as s:
        return press.post(s, j, game_for_update(s, game_id), who, body.to, text)


@router.get("/games/{game_id}/messages", response_model=list[MessageOut],
            response_model_by_alias=True)
def list_messages(
        game_id: GameId, who: CallerDep, j: JudgeDep,
        since: Annotated[int, Query(ge=0, le=2**31 - 1,
                                    description="only messages with a greater id")] = 0,
        conversation: Annotated[str | None, Query(max_length=600, description=(
            "only this conversation (\"all\", or powers joined by commas)"))] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 500) -> list[MessageOut]:
    """The messages the caller sent or received (and public ones), oldest first;
    each says whether it is unread by the caller."""
    with j.db.read() as s:
        return press.messages(s, get_game(s, game_id), who, since, conversation, limit)


@router.get("/games/{game_id}/conversations", response_model=list[ConversationOut])
def conversations(game_id: GameId, who: CallerDep, j: JudgeDep) -> list[ConversationOut]:
    """The caller's conversations in the game, latest first, with unread counts."""
    with j.db.read() as s:
        return press.conversations(s, get_game(s, game_id), who)


@router.post("/games/{game_id}/messages/read", response_model=list[ConversationOut])
def mark_read(game_id: GameId, body: ReadIn, who: CallerDep, j: JudgeDep
              ) -> list[ConversationOut]:
    """Mark a conversation (or, without one, every conversation) read up to a message
    id (default: its latest). Markers only move forward. Answers the conversations
    with their new unread counts."""
    for attempt in range(3):
        try:
            with j.db.write() as s:
                return press.mark_read(s, get_game(s, game_id), who, body.conversation,
                                       body.up_to)
        except IntegrityError:  # two first markers at once (PostgreSQL): read again
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover
