"""Press: messages between the powers of a game, read markers, unread counts.

Who may *read* which message is ``press_access`` (one answer, shared with the
event stream and the lobby); this module is the rest: who may write what, the
messages' numbers, conversations and read markers. The routes
(``routes/press.py``) lock or read the game, call these and answer.

Who may write what (``games.press``):

* ``full``: private (one power), group (several) and public (``"all"``) press;
* ``public``: only ``"all"``;
* ``none``: no press from the players. The game master may still post public
  notices (a deadline moved, a rule explained): a judge needs a way to speak
  to the table, and a notice to everyone carries no diplomacy.

Players write as their power; a master who plays no power writes as
``"master"`` (in ``full`` and ``public`` games under the same rules as the
players). A power that is out of the game (no units, no centres) neither sends
nor receives new private press: it still reads public press and everything it
was sent before. Nothing is written before the game starts (powers are not all
known); after it ends only public messages, from anyone in the game (the
traditional end-of-game statements: there is nothing left to keep secret
about, and nothing private is opened up either).

Who reads what: a message is seen by its sender and its recipients only;
public messages by everyone in the game (its players and master). Not even
the master reads private press. A power's press belongs to the power, not to
the account that played it: a replacement player reads everything the power
sent and received before them. Senders and recipients are named by power,
never by account, so anonymous games stay anonymous.

Conversations: every message belongs to one, named by its participants
(``"all"`` for public press, else the sorted sender and recipients, e.g.
``"england,france"``). Each reader has a read marker per conversation (the
highest message id read); unread counts are the messages after it that the
reader did not send.

Message ids: each message has a number within its game (``messages.number``:
1, 2, 3, ...), given under the game's row lock as the game's largest number
plus one, so numbers grow in commit order and "everything after N" never skips
a message that commits late; read markers (``message_reads.last_read_id``) hold
such numbers. The API's ``id`` is neither that number nor the table's key but
the message's place among the messages *the caller* may read (1, 2, 3, ...
without gaps): global ids would tell every player how much press the other
games send, and a game's own numbers, through their gaps, how much private
press the other players of the game exchange. A reader's messages only ever
grow (who reads a message is fixed when it is sent), so their ids never change.
``since``, ``up_to``, ``last_id`` and ``read_up_to`` are such ids.

Flooding: an account may post ``press_max_messages`` messages per
``press_window_seconds`` (all games together); more is 429 with Retry-After.
"""

from __future__ import annotations

import bisect
import re
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .access import member_power
from .auth import Caller
from .context import Judge
from .db import utcnow
from .errors import ApiError, conflict, forbidden, invalid, not_found
from .models import GameRow, Message, MessageRead, MessageRecipient
from .press_access import is_mine, visible_press
from .rules import Rules
from .schemas import ConversationOut, MessageOut

MASTER = "master"
PUBLIC = "all"
#: control characters a message may not hold (tabs and line breaks are fine)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def message_text(body: str, max_chars: int) -> str:
    """A message's text, stripped and checked before any transaction (400 when it is
    empty, longer than ``max_chars`` or holds control characters)."""
    text = body.strip()
    if not text:
        raise invalid("the message is empty")
    if len(text) > max_chars:
        raise invalid(f"the message is longer than {max_chars} characters")
    if _CONTROL.search(text):
        raise invalid("the message holds control characters")
    return text


def member(s: Session, game: GameRow, who: Caller) -> str | None:
    """The caller's power in the game (None: its master, playing no power); 403
    for anyone else."""
    return member_power(s, game, who, "read and write its press")


def _recipients(rules: Rules, sender: str | None, to: list[str] | str) -> list[str]:
    """The addressed powers, checked (400 for an unknown power or oneself)."""
    if isinstance(to, str):
        if to.strip().lower() != PUBLIC:
            raise invalid(f"'to' is a list of powers or \"all\", not {to!r}")
        return []
    if not to:
        raise invalid("'to' names no power: give a list of powers or \"all\"")
    powers = sorted({rules.power_id(name) for name in to})
    if sender in powers:
        raise invalid("you cannot write to your own power")
    return powers


