"""Where a power may build: the variant's ``builds`` names one of these.

* ``home`` (:class:`HomeCentres`): the rulebook's rule, an owned, unoccupied
  home centre;
* ``owned`` (:class:`OwnedCentres`): any owned, unoccupied supply centre
  (Sahara rule 4);

and, with ``[build_centres]`` in the data, :class:`WithBuildCentres` adds
spaces that are no centre where one power may build while it owns one of the
centres listed (1939 IV rules 4.1-4.3, 7.1: Persia and Archangel for Russia).

Each is a :class:`BuildSites` (a base class): ``sites`` lists where a
power may build now, ``refusal`` says why a build elsewhere is refused. Called
in adjustment phases only, once per power with builds due and once per build
order.
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..geography import Board, province_of

if TYPE_CHECKING:
    from ..variant import Variant


class BuildSites:
    """Where a power may build (``builds``).

    A base class, where the other hooks are protocols: the adjustment counts ask
    it after every Fall and every build order asks again, and the compiled core
    calls a base class's method directly, a protocol's only through the
    interpreter's generic method call (that call, and reading the centre table as
    a generic mapping, cost about 1.7 µs of an adjustment position's legal
    orders met once, which take about 16). The centre table is a ``dict`` for
    the same reason: read with the compiled dict primitives."""

    __slots__ = ()

    def sites(self, variant: Variant, power: str, centres: dict[str, str],
              occupied: Container[str]) -> list[str]:
        """The spaces where ``power`` may build now, given who owns which centre
        (province -> power) and the provinces holding a unit."""
        raise NotImplementedError(f"{type(self).__name__} lists no build sites")

    def refusal(self, variant: Variant, board: Board, power: str, province: str,
                centres: dict[str, str], occupied: Container[str]) -> str:
        """Why ``power`` may not build in ``province`` (not among :meth:`sites`)."""
        raise NotImplementedError(f"{type(self).__name__} gives no refusal")


@dataclass(frozen=True, slots=True)
class BuildCentre:
    """A space where ``power`` may build although it is not a supply centre,
    while it owns at least one of ``requires_any`` (1939 IV rules 4.1-4.3, 7.1)."""

    province: str
    power: str
    requires_any: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HomeCentres(BuildSites):
    """Builds go in the power's owned, unoccupied home centres (rulebook, "Gaining
    and Losing Units")."""

    def sites(self, variant: Variant, power: str, centres: dict[str, str],
              occupied: Container[str]) -> list[str]:
        return [prov for h in variant.powers[power].home_centres
                if centres.get(prov := province_of(h)) == power and prov not in occupied]

    def refusal(self, variant: Variant, board: Board, power: str, province: str,
                centres: dict[str, str], occupied: Container[str]) -> str:
        if province not in (province_of(h) for h in variant.powers[power].home_centres):
            return f"{province.upper()} is not a home centre of {power}"
        if centres.get(province) != power:
            return f"{power} does not own {province.upper()}"
        return f"{province.upper()} is occupied"


@dataclass(frozen=True, slots=True)
class OwnedCentres(BuildSites):
    """Builds go in any supply centre the power owns and nobody occupies (Sahara
    rule 4)."""

    def sites(self, variant: Variant, power: str, centres: dict[str, str],
              occupied: Container[str]) -> list[str]:
        return sorted(c for c, p in centres.items() if p == power and c not in occupied)

    def refusal(self, variant: Variant, board: Board, power: str, province: str,
                centres: dict[str, str], occupied: Container[str]) -> str:
        if not board.provinces[province].supply_centre:
            return f"{province.upper()} is not a supply centre"
        if centres.get(province) != power:
            return f"{power} does not own {province.upper()}"
        return f"{province.upper()} is occupied"


@dataclass(frozen=True, slots=True)
class WithBuildCentres(BuildSites):
    """``base``'s sites, plus each build centre of the power that is free while the
    power owns one of the centres it depends on (1939 IV 4.1, 4.2, 7.1: a build
    centre is no centre: nobody owns it, and it counts for nothing)."""

    base: BuildSites
    extra: Mapping[str, BuildCentre]

    def sites(self, variant: Variant, power: str, centres: dict[str, str],
              occupied: Container[str]) -> list[str]:
        sites = self.base.sites(variant, power, centres, occupied)
        for prov, bc in self.extra.items():
            if bc.power == power and prov not in occupied and \
                    any(centres.get(c) == power for c in bc.requires_any):
                sites.append(prov)
        return sites

    def refusal(self, variant: Variant, board: Board, power: str, province: str,
                centres: dict[str, str], occupied: Container[str]) -> str:
        bc = self.extra.get(province)
        if bc is None or bc.power != power:
            return self.base.refusal(variant, board, power, province, centres, occupied)
        if province in occupied:
            return f"{province.upper()} is occupied"
        return (f"{power} may build in {province.upper()} only while it owns one of "
                f"{', '.join(c.upper() for c in bc.requires_any)}")
