"""The judge's tables (SQLAlchemy 2 typed ORM).

The schema is made by the migrations in ``migrations/versions`` (a test checks
that upgrading an empty database gives exactly these models), never by
``create_all``: a deployed database only ever moves forward through them.

Classes are named for their rows where the rules core has a class of the same
idea (``GameRow``, ``PendingOrdersRow``, ``PhaseRow``; the core's ``Game``,
``PendingOrders``, ``PhaseRecord`` are never imported here); table names are
the database's and stay as they are.

Design points:

* ``games.state`` is the engine's JSON of the game (position, options, outcome)
  without history and without pending orders; ``games.turn`` counts processed
  phases and is the game's version: every phase transition is a guarded
  ``UPDATE``/row lock on (id, turn), so it happens once.
* ``pending_orders`` has one row per (game, turn, power): a submission replaces
  its power's row, processing reads and deletes the turn's rows in the same
  transaction that advances ``turn``. A row can therefore never be written for
  a turn that is already processed, nor be deleted without being adjudicated.
* ``seats.ready_turn`` is the turn a power declared itself ready for, so the
  flags of the previous phase lapse by themselves when ``turn`` moves on.
* ``phases`` keeps every processed phase (position, all orders, results).
* press: ``messages`` with one ``message_recipients`` row per addressed power
  (indexed by game and power, so "what may this power read" is one indexed
  query), ``message_reads`` holding each reader's read marker per conversation.
* votes live on the seat (``draw_vote``, ``concede_to``): they belong to the
  power, stand until withdrawn, and are read under the game's row lock.
* a designer's variant: the game keeps the whole text and its digest;
  ``variant_names`` gives each uploaded variant name (and alias) to one text
  for the whole judge, because the engine finds a variant by its name.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out, stored naive UTC on both
    databases (SQLite has no time zones; one representation keeps them equal)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime(), dict[str, Any]: JSON,
                                                     list[Any]: JSON}


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    #: the lower-cased username: names are unique regardless of case
    username_key: Mapped[str] = mapped_column(String(32), unique=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime]


class Token(Base):
    """A bearer token (``kind='api'``) or a page session (``kind='session'``).
    Only the SHA-256 of the secret is stored: a copy of the database gives no
    way in."""

    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime | None]
    #: when a page session was made by a mailed sign-in code (else null): for a while
    #: after, it may set a new password without the old one (a forgotten password)
    code_at: Mapped[datetime | None]


class SignInCode(Base):
    """An account's one-time sign-in code, mailed to its address (sign_in_codes.py).
    One per account: a new one replaces the old; used, it is deleted. Only a hash of
    the code is kept."""

    __tablename__ = "sign_in_codes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)


class CodeRequest(Base):
    """A sign-in code mailed (or being mailed), by username and client address, kept
    for the throttle's window: how many mails one name or one address may cause."""

    __tablename__ = "sign_in_code_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username_key: Mapped[str] = mapped_column(String(64), index=True)
    ip: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(index=True)


