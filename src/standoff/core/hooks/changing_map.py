"""A map that changes on a schedule: seas dry up, spaces open or close, centres
come and go (Sahara rules 2, 3 and 5, but nothing here is Sahara's own).

Data (``[map_changes]`` in the variant file)::

    borders = "cas-sev cas-arm"     # links of spaces that are shut at the start
    [[map_changes.schedule]]
    after = "F1902"                  # after that season's moves and retreats
    to_land = ["eas", "ion"]         # seas that become land
    opens = ["cas"]                  # shut spaces that become land
    impassable = ["naf"]             # spaces that become impassable
    centre_lost = ["smy"]            # centres that become ordinary spaces
    centre_gained = ["aeg"]          # spaces that become centres
    centres_only = ["ice"]           # every centre but these becomes ordinary

A space that becomes impassable stops being a centre at once (nobody could
ever occupy it again; Sahara's Aegean is impassable from Fall 1905 but its
centre is listed as lost only in Spring 1906).

A change made after season S of year Y is in force from the phase after S's
retreats: the next season's movement, or the adjustment phase if S is the
last season. What the change does to the units on it (a stranded fleet, a unit
on a space turned impassable) is the core's business
(:func:`standoff.core.map_change_effects.apply_map_change`), because it follows
from the two boards alone.

Each board is derived from the starting one and the changes so far:

* a space is sea, land (coast when it borders a sea) or impassable;
* armies link every two bordering land spaces;
* fleets link bordering seas, a sea and each coast touching it, and two
  coasts that touch a common sea: old coasts keep the coast links they had
  (while a common sea remains), a new coast (a dried sea) links to every
  bordering coast it shares a sea with. So the first board equals the
  starting map;
* a split coast whose seas are all gone is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..geography import Board, Province, Terrain
from ..phase import Calendar, Phase, PhaseKind
from .links import province


class Timeline(Protocol):
    """A map that changes during the game (``changing_map``): the board in force
    at each phase."""

    def board_at(self, phase: Phase) -> Board: ...

    def problems(self) -> list[str]:
        """What in the schedule names spaces the map lacks (for check-variant)."""
        ...


@dataclass(frozen=True, slots=True)
class Change:
    year: int
    season: int
    to_land: frozenset[str]
    opens: frozenset[str]
    impassable: frozenset[str]
    centre_lost: frozenset[str]
    centre_gained: frozenset[str]
    centres_only: frozenset[str] | None

    def applies_to(self, phase: Phase) -> bool:
        """In force during ``phase``: anything after this season's retreats."""
        rank = {PhaseKind.MOVEMENT: 0, PhaseKind.RETREAT: 1, PhaseKind.ADJUSTMENT: 2}
        return (phase.year, phase.season, rank[phase.kind]) > (self.year, self.season, 1)


