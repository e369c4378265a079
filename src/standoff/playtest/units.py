"""Which units could never move: each unit followed through a game, phase by phase.

A designer's map can strand a unit: a fleet placed where no sea touches, an
army on an island the map never links, a fleet the drying seas leave with
nowhere to go. The playtest finds them by following every unit of the powers
(not the neutral units of 1939 IV, which only hold) from the phase it appears
(the opening, a build) to the phase it leaves the board (removed, disbanded,
destroyed by a change of map) or the end of the game, and asking, at each
movement phase it stands through, whether any of its legal orders
(:func:`standoff.legal_orders`) is a move, overland or by convoy.

* A unit **never able to move** stood through at least one movement phase and
  had no legal move in any of them (its only legal orders were to hold, and
  supports or convoys if any), and never retreated either.
* A **stuck unit-phase** is one unit at one movement phase without a legal
  move; they are counted by place (power, unit type, location), which says
  where on the map units get stuck, and for how long.

A unit keeps its identity while it holds, moves or retreats (each successful
move or retreat in the phase's results carries it to its destination) and
while a change of map converts it where it stands (a stranded fleet becoming an
army keeps its place, so it is the same unit). Units that cannot be told apart
(several fleets of one power on a 1939 IV high sea) are matched in order: they
share a place and so whether they can move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from standoff import GameRecord, Move, Order, PhaseKind, Position, Retreat, Unit, province_of

#: power -> location -> its legal orders (what :func:`standoff.legal_orders` gives)
Legal = Mapping[str, Mapping[str, Sequence[Order]]]


@dataclass(frozen=True, slots=True)
class NeverMoved:
    """A unit that had no legal move at any movement phase of its life."""

    power: str
    #: the unit as written, where it stood: ``"F KIE"``
    unit: str
    #: the phase it appeared in (``"S1901M"``: the opening) and the last it stood in
    first_phase: str
    last_phase: str
    #: the movement phases it stood through, each without a legal move
    movement_phases: int


@dataclass(slots=True)
class _Life:
    """One unit followed through the game."""

    power: str
    unit: str
    first_phase: str
    last_phase: str
    movement_phases: int = 0
    could_move: bool = False


@dataclass(slots=True)
class UnitTracker:
    """Follows the units of ``powers`` through one game (see the module).

    Give it the opening with :meth:`start`, then every processed phase with
    :meth:`observe`; :meth:`never_moved` and :attr:`stuck` are the findings."""

    powers: frozenset[str]
    #: (power, unit type letter, location) -> movement phases a unit stood there
    #: without a legal move
    stuck: dict[tuple[str, str, str], int] = field(default_factory=dict)
    _lives: list[_Life] = field(default_factory=list)
    #: (power, province) -> the indices in _lives of the units standing there now
    _at: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def start(self, record: GameRecord) -> None:
        """The units of the record's position, each a new life."""
        self._at = {}
        self._born(_standing(record.position, self.powers), record.phase_name, self._at)

    def observe(self, asked: GameRecord, after: GameRecord, legal: Legal | None) -> None:
        """One processed phase: ``asked`` is the record before it (its position the
        phase's), ``after`` the record once processed, ``legal`` the legal orders of
        ``asked``'s position (needed for a movement phase only)."""
        before = asked.position
        phase = asked.phase_name
        if before.phase.kind is PhaseKind.MOVEMENT and legal is not None:
            self._look(before, legal)
        moves = _moves(after)
        now = _standing(after.position, self.powers)
        claimed: dict[tuple[str, str], list[int]] = {}
        for (power, province), lives in self._at.items():
            gone = list(moves.get((power, province), ()))
            for life in lives:
                place = (power, province)
                if gone:
                    place = (power, province_of(gone.pop(0)))
                    self._lives[life].could_move = True
                claimed.setdefault(place, []).append(life)
        self._at = {}
        next_phase = after.phase_name
        for place, units in now.items():
            lives = claimed.get(place, [])
            kept = lives[:len(units)]
            for life, unit in zip(kept, units, strict=False):
                self._lives[life].unit = unit
                self._lives[life].last_phase = phase
            self._at[place] = kept
            self._born({place: units[len(kept):]}, next_phase, self._at)
        for place, lives in claimed.items():
            for life in lives[len(now.get(place, ())):]:
                self._lives[life].last_phase = phase  # left the board in this phase

    def never_moved(self) -> list[NeverMoved]:
        """The units never able to move (see the module), in the order they appeared."""
        return [NeverMoved(life.power, life.unit, life.first_phase, life.last_phase,
                           life.movement_phases)
                for life in self._lives if life.movement_phases and not life.could_move]

    def _look(self, position: Position, legal: Legal) -> None:
        """Each unit of a movement phase: a legal move, or one more stuck phase."""
        first: dict[tuple[str, str], Unit] = {}
        for standing in position.units:
            first.setdefault((standing.power, standing.province), standing)
        for place, lives in self._at.items():
            unit = first.get(place)
            if unit is None:
                continue  # (dislodged, awaiting a retreat: not in this movement phase)
            power = place[0]
            options = legal.get(power, {})
            can = any(isinstance(o, Move) for o in options.get(unit.location, ()))
            for life in lives:
                self._lives[life].movement_phases += 1
                self._lives[life].could_move |= can
            if not can:
                key = (power, unit.type.value, unit.location)
                self.stuck[key] = self.stuck.get(key, 0) + len(lives)

    def _born(self, units: Mapping[tuple[str, str], Iterable[str]], phase: str,
              into: dict[tuple[str, str], list[int]]) -> None:
        for place, written in units.items():
            for unit in written:
                into.setdefault(place, []).append(len(self._lives))
                self._lives.append(_Life(place[0], unit, phase, phase))


def _standing(position: Position, powers: frozenset[str]) -> dict[tuple[str, str], list[str]]:
    """(power, province) -> its units there, written (``"F KIE"``), dislodged ones
    (awaiting their retreat) included; only the given powers' units."""
    out: dict[tuple[str, str], list[str]] = {}
    for unit in (*position.units, *(d.unit for d in position.dislodged)):
        if unit.power in powers:
            out.setdefault((unit.power, unit.province), []).append(str(unit))
    return out


def _moves(after: GameRecord) -> dict[tuple[str, str], list[str]]:
    """(power, province left) -> the destinations of the phase's successful moves
    and retreats from there."""
    out: dict[tuple[str, str], list[str]] = {}
    if not after.history:
        return out
    for result in after.history[-1].results:
        order = result.order
        if result.success and isinstance(order, Move | Retreat):
            out.setdefault((result.power, province_of(order.location)), []).append(order.dest)
    return out