def _check_press(game: GameRow, rules: Rules, sender: str | None, recipients: list[str]
                 ) -> None:
    """403 where the game's press mode forbids the message, 409 where the game's
    state does (not started, over, a power out of the game)."""
    public = not recipients
    if game.status == "forming":
        raise conflict(f"game {game.id} has not started: press opens when every power "
                       "is seated")
    if game.status == "finished":
        if not public:
            raise conflict(f"game {game.id} is over: only public messages now")
        return
    if game.press == "none" and not (sender is None and public):
        raise forbidden(f"game {game.id} has no press" + (
            ": its master may post public notices only" if sender is None else ""))
    if game.press == "public" and not public:
        raise forbidden(f"game {game.id} has public press only: send to \"all\"")
    alive = set(rules.surviving_powers(game.state))
    if sender is not None and sender not in alive:
        raise conflict(f"{sender} is out of the game: it reads public press but writes "
                       "no more")
    gone = [p for p in recipients if p not in alive]
    if gone:
        raise conflict(f"{', '.join(gone)} {'is' if len(gone) == 1 else 'are'} out of the "
                       "game and receive no more private press")


def _throttle(s: Session, j: Judge, who: Caller) -> None:
    """429 with Retry-After once the caller sent ``press_max_messages`` messages in the
    last ``press_window_seconds`` (all games together)."""
    window = j.settings.press_window_seconds
    since = utcnow() - timedelta(seconds=window)
    sent = s.scalar(select(func.count()).select_from(Message).where(
        Message.sender_id == who.user_id, Message.sent_at > since)) or 0
    if sent >= j.settings.press_max_messages:
        raise ApiError(429, f"too many messages: at most {j.settings.press_max_messages} in "
                            f"{window} seconds; wait a little", {"Retry-After": str(window)})


def _numbers(s: Session, game_id: int, who: Caller, power: str | None) -> list[int]:
    """The game numbers of the messages the caller may read, in order: the caller's
    id of a message is its place in this list plus one."""
    return list(s.scalars(select(Message.number).where(visible_press(game_id, who, power))
                          .order_by(Message.number)))


def _rank(numbers: list[int], number: int) -> int:
    """The caller's id of the message numbered ``number`` (or of the last one before
    it: how many of the caller's messages are numbered up to it)."""
    return bisect.bisect_right(numbers, number)


def _out(m: Message, to: list[str], reads: dict[str, int], who: Caller,
         numbers: list[int], power: str | None) -> MessageOut:
    mine = is_mine(m.sender_power, m.sender_id, who, power)
    return MessageOut.model_validate({
        "id": _rank(numbers, m.number), "from": m.sender_power or MASTER,
        "to": PUBLIC if m.public else to,
        "body": m.body, "phase": m.phase, "sent_at": m.sent_at,
        "conversation": m.conversation, "mine": mine,
        "unread": not mine and m.number > reads.get(m.conversation, 0)})


def _reads(s: Session, game_id: int, who: Caller) -> dict[str, int]:
    """The caller's read markers in the game: conversation -> the last number read."""
    return {c: n for c, n in s.execute(select(MessageRead.conversation, MessageRead.last_read_id)
                                       .where(MessageRead.game_id == game_id,
                                              MessageRead.user_id == who.user_id))}


def post(s: Session, j: Judge, game: GameRow, who: Caller, to: list[str] | str,
         text: str) -> MessageOut:
    """Store the caller's message (``text``, from :func:`message_text`) to ``to`` (powers,
    or ``"all"``) as the game's press mode allows. ``game`` must be locked
    (``access.game_for_update``): the lock orders the game's messages, so their
    numbers grow in commit order."""
    sender = member(s, game, who)
    rules = j.variants.rules(game)
    recipients = _recipients(rules, sender, to)
    _check_press(game, rules, sender, recipients)
    _throttle(s, j, who)
    conversation = PUBLIC if not recipients else ",".join(
        sorted({sender or MASTER, *recipients}))
    number = (s.scalar(select(func.max(Message.number)).where(
        Message.game_id == game.id)) or 0) + 1
    message = Message(game_id=game.id, number=number, turn=game.turn, phase=game.phase,
                      sender_id=who.user_id, sender_power=sender, public=not recipients,
                      conversation=conversation, body=text, sent_at=utcnow())
    s.add(message)
    s.flush()
    s.add_all(MessageRecipient(message_id=message.id, power=p, game_id=game.id)
              for p in recipients)
    s.flush()
    return _out(message, recipients, {}, who, _numbers(s, game.id, who, sender), sender)


