"""MILA JSON interop: games saved by MILA's ``diplomacy`` package, read, replayed, written.

MILA's ``diplomacy`` (AGPL-3.0, never a dependency: this wing only reads and
writes its JSON) saves games with ``to_saved_game_format``, the format of the
large public game archives; Cicero's engine (pydipcc) reads the same format
with ``Game.from_json``. This wing

* reads such games, one JSON object or JSON lines (:mod:`.saved_game`), Standard
  map only;
* replays each recorded phase through standoff and reports every phase where
  the engines disagree, with the known MILA departure from DATC 3.0 that
  explains it and the DATC rule that decides it (:mod:`.replay`,
  :mod:`.differences`, the rules a game was played with in :mod:`.rules`);
* writes a standoff game in that format (:mod:`.export`).

It reaches the rules core only through ``standoff``, like every adapter.
"""

from __future__ import annotations

from .differences import CAUSES, UNEXPLAINED, Cause, Difference, classify
from .export import mila_order, to_saved_game
from .positions import State, position_from_state, state_of_mila, state_of_position
from .replay import Disagreement, Replay, replay, tally
from .rules import RULES, variant_for
from .saved_game import (
    MilaError,
    MilaGame,
    MilaPhase,
    MilaState,
    read_saved_games,
    saved_game_from_dict,
    saved_games_from_text,
    state_from_dict,
)

__all__ = [
    "CAUSES", "RULES", "UNEXPLAINED", "Cause", "Difference", "Disagreement", "MilaError",
    "MilaGame", "MilaPhase", "MilaState", "Replay", "State", "classify", "mila_order",
    "position_from_state", "read_saved_games", "replay", "saved_game_from_dict",
    "saved_games_from_text", "state_from_dict", "state_of_mila", "state_of_position",
    "tally", "to_saved_game", "variant_for",
]
