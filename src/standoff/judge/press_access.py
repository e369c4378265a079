"""Who may read which press: one answer, used by the press routes and the event stream.

A message is seen by its sender and its recipients, named by power, and public
messages by everyone in the game. A power's press belongs to the power, not to
the account that played it then: a replacement reads everything the power sent
and received before them, and the player they replaced reads none of it any more.
The master playing no power reads public press and their own notices.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, select

from .auth import Caller
from .models import Message, MessageRecipient


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
