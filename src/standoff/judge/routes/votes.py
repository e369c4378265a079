"""Routes for ending a game by agreement: draw votes and concession.

The rules (``processing.vote_outcome`` applies them):

* **Draw**: ``PUT .../vote {"draw": true}``. When every surviving power (units
  or centres) votes draw, the game ends at once in a draw shared by all of
  them (the engine's ``declare_draw``). A vote stands until withdrawn
  (``{"draw": false}``), across phases: a player who wants a draw keeps wanting
  it until they say otherwise, and nobody has to vote again every phase.
* **Concession**: ``PUT .../vote {"concede": "france"}``. When every surviving
  power but one concedes to that one, it wins (``{"concede": null}``
  withdraws). A power cannot concede to itself nor to a power out of the game.
* Only surviving powers vote and only their votes count: a power eliminated
  with a standing vote drops out of the count, which may make the others'
  votes unanimous; processing looks at the votes after every phase, so that
  ends the game then.
* **Secret ballot**: while the game runs each player sees only their own vote
  (``GET .../vote``); nobody, the master included, sees who else voted or how
  many did (with two or three powers left a count gives each vote away, and
  an open tally invites pressure). When the game is over, ``GET .../votes``
  shows every power's standing votes.
* A game that is not running (forming, or over: by victory, by the variant's
  own end, by draw or concession) refuses votes with 409.
"""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy.orm import Session

from ..access import (
    game_for_update,
    get_game,
    player_seat,
    require_active,
    require_view,
    seats_of,
)
from ..auth import Caller, CallerDep
from ..context import JudgeDep
from ..db import utcnow
from ..errors import ERROR_RESPONSES, conflict, forbidden, invalid
from ..models import GameRow, Seat
from ..processing import end_by_vote, vote_outcome
from ..schemas import GameId, VoteIn, VoteOut, VotesOut

router = APIRouter(prefix="/api/v1", tags=["votes"], responses=ERROR_RESPONSES)



def _seat(s: Session, game: GameRow, who: Caller) -> Seat:
    return player_seat(s, game, who, ": only players vote")


def _out(seat: Seat, game: GameRow) -> VoteOut:
    return VoteOut(power=seat.power, draw=seat.draw_vote, concede=seat.concede_to,
                   status=game.status, outcome=game.outcome)


@router.put("/games/{game_id}/vote", response_model=VoteOut)
def vote(game_id: GameId, body: VoteIn, who: CallerDep, j: JudgeDep) -> VoteOut:
    """Vote for a draw (``{"draw": true}``, withdrawn with ``false``) and/or concede the
    game to a power (``{"concede": "france"}``, withdrawn with ``null``). Unanimity
    among the surviving powers ends the game at once."""
    given = body.model_fields_set
    if not given:
        raise invalid("give \"draw\" (true or false) and/or \"concede\" (a power or null)")
    if "draw" in given and body.draw is None:
        raise invalid("\"draw\" is true or false")
    ended = None
    with j.db.write() as s:
        game = game_for_update(s, game_id)
        seat = _seat(s, game, who)
        require_active(game)
        rules = j.variants.rules(game)
        alive = rules.surviving_powers(game.state)
        if seat.power not in alive:
            raise conflict(f"{seat.power} is out of the game: it has no vote")
        if body.draw is not None:
            seat.draw_vote = body.draw
        if "concede" in given:
            to = None if body.concede is None else rules.power_id(body.concede)
            if to == seat.power:
                raise invalid("a power cannot concede to itself")
            if to is not None and to not in alive:
                raise conflict(f"{to} is out of the game: concede to a surviving power")
            seat.concede_to = to
        s.flush()
        voted = vote_outcome(rules, game.state, seats_of(s, game_id))
        if voted is not None:
            ended = end_by_vote(s, game, voted, utcnow())
        out = _out(seat, game)
    if ended is not None:
        j.notify("game_finished", game_id, outcome=ended)
    return out


@router.get("/games/{game_id}/vote", response_model=VoteOut)
def my_vote(game_id: GameId, who: CallerDep, j: JudgeDep) -> VoteOut:
    """The caller's own standing votes (nobody else's while the game runs)."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        return _out(_seat(s, game, who), game)


@router.get("/games/{game_id}/votes", response_model=VotesOut)
def all_votes(game_id: GameId, who: CallerDep, j: JudgeDep) -> VotesOut:
    """Every power's standing votes: only once the game is over (the ballot is
    secret while it runs)."""
    with j.db.read() as s:
        game = get_game(s, game_id)
        seats = seats_of(s, game_id)
        require_view(game, who, seats)
        if game.status != "finished":
            raise forbidden(f"the votes of game {game_id} are secret until it is over; "
                            "GET .../vote shows your own")
        return VotesOut(votes={p: {"draw": seat.draw_vote, "concede": seat.concede_to}
                               for p, seat in sorted(seats.items())}, outcome=game.outcome)
