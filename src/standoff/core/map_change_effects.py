"""What a change of map does to the pieces on it.

When the board in force after a season differs from the one the season was
played on (a variant with a changing map), every unit and every owned centre
is checked against the new board, after the moves and retreats and before
any adjustments:

* a unit on a space that became impassable is disbanded;
* a fleet whose coast is gone but whose space still touches a sea moves to the
  coast that remains ("if a fleet finds itself on a coastal province, no change
  results");
* a fleet left inland becomes an army of the same power when the variant says
  so (``stranded_fleets = "army"``) unless its owner ordered NO CONVERT this
  season; otherwise it is disbanded;
* a centre that stopped being a supply centre is owned by nobody.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .geography import Board, Terrain, UnitType
from .position import Unit


def apply_map_change(
    old: Board, new: Board, units: list[Unit], centres: Mapping[str, str],
    stranded_fleets: str, no_convert: Collection[str],
) -> tuple[list[Unit], Mapping[str, str], list[str]]:
    """Units and centres on the ``new`` board, and what happened: (units, centres, events)."""
    kept: list[Unit] = []
    events: list[str] = []
    for u in units:
        prov = new.provinces[u.province]
        if prov.terrain is Terrain.IMPASSABLE:
            events.append(f"{u} ({u.power}) is disbanded: {prov.name} became impassable")
        elif new.can_stand(u.type, u.location):
            kept.append(u)
        elif u.type is UnitType.FLEET and (coasts := [c for c in new.locations_of(prov.id)
                                                       if new.can_stand(u.type, c)]):
            moved = Unit(u.power, u.type, coasts[0])
            kept.append(moved)
            events.append(f"{u} ({u.power}) is now on {moved.location.upper()}: "
                          f"its coast has no sea left")
        elif u.type is UnitType.FLEET and stranded_fleets == "army" and \
                u.location not in no_convert:
            army = Unit(u.power, UnitType.ARMY, prov.id)
            kept.append(army)
            events.append(f"{u} ({u.power}) is stranded inland and becomes {army}")
        else:
            why = ("ordered NO CONVERT" if u.location in no_convert else
                   "cannot stand there any more")
            events.append(f"{u} ({u.power}) is disbanded: stranded inland, {why}")
    out = {c: p for c, p in centres.items() if new.provinces[c].supply_centre}
    for c in sorted(set(centres) - set(out)):
        events.append(f"{c.upper()} is no longer a supply centre ({centres[c]} loses it)")
    for pid, prov in new.provinces.items():
        before = old.provinces[pid]
        if prov.supply_centre and not before.supply_centre:
            events.append(f"{pid.upper()} becomes a supply centre")
        if prov.terrain is not before.terrain:
            events.append(f"{prov.name} ({pid.upper()}) is now {prov.terrain.value}")
    return kept, (centres if len(out) == len(centres) else out), events
