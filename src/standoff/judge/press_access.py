"""Who may read which press: one answer, used by the press routes and the event stream.

A message is seen by its sender and its recipients, named by power, and public
messages by everyone in the game. A power's press belongs to the power, not to
the account that played it then: a replacement reads everything the power sent
and received before them, and the player they replaced reads none of it any more.
The master playing no power reads public press and their own notices.
"""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, or_, select
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


def _not_sent_by(who: Caller, power: str | None) -> ColumnElement[bool]:
    """The negation of :func:`_sent_by` that keeps messages with no sender power (SQL's
    NULL would drop them from a plain ``!=``)."""
    if power is not None:
        return Message.sender_power.is_distinct_from(power)
    return Message.sender_power.is_not(None) | (Message.sender_id != who.user_id)


def unread_counts(s: Session, who: Caller, played: dict[int, str | None]) -> dict[int, int]:
    """For each game (its id -> the power the caller plays there, or None: its master
    playing none), how many messages the caller may read and has not (their read
    marker per conversation; their own side's messages are never unread). One
    counting query for them all: the lobby asks it for every running game it lists."""
    if not played:
        return {}
    unread = or_(*(visible_press(gid, who, power) & _not_sent_by(who, power)
                   for gid, power in played.items()))
    marker = (MessageRead.game_id == Message.game_id) & (
        MessageRead.conversation == Message.conversation) & (
        MessageRead.user_id == who.user_id)
    rows = s.execute(select(Message.game_id, func.count()).outerjoin(MessageRead, marker)
                     .where(unread, Message.number > func.coalesce(MessageRead.last_read_id, 0))
                     .group_by(Message.game_id))
    counts = {gid: 0 for gid in played}
    counts.update({int(gid): int(n) for gid, n in rows})
    return counts
