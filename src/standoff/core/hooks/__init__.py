"""The rule library: what a variant's data cannot say, as named, typed hooks.

A variant is its data file plus hooks chosen from here by name. Each kind of
hook is a Protocol (declared beside its implementations, imported here), and
each registry maps the names a variant file uses to the code (python-chess and
godip keep the same split: data for the board, small named objects for the
rules)::

    kind          the file says                    registry        protocol
    transform     [derive] transforms = [...]      TRANSFORMS      TransformFn
    map changes   [variant] hooks = [...]          MAP_CHANGES     Timeline
    victory       [victory] centres | units | ...  VICTORY         VictoryRule
    build sites   [variant] builds = "home"        BUILD_SITES     BuildSites
    neutral units [neutral] orders = "..."         NEUTRAL_ORDERS  NeutralOrders

* transforms run once, at load time, on the base variant's raw data (two
  stacked boards, split centres);
* the other hooks act during play, once per phase at most (never per order of a
  movement phase): the board in force, whether the game is won, where a power
  may build, what units of no power are ordered to do.

None of them is specific to one variant; the core never asks "which variant is
this?". The variant features they serve are declared in
:mod:`standoff.core.features`. This package sits below :mod:`standoff.core.variant`
(which reads the names), so nothing here imports it at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..geography import Board
from ..phase import Calendar
from ..victory import VictoryRule, centres_rule, unit_in_rule, units_rule
from .build_sites import BuildCentre, BuildSites, HomeCentres, OwnedCentres, WithBuildCentres
from .changing_map import Timeline, make_timeline
from .levels import twin_levels
from .neutral import CivilDisorder, NeutralOrders
from .split_centres import split_centres

# Each protocol is declared beside its implementations (build_sites.BuildSites,
# changing_map.Timeline, neutral.NeutralOrders, victory.VictoryRule) and named here.

#: A transform: (base variant data, the [derive] table) -> derived data.
TransformFn = Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any]]
#: A changing map: (variant data, starting board, calendar) -> Timeline.
TimelineFn = Callable[[Mapping[str, Any], Board, Calendar], Timeline]
#: A victory rule read from the [victory] table: (that table, calendar) -> VictoryRule.
VictoryFn = Callable[[Mapping[str, Any], Calendar], VictoryRule]

TRANSFORMS: dict[str, TransformFn] = {
    "twin_levels": twin_levels,
    "split_centres": split_centres,
}

MAP_CHANGES: dict[str, TimelineFn] = {
    "changing_map": make_timeline,
}

#: The [victory] key that names the rule -> the rule read from the table.
VICTORY: dict[str, VictoryFn] = {
    "centres": centres_rule,  # CentreCountWinner: Standard, 18
    "units": units_rule,  # UnitCountWinner: Twin Earths rule 4, 35
    "unit_in": unit_in_rule,  # LastUnitIn: Sahara rule 7, "ice" after W1911A
}

BUILD_SITES: dict[str, Callable[[], BuildSites]] = {
    "home": HomeCentres,
    "owned": OwnedCentres,  # Sahara rule 4
}

NEUTRAL_ORDERS: dict[str, Callable[[], NeutralOrders]] = {
    "civil_disorder": CivilDisorder,  # 1939 IV rule 2.2
}


def build_sites(name: str, build_centres: Mapping[str, BuildCentre]) -> BuildSites:
    """The build sites named ``name``, with the build centres added if there are any.
    Raises KeyError for an unknown name."""
    sites = BUILD_SITES[name]()
    return WithBuildCentres(sites, build_centres) if build_centres else sites


__all__ = [
    "BUILD_SITES", "MAP_CHANGES", "NEUTRAL_ORDERS", "TRANSFORMS", "VICTORY",
    "BuildCentre", "BuildSites", "NeutralOrders", "Timeline", "TimelineFn", "TransformFn",
    "VictoryFn", "build_sites",
]
