"""Who may read which press: one answer, used by the press routes and the event stream.

A message is seen by its sender and its recipients, named by power, and public
messages by everyone in the game. A power's press belongs to the power, not to
the account that played it then: a replacement reads everything the power sent
and received before them, and the player they replaced reads none of it any more.
The master playing no power reads public press and their own notices.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from .auth import Caller
from .models import Message, MessageRead, MessageRecipient


def visible_press(game_id: int, who: Caller, power: str | None) -> ColumnElement[bool]:
    """The messages of the game the caller (playing ``power``, or None: its master
    playing none) may read."""
    cond: ColumnElement[bool] = Message.public.is_(True) | _sent_by(who, power)
    if power is not None:
        cond = cond | Message.id.in_(select(MessageRecipient.message_id).where(
            MessageRecipient.game_id == game_id, MessageRecipient.power == power))
    return (Message.game_id == game_id) & cond


def _sent_by(who: Caller, power: str | None) -> ColumnElement[bool]:
    """Messages the caller's side sent: its power's, or (the master playing none) the
    master's own."""
    if power is not None:
        return Message.sender_power == power
    return Message.sender_power.is_(None) & (Message.sender_id == who.user_id)


def is_mine(sender_power: str | None, sender_id: int, who: Caller, power: str | None) -> bool:
    """Did the caller's side send this message (so it is never unread to them)?"""
    return sender_power == power if power is not None else (
        sender_power is None and sender_id == who.user_id)


def unread_count(s: Session, game_id: int, who: Caller, power: str | None) -> int:
    """How many messages of the game the caller may read and has not (their read
    marker per conversation; their own side's messages are never unread)."""
    reads = {c: n for c, n in s.execute(select(MessageRead.conversation,
                                               MessageRead.last_read_id)
                                        .where(MessageRead.game_id == game_id,
                                               MessageRead.user_id == who.user_id))}
    rows = s.execute(select(Message.number, Message.conversation, Message.sender_power,
                            Message.sender_id).where(visible_press(game_id, who, power)))
    return sum(1 for number, key, sender_power, sender_id in rows
               if not is_mine(sender_power, sender_id, who, power)
               and number > reads.get(key, 0))
