"""The rule library: named transforms and hooks that variant data files refer to.

A variant file says ``transforms = ["twin_levels"]`` or ``hooks =
["changing_map"]``; this module maps those names to code. Each rule is a small
module of its own, and none of them is specific to one variant: any variant
may stack boards, split its centres or change its map on a schedule.

* transforms run once, at load time, on the base variant's raw data
  (:data:`standoff.variant.TransformFn`);
* hooks act during play; today the only one is a changing map
  (:data:`standoff.variant.TimelineFn`).
"""

from __future__ import annotations

from ..variant import TimelineFn, TransformFn
from .changing_map import make_timeline
from .levels import twin_levels
from .split_centres import split_centres

TRANSFORMS: dict[str, TransformFn] = {
    "twin_levels": twin_levels,
    "split_centres": split_centres,
}

HOOKS: dict[str, TimelineFn] = {
    "changing_map": make_timeline,
}

__all__ = ["HOOKS", "TRANSFORMS"]
