"""What the rules will do after this season, read ahead by the heuristic bot:
a changing map's next board, and a victory rule that names a space.

A changing map (Sahara) applies its change after the season's moves and
retreats (Sahara rules 2, 3 and 5): a unit on a space that turns impassable is
disbanded; a fleet whose coast is gone but whose space still touches a sea
moves to the coast left; a fleet left inland becomes an army of its power,
unless its owner ordered NO CONVERT for it that season, when it disbands (or
is always disbanded where the variant never converts). :class:`MapAhead` says
which of these happens to a unit ending the season at a location
(:meth:`MapAhead.fate`), what it is then worth, and when a fleet should refuse
to change (:meth:`MapAhead.refusals`).

Refusing looks like throwing a unit away, and mostly is: an army is worth
something and a disbanded fleet nothing. It pays when the change comes in the
autumn, just before the adjustments, and the power's centres after it would
pay for a build to replace the fleet at a free site of its own (Sahara rule 4:
any owned, unoccupied centre) that is worth more than the army the fleet would
become: the fleet is then in effect moved to that site. When the power has no
spare build (its units already as many as its centres, or no free site), the
army is kept: a removal, if one is due, takes the unit worth least anyway.

A victory rule naming a space (:class:`standoff.LastUnitIn`: "the player with
the final unit in Iceland after Between Summers 1911", Sahara rule 7) makes
that space a goal: worth more the nearer the deciding phase (:func:`goals`).
Everything is read from the variant's rules (``board_at``, ``stranded_fleets``,
``build_sites``, ``victory``), never from its name.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final

from standoff import (
    Board,
    LastUnitIn,
    Phase,
    Position,
    Terrain,
    UnitType,
    Variant,
    province_of,
)

from .values import Values

#: a goal space's worth in the deciding year (divided by 1 + the years still to go)
GOAL: Final = 20.0


def goals(v: Variant, phase: Phase) -> dict[str, float]:
    """Spaces the victory rule names, each with its worth to a unit standing
    there or near it this phase: nothing once the deciding phase is past."""
    rule = v.victory
    if isinstance(rule, LastUnitIn) and phase <= rule.after:
        return {rule.space: GOAL / (1 + rule.after.year - phase.year)}
    return {}


class Fate(Enum):
    """What the change of map does to a unit."""

    STAYS = "stays"  # (perhaps on the coast that remains)
    CONVERTS = "converts"  # a fleet left inland becomes an army
    GONE = "gone"  # disbanded


class MapAhead:
    """The board after this season (``after``) against the one played on
    (``now``), for one power; ``changes`` is False where the map stays."""

    def __init__(self, v: Variant, pos: Position, pid: str, now: Board, after: Board) -> None:
        self.v, self.pos, self.pid, self.now, self.after = v, pos, pid, now, after
        self.changes = after is not now
        self.converts = v.stranded_fleets == "army"

    def fate(self, utype: UnitType | None, loc: str) -> tuple[Fate, str]:
        """What happens to a unit of this type ending the season at ``loc``,
        and where it stands then (as ``map_change_effects`` rules it)."""
        if not self.changes:
            return Fate.STAYS, loc
        b = self.after
        prov = province_of(loc)
        if b.provinces[prov].terrain is Terrain.IMPASSABLE:
            return Fate.GONE, loc
        kind = UnitType.ARMY if utype is UnitType.ARMY else UnitType.FLEET
        if b.can_stand(kind, loc):
            return Fate.STAYS, loc
        if kind is UnitType.FLEET:
            coasts = [c for c in b.locations_of(prov) if b.can_stand(kind, c)]
            if coasts:
                return Fate.STAYS, coasts[0]
            if self.converts and b.can_stand(UnitType.ARMY, prov):
                return Fate.CONVERTS, prov
        return Fate.GONE, loc

    def worth(self, vals: Values, utype: UnitType | None, loc: str) -> float:
        """What a unit ending the season at ``loc`` is worth after the change:
        an army where a fleet converts, nothing where it is disbanded."""
        fate, where = self.fate(utype, loc)
        if fate is Fate.GONE:
            return 0.0
        if fate is Fate.CONVERTS:
            return vals.army(where)
        return vals.of(utype, where)

    def spare_builds(self, vals: Values, autumn: bool) -> list[float]:
        """The worths of the builds a refusing fleet would make room for, best
        first: one per spare build site, where the power's centres after an
        autumn change would pay for more units than it keeps (none in the
        spring, or where the map stays: no adjustment follows the change)."""
        if not (self.changes and autumn and self.converts):
            return []
        pid, pos, b = self.pid, self.pos, self.after
        centres = {c: p for c, p in pos.centres.items()
                   if c in b.provinces and b.provinces[c].supply_centre}
        mine = sum(1 for p in centres.values() if p == pid)
        kept = sum(1 for u in pos.units if u.power == pid
                   and self.fate(u.type, u.location)[0] is not Fate.GONE)
        if mine < kept:
            return []  # removals are due whatever a fleet does
        occupied = {u.province for u in pos.units}
        worths = sorted((self.site_worth(vals, s) for s in
                         self.v.build_sites.sites(self.v, pid, centres, occupied)),
                        reverse=True)
        return worths[mine - kept:]  # the first ones the power builds anyway

    def site_worth(self, vals: Values, site: str) -> float:
        """The best unit's worth built at ``site`` on the board after the change."""
        b = self.after
        best = vals.army(site) if b.can_stand(UnitType.ARMY, site) else 0.0
        for loc in b.locations_of(site):
            if b.can_stand(UnitType.FLEET, loc):
                best = max(best, vals.fleet(loc))
        return best

    def refusals(self, spare: list[float], armies: Iterable[tuple[float, str]]) -> list[str]:
        """The fleets to order NO CONVERT: of ``armies`` (what the army a fleet
        left inland becomes is worth, the fleet's location), those worth less
        than the spare build (:meth:`spare_builds`) their disbanding makes room
        for, the worst army paired with the best build."""
        out = []
        for (army, loc), build in zip(sorted(armies), spare, strict=False):
            if build > army:
                out.append(loc)
        return out
