"""Who may touch which game: every route's checks, written once and chained.

A route takes the game (404 when there is none), then the caller's part in it
(403 when they have none), then the state the action needs (409):

* :func:`get_game` reads a game; :func:`game_for_update` reads it and locks its
  row for the rest of the write transaction (every change to a game locks it
  first, so its state, seats and phase move one step at a time whatever the
  number of server processes: see ``processing``);
* :func:`player_seat` is the caller's seat (403 for anyone who plays no power),
  :func:`member_power` the caller's power or ``None`` for the master who plays
  none (press: players and master), :func:`require_master` the master;
  :func:`master_game_for_update` chains the lock and the master;
* :func:`require_view` says who may see a game at all (private games: their
  master, players and, while forming, the holders of the invite code);
* :func:`require_active`: the game is running (409 while forming or over).

They are plain functions rather than FastAPI dependencies because the lock must
be taken inside the route's ``with j.db.write()`` transaction; the chaining is
the same as ``valid_post_id`` -> ``valid_owned_post``.
"""

from __future__ import annotations

import hmac

from sqlalchemy import select
from sqlalchemy.orm import Session

from .auth import Caller
from .errors import conflict, forbidden, not_found
from .models import GameRow, Seat


def lock_game(s: Session, game_id: int, *, skip_locked: bool = False) -> GameRow | None:
    """The game's row, locked for the rest of the transaction (None: no such game,
    or with ``skip_locked`` another transaction holds it)."""
    query = (select(GameRow).where(GameRow.id == game_id)
             .with_for_update(skip_locked=skip_locked)
             .execution_options(populate_existing=True))
    return s.scalars(query).first()


def get_game(s: Session, game_id: int) -> GameRow:
    """The game, read (404 when there is none)."""
    game = s.get(GameRow, game_id)
    if game is None:
        raise not_found(f"there is no game {game_id}")
    return game


def game_for_update(s: Session, game_id: int) -> GameRow:
    """The game, its row locked until the transaction ends (404 when there is none)."""
    game = lock_game(s, game_id)
    if game is None:
        raise not_found(f"there is no game {game_id}")
    return game


def seats_of(s: Session, game_id: int) -> dict[str, Seat]:
    """The game's seats by power."""
    return {seat.power: seat for seat in s.scalars(select(Seat).where(Seat.game_id == game_id))}


def seat_of(seats: dict[str, Seat], user_id: int) -> Seat | None:
    return next((seat for seat in seats.values() if seat.user_id == user_id), None)


def player_seat(s: Session, game: GameRow, who: Caller, why: str = "") -> Seat:
    """The caller's seat in the game: 403 for anyone who plays no power (``why``
    ends the sentence: what only players may do)."""
    seat = seat_of(seats_of(s, game.id), who.user_id)
    if seat is None:
        raise forbidden(f"you play no power in game {game.id}{why}")
    return seat


def member_power(s: Session, game: GameRow, who: Caller, doing: str) -> str | None:
    """The caller's power in the game, or None for its master playing no power; 403
    for anyone else (``doing``: what only players and master may do)."""
    seat = seat_of(seats_of(s, game.id), who.user_id)
    if seat is not None:
        return seat.power
    if who.user_id == game.master_id:
        return None
    raise forbidden(f"only the players and master of game {game.id} {doing}")


def require_master(game: GameRow, who: Caller) -> None:
    if who.user_id != game.master_id:
        raise forbidden(f"only the master of game {game.id} may do that")


def master_game_for_update(s: Session, game_id: int, who: Caller) -> GameRow:
    """The game's row, locked, when the caller is its master (404, 403 otherwise)."""
    game = game_for_update(s, game_id)
    require_master(game, who)
    return game


def require_active(game: GameRow) -> None:
    if game.status == "forming":
        raise conflict(f"game {game.id} has not started: it waits for players")
    if game.status == "finished":
        raise conflict(f"game {game.id} is over")


def invited(game: GameRow, who: Caller, invite: str | None) -> bool:
    """May the caller join this game? A public one: anyone; a private one: its
    master, or whoever gives its invite code (compared in constant time)."""
    return not game.private or who.user_id == game.master_id or hmac.compare_digest(
        (invite or "").encode(), (game.invite_code or "").encode())


def require_view(game: GameRow, who: Caller, seats: dict[str, Seat],
                 invite: str | None = None) -> None:
    """403 unless the caller may see this game: a private one, its master and
    players, and while it is forming or has a seat open for a replacement, whoever
    holds its invite code (to pick a power, or take the open seat)."""
    joinable = game.status == "forming" or (game.status == "active" and any(
        seat.open for seat in seats.values()))
    if game.private and seat_of(seats, who.user_id) is None and not (
            joinable and invite and invited(game, who, invite)) \
            and who.user_id != game.master_id:
        raise forbidden(f"game {game.id} is private: only its master and players see it")
