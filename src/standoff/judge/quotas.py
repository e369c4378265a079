"""What one account may create: the limits on new games.

Why limits: an account costs nothing, and one made 520 games in 8.3 s. The
listing then held nothing but its games, pushing real open games out of the
lobby. So an account may master at most ``forming_games_max`` games that are
still forming (409 past that: it should fill or finish one first) and create
at most ``games_per_hour`` games in any rolling hour (429 with Retry-After).
Both are counted under a lock on the account's row, so concurrent requests
cannot all see "one left" and all create (PostgreSQL; SQLite has one writer
at a time anyway).
"""

from __future__ import annotations

import math
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .auth import Caller
from .context import Judge
from .db import utcnow
from .errors import ApiError, conflict
from .models import GameRow, User


def check_game_limits(s: Session, j: Judge, who: Caller) -> None:
    """Refuse a new game past the account's limits: 409 with a sentence when it
    masters ``forming_games_max`` forming games already, 429 with Retry-After
    when it created ``games_per_hour`` in the last hour (0 turns a limit off).
    Call it inside the write transaction that creates the game: it locks the
    account's row, so the count stays true until the game is added."""
    settings = j.settings
    if settings.forming_games_max <= 0 and settings.games_per_hour <= 0:
        return
    s.execute(select(User.id).where(User.id == who.user_id).with_for_update())
    if settings.forming_games_max > 0:
        forming = s.scalar(select(func.count()).select_from(GameRow).where(
            GameRow.master_id == who.user_id, GameRow.status == "forming")) or 0
        if forming >= settings.forming_games_max:
            raise conflict(f"you already master {forming} games that have not started (the "
                           f"most this judge allows at once is {settings.forming_games_max}): "
                           "fill one of them before creating another")
    if settings.games_per_hour > 0:
        since = utcnow() - timedelta(hours=1)
        recent = list(s.scalars(select(GameRow.created_at).where(
            GameRow.master_id == who.user_id, GameRow.created_at > since)
            .order_by(GameRow.created_at.desc()).limit(settings.games_per_hour)))
        if len(recent) >= settings.games_per_hour:
            wait = max(1, math.ceil((recent[-1] - since).total_seconds()))
            raise ApiError(429, f"you created {settings.games_per_hour} games in the last hour, "
                                f"the most this judge allows: try again in {wait} seconds",
                           {"Retry-After": str(wait)})
