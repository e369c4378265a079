"""How large a variant file may make a variant, checked before anything is built.

A variant file is small text, but what it describes need not be: a ``[derive]``
table names transforms, and each ``twin_levels`` doubles (up to quadruples) the
map, its names and its links. Six of them in a 234-byte file made a map of
4,800 spaces whose names and notation hints took 2.5 GiB and a minute to
build. So the size of a variant *as derived* is bounded here, and a file over
the bound is refused with a :class:`~standoff.core.errors.VariantError` before
the expensive step:

* the transforms are checked first (a list of names, each at most once, at
  most :attr:`VariantLimits.transforms` of them), so no transform runs on the
  output of the same transform;
* the data is measured before each transform and after the variant's own tables
  are merged over the derived base (spaces, names, links, powers), so each step
  starts from a bounded map and the board is built only from a bounded one.

The bounds leave room for any real design: the largest bundled variant, the
Twentieth Century (300 spaces, 962 links), fits five times over, and Twin
Earths (152 spaces, 1,526 names with its hints) ten times over. Measuring
costs one pass over the tables, microseconds next to building.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .errors import VariantError


@dataclass(frozen=True, slots=True)
class VariantLimits:
    """The largest variant a file may describe (see the module's docstring)."""

    #: spaces (provinces), every level counted
    spaces: int = 1500
    #: names a reader must know: space ids, names and aliases, and notation hints
    names: int = 20000
    #: adjacency links of all kinds (army, fleet, strike-only)
    links: int = 10000
    powers: int = 40
    #: transforms in ``[derive]``, each at most once
    transforms: int = 2


#: The limits every variant file is read under.
LIMITS: Final = VariantLimits()


def checked_transforms(value: object, path: object, limits: VariantLimits = LIMITS
                       ) -> tuple[str, ...]:
    """``[derive] transforms`` as a tuple of names, or VariantError when it is not a
    list of names, repeats one, or names more than the limit allows."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise VariantError(f"{path}: [derive] transforms must be a list of names")
    if len(set(value)) != len(value):
        raise VariantError(f"{path}: [derive] transforms names a transform twice; each "
                           "applies at most once")
    if len(value) > limits.transforms:
        raise VariantError(f"{path}: [derive] transforms names {len(value)} transforms; at "
                           f"most {limits.transforms}")
    return tuple(value)


def _count_links(value: object) -> int:
    if isinstance(value, str):
        return len(value.split())
    if isinstance(value, list):
        return len(value)
    return 0


def measure(data: Mapping[str, Any]) -> dict[str, int]:
    """The sizes :class:`VariantLimits` bounds, read off a variant's raw data
    (anything malformed counts as empty here: building reports it)."""
    provinces = data.get("provinces")
    provinces = provinces if isinstance(provinces, Mapping) else {}
    names = len(provinces)
    for p in provinces.values():
        if isinstance(p, Mapping):
            aliases = p.get("aliases", ())
            names += 1 + (len(aliases) if isinstance(aliases, list) else 0)
    notation = data.get("notation")
    if isinstance(notation, Mapping) and isinstance(notation.get("hints"), Mapping):
        names += len(notation["hints"])
    adjacency = data.get("adjacency")
    adjacency = adjacency if isinstance(adjacency, Mapping) else {}
    links = sum(_count_links(adjacency.get(k)) for k in ("army", "fleet", "strike_only"))
    powers = data.get("powers")
    return {"spaces": len(provinces), "names": names, "links": links,
            "powers": len(powers) if isinstance(powers, Mapping) else 0}


def check_size(data: Mapping[str, Any], path: object, limits: VariantLimits = LIMITS) -> None:
    """VariantError naming the first size over its limit, if any."""
    for what, count in measure(data).items():
        bound: int = getattr(limits, what)
        if count > bound:
            raise VariantError(f"variant file {path} is too large: {count} {what} as derived "
                               f"(at most {bound})")