class ChangingMap:
    """The board in force at each phase (a :class:`Timeline`)."""

    def __init__(self, data: Mapping[str, Any], board: Board, calendar: Calendar) -> None:
        spec = data.get("map_changes", {})
        self.start = board
        self.provinces = dict(board.provinces)
        self.base_fleet = {loc: set(links) for loc, links in board.fleet_links.items()}
        borders: dict[str, set[str]] = {p: set(n) for p, n in board.neighbours.items()}
        text = spec.get("borders", "")
        for item in text.split() if isinstance(text, str) else text:
            a, _, b = str(item).partition("-")
            borders.setdefault(a, set()).add(b)
            borders.setdefault(b, set()).add(a)
        self.borders = borders
        changes = []
        for entry in spec.get("schedule", ()):
            ph = Phase.parse(str(entry["after"]) + "M", calendar)
            sets = {k: frozenset(str(x) for x in entry.get(k, ()))
                    for k in ("to_land", "opens", "impassable", "centre_lost", "centre_gained")}
            only = frozenset(str(x) for x in entry["centres_only"]) \
                if "centres_only" in entry else None
            changes.append(Change(ph.year, ph.season, centres_only=only, **sets))
        self.changes = sorted(changes, key=lambda c: (c.year, c.season))
        self._boards: dict[int, Board] = {0: board}

    def problems(self) -> list[str]:
        """Schedule entries naming spaces the map does not have (for check-variant)."""
        out = []
        for c in self.changes:
            for what in ("to_land", "opens", "impassable", "centre_lost", "centre_gained",
                         "centres_only"):
                for p in sorted(getattr(c, what) or ()):
                    if p not in self.provinces:
                        out.append(f"schedule {c.year}/{c.season} {what}: unknown space {p!r}")
                    elif what == "to_land" and self.provinces[p].terrain is not Terrain.SEA:
                        out.append(f"schedule {c.year}/{c.season} to_land: {p!r} is not a sea")
        for p, near in self.borders.items():
            for q in near:
                if q not in self.provinces:
                    out.append(f"map_changes borders: unknown space {q!r} (next to {p!r})")
        return out

    def board_at(self, phase: Phase) -> Board:
        k = 0
        for c in self.changes:
            if c.applies_to(phase):
                k += 1
        board = self._boards.get(k)
        if board is None:
            board = self._boards[k] = self._build(self.changes[:k])
        return board

    def _build(self, changes: list[Change]) -> Board:
        dried: set[str] = set()
        opened: set[str] = set()
        shut: set[str] = set()
        centres = {p for p, q in self.provinces.items() if q.supply_centre}
        for c in changes:
            dried |= c.to_land
            opened |= c.opens
            shut |= c.impassable
            centres -= c.centre_lost
            centres |= c.centre_gained
            if c.centres_only is not None:
                centres &= c.centres_only
        centres -= shut

        def kind(p: str) -> str:
            base = self.provinces[p].terrain
            if p in shut:
                return "shut"
            if base is Terrain.SEA:
                return "land" if p in dried else "sea"
            if base is Terrain.IMPASSABLE:
                return "land" if p in opened else "shut"
            return "land"

        kinds = {p: kind(p) for p in self.provinces}
        seas = {p for p, k in kinds.items() if k == "sea"}
        # sea contact of every land location (base coasts keep theirs; new coasts get all)
        touch: dict[str, set[str]] = {}
        provinces = []
        for pid, prov in self.provinces.items():
            k = kinds[pid]
            if k != "land":
                terrain = Terrain.SEA if k == "sea" else Terrain.IMPASSABLE
                provinces.append(Province(pid, prov.name, terrain, pid in centres and k == "sea",
                                          (), prov.aliases, prov.capacity, k == "sea",
                                          prov.level))
                continue
            if prov.terrain in (Terrain.COAST, Terrain.LAND):
                locs = prov.coasts or (pid,)
                for loc in locs:
                    near = {s for s in self.base_fleet.get(loc, ()) if s in seas}
                    if near:
                        touch[loc] = near
            else:
                near = {s for s in self.borders[pid] if s in seas}
                if near:
                    touch[pid] = near
            coasts = tuple(c for c in prov.coasts if c in touch)
            coastal = any(province(loc) == pid for loc in touch)
            provinces.append(Province(pid, prov.name, Terrain.COAST if coastal else Terrain.LAND,
                                      pid in centres, coasts, prov.aliases, prov.capacity,
                                      False, prov.level))
        land = {p for p, k in kinds.items() if k == "land"}
        army = [(a, b) for a in sorted(land) for b in self.borders[a] if b in land and a < b]
        fleet = [(a, b) for a in sorted(seas) for b in self.borders[a] if b in seas and a < b]
        fleet += [(loc, s) for loc, near in touch.items() for s in near]
        shore = sorted(touch)
        for i, x in enumerate(shore):
            for y in shore[i + 1:]:
                px, py = province(x), province(y)
                if px == py or py not in self.borders[px] or not touch[x] & touch[y]:
                    continue
                if x in self.base_fleet and y in self.base_fleet and y not in self.base_fleet[x]:
                    continue  # two old coasts keep only the coast links they had
                fleet.append((x, y))
        return Board.build(provinces, army, fleet)


def make_timeline(data: Mapping[str, Any], board: Board, calendar: Calendar) -> ChangingMap:
    return ChangingMap(data, board, calendar)
