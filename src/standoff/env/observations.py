"""What an agent sees: the position as fixed-shape NumPy arrays, and their space.

Shapes are fixed per variant, so a network can be built once: rows are the
map's locations (units stand on locations: ``stp/nc`` is not ``stp``)
or the provinces that are centres on some board of the game; columns are
owners. The owners are the variant's powers in their order, then the neutral
units' owner where the variant has one (1939 IV). One-hot arrays are ``int8``.
Each step makes new arrays (Gymnasium asks that no observation share data
with an earlier one).

What every agent sees alike (built once per step and read-only, so the agents
of one step share it without copies):

* ``units``: (locations, 2 x owners): 1 at (location, 2 x owner + type), type
  0 = army, 1 = fleet;
* ``dislodged``: the same for units awaiting a retreat;
* ``centres``: (centre provinces, powers + 1): the owner, or the last column
  for a centre no power owns (a space that is no centre on the present board,
  Sahara's lost ones, has an all-zero row);
* ``home``: (centre provinces, powers): whose home centre it is;
* ``season``: one-hot over the calendar's seasons (an adjustment phase has its
  year's last season); ``kind``: one-hot movement, retreat, adjustment;
* ``year``: years since the start, (1,) ``int32`` (at most ``max_years``).

Per agent: ``power``, its own one-hot (powers), and ``adjustment``, (1,)
``int32``: its builds (positive) or removals (negative) due in an adjustment
phase, else 0.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from standoff import PhaseKind, Position, UnitType, Variant, adjustment_counts, province_of

from .actions import KINDS, ActionTable, boards_until

Array: TypeAlias = npt.NDArray[Any]


def _frozen(array: Array) -> Array:
    array.flags.writeable = False
    return array


class ObservationEncoder:
    """Index tables for one variant, and the arrays of a position."""

    def __init__(self, variant: Variant, actions: ActionTable, max_years: int) -> None:
        self.variant = variant
        self.powers = tuple(variant.powers)
        self.owners = (*self.powers, variant.neutral) if variant.neutral else self.powers
        self.max_years = max_years
        self.locations = actions.locations
        self.location_index = {loc: i for i, loc in enumerate(self.locations)}
        self.owner_index = {p: i for i, p in enumerate(self.owners)}
        boards = boards_until(variant, variant.start.year + max_years)
        centres = set().union(*(b.supply_centres for b in boards))
        self.centre_provinces = tuple(sorted(centres))
        self.centre_index = {p: i for i, p in enumerate(self.centre_provinces)}
        home = np.zeros((len(self.centre_provinces), len(self.powers)), dtype=np.int8)
        for i, p in enumerate(self.powers):
            for c in variant.powers[p].home_centres:
                row = self.centre_index.get(province_of(c))
                if row is not None:
                    home[row, i] = 1
        self.home = _frozen(home)
        self.seasons = len(variant.calendar.seasons)
        self.most_centres = max(len(centres), 1)
        self._eye = np.eye(len(self.powers), dtype=np.int8)

    def board_space(self) -> spaces.Dict:
        n_loc, n_own = len(self.locations), len(self.owners)
        n_centres, n_powers = len(self.centre_provinces), len(self.powers)

        def onehot(*shape: int) -> spaces.Box:
            return spaces.Box(0, 1, shape, dtype=np.int8)

        return spaces.Dict({
            "units": onehot(n_loc, 2 * n_own),
            "dislodged": onehot(n_loc, 2 * n_own),
            "centres": onehot(n_centres, n_powers + 1),
            "home": onehot(n_centres, n_powers),
            "season": onehot(self.seasons),
            "kind": onehot(len(KINDS)),
            "year": spaces.Box(0, self.max_years, (1,), dtype=np.int32),
            "power": onehot(n_powers),
            "adjustment": spaces.Box(-self.most_centres, self.most_centres, (1,),
                                     dtype=np.int32),
        })

    def board(self, position: Position) -> dict[str, Array]:
        """The arrays every agent shares (read-only)."""
        n_loc, n_own = len(self.locations), len(self.owners)
        units = np.zeros((n_loc, 2 * n_own), dtype=np.int8)
        loc_of, own_of = self.location_index, self.owner_index
        rows = [loc_of[u.location] for u in position.units]
        cols = [2 * own_of[u.power] + (u.type is UnitType.FLEET) for u in position.units]
        units[rows, cols] = 1
        dislodged = np.zeros_like(units)
        if position.dislodged:
            rows = [loc_of[d.unit.location] for d in position.dislodged]
            cols = [2 * own_of[d.unit.power] + (d.unit.type is UnitType.FLEET)
                    for d in position.dislodged]
            dislodged[rows, cols] = 1
        centres = np.zeros((len(self.centre_provinces), len(self.powers) + 1), dtype=np.int8)
        board = self.variant.board_at(position.phase)
        nobody = len(self.powers)
        for prov in board.supply_centres:
            owner = position.centres.get(prov)
            col = own_of.get(owner, nobody) if owner is not None else nobody
            centres[self.centre_index[prov], min(col, nobody)] = 1
        season = np.zeros(self.seasons, dtype=np.int8)
        season[position.phase.season] = 1
        kind = np.zeros(len(KINDS), dtype=np.int8)
        kind[KINDS.index(position.phase.kind)] = 1
        since = position.phase.year - self.variant.start.year
        year = np.array([min(max(since, 0), self.max_years)], dtype=np.int32)
        return {"units": _frozen(units), "dislodged": _frozen(dislodged),
                "centres": _frozen(centres), "home": _frozen(self.home.copy()),
                "season": _frozen(season), "kind": _frozen(kind), "year": _frozen(year)}

    def power(self, agent: str) -> Array:
        """``agent``'s one-hot (a new array each call: observations share no data
        with earlier ones, as Gymnasium asks)."""
        return _frozen(self._eye[self.powers.index(agent)].copy())

    def adjustments(self, position: Position) -> dict[str, Array]:
        """Each power's ``adjustment`` array (all zero outside adjustment phases)."""
        due = adjustment_counts(self.variant, position) \
            if position.phase.kind is PhaseKind.ADJUSTMENT else {}
        bound = self.most_centres  # a position given to reset() could exceed it
        return {p: _frozen(np.array([min(max(due.get(p, 0), -bound), bound)], dtype=np.int32))
                for p in self.powers}