def messages(s: Session, game: GameRow, who: Caller, since: int, conversation: str | None,
             limit: int) -> list[MessageOut]:
    """The messages the caller may read with an id above ``since`` (in ``conversation``
    only, if given), oldest first, at most ``limit``; each says whether it is unread."""
    power = member(s, game, who)
    numbers = _numbers(s, game.id, who, power)
    if since >= len(numbers):
        return []
    after = numbers[since - 1] if since > 0 else 0
    query = select(Message).where(visible_press(game.id, who, power), Message.number > after)
    if conversation is not None:
        query = query.where(Message.conversation == conversation_key(conversation))
    found = list(s.scalars(query.order_by(Message.number).limit(limit)))
    to: dict[int, list[str]] = {}
    for mid, p in s.execute(select(MessageRecipient.message_id, MessageRecipient.power)
                            .where(MessageRecipient.message_id.in_(
                                [m.id for m in found if not m.public]))
                            .order_by(MessageRecipient.power)):
        to.setdefault(mid, []).append(p)
    reads = _reads(s, game.id, who)
    return [_out(m, to.get(m.id, []), reads, who, numbers, power) for m in found]


def conversation_key(text: str) -> str:
    """A conversation named by the client (powers joined by commas, in any order and
    case, or ``"all"``) as it is stored."""
    parts = sorted({p.strip().lower() for p in text.split(",") if p.strip()})
    return ",".join(parts) if parts != [PUBLIC] else PUBLIC


def conversations(s: Session, game: GameRow, who: Caller) -> list[ConversationOut]:
    """The caller's conversations in the game, latest first, with unread counts (403
    for anyone neither playing nor mastering it)."""
    return _conversations(s, game.id, who, member(s, game, who))


def _conversations(s: Session, game_id: int, who: Caller,
                   power: str | None) -> list[ConversationOut]:
    """The caller's conversations; ids (``last_id``, ``read_up_to``) are the caller's."""
    reads = _reads(s, game_id, who)
    found: dict[str, ConversationOut] = {}
    rows = s.execute(select(Message.number, Message.conversation, Message.sender_id,
                            Message.sender_power, Message.sent_at)
                     .where(visible_press(game_id, who, power)).order_by(Message.number)).all()
    numbers = [row[0] for row in rows]  # the caller's messages, in order (``_numbers``)
    for rank, (number, key, sender, sender_power, at) in enumerate(rows, 1):
        c = found.get(key)
        if c is None:
            c = found[key] = ConversationOut(
                conversation=key, powers=[] if key == PUBLIC else key.split(","),
                messages=0, unread=0, last_id=0, last_at=at,
                read_up_to=_rank(numbers, reads.get(key, 0)))
        c.messages += 1
        c.last_id, c.last_at = rank, at
        if not is_mine(sender_power, sender, who, power) and number > reads.get(key, 0):
            c.unread += 1
    return sorted(found.values(), key=lambda c: -c.last_id)


def mark_read(s: Session, game: GameRow, who: Caller, conversation: str | None,
              up_to: int | None) -> list[ConversationOut]:
    """Move the caller's read markers (in ``conversation``, or in every conversation)
    forward to the caller's message id ``up_to`` (default: the latest); answers the
    conversations with their new unread counts. Two first markers written at once
    collide on PostgreSQL (IntegrityError at the flush): the caller runs it again in
    a new transaction."""
    power = member(s, game, who)
    current = {c.conversation: c for c in _conversations(s, game.id, who, power)}
    keys = list(current)
    if conversation is not None:
        key = conversation_key(conversation)
        if key not in current:
            raise not_found(f"you have no conversation {key!r} in game {game.id}")
        keys = [key]
    numbers = _numbers(s, game.id, who, power)
    for key in keys:
        mine = min(up_to, current[key].last_id) if up_to is not None \
            else current[key].last_id
        upto = numbers[mine - 1] if mine > 0 else 0  # the caller's id -> number
        row = s.get(MessageRead, (game.id, who.user_id, key))
        if row is None:
            s.add(MessageRead(game_id=game.id, user_id=who.user_id,
                              conversation=key, last_read_id=upto))
        elif upto > row.last_read_id:
            row.last_read_id = upto
    s.flush()
    return _conversations(s, game.id, who, power)
