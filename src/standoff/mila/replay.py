"""Replaying a MILA game through standoff, phase by phase, and reporting where they differ.

Each recorded phase is adjudicated by standoff from MILA's recorded state
before it, with MILA's recorded orders, and the result compared with MILA's
recorded state after it (:class:`standoff.mila.positions.State`: units,
dislodged units and their retreats, centres, the next phase's name). Every
phase is judged on its own, from MILA's position, so one disagreement does not
make every later phase differ too. A disagreement is explained by
:func:`standoff.mila.differences.classify`: the known MILA departure from DATC
3.0 that accounts for it, with the DATC rule that decides it.

The replay also yields the game as a standoff :class:`standoff.GameRecord`:
MILA's positions, the recorded orders, standoff's results for them; saved with
``standoff.storage``, it is a standoff game that can be shown, rendered or
played on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from standoff import (
    DEFAULT,
    Disband,
    GameRecord,
    Options,
    Order,
    Outcome,
    PhaseKind,
    PhaseRecord,
    Position,
    Remove,
    Variant,
    adjudicate,
    decide_victory,
    read_orders,
)

from .differences import UNEXPLAINED, Cause, Difference, causes_of, classify
from .positions import (
    State,
    position_from_state,
    retreat_mismatch,
    state_of_mila,
    state_of_position,
)
from .rules import DONT_SKIP_PHASES, rule_notes, variant_for
from .saved_game import COMPLETED, MilaError, MilaGame, MilaPhase, MilaState


@dataclass(frozen=True)
class Disagreement:
    """A phase after which standoff's position is not MILA's."""

    phase: str
    #: what differs, one line per field, in MILA's notation
    lines: tuple[str, ...]
    #: the cause name(s) from :func:`classify` ("a + b"), or "unexplained"
    cause: str

    @property
    def causes(self) -> list[Cause]:
        return causes_of(self.cause)

    @property
    def explained(self) -> bool:
        return self.cause != UNEXPLAINED

    def to_dict(self) -> dict[str, Any]:
        return {"phase": self.phase, "differences": list(self.lines), "cause": self.cause,
                "datc": [ref for c in self.causes for ref in c.datc],
                "standoff_right": all(c.standoff_right for c in self.causes)
                if self.explained else None}


def tally(compared: int, agreed: int, differ: int) -> str:
    """'N phases replayed, A agree, D differ': a replay's summary, one game or many."""
    return (f"{compared} phase{'' if compared == 1 else 's'} replayed, {agreed} agree, "
            f"{differ} differ")


@dataclass
class Replay:
    """One MILA game replayed through standoff."""

    game: MilaGame
    variant: Variant
    record: GameRecord
    #: phases adjudicated and compared
    compared: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    #: the game's rules that matter, orders standoff could not read, retreats it could
    #: not rebuild exactly
    notes: list[str] = field(default_factory=list)

    @property
    def agreed(self) -> int:
        return self.compared - len(self.disagreements)

    def report(self) -> str:
        """The replay in words: a summary line, then each disagreement and note."""
        g = self.game
        rules = " ".join(g.rules) or "none"
        out = [f"{g.where()} ({self.variant.name}, rules {rules}): "
               f"{tally(self.compared, self.agreed, len(self.disagreements))}"]
        for d in self.disagreements:
            out.append(f"  {d.phase}: differs")
            out.extend(f"    {line}" for line in d.lines)
            if not d.explained:
                out.append("    cause unexplained: not a known MILA departure from DATC 3.0")
            for c in d.causes:
                out.append(f"    cause {c.name}: {c.describe()}")
        out.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(out)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game.id, "source": self.game.source, "variant": self.variant.name,
                "rules": list(self.game.rules), "compared": self.compared,
                "agreed": self.agreed,
                "disagreements": [d.to_dict() for d in self.disagreements],
                "notes": list(self.notes)}