class LoginFailure(Base):
    """One failed log-in, kept for the throttling window (shared by all processes)."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username_key: Mapped[str] = mapped_column(String(64), index=True)
    ip: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(index=True)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    variant: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]
    press: Mapped[str] = mapped_column(String(10))
    anonymous: Mapped[bool] = mapped_column(Boolean)
    private: Mapped[bool] = mapped_column(Boolean)
    #: the code a private game's players give when they take a seat
    invite_code: Mapped[str | None] = mapped_column(String(64))
    master_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: forming, active or finished
    status: Mapped[str] = mapped_column(String(10), index=True)
    #: processed phases so far: the game's version
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(20))
    #: the phase as people read it ("Spring 1902, Movement"), for the lobby's listing,
    #: which never builds a variant
    phase_title: Mapped[str | None] = mapped_column(String(80))
    #: the engine's game JSON, without history and pending orders
    state: Mapped[dict[str, Any]]
    #: powers with something to order in the current phase
    to_order: Mapped[list[Any]]
    #: seconds per phase type: {"movement", "retreat", "adjustment"}
    deadlines: Mapped[dict[str, Any]]
    deadline: Mapped[datetime | None] = mapped_column(index=True)
    paused: Mapped[bool] = mapped_column(Boolean)
    #: seconds left on the clock when paused
    paused_remaining: Mapped[float | None] = mapped_column(Float)
    #: process the current phase as soon as possible (all ready, or the master
    #: forced it): kept in the row so a crash between the request and the
    #: processing cannot lose the intent
    process_requested: Mapped[bool] = mapped_column(Boolean)
    outcome: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    #: a designer's variant file (TOML text) the game plays, and its SHA-256
    variant_file: Mapped[str | None] = mapped_column(Text)
    variant_sha256: Mapped[str | None] = mapped_column(String(64))
    #: when to remind the powers that have not ordered (None: no reminder due)
    remind_at: Mapped[datetime | None] = mapped_column(index=True)
    #: the turn whose reminder has been claimed (by one process, once)
    reminded_turn: Mapped[int | None] = mapped_column(Integer)
    #: how many powers the variant has (the lobby lists games without building variants)
    power_count: Mapped[int] = mapped_column(Integer, server_default="0")
    #: a phase that failed to process: the turn it failed at, when, and the error (shown
    #: to the master). The scheduler passes over the game until the master retries it.
    failed_turn: Mapped[int | None] = mapped_column(Integer)
    failed_at: Mapped[datetime | None]
    failure: Mapped[str | None] = mapped_column(Text)
    #: the bot that takes the seats still empty when the join period ends (None: the
    #: game waits for people), and when that period ends (None: no end)
    fill_bot: Mapped[str | None] = mapped_column(String(40))
    join_by: Mapped[datetime | None] = mapped_column(index=True)
    #: after this many phases in a row with nothing sent, a person's seat is played by
    #: ``takeover_bot`` (and opened for a replacement) until they return; None: civil
    #: disorder, as ever
    takeover_after: Mapped[int | None] = mapped_column(Integer)
    takeover_bot: Mapped[str | None] = mapped_column(String(40))
    #: deadlines at a fixed clock time ("20:00") in a time zone ("Europe/Paris"): each
    #: phase ends at the one such time nearest its length, at least half its length away
    #: (None: a phase ends its length after it starts)
    deadline_time: Mapped[str | None] = mapped_column(String(5))
    time_zone: Mapped[str | None] = mapped_column(String(64))


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
                      # the scheduler's looks for absences that begin and end
                      # (``absences.due``): a range over the few seats with one
                      Index("ix_seats_away_start", "away_started", "away_from"),
                      Index("ix_seats_away_until", "away_until"))

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    power: Mapped[str] = mapped_column(String(40), primary_key=True)
    #: the person who plays the power; None for a seat a bot was given for good, or one
    #: its master opened for a replacement
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    #: the bot playing the power now: for good (no person), or after a takeover until
    #: its person returns or a replacement takes the seat
    bot: Mapped[str | None] = mapped_column(String(40))
    #: open for a new person to take over (with the power's history and press)
    open: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: phases in a row in which the person had something to do and sent nothing
    missed: Mapped[int] = mapped_column(Integer, server_default="0")
    #: a declared absence: from, until, and the bot that plays meanwhile (None: holds)
    away_from: Mapped[datetime | None]
    away_until: Mapped[datetime | None]
    away_bot: Mapped[str | None] = mapped_column(String(40))
    #: the absence has begun: its seat was handed to its bot (or made to hold) in the
    #: phase it began in (by its declaration, the scheduler, or the phase's opening);
    #: so it is handed over once, and at its end the ready flag it raised is lowered
    away_started: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: the turn this power said it is ready for
    ready_turn: Mapped[int | None] = mapped_column(Integer)
    #: phases in which this power had something to do and sent nothing
    nmr: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime]
    #: votes for a shared draw; stands until withdrawn
    draw_vote: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: the power this one concedes the game to; stands until withdrawn
    concede_to: Mapped[str | None] = mapped_column(String(40))


class PendingOrdersRow(Base):
    __tablename__ = "pending_orders"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    power: Mapped[str] = mapped_column(String(40), primary_key=True)
    #: canonical order texts
    orders: Mapped[list[Any]]
    submitted_at: Mapped[datetime]
    #: the bot that gave these orders (None: the power's person): a person's orders are
    #: never overwritten by a bot's that finish later
    by_bot: Mapped[str | None] = mapped_column(String(40))


class PhaseRow(Base):
    __tablename__ = "phases"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    turn: Mapped[int] = mapped_column(Integer, primary_key=True)
    phase: Mapped[str] = mapped_column(String(20))
    position: Mapped[dict[str, Any]]
    orders: Mapped[dict[str, Any]]
    results: Mapped[list[Any]]
    events: Mapped[list[Any]]
    #: the phase's results report (:func:`standoff.game_report`)
    report: Mapped[dict[str, Any] | None]
    processed_at: Mapped[datetime]
    #: the same report as the text of the results mail
    report_text: Mapped[str | None] = mapped_column(Text)
    #: the powers a bot played in this phase, and which bot (history discloses them)
    bots: Mapped[dict[str, Any] | None]
    #: the powers that had to order in this phase and sent nothing (civil disorder)
    missed: Mapped[list[Any] | None]


class Message(Base):
    """One press message. ``sender_power`` is None for the game master's notices;
    ``conversation`` names its participants (``"all"`` for public press, else the
    sorted sender and recipients joined by commas) so read markers and unread
    counts are per conversation."""

    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_sender_sent", "sender_id", "sent_at"),
                      UniqueConstraint("game_id", "number", name="uq_messages_game_number"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: the message's number within its game (1, 2, ...): what the API calls its id, so
    #: the numbers a player sees never tell how much press other games (or, through
    #: gaps, other players) send
    number: Mapped[int] = mapped_column(Integer, server_default="0")
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(20))
    sender_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    sender_power: Mapped[str | None] = mapped_column(String(40))
    public: Mapped[bool] = mapped_column(Boolean)
    conversation: Mapped[str] = mapped_column(String(600))
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime]


class MessageRecipient(Base):
    """A power a private or group message is addressed to."""

    __tablename__ = "message_recipients"
    __table_args__ = (Index("ix_message_recipients_game_power", "game_id", "power"),)

    message_id: Mapped[int] = mapped_column(ForeignKey("messages.id", ondelete="CASCADE"),
                                            primary_key=True)
    power: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))


class MessageRead(Base):
    """How far a reader has read one conversation of a game (``last_read_id``: a
    message's number within the game, :attr:`Message.number`)."""

    __tablename__ = "message_reads"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    conversation: Mapped[str] = mapped_column(String(600), primary_key=True)
    last_read_id: Mapped[int] = mapped_column(Integer)


class VariantName(Base):
    """An uploaded variant's name or alias, and the one text (by digest) it means
    on this judge."""

    __tablename__ = "variant_names"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]


