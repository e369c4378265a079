"""Stacked boards: every space of the base map on two (or more) levels.

Twin Earths (rules 2-3): "Munich I" and "Munich II" are separate spaces;
a unit may move or support only between *corresponding* spaces of different
levels. So the derived map is the base map copied once per level plus one link
between each space and its twin on every other level: armies between land
twins, fleets between sea twins and between the same coast of coastal twins
(our ruling: a fleet on the north coast of St Petersburg I reaches the north
coast of St Petersburg II, not the south). Convoys then need no special rule:
a chain of convoying fleets may step from a sea to its twin, which is exactly
rule 3's "passes between levels from province to corresponding province".

Ids get the level's number ("mun1", "stp2/nc"); names get the level's numeral
("Munich I"), and "mun i", "munich 1" and "mun1" are all read. The base map's
own names become notation hints, so "A mun - kie" is refused with a message
saying that every location needs its level.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .links import edges, join, province

_NUMERALS = ("I", "II", "III", "IV")


def twin_levels(data: dict[str, Any], derive: Mapping[str, Any]) -> dict[str, Any]:
    count = int(derive.get("levels", 2))
    if not 2 <= count <= len(_NUMERALS):
        raise ValueError(f"levels must be 2 to {len(_NUMERALS)}")
    levels = [(str(i + 1), _NUMERALS[i]) for i in range(count)]
    base = data["provinces"]

    def at(location: str, n: str) -> str:
        prov, sep, coast = location.partition("/")
        return f"{prov}{n}{sep}{coast}"

    provinces: dict[str, Any] = {}
    hints: dict[str, str] = {}
    for pid, p in base.items():
        names = [pid, p["name"], *p.get("aliases", ())]
        forms = " or ".join(f"'{pid.upper()} {numeral}'" for _, numeral in levels)
        for name in names:
            hints[name.lower()] = (f"{name!r} needs its board level: write {forms} "
                                   "(Twin Earths: every location names its level)")
        for n, numeral in levels:
            q = dict(p)
            q["name"] = f"{p['name']} {numeral}"
            aliases = []
            for name in names:
                aliases += [f"{name} {numeral}", f"{name} {n}", f"{name}-{numeral}"]
            q["aliases"] = [a for a in dict.fromkeys(aliases) if a.lower() != f"{pid}{n}"]
            q["level"] = numeral
            provinces[f"{pid}{n}"] = q
    adjacency = data["adjacency"]
    army = [(at(a, n), at(b, n)) for a, b in edges(adjacency, "army") for n, _ in levels]
    fleet = [(at(a, n), at(b, n)) for a, b in edges(adjacency, "fleet") for n, _ in levels]
    strike = [(at(a, n), at(b, n)) for a, b in edges(adjacency, "strike_only")
              for n, _ in levels]
    # Rule 2: corresponding spaces of different levels are adjacent.
    for pid, p in base.items():
        terrain = p["terrain"]
        pairs = [(levels[i][0], levels[j][0]) for i in range(count) for j in range(i + 1, count)]
        for m, n in pairs:
            if terrain in ("land", "coast"):
                army.append((f"{pid}{m}", f"{pid}{n}"))
            if terrain == "sea" or (terrain == "coast" and not p.get("coasts")):
                fleet.append((f"{pid}{m}", f"{pid}{n}"))
            for c in p.get("coasts", ()):
                fleet.append((f"{pid}{m}/{c}", f"{pid}{n}/{c}"))
    powers = {}
    for pid, pw in data["powers"].items():
        q = dict(pw)
        q["home_centres"] = [at(h, n) for h in pw["home_centres"] for n, _ in levels]
        q["units"] = []  # Twin Earths rule 1: the game starts on an empty board
        powers[pid] = q
    out = dict(data)
    out["provinces"] = provinces
    out["adjacency"] = {"army": join(army), "fleet": join(fleet),
                        "strike_only": join(strike, directed=True)}
    out["powers"] = powers
    notation = dict(out.get("notation", {}))
    notation["hints"] = {**notation.get("hints", {}), **hints}
    out["notation"] = notation
    assert all(province(a) in provinces for a, _ in army)
    return out
