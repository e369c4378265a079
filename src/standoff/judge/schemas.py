"""The API's bodies, in and out (pydantic), as the spec names them.

Requests are strict: unknown fields are refused (``extra="forbid"``) and types
are not coerced (``"true"`` is not a boolean, ``"5"`` not a number), so a client's
mistake is a 400 with the field named instead of a guess. Responses are
models too, so ``/openapi.json`` describes every answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

MAX_SECONDS = 30 * 24 * 3600

Username = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,31}$")]
Password = Annotated[str, StringConstraints(min_length=8, max_length=256)]
OrderText = Annotated[str, StringConstraints(max_length=200)]
#: a bundled bot's name (GET /api/v1/bots; an unknown one is refused with the choices)
BotName = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Seconds = Annotated[int, Field(ge=1, le=MAX_SECONDS)]


class StrictBody(BaseModel):
    """A request body: unknown fields refused, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


class AccountIn(StrictBody):
    username: Username = Field(description="3 to 32 letters, digits, '_', '.' or '-'")
    password: Password
    email: Annotated[str, StringConstraints(max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")] | None \
        = None


class CredentialsIn(StrictBody):
    username: Annotated[str, StringConstraints(max_length=64)]
    password: Annotated[str, StringConstraints(max_length=256)]


class SessionIn(StrictBody):
    """A page log-in: the password, or instead a one-time code mailed to the account
    (``POST /api/v1/session/code``); exactly one of the two."""

    username: Annotated[str, StringConstraints(max_length=64)]
    password: Annotated[str, StringConstraints(max_length=256)] | None = None
    code: Annotated[str, StringConstraints(max_length=64)] | None = Field(
        default=None, description="a sign-in code mailed to the account, e.g. ABCDE-FGHJK")


class CodeRequestIn(StrictBody):
    username: Annotated[str, StringConstraints(max_length=64)]


class CodeRequestOut(BaseModel):
    message: str = Field(description="the same sentence whether or not the account exists "
                         "or has an e-mail address")


class DeadlinesIn(StrictBody):
    movement: Seconds | None = None
    retreat: Seconds | None = None
    adjustment: Seconds | None = None


class GameIn(StrictBody):
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = Field(
        default=None, description="a bundled variant (GET /api/v1/variants); may be left "
        "out when variant_file is given (else it must be that file's variant name)")
    variant_file: Annotated[str, StringConstraints(min_length=1, max_length=1024 * 1024)] \
        | None = Field(default=None, description="a designer's variant file (the TOML text "
                       "that `standoff check-variant` checks); checked on upload (422 with "
                       "the problems), kept with the game and played")
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
    options: dict[str, Any] | None = Field(default=None, description="rule options "
                                           "(GET /api/v1/options lists them)")
    deadlines: DeadlinesIn | None = Field(default=None, description="seconds per phase type")
    deadline_time: Annotated[str, StringConstraints(
        pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")] | None = Field(
        default=None, description="end every phase at this clock time (\"20:00\"): the "
        "one nearest the phase's length, at least half its length away")
    time_zone: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = Field(
        default=None, description="the IANA time zone of deadline_time "
        "(\"Europe/Paris\"; default UTC)")
    press: Literal["full", "public", "none"] = "full"
    anonymous: bool = False
    private: bool = Field(default=False, description="invite-only: players give the "
                                                     "game's invite code to take a seat")
    power: Annotated[str, StringConstraints(max_length=40)] | None = Field(
        default=None, description="the power the creator plays (a seat taken at once)")
    bots: Annotated[dict[Annotated[str, StringConstraints(max_length=40)], BotName],
                    Field(max_length=60)] | None = Field(
        default=None, description="powers seated with a bot at once: {power: bot} "
        "(GET /api/v1/bots)")
    fill_bot: BotName | None = Field(
        default=None, description="the bot that takes every seat still empty when the join "
        "period ends")
    join_seconds: Annotated[int, Field(ge=0, le=30 * 24 * 3600)] | None = Field(
        default=None, description="how long the game waits for people (with fill_bot); 0: "
        "fill the empty seats at once (a person alone with bots)")
    takeover_after: Annotated[int, Field(ge=1, le=50)] | None = Field(
        default=None, description="a bot plays a person's seat after this many phases in a "
        "row with nothing sent, until they send orders again (and the seat is open for a "
        "replacement); null: civil disorder")
    takeover_bot: BotName | None = Field(default=None, description="the bot that takes such "
                                         "seats (default: the strongest bundled bot that "
                                         "answers quickly, heuristic)")


class BotOut(BaseModel):
    name: str
    description: str


class BotFailureOut(BaseModel):
    turn: int
    phase: str
    power: str
    bot: str
    error: str
    at: datetime | None


#: a moment in a request body: ISO 8601 text with a time zone (JSON has no dates, so
#: this one field type reads text even in a strict body)
Moment = Annotated[AwareDatetime, Field(strict=False)]


class AwayIn(StrictBody):
    start: Moment | None = Field(default=None, description="when the absence starts "
                                 "(default: now); ISO 8601 with a time zone")
    until: Moment = Field(description="when the seat returns to you")
    bot: BotName | None = Field(default=None, description="the bot that plays meanwhile "
                                "(null: your units hold, and no phase counts as missed)")


class AwayOut(BaseModel):
    power: str
    start: datetime | None
    until: datetime | None
    bot: str | None


class OpenSeatIn(StrictBody):
    bot: BotName | None = Field(default=None, description="the bot that plays the seat "
                                "until someone takes it (null: civil disorder meanwhile)")


class FillIn(StrictBody):
    bot: BotName = Field(description="the bot that takes every empty seat")


class SeatIn(StrictBody):
    power: Annotated[str, StringConstraints(max_length=40)] | None = None
    invite: Annotated[str, StringConstraints(max_length=64)] | None = None


class OrdersIn(StrictBody):
    orders: Annotated[list[OrderText], Field(max_length=500)]
    #: false (the default, the spec's meaning): these orders replace all the caller's
    #: pending orders; true: they are added to them, each replacing only the earlier
    #: order of its own unit (the page's text box: any notation, the engine decides
    #: which unit a line is for)
    merge: bool = False


class ReadyIn(StrictBody):
    ready: bool


class ExtendIn(StrictBody):
    seconds: Seconds


PowerName = Annotated[str, StringConstraints(max_length=40)]


class MessageIn(StrictBody):
    to: Annotated[list[PowerName], Field(max_length=40)] | Literal["all"] = Field(
        description='the powers to write to (private or group press), or "all" (public)')
    body: Annotated[str, StringConstraints(max_length=20000)]


class ReadIn(StrictBody):
    conversation: Annotated[str, StringConstraints(max_length=600)] | None = Field(
        default=None, description="the conversation to mark read (default: all of them)")
    up_to: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = Field(
        default=None, description="the last message id read (default: the latest)")


class VoteIn(StrictBody):
    draw: bool | None = Field(default=None, description="vote for (or withdraw from) a "
                              "draw shared by every surviving power")
    concede: PowerName | None = Field(default=None, description="concede the game to this "
                                      "power (null: withdraw the concession)")


class AccountOut(BaseModel):
    id: int
    username: str


class TokenOut(BaseModel):
    token: str


class SessionOut(BaseModel):
    username: str
    csrf_token: str = Field(description="send it as X-CSRF-Token with every change")


class VariantOut(BaseModel):
    name: str
    title: str
    powers: list[str]
    description: str
    notes: list[str] = Field(default_factory=list, description="its special rules in a few "
                             "lines a player reads before playing")


class OptionOut(BaseModel):
    name: str
    values: list[str]
    default: str
    datc: str
    description: str


class PowerOut(BaseModel):
    player: str | None = Field(description="hidden (null) in anonymous games")
    submitted: bool
    ready: bool
    nmr: int = Field(description="phases in which it had orders to give and gave none")
    to_order: bool = Field(description="has something to order this phase")
    adjustment: int = Field(default=0, description="in an adjustment phase, the builds "
                            "(positive) or removals (negative) the rules allow it: builds "
                            "are limited by its free build sites")
    bot: str | None = Field(default=None, description="the bot playing this power now "
                            "(shown to everyone, anonymous games included); null: a person")
    away: bool = Field(default=False, description="its player is on leave (not why)")
    open: bool = Field(default=False, description="open for a new player to take over")


class GameSummaryOut(BaseModel):
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)

    id: int
    name: str
    variant: str
    status: Literal["forming", "active", "finished"]
    phase: str
    deadline: datetime | None
    press: str
    anonymous: bool
    private: bool
    seats_taken: int
    seats: int
    taken_powers: list[str] = Field(default_factory=list, description=(
        "the powers already seated, while the game is forming (who plays them is not "
        "said): the others are free"))
    your_power: str | None
    phase_title: str | None = Field(default=None, description="the phase as people read it: "
                                    "Spring 1902, Movement")
    needs_orders: bool = Field(default=False, description="your power has orders to give "
                               "this phase and has sent none")
    unread: int = Field(default=0, description="messages of this game you have not read")
    open_powers: list[str] = Field(default_factory=list, description=(
        "a game under way: the powers open for a new player to take over"))
    bots: dict[str, str] = Field(default_factory=dict, description=(
        "the powers bots play: {power: bot} (disclosed to everyone)"))
    #: the caller masters this game (JSON ``master``)
    you_master: bool = Field(validation_alias="master", serialization_alias="master",
                             description="you are this game's master")


class GameOut(BaseModel):
    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)

    id: int
    name: str
    variant: str
    status: Literal["forming", "active", "finished"]
    phase: str
    phase_title: str | None = Field(default=None, description="Spring 1902, Movement")
    variant_notes: list[str] = Field(default_factory=list, description="the variant's "
                                     "special rules in a few lines")
    your_away: AwayOut | None = Field(default=None, description="your own declared absence "
                                      "(start, until, bot), if any")
    deadline: datetime | None
    position: dict[str, Any]
    powers: dict[str, PowerOut]
    outcome: dict[str, Any] | None
    options: dict[str, str]
    deadlines: dict[str, int]
    press: str
    anonymous: bool
    private: bool
    paused: bool
    remaining: float | None = Field(description="seconds on the clock while paused")
    turn: int
    #: the master's name (JSON ``master``)
    master_name: str | None = Field(
        validation_alias="master", serialization_alias="master",
        description="the master's name (hidden in anonymous games)")
    your_power: str | None
    invite: str | None = Field(default=None, description="the invite code (master only)")
    created_at: datetime
    variant_sha256: str | None = Field(default=None, description="SHA-256 of the designer's "
                                       "variant file the game plays (GET .../variant.toml)")
    set_aside: bool = Field(default=False, description="the current phase failed to process "
                            "and is set aside until the master retries it "
                            "(POST .../master/retry)")
    failure: str | None = Field(default=None, description="why it failed (master only)")
    deadline_time: str | None = Field(default=None, description="phases end at this clock "
                                      "time in time_zone")
    time_zone: str | None = None
    fill_bot: str | None = None
    join_by: datetime | None = Field(default=None, description="when the empty seats go "
                                     "to fill_bot")
    takeover_after: int | None = None
    takeover_bot: str | None = None
    bot_failures: list[BotFailureOut] = Field(default_factory=list, description=(
        "recent phases in which a bot gave no orders (civil disorder), and why (master "
        "only)"))


class SeatOut(BaseModel):
    power: str


class OrdersOut(BaseModel):
    power: str
    phase: str
    orders: list[str]


class LegalOrderOut(BaseModel):
    """One legal order by its parts (``rules.LegalOption``: each field's meaning)."""

    order: str = Field(description="canonical text: send it back with PUT .../orders")
    kind: Literal["hold", "move", "support_hold", "support_move", "convoy", "no_convert",
                  "permit", "retreat", "disband", "build", "remove", "waive"]
    location: str | None = Field(description="the unit's location (a site, a canal)")
    unit: str | None = Field(description="the unit ordered, built or removed: 'A PAR'")
    unit_type: Literal["A", "F"] | None
    target: str | None = Field(description="where a move, retreat, supported or convoyed "
                               "move goes; the unit a support to hold supports")
    via: Literal["land", "convoy"] | None = Field(description="an army's move: by land, "
                                                  "or by convoy")
    supported: str | None = Field(description="a support's order: 'A MAR - BUR', 'A MUN'")
    convoyed: str | None = Field(description="a convoy's move: 'A LON - BEL'")
    subject: str | None = Field(description="the location of the supported or convoyed "
                                "unit")
    power: str | None = Field(description="a PERMIT's power, whose fleets may pass")


class ReadyOut(BaseModel):
    power: str
    ready: bool
    processed: bool = Field(description="the phase is processed (everyone was ready)")
    phase: str


class PhaseOut(BaseModel):
    phase: str
    position: dict[str, Any]
    orders: dict[str, list[str]]
    results: list[dict[str, Any]]
    events: list[str]
    report: dict[str, Any] | None = None
    report_text: str | None = Field(default=None, description="the report as the "
                                    "results mail's text")
    processed_at: datetime
    bots: dict[str, str] = Field(default_factory=dict, description="the powers a bot "
                                 "played in this phase: {power: bot}")
    missed: list[str] = Field(default_factory=list, description="the powers that had to "
                              "order and sent nothing (their units in civil disorder)")


class MessageOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: int
    sender: str = Field(alias="from", description='the sending power, or "master"')
    to: list[str] | Literal["all"]
    body: str
    phase: str = Field(description="the phase it was sent in")
    sent_at: datetime
    conversation: str = Field(description='"all", or its powers joined by commas')
    mine: bool = Field(description="the caller sent it")
    unread: bool = Field(description="after the caller's read marker, and not the caller's")


class ConversationOut(BaseModel):
    conversation: str
    powers: list[str] = Field(description="its participants (empty: public press)")
    messages: int
    unread: int
    last_id: int
    last_at: datetime
    read_up_to: int = Field(description="the caller's read marker (a message id)")


class VoteOut(BaseModel):
    power: str
    draw: bool
    concede: str | None
    status: str = Field(description="the game's status after the vote")
    outcome: dict[str, Any] | None


class VotesOut(BaseModel):
    """Every power's standing votes, shown once the game is over."""

    votes: dict[str, dict[str, Any]]
    outcome: dict[str, Any] | None


#: a game's id in a path: a positive 32-bit integer (anything else is 400, not a
#: number the database cannot hold)
GameId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the game's id")]


class BoardIn(StrictBody):
    """Where a planning board starts: a game's phase (``game``, ``phase``: default its
    current one), another board's step shown (``board``: its link's key), or a
    variant's start (``variant``)."""

    game: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = None
    phase: Annotated[str, StringConstraints(max_length=20)] | None = None
    board: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")] | None = None
    variant: Annotated[str, StringConstraints(min_length=1, max_length=40)] | None = None


class BoardOrdersIn(StrictBody):
    orders: Annotated[dict[PowerName, Annotated[list[OrderText], Field(max_length=500)]],
                      Field(max_length=60)] = Field(
        description="{power: [orders]}: replaces those powers' orders at the step shown")
    #: false (the default): each power's orders given replace all its orders at the
    #: step; true: they are added to them, each replacing only its unit's earlier
    #: order (the engine's rule, as ``OrdersIn.merge``: the board's clicks send this)
    merge: bool = False


class BoardUnitsIn(StrictBody):
    units: Annotated[dict[PowerName, Annotated[list[OrderText], Field(max_length=2000)]],
                     Field(max_length=60)] = Field(
        description="{power: [\"A PAR\", \"F STP/SC\", ...]}: every unit on the board")
    centres: Annotated[dict[PowerName, Annotated[list[OrderText], Field(max_length=2000)]],
                       Field(max_length=60)] | None = Field(
        default=None, description="{power: [\"PAR\", ...]} (default: as they are)")


class BoardStepIn(StrictBody):
    step: Annotated[int, Field(ge=0, le=100_000)]


class BoardStepOut(BaseModel):
    phase: str
    phase_title: str = Field(description="the phase as people read it: Spring 1902, Movement")
    adjustments: dict[str, int] = Field(default_factory=dict, description="in an adjustment "
                                        "step, each power's builds (positive) or removals "
                                        "(negative) the rules allow")
    position: dict[str, Any]
    orders: dict[str, list[str]]
    results: list[dict[str, Any]]
    outcome: dict[str, Any] | None


class BoardOut(BaseModel):
    key: str = Field(description="the board's link: /boards/KEY (anyone who has it sees it)")
    title: str
    variant: str
    powers: dict[str, str] = Field(default_factory=dict, description="every power of the "
                                   "variant: {id: the name players read}")
    at: int = Field(description="the step shown")
    steps: list[BoardStepOut]
    yours: bool = Field(description="you own it (only the owner changes it)")
    created_at: datetime
    updated_at: datetime
