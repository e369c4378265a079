"""Split centres: every supply centre becomes a City and a Country.

City/Country Diplomacy (rules .1-.5). The Country keeps the centre's id, name,
terrain, coasts and sea contacts but is an ordinary space; the City is a new
space ``<id>*`` ("mun*", "Munich-City", "Munich*") and is the supply centre.

Links (.3): both parts link to every land space the old centre touched, and
to both parts of every neighbouring old centre; the two parts link to each
other. Data in the ``[derive]`` table then applies the text's exceptions:

* ``city_seas``: the seas each City touches (.4-.405); a City with none is inland;
* ``no_link``: pairs of spaces not linked (.301, .302, .304);
* ``only_links``: a City linked by land to these spaces only (.303, .305);
* ``army_links``: extra army links (.306);
* ``passable``: spaces the base map shuts that become land, with their links (.307);
* ``capitals``: other names of a City (.22x: Christiania, Belgrade, Istanbul...);
* ``country_aliases``: other names of a Country ("Tunisia", .306).

Names (.21-.23): the Country keeps the centre's names and adds "Munich-Country"
and "Munich Country"; the City is "Munich-City" (the form of .1x and .22),
"Munich City", "Munich*" (also "Munich *", the form of .301-.306), "mun-city",
"mun*" and its capital's names. Hyphenated names read inside a hyphenated move
("A Munich-Munich-City") because the order reader tries the longest name first.
A plural ("the Norways", .23) names both spaces, which no order can mean, so it
becomes a notation hint: the order is refused with the two names to choose from.

Fleet links between coastal spaces exist where the old centres had one and the
two spaces share a sea they both touch (that is exactly how Standard's coast
links arise). Rule .5: a City is *entered* only from its own Country or from
a sea it touches; every other link into a City is strike-only (attack,
support, stand-off and cut, but no entry).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .links import edges, join, province


def split_centres(data: dict[str, Any], derive: Mapping[str, Any]) -> dict[str, Any]:
    base = data["provinces"]
    centres = {p for p, q in base.items() if q.get("centre")}
    city_seas: Mapping[str, list[str]] = derive.get("city_seas", {})
    capitals: Mapping[str, list[str]] = derive.get("capitals", {})
    adjacency = data["adjacency"]
    army0 = edges(adjacency, "army")
    fleet0 = edges(adjacency, "fleet")

    def city(p: str) -> str:
        return f"{p}*"

    def parts(p: str) -> list[str]:
        return [p, city(p)] if p in centres else [p]

    def sea(p: str) -> bool:
        return bool(base.get(province(p), {}).get("terrain") == "sea")

    provinces: dict[str, Any] = {}
    hints: dict[str, str] = {}
    for pid, p in base.items():
        if pid not in centres:
            provinces[pid] = dict(p)
            continue
        name = p["name"]
        hints.update(_plural_hints(name))
        country = dict(p)
        country["centre"] = False
        country["aliases"] = [*p.get("aliases", ()), f"{name}-Country", f"{name} Country",
                              f"{pid}-country", f"{pid} country",
                              *derive.get("country_aliases", {}).get(pid, ())]
        provinces[pid] = country
        seas = list(city_seas.get(pid, ()))
        for s in seas:
            if (s, pid) not in _sea_touch(fleet0, pid):
                raise ValueError(f"city_seas: {s!r} does not border {pid!r}")
        cap = [str(c) for c in capitals.get(pid, ())]
        provinces[city(pid)] = {
            "name": f"{name}-City",
            "terrain": "coast" if seas else "land",
            "centre": True,
            "aliases": [f"{name}*", f"{name} City", f"{pid}-city", f"{pid} city",
                        *cap, *(f"{c}*" for c in cap)],
        }
    # .3: the parts of a centre link to everything the centre linked to, and to each other
    army = [(x, y) for a, b in army0 for x in parts(a) for y in parts(b)]
    army += [(c, city(c)) for c in sorted(centres) if base[c]["terrain"] != "sea"]
    # sea contact: Countries keep the centre's; Cities have their own (.4)
    touch: dict[str, set[str]] = {}
    for a, b in fleet0:
        for loc, other in ((a, b), (b, a)):
            if sea(other) and not sea(loc):
                touch.setdefault(loc, set()).add(other)
    for c in centres:
        touch[city(c)] = set(city_seas.get(c, ()))
    fleet = [(a, b) for a, b in fleet0]  # Countries keep every fleet link
    for c in sorted(centres):
        for s in sorted(touch[city(c)]):
            fleet.append((s, city(c)))
    coastal_pairs = [(a, b) for a, b in fleet0 if not sea(a) and not sea(b)]
    for a, b in coastal_pairs:
        for x in _locations(a, centres):
            for y in _locations(b, centres):
                if (x, y) != (a, b) and touch.get(x, set()) & touch.get(y, set()):
                    fleet.append((x, y))
    for c in sorted(centres):
        for loc in [loc for loc in touch if province(loc) == c]:
            if touch[loc] & touch[city(c)]:
                fleet.append((loc, city(c)))
    # the text's exceptions
    cut = {frozenset(str(x).split("-", 1)) for x in derive.get("no_link", ())}
    only: Mapping[str, list[str]] = derive.get("only_links", {})

    def kept(a: str, b: str) -> bool:
        pa, pb = province(a), province(b)
        if frozenset((pa, pb)) in cut:
            return False
        for x, y in ((pa, pb), (pb, pa)):
            if x in only and not sea(y) and y not in only[x]:
                return False
        return True

    army = [(a, b) for a, b in army if kept(a, b)]
    fleet = [(a, b) for a, b in fleet if kept(a, b)]
    for link in derive.get("army_links", ()):
        a, _, b = str(link).partition("-")
        army.append((a, b))
    for pid, spec in derive.get("passable", {}).items():
        provinces[pid] = {**provinces[pid], "terrain": spec.get("terrain", "land")}
        army += [(pid, str(n)) for n in spec.get("links", ())]
    # .5: a City is entered only from its Country or from a sea it touches
    strike = [(x, y) for a, b in army + fleet for x, y in ((a, b), (b, a))
              if y.endswith("*") and province(x) != y[:-1] and not sea(x)]
    out = dict(data)
    out["provinces"] = provinces
    out["adjacency"] = {"army": join(army), "fleet": join(fleet),
                        "strike_only": join(strike, directed=True)}
    powers = {}
    for pid, pw in data["powers"].items():
        q = dict(pw)
        q["home_centres"] = [city(province(h)) for h in pw["home_centres"]]
        q["units"] = [_start(u, touch) for u in pw.get("units", ())]
        powers[pid] = q
    out["powers"] = powers
    notation = dict(out.get("notation", {}))
    notation["hints"] = {**notation.get("hints", {}), **hints}
    out["notation"] = notation
    return out


def _plural_hints(name: str) -> dict[str, str]:
    """.23: "the Norways" is Norway-City and Norway-Country together. The text
    uses plurals to state its links (.3x, .301, .302); an order moves, supports
    or convoys one unit in one space, so a plural is never an order's location
    (ruling R12). Names already ending in "s" (Paris, Tunis) have no plural
    form here: "the Pariss" is nobody's spelling."""
    if name.endswith("s"):
        return {}
    return {form.lower(): f"an order names one space: write {name!r} or '{name}-City', "
                          f"not {form!r} (City/Country rule .23: the plural is both)"
            for form in (f"{name}s", f"the {name}s")}


def _sea_touch(fleet: list[tuple[str, str]], pid: str) -> set[tuple[str, str]]:
    return {(b, pid) for a, b in fleet if province(a) == pid} | \
        {(a, pid) for a, b in fleet if province(b) == pid}


def _locations(loc: str, centres: set[str]) -> list[str]:
    """A coast location and the City of its centre, if any."""
    p = province(loc)
    return [loc, f"{p}*"] if p in centres else [loc]


def _start(unit: str, touch: Mapping[str, set[str]]) -> str:
    """Starting units stand in the City (the centre), unless a fleet cannot:
    then in the Country (our ruling; Sevastopol's City touches no sea, .303)."""
    kind, loc = unit.split()
    c = f"{province(loc)}*"
    if kind.upper() == "A" or touch.get(c):
        return f"{kind} {c}"
    return unit
