"""How each section of a variant file becomes a typed value: the board (provinces
and adjacency), the calendar, the victory rule, a starting unit, the notes.

Kept apart from :mod:`standoff.core.variant`, which reads, derives and registers
whole variants: these functions know one section each and nothing of files,
bases or registries, so the variant module stays about variants. Each raises
:class:`VariantError` (or a ``KeyError``/``ValueError`` the loader turns into
one, naming the file) for data it cannot read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import VariantError
from .geography import Board, Province, Terrain, UnitType
from .hooks import VICTORY
from .phase import Calendar, Era
from .victory import CentreCountWinner, VictoryRule


def read_links(text: str | list[str]) -> list[tuple[str, str]]:
    """``[adjacency]`` links, ``"a-b c-d"`` or a list of them, as pairs (a designer's
    typo is named, not silently dropped)."""
    out = []
    items = text.split() if isinstance(text, str) else text
    for item in items:
        a, sep, b = item.partition("-")
        if not sep or not a or not b:
            raise VariantError(f"bad link {item!r} (expected 'a-b')")
        out.append((a, b))
    return out


def build_board(data: Mapping[str, Any]) -> Board:
    """The board of a variant's raw data (``provinces`` and ``adjacency``)."""
    provinces = []
    for pid, p in data["provinces"].items():
        terrain = Terrain(p["terrain"])
        provinces.append(
            Province(
                id=pid,
                name=p["name"],
                terrain=terrain,
                supply_centre=bool(p.get("centre", False)),
                coasts=tuple(f"{pid}/{c}" for c in p.get("coasts", ())),
                aliases=tuple(p.get("aliases", ())),
                capacity=int(p.get("capacity", 1)),
                convoys=bool(p.get("convoys", terrain is Terrain.SEA)),
                level=str(p.get("level", "")),
            )
        )
    adj = data["adjacency"]
    return Board.build(
        provinces,
        read_links(adj.get("army", "")),
        read_links(adj.get("fleet", "")),
        read_links(adj.get("strike_only", "")),
        {str(c): [str(x) for x in seas] for c, seas in data.get("canals", {}).items()},
    )


def read_calendar(head: Mapping[str, Any], cal: Mapping[str, Any]) -> Calendar:
    """``[calendar]`` (with the early ``[variant]`` keys still read): seasons, their
    letters, the optional ones and the eras, every era naming as many seasons."""
    seasons = tuple(cal.get("seasons", head.get("seasons", ("Spring", "Fall"))))
    optional = cal.get("optional", ())
    eras = tuple(
        Era(int(e["from_year"]), tuple(e["seasons"]), str(e["adjustment_season"]))
        for e in cal.get("eras", ())
    )
    for era in eras:
        if len(era.seasons) != len(seasons):
            raise VariantError(f"calendar era from {era.from_year} names "
                               f"{len(era.seasons)} seasons, not {len(seasons)}")
    return Calendar(
        seasons=seasons,
        adjustment_season=cal.get("adjustment_season", head.get("adjustment_season", "Winter")),
        letters=tuple(cal.get("letters", ())),
        adjustment_letter=str(cal.get("adjustment_letter", "")),
        optional=frozenset(seasons.index(o) for o in optional),
        eras=eras,
    )


#: a variant's notes: at most this many lines, each at most this many characters
MAX_NOTES = 12
MAX_NOTE_CHARS = 400


def read_notes(raw: object) -> tuple[str, ...]:
    """``[variant] notes``: a list of short strings (a designer's file is bounded like
    everything it holds)."""
    if not isinstance(raw, (list, tuple)) or not all(isinstance(n, str) for n in raw):
        raise VariantError("[variant] notes must be a list of strings")
    if len(raw) > MAX_NOTES or any(len(n) > MAX_NOTE_CHARS for n in raw):
        raise VariantError(f"[variant] notes: at most {MAX_NOTES} lines of "
                           f"{MAX_NOTE_CHARS} characters")
    return tuple(n.strip() for n in raw)


def read_victory(data: Mapping[str, Any], calendar: Calendar) -> VictoryRule:
    """The victory rule the ``[victory]`` table names by its key
    (:data:`standoff.core.hooks.VICTORY`); the early ``victory_centres`` of
    ``[variant]`` is still read."""
    table = data.get("victory", {})
    head = data["variant"]
    if not table and "victory_centres" in head:
        return CentreCountWinner(int(head["victory_centres"]))
    kinds = [k for k in VICTORY if k in table]
    if len(kinds) != 1:
        raise VariantError(f"[victory] needs exactly one of {', '.join(VICTORY)}")
    return VICTORY[kinds[0]](table, calendar)


def read_unit(board: Board, text: str, owner: str) -> tuple[UnitType, str]:
    """A starting unit, ``"F stp/sc"``, checked against the board: a unit placed
    where it cannot stand is the file's error, not a position's."""
    kind, loc = text.split()
    unit_type = UnitType(kind.upper())
    if not board.can_stand(unit_type, loc):
        raise VariantError(f"starting unit {text!r} of {owner} cannot stand there")
    return unit_type, loc
