"""Reading games saved by MILA's ``diplomacy`` package (``to_saved_game_format``).

A MILA saved game is one JSON object: ``{"id", "map", "rules", "phases": [...]}``,
each phase ``{"name": "S1901M", "state": {...}, "orders": {"FRANCE": [...]},
"results": {...}, "messages": [...]}`` and each state holding, among MILA's own
bookkeeping, ``units`` (``{"FRANCE": ["A PAR", "F STP/SC", "*A BUR"]}``, a star
marking a dislodged unit), ``retreats`` (``{"FRANCE": {"A BUR": ["PIC", ...]}}``)
and ``centers``. The last phase is the one being played (its orders may be
``null``); a finished game's is named ``COMPLETED``. The public game archives
ship one such object per line (JSON lines); both forms are read here.

The values here are MILA's data, checked for shape and nothing more: names
stay MILA's (``FRANCE``, ``STP/SC``), so a report can quote them. What they
mean to standoff is :mod:`standoff.mila.positions`'s business. Anything
malformed raises :class:`MilaError` naming the file and line, the game and the
phase, never a ``KeyError`` from deep inside.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from standoff import StandoffError

#: MILA's name of the one map standoff reads (its other maps are not standoff variants)
STANDARD_MAP = "standard"
#: the final phase name of a finished MILA game
COMPLETED = "COMPLETED"


class MilaError(StandoffError):
    """A MILA saved game standoff cannot read (malformed, or of an unknown map)."""


@dataclass(frozen=True)
class MilaState:
    """The part of a MILA phase state that adjudication depends on."""

    name: str
    #: power -> units on the board ("A PAR", "F STP/SC"), dislodged ones excluded
    units: Mapping[str, tuple[str, ...]]
    #: power -> dislodged unit -> where MILA lets it retreat
    retreats: Mapping[str, Mapping[str, tuple[str, ...]]]
    #: power -> supply centres owned
    centres: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class MilaPhase:
    name: str
    state: MilaState
    #: power -> orders as MILA recorded them (an unprocessed phase: often none)
    orders: Mapping[str, tuple[str, ...]]
    #: unit (or "WAIVE") -> MILA's result words ("bounce", "void", "dislodged", ...)
    results: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class MilaGame:
    id: str
    map: str
    rules: tuple[str, ...]
    phases: tuple[MilaPhase, ...]
    #: where it was read from ("games.jsonl:12"), for messages
    source: str

    def where(self, phase: str | None = None) -> str:
        """The game (and phase) as error messages and reports name it."""
        at = f"{self.source}: game {self.id}"
        return f"{at}, phase {phase}" if phase else at


def read_saved_games(path: str | Path) -> list[MilaGame]:
    """Every game in a file: one saved game (JSON), or one per line (JSON lines)."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    return list(saved_games_from_text(text, p.name))


def saved_games_from_text(text: str, name: str) -> Iterator[MilaGame]:
    """The games in ``text`` (see :func:`read_saved_games`); ``name`` names the file."""
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        yield saved_game_from_dict(whole, f"{name}:1")
        return
    lines = [(no, line) for no, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise MilaError(f"{name}: no game in the file")
    for no, line in lines:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise MilaError(f"{name}:{no}: not a JSON saved game ({exc.msg}, column "
                            f"{exc.colno})") from None
        yield saved_game_from_dict(data, f"{name}:{no}")


def saved_game_from_dict(data: Any, source: str) -> MilaGame:
    """One game from its JSON object; ``source`` ("file:line") is for messages."""
    if not isinstance(data, dict):
        raise MilaError(f"{source}: a saved game is a JSON object, not {_kind(data)}")
    gid = data.get("id") or data.get("game_id") or "?"
    if not isinstance(gid, str):
        gid = str(gid)
    at = f"{source}: game {gid}"
    mapname = data.get("map", STANDARD_MAP)
    if mapname != STANDARD_MAP:
        raise MilaError(f"{at}: map {mapname!r} is not supported (standoff reads MILA's "
                        f"{STANDARD_MAP!r} map only)")
    rules = data.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise MilaError(f"{at}: 'rules' must be a list of rule names")
    phases = data.get("phases")
    if not isinstance(phases, list) or not phases:
        raise MilaError(f"{at}: no 'phases' list")
    read = tuple(_phase(p, f"{at}, phase {i + 1}") for i, p in enumerate(phases))
    return MilaGame(gid, mapname, tuple(rules), read, source)


def _phase(data: Any, at: str) -> MilaPhase:
    if not isinstance(data, dict):
        raise MilaError(f"{at}: a phase is a JSON object, not {_kind(data)}")
    name = data.get("name")
    if not isinstance(name, str):
        raise MilaError(f"{at}: the phase has no 'name'")
    at = f"{at.rsplit(', phase ', 1)[0]}, phase {name}"
    state = data.get("state")
    if not isinstance(state, dict):
        raise MilaError(f"{at}: the phase has no 'state' object")
    read = state_from_dict(state, at, name)
    orders = {power: _strings(items or [], f"orders of {power}", at)
              for power, items in _mapping(data, "orders", at, required=False).items()}
    results = {str(unit): _strings(items or [], f"results of {unit}", at)
               for unit, items in _mapping(data, "results", at, required=False).items()}
    return MilaPhase(name, read, orders, results)


def state_from_dict(state: Any, at: str, name: str | None = None) -> MilaState:
    """One MILA phase state (a saved phase's ``"state"``, or MILA's and pydipcc's
    ``Game.get_state()``); ``at`` says where it is from, for messages."""
    if not isinstance(state, dict):
        raise MilaError(f"{at}: a state is a JSON object, not {_kind(state)}")
    units: dict[str, tuple[str, ...]] = {}
    for power, items in _mapping(state, "units", at).items():
        units[power] = tuple(u for u in _strings(items, f"units of {power}", at)
                             if not u.startswith("*"))
    retreats: dict[str, dict[str, tuple[str, ...]]] = {}
    for power, dislodged in _mapping(state, "retreats", at, required=False).items():
        if not isinstance(dislodged, dict):
            raise MilaError(f"{at}: retreats of {power} must be an object")
        retreats[power] = {str(u): _strings(where, f"retreats of {u}", at)
                           for u, where in dislodged.items()}
    centres = {power: _strings(items, f"centers of {power}", at)
               for power, items in _mapping(state, "centers", at).items()}
    return MilaState(str(state.get("name", name)), units, retreats, centres)


def _mapping(data: dict[str, Any], key: str, at: str, required: bool = True
             ) -> dict[str, Any]:
    value = data.get(key)
    if value is None and not required:
        return {}
    if not isinstance(value, dict):
        raise MilaError(f"{at}: {key!r} must be an object, not {_kind(value)}")
    return value


def _strings(value: Any, what: str, at: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise MilaError(f"{at}: {what} must be a list of strings, not {_kind(value)}")
    return tuple(value)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null",
            bool: "a boolean"}.get(type(value), "a number")
