"""A new game: its settings checked and its row and first seats written.

Why a module of its own: a game's creation reads a dozen fields of the request
(press, privacy, seats given to bots or to the creator, the join period, the
takeover bot, the clock), and the route that receives the request should only
read it, call this and answer. It works in two steps, so that nothing slow
happens under a lock:

* :func:`plan_game`, before the write transaction: the rules' first state and
  phase and the seats taken at once, checked (422 for an unknown bot or power,
  409 for a power given twice);
* :func:`add_game`, inside it (after the account's limits, ``quotas``): the
  ``games`` row, the seats of the creator and of the bots, and, for a game that
  fills its empty seats with a bot at once (``join_seconds`` 0), those seats.

Starting the game once every power is seated is ``processing.start_if_full``,
as for a seat taken later; a designer's variant file is checked and its names
claimed by ``uploads``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy.orm import Session

from .access import seats_of
from .bots import DEFAULT_STAND_IN, bot_name
from .errors import conflict, invalid
from .models import GameRow, Seat
from .rules import Rules
from .schemas import GameIn
from .seating import fill_with_bots

#: how long a game with ``fill_bot`` waits for people when it does not say
DEFAULT_JOIN_SECONDS = 24 * 3600


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be created: the request and what was derived from it before
    any lock was taken."""

    body: GameIn
    rules: Rules
    options: dict[str, Any]
    #: seconds per phase type: the judge's defaults, overridden by the request's
    deadlines: dict[str, int]
    state: dict[str, Any]
    phase: str
    #: the seats taken at once: {power: bot}, None for the creator's own
    seated: dict[str, str | None]


def plan_game(body: GameIn, rules: Rules, options: dict[str, Any],
              default_deadlines: dict[str, int]) -> NewGame:
    """The new game's first state, deadlines and seats (``options``: already checked
    by ``rules.check_options``). Builds the rules' first state, so call it before
    the write transaction: no other request waits for it."""
    deadlines = dict(default_deadlines)
    if body.deadlines is not None:
        deadlines.update({k: s for k, s in body.deadlines.model_dump().items() if s is not None})
    state = rules.new_state(options)
    phase, _ = rules.phase_of(state)
    return NewGame(body=body, rules=rules, options=options, deadlines=deadlines, state=state,
                   phase=phase, seated=seated_at_creation(body, rules))


def seated_at_creation(body: GameIn, rules: Rules) -> dict[str, str | None]:
    """The seats a new game has at once: {power: bot}, None for the creator's own
    (``power``). 422 for an unknown bot or power, 409 for a power given twice."""
    for bot in (body.fill_bot, body.takeover_bot, *(body.bots or {}).values()):
        if bot is not None:
            bot_name(bot)
    seated: dict[str, str | None] = {}
    for text, bot in (body.bots or {}).items():
        power = rules.power_id(text)
        if power in seated:
            raise conflict(f"{power} is given a bot twice")
        seated[power] = bot
    if body.power is not None:
        mine = rules.power_id(body.power)
        if mine in seated:
            raise conflict(f"{mine} is given to a bot: you cannot play it too")
        seated[mine] = None
    return seated


def check_time_zone(name: str | None) -> str:
    """An IANA time zone's name, checked (400 for one the judge does not know)."""
    if name is None:
        return "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise invalid(f"there is no time zone {name!r}: give an IANA name such as "
                      "Europe/Paris or America/New_York") from exc
    return name


def add_game(s: Session, plan: NewGame, master_id: int, variant: str,
             variant_file: str | None, variant_sha256: str | None, now: datetime) -> GameRow:
    """Write the game (forming, mastered by ``master_id``) and its first seats in the
    caller's write transaction; the seats still empty are filled with ``fill_bot``
    at once when the game waits for nobody (``join_seconds`` 0)."""
    body, rules, state = plan.body, plan.rules, plan.state
    game = GameRow(name=body.name, variant=variant, options=plan.options, press=body.press,
                   anonymous=body.anonymous, private=body.private,
                   invite_code=secrets.token_urlsafe(12) if body.private else None,
                   master_id=master_id, status="forming", turn=0, phase=plan.phase,
                   phase_title=rules.phase_title(state), state=state,
                   to_order=[], deadlines=plan.deadlines, deadline=None, paused=False,
                   paused_remaining=None, process_requested=False, outcome=None,
                   created_at=now, started_at=None, finished_at=None,
                   variant_file=variant_file, variant_sha256=variant_sha256, remind_at=None,
                   reminded_turn=None, power_count=len(rules.powers),
                   fill_bot=body.fill_bot,
                   join_by=now + timedelta(seconds=body.join_seconds if body.join_seconds
                                           is not None else DEFAULT_JOIN_SECONDS)
                   if body.fill_bot else None,
                   takeover_after=body.takeover_after,
                   takeover_bot=(body.takeover_bot or DEFAULT_STAND_IN)
                   if body.takeover_after is not None else None,
                   deadline_time=body.deadline_time,
                   time_zone=check_time_zone(body.time_zone) if body.deadline_time else None)
    s.add(game)
    s.flush()
    for power, bot in plan.seated.items():
        s.add(Seat(game_id=game.id, power=power, user_id=master_id if bot is None else None,
                   bot=bot, open=False, missed=0, ready_turn=None, nmr=0, joined_at=now,
                   draw_vote=False, concede_to=None))
    s.flush()
    if body.fill_bot is not None and body.join_seconds == 0:
        fill_with_bots(s, game, rules.powers, seats_of(s, game.id), body.fill_bot, now)
    return game