def replay(game: MilaGame, options: Options = DEFAULT) -> Replay:
    """Adjudicate every recorded phase of ``game`` with standoff (under ``options``)
    and compare."""
    v = variant_for(game.rules)
    notes = rule_notes(game.rules)
    lenient = DONT_SKIP_PHASES in game.rules
    history: list[PhaseRecord] = []
    found: list[Disagreement] = []
    carried: tuple[Position, State] | None = None  # standoff's own last result
    outcome: Outcome | None = None
    phases = game.phases
    last = len(phases) - 1
    if phases[last].name == COMPLETED:
        last -= 1
    if last < 0:
        raise MilaError(f"{game.where()}: no phase before {COMPLETED}")
    for i in range(last + 1):
        ph = phases[i]
        where = game.where(ph.name)
        before = _position(ph, v, where, carried, notes, options)
        if i == last and phases[-1].name != COMPLETED:
            return Replay(game, v, GameRecord(v, options, before, tuple(history)), len(history),
                          found, notes)
        orders = {p: list(items) for p, items in ph.orders.items() if items}
        parsed, bad = read_orders(v, orders)
        notes.extend(f"{ph.name}: {b.power} {b.text!r} unreadable ({b.detail})" for b in bad)
        result = adjudicate(before, orders, options, variant=v)
        given = {p: tuple(_as_removal(o) if before.phase.kind is PhaseKind.ADJUSTMENT else o
                          for o in os) for p, os in parsed.items()}
        history.append(PhaseRecord(before, given, tuple(result.results), tuple(result.events)))
        after = result.next_position
        mine = state_of_position(after, v, options)
        nxt = phases[i + 1]
        theirs = state_of_mila(nxt.state)
        lines = theirs.diff(mine)
        if lenient and lines and lines[0].startswith("phase:") and _empty(nxt):
            lines = lines[1:]
        if lines:
            d = Difference(ph.name, orders, before, theirs, mine, result, v, options)
            found.append(Disagreement(ph.name, tuple(lines), classify(d)))
        carried = (after, mine)
        if nxt.name == COMPLETED:
            outcome = decide_victory(v, before, after)
            end = position_from_state(_named(nxt, after, v), v, game.where(nxt.name))
            record = GameRecord(v, options, end, tuple(history), outcome=outcome)
            return Replay(game, v, record, len(history), found, notes)
    raise AssertionError("unreachable: the loop returns at the last phase")


def _position(ph: MilaPhase, v: Variant, where: str, carried: tuple[Position, State] | None,
              notes: list[str], options: Options) -> Position:
    """The position a phase starts from: MILA's, or standoff's own result when it is
    MILA's position (it knows where each dislodged unit's attacker came from)."""
    if carried is not None and not state_of_mila(ph.state).diff(carried[1]):
        return carried[0]
    pos = position_from_state(ph.state, v, where, options)
    if pos.phase.kind is PhaseKind.RETREAT:
        for line in retreat_mismatch(pos, ph.state, v, options):
            notes.append(f"{ph.name}: retreats not rebuilt exactly from MILA's lists: {line}")
    return pos


def _as_removal(order: Order) -> Order:
    """MILA writes a removal as a disband (``A PAR D``); standoff reads that as one
    too, but keeps it as the removal it is."""
    return Remove(order.unit, order.location) if isinstance(order, Disband) else order


def _empty(ph: MilaPhase) -> bool:
    """A retreat or adjustment phase with nothing to do (played under DONT_SKIP_PHASES)."""
    if ph.name.endswith("R"):
        return not any(ph.state.retreats.values())
    return ph.name.endswith("A") and not any(ph.orders.values())


def _named(ph: MilaPhase, after: Position, v: Variant) -> MilaState:
    """A COMPLETED state under the name of the phase standoff reached (MILA's own name
    for it is gone)."""
    s = ph.state
    return MilaState(after.phase.name(v.calendar), s.units, s.retreats, s.centres)
