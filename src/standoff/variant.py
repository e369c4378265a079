"""Variants are data: a TOML file per variant, read into a :class:`Variant`.

The file names the map (provinces, terrain, centres, coasts, adjacency), the
powers with their home centres and starting units, the calendar and the victory
condition. Special rules are small named hook modules listed in the file
(``hooks = [...]``); the core never asks "which variant is this?".

Format (see ``variants/standard.toml`` for a complete example)::

    [variant]  name, title, aliases, start ("S1901M"), victory_centres,
               seasons (["Spring", "Fall"]), adjustment_season ("Winter")
    [powers.<id>]  name, adjective, home_centres, units (["A par", "F stp/sc"])
    [provinces]  <id> = { name, terrain, centre, coasts, aliases, capacity, convoys }
    [adjacency]  army, fleet, strike_only: whitespace-separated "a-b" links
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import VariantError
from .geography import Board, Province, Terrain, UnitType, province_of
from .phase import Calendar, Phase


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    adjective: str
    home_centres: tuple[str, ...]
    #: starting units as (type, location)
    units: tuple[tuple[UnitType, str], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    name: str
    title: str
    aliases: tuple[str, ...]
    powers: Mapping[str, Power]
    board: Board
    calendar: Calendar
    start: Phase
    victory_centres: int
    hooks: tuple[str, ...] = ()

    def board_at(self, phase: Phase) -> Board:
        """The map in force during ``phase`` (one board unless a hook changes it)."""
        return self.board

    def power(self, text: str) -> str:
        """Find a power id by id, name or adjective, case-insensitively."""
        found = self._power_names().get(text.strip().lower())
        if found is None:
            raise VariantError(
                f"unknown power {text!r} in {self.title} "
                f"(powers: {', '.join(p.name for p in self.powers.values())})"
            )
        return found

    def _power_names(self) -> dict[str, str]:
        return _power_table(self)

    @property
    def supply_centres(self) -> frozenset[str]:
        return frozenset(p.id for p in self.board.provinces.values() if p.supply_centre)

    def home_of(self, province: str) -> str | None:
        """The power whose home centre this is, if any."""
        for p in self.powers.values():
            if province in p.home_centres:
                return p.id
        return None


@cache
def _power_table(variant: Variant) -> dict[str, str]:
    table: dict[str, str] = {}
    for p in variant.powers.values():
        for key in (p.id, p.name, p.adjective):
            table[key.lower()] = p.id
    return table


def _variant_dir() -> Path:
    return Path(str(resources.files("standoff") / "variants"))


@cache
def available_variants() -> dict[str, Path]:
    """Every variant name and alias (lower case) -> its data file."""
    names: dict[str, Path] = {}
    for path in sorted(_variant_dir().glob("*.toml")):
        with path.open("rb") as fh:
            head = tomllib.load(fh).get("variant", {})
        for n in [head.get("name", path.stem), *head.get("aliases", [])]:
            names[str(n).lower()] = path
    return names


_REGISTERED: dict[str, Variant] = {}


def register_variant(variant: Variant) -> None:
    """Make a variant built in code (or loaded from a file) known by its name,
    so positions and games that name it can find it again."""
    for key in (variant.name, *variant.aliases):
        _REGISTERED[key.lower()] = variant


def load_variant(name: str = "standard") -> Variant:
    """A registered variant, a built-in one by name/alias, or a variant file by path."""
    found = _REGISTERED.get(name.lower())
    return found if found is not None else _load_variant(name)


@cache
def _load_variant(name: str) -> Variant:
    path = Path(name)
    if not (path.suffix == ".toml" and path.exists()):
        found = available_variants().get(name.strip().lower())
        if found is None:
            known = ", ".join(sorted(available_variants()))
            raise VariantError(f"unknown variant {name!r} (known: {known})")
        path = found
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise VariantError(f"cannot read variant file {path}: {exc}") from exc
    try:
        return _build(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise VariantError(f"variant file {path} is malformed: {exc!r}") from exc


def _edges(text: str) -> list[tuple[str, str]]:
    out = []
    for item in text.split():
        a, sep, b = item.partition("-")
        if not sep or not a or not b:
            raise VariantError(f"bad link {item!r} (expected 'a-b')")
        out.append((a, b))
    return out


def _build(data: dict[str, Any]) -> Variant:
    head = data["variant"]
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
            )
        )
    adj = data["adjacency"]
    board = Board.build(
        provinces,
        _edges(adj.get("army", "")),
        _edges(adj.get("fleet", "")),
        _edges(adj.get("strike_only", "")),
    )
    calendar = Calendar(
        seasons=tuple(head.get("seasons", ("Spring", "Fall"))),
        adjustment_season=head.get("adjustment_season", "Winter"),
    )
    powers = {}
    for pid, p in data["powers"].items():
        units = []
        for u in p.get("units", ()):
            kind, loc = u.split()
            unit_type = UnitType(kind.upper())
            if not board.can_stand(unit_type, loc):
                raise VariantError(f"starting unit {u!r} of {pid} cannot stand there")
            units.append((unit_type, loc))
        homes = tuple(p["home_centres"])
        for h in homes:
            if not board.provinces[province_of(h)].supply_centre:
                raise VariantError(f"home centre {h!r} of {pid} is not a supply centre")
        powers[pid] = Power(pid, p["name"], p.get("adjective", p["name"]), homes, tuple(units))
    return Variant(
        name=head["name"],
        title=head.get("title", head["name"]),
        aliases=tuple(head.get("aliases", ())),
        powers=powers,
        board=board,
        calendar=calendar,
        start=Phase.parse(head.get("start", "S1901M"), calendar),
        victory_centres=int(head["victory_centres"]),
        hooks=tuple(head.get("hooks", ())),
    )