class SignUp(Base):
    """One account created, by client address, kept for the sign-up throttle's window."""

    __tablename__ = "signups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ip: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(index=True)


class KnownAddress(Base):
    """An address an account has logged in from: log-ins from it are not refused
    because strangers guessed the account's password elsewhere (the per-name limit
    applies to unknown addresses only, so nobody can lock a person out)."""

    __tablename__ = "known_addresses"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    ip: Mapped[str] = mapped_column(String(64), primary_key=True)
    last_at: Mapped[datetime]


class Heartbeat(Base):
    """One row per server process written by the readiness check: a write that commits
    proves the database takes writes (not stopped, full or read-only)."""

    __tablename__ = "heartbeats"

    process: Mapped[str] = mapped_column(String(100), primary_key=True)
    at: Mapped[datetime]


class BotJob(Base):
    """One bot's orders for one power in one phase: a job any worker may take.

    A worker claims a ``queued`` job (or a ``running`` one whose lease ran out: its
    worker died) with a row lock, marks it ``running`` with its own ``claim`` token
    and a lease, works out the orders with no lock held, and then, under the game's
    row lock, stores them only if the job is still its own and the game still at
    ``turn``: so each seat's orders are given once per phase whatever the number of
    workers and restarts. ``failed`` (the bot raised, overran its budget, or gave an
    order the rules refuse): the seat is in civil disorder for the phase, ``error``
    says why, and its master sees it."""

    __tablename__ = "bot_jobs"
    __table_args__ = (UniqueConstraint("game_id", "turn", "power", name="uq_bot_jobs_seat"),
                      Index("ix_bot_jobs_status_lease", "status", "lease_until"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(20))
    power: Mapped[str] = mapped_column(String(40))
    bot: Mapped[str] = mapped_column(String(40))
    #: queued, running, done, failed or stale (the phase was processed first)
    status: Mapped[str] = mapped_column(String(10))
    claim: Mapped[str | None] = mapped_column(String(32))
    lease_until: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    seconds: Mapped[float | None] = mapped_column(Float)
    created_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]


class BoardRow(Base):
    """A planning board: a private copy of a position (a game's phase, or a variant's
    start) where its owner moves any unit and orders for every power, adjudicated by
    the engine, step by step. Nothing of it reaches any game. ``key`` is the shared
    link's secret: whoever has it may look, only the owner may change it.

    ``steps`` is the list of states (the engine's JSON without history) from the
    first; ``at`` the one shown; ``orders[i]`` the orders given at step ``i`` and
    ``results[i]`` what they came to (for the steps already adjudicated)."""

    __tablename__ = "boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                          index=True)
    title: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(40))
    #: a designer's variant file the board plays (None: bundled), and its digest
    variant_file: Mapped[str | None] = mapped_column(Text)
    variant_sha256: Mapped[str | None] = mapped_column(String(64))
    steps: Mapped[list[Any]]
    orders: Mapped[list[Any]]
    results: Mapped[list[Any]]
    at: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
