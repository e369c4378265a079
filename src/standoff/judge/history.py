"""A game's history: its processed phases, as ``processing`` recorded them.

Only processed phases are history (one ``PhaseRow`` each: the position, every
power's orders, the results, the report); the current phase lives in the game's
row, and its pending orders are never read here. Why a module: the history is
read by the phase list and the map (``routes/history.py``) and by a planning
board made from a past phase (``routes/boards.py``); the queries are written
once, here. Who may see a game is ``access.require_view``, asked by the caller
first.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import PhaseRow
from .schemas import PhaseOut


def phases(s: Session, game_id: int, since: int = 0) -> list[PhaseOut]:
    """The game's processed phases, oldest first, skipping the first ``since``."""
    rows = s.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id,
                                            PhaseRow.turn >= since)
                     .order_by(PhaseRow.turn)).all()
    return [PhaseOut(phase=r.phase, position=r.position, orders=r.orders, results=r.results,
                     events=[str(e) for e in r.events], report=r.report,
                     report_text=r.report_text, processed_at=r.processed_at,
                     bots=dict(r.bots or {}), missed=list(r.missed or []))
            for r in rows]


def processed_phase(s: Session, game_id: int, phase: str) -> PhaseRow | None:
    """The game's processed phase of that name (``S1901M``, as the rules write it),
    or None: a phase not reached yet, the current one, or no phase at all."""
    return s.scalars(select(PhaseRow).where(PhaseRow.game_id == game_id,
                                            PhaseRow.phase == phase)).first()
