"""What a judge's results mail holds, after one processed phase.

The CLI prints it after ``standoff process`` and the web judge mails it and
shows it on the game page, so it is one typed value (:class:`PhaseReport`,
with ``to_text`` and ``to_dict``) rather than printing. It is built from what
a game record keeps of a phase (its :class:`~standoff.PhaseRecord`: the
position before, the orders given, the results, what a map change did) and
the position after it, the variant and the options: a judge can rebuild the
mail of any past phase without the CLI and without replaying the game.

What the record does not say outright is worked out from it:

* a power is in NMR when it had to act (as :func:`standoff.powers_to_order`
  says: units, retreats or adjustments; not a canal owner who only may PERMIT)
  and gave nothing; a unit of a power that gave some orders but none for that
  unit had "no order" and held, which is not the same failure and is marked
  apart;
* a unit with no order has no result, so whether it was dislodged comes from
  the results of the moves into its province (a unit that holds is dislodged
  exactly when an attack on its province succeeds; a high sea is never
  dislodged from);
* the retreats a dislodged unit may make are the core's legal orders in the
  next position, so the mail offers exactly what the judge will accept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .adjustments import adjustment_counts
from .game import Game
from .geography import province_of
from .legal_orders import legal_orders
from .options import DEFAULT, Options
from .orders import Build, Move, NoConvert, Order, Permit, Retreat, Waive
from .phase import PhaseKind
from .position import Position, Unit
from .record import GameRecord, PhaseRecord, must_order
from .results import OrderResult, Reason
from .variant import Variant, load_variant


@dataclass(frozen=True)
class OrderLine:
    """One line of the orders section: an order given and what became of it, or
    a unit (or unused builds) for which no order was given."""

    power: str
    #: the order (canonical text), the unit that had none, or "" for unused builds
    order: str
    #: what happened, e.g. "succeeds", "fails (bounced with MUN)", "no order (holds)"
    result: str
    success: bool
    #: a :class:`Reason` value, or "no_order" / "unused_builds"
    reason: str
    #: the rules, not the player, decided this line (no orders from the power,
    #: or removals the power left out)
    civil_disorder: bool = False


@dataclass(frozen=True)
class DislodgedUnit:
    """A unit dislodged this phase: where it may retreat, or that it is gone."""

    power: str
    unit: str
    #: the province the successful attack came from
    attacker: str
    #: False when its power gave it no order (it held by default)
    had_order: bool
    #: the legal retreats (locations) in the next phase; empty: disbanded
    retreats: tuple[str, ...]

    @property
    def disbanded(self) -> bool:
        return not self.retreats


@dataclass(frozen=True)
class CentreChange:
    """A supply centre whose owner changed (None: unowned before, or no longer a
    centre after a change of map)."""

    centre: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class Standing:
    """A power after the phase and what it must do in the next one."""

    power: str
    centres: int
    units: int
    #: builds (+n) or removals (-n) owed when the next phase is an adjustment phase
    adjustment: int
    #: e.g. "orders for 3 units", "retreats for 1 unit", "build 2", "remove 1",
    #: "nothing", "eliminated"
    task: str


@dataclass(frozen=True)
class PhaseReport:
    """Everything a game master sends out after processing one phase."""

    variant: str
    title: str
    phase: str
    phase_name: str
    orders: tuple[OrderLine, ...]
    #: powers that had something to order and sent nothing
    nmr: tuple[str, ...]
    dislodged: tuple[DislodgedUnit, ...]
    #: what a change of map did after the phase
    events: tuple[str, ...]
    centre_changes: tuple[CentreChange, ...]
    standings: tuple[Standing, ...]
    next_phase: str
    next_phase_name: str
    winner: str | None = None
    draw: tuple[str, ...] | None = None
    no_winner: bool = False
    #: the variant's victory condition, in words (said when the game ends)
    victory: str = ""
    #: power id -> name, for the text
    names: tuple[tuple[str, str], ...] = ()

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.draw is not None or self.no_winner

    @property
    def outcome(self) -> str:
        """How the game ended, in words ("" while it goes on)."""
        if self.winner is not None:
            return f"{self.name(self.winner)} wins ({self.victory})"
        if self.draw is not None:
            return f"draw between {', '.join(self.name(p) for p in self.draw)}"
        if self.no_winner:
            return f"nobody wins ({self.victory})"
        return ""

    def name(self, power: str | None) -> str:
        if power is None:
            return "nobody"
        return dict(self.names).get(power, power)

    def to_text(self) -> str:
        """Plain text for a mail: stable, one fact per line, sections only when
        they have something to say (the NMR line is always there)."""
        name = self.name
        out = [f"{self.title}: {self.phase_name} ({self.phase})", "", "Orders:"]
        if not self.orders:
            out.append("  none")
        for o in self.orders:
            what = f"{o.order}: {o.result}" if o.order else o.result
            out.append(f"  {name(o.power)}: {what}")
        out += ["", "No orders received (NMR): "
                + (", ".join(name(p) for p in self.nmr) or "none")]
        if self.dislodged:
            out += ["", "Dislodged:"]
            for d in self.dislodged:
                late = "" if d.had_order else ", had no order"
                fate = ("no retreat: disbanded" if d.disbanded
                        else f"may retreat to {', '.join(d.retreats)} or disband")
                out.append(f"  {name(d.power)}: {d.unit}, dislodged by {d.attacker}{late}: "
                           f"{fate}")
        if self.events:
            out += ["", "Map changes:", *(f"  {e}" for e in self.events)]
        if self.centre_changes:
            out += ["", "Supply centres that changed hands:"]
            for c in self.centre_changes:
                before = "unowned" if c.before is None else name(c.before)
                after = ("nobody (no longer a supply centre)" if c.after is None
                         else name(c.after))
                out.append(f"  {c.centre}: {before} -> {after}")
        out += ["", "Centres and units:"]
        for s in self.standings:
            owed = f" ({s.adjustment:+d})" if s.adjustment else \
                " (eliminated)" if s.task == "eliminated" else ""
            out.append(f"  {name(s.power)}: {_count(s.centres, 'centre')}, "
                       f"{_count(s.units, 'unit')}{owed}")
        out.append("")
        if self.is_over:
            out.append(f"game over: {self.outcome}")
        else:
            out.append(f"now: {self.next_phase_name}")
            out += [f"  {name(s.power)}: {s.task}" for s in self.standings
                    if s.task != "eliminated"]
        return "\n".join(out) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """The same as data (JSON-ready): power ids, upper-case locations."""
        outcome: dict[str, Any] | None = None
        if self.winner is not None:
            outcome = {"winner": self.winner}
        elif self.draw is not None:
            outcome = {"draw": list(self.draw)}
        elif self.no_winner:
            outcome = {"no_winner": True}
        if outcome is not None:
            outcome["text"] = self.outcome
        return {
            "variant": self.variant,
            "phase": self.phase,
            "phase_name": self.phase_name,
            "orders": [{"power": o.power, "order": o.order, "result": o.result,
                        "success": o.success, "reason": o.reason,
                        "civil_disorder": o.civil_disorder} for o in self.orders],
            "nmr": list(self.nmr),
            "dislodged": [{"power": d.power, "unit": d.unit, "attacker": d.attacker,
                           "had_order": d.had_order, "retreats": list(d.retreats),
                           "disbanded": d.disbanded} for d in self.dislodged],
            "events": list(self.events),
            "centre_changes": [{"centre": c.centre, "from": c.before, "to": c.after}
                               for c in self.centre_changes],
            "powers": [{"power": s.power, "name": self.name(s.power), "centres": s.centres,
                        "units": s.units, "adjustment": s.adjustment, "task": s.task}
                       for s in self.standings],
            "next": None if self.is_over else {"phase": self.next_phase,
                                               "phase_name": self.next_phase_name},
            "outcome": outcome,
        }


def game_report(game: GameRecord | Game, index: int = -1) -> PhaseReport:
    """The report of ``game.history[index]`` (default: the phase just processed),
    with the game's end when that phase was the last one processed."""
    record = game.record if isinstance(game, Game) else game
    history = record.history
    if not history:
        raise IndexError("the game has no processed phase yet")
    i = range(len(history))[index]
    last = i == len(history) - 1
    after = record.position if last else history[i + 1].position
    return phase_report(history[i], after, record.variant, record.options,
                        winner=record.winner if last else None,
                        draw=record.draw if last else None,
                        no_winner=record.no_winner and last)


def phase_report(record: PhaseRecord, after: Position, variant: Variant | None = None,
                 options: Options = DEFAULT, *, winner: str | None = None,
                 draw: Iterable[str] | None = None, no_winner: bool = False) -> PhaseReport:
    """The results of the phase ``record`` holds, ``after`` being the position it led
    to; ``winner``/``draw``/``no_winner`` say how the game ended, if it did."""
    v = variant or load_variant(record.position.variant)
    before = record.position
    cal = v.calendar
    kind = before.phase.kind
    given = {p: [o for o in os if not isinstance(o, (Permit, NoConvert))]
             for p, os in record.orders.items() if os}
    sent = set(given) | {r.power for r in record.results if r.reason is Reason.INVALID}
    nmr = sorted(set(must_order(v, before)) - sent)
    lines = [_line(r, r.power in nmr) for r in record.results]
    dislodged: list[DislodgedUnit] = []
    if kind is PhaseKind.MOVEMENT:
        unordered = _unordered(v, before, given)
        # each unit's line in the unit's place, whether it had an order or not
        keys = [_unit_key(r.order) for r in record.results]
        for u in unordered:
            keys.append((1, u.type.value, u.location))
        lines += _no_order_lines(v, record, unordered, nmr)
        dislodged = _dislodged(v, record, after, unordered, options)
        lines = [line for _, line in sorted(zip(keys, lines, strict=True),
                                            key=lambda kl: (_power_rank(v, kl[1].power), kl[0]))]
    else:  # in the order given: the first orders are the ones used
        if kind is PhaseKind.ADJUSTMENT:
            lines += _unused_builds(v, record, nmr)
        lines.sort(key=lambda line: _power_rank(v, line.power))
    return PhaseReport(
        variant=v.name, title=v.title, phase=before.phase.name(cal),
        phase_name=before.phase.long_name(cal), orders=tuple(lines), nmr=tuple(nmr),
        dislodged=tuple(dislodged), events=tuple(record.events),
        centre_changes=_centre_changes(before, after),
        standings=_standings(v, options, before, after),
        next_phase=after.phase.name(cal), next_phase_name=after.phase.long_name(cal),
        winner=winner, draw=tuple(draw) if draw is not None else None, no_winner=no_winner,
        victory=v.victory.describe(cal),
        names=tuple((p.id, p.name) for p in v.powers.values()))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _power_rank(v: Variant, power: str) -> int:
    """Lines go by power in the variant's order; unknown names (invalid orders) last."""
    order = list(v.powers)
    return order.index(power) if power in order else len(order)


def _unit_key(order: Order | None) -> tuple[int, str, str]:
    """Where a movement order's line goes among its power's units (unreadable
    orders and orders for no unit, such as PERMIT, first)."""
    if order is None or not order.location or isinstance(order, Permit):
        return (0, "", "")
    return (1, order.unit.value if order.unit else "", order.location)


def _unit_text(order: Order) -> str:
    return f"{order.unit.value} {order.location.upper()}" if order.unit else \
        order.location.upper()


def _line(r: OrderResult, nmr: bool) -> OrderLine:
    """A result as a line; civil-disorder results say so instead of "succeeds"."""
    o = r.order
    if r.reason is Reason.CIVIL_DISORDER and o is not None:
        if o.kind == "remove":
            return OrderLine(r.power, str(o), "removed by civil disorder", True,
                             r.reason.value, True)
        verdict = "disbanded (civil disorder)" if nmr else "no order (disbanded)"
        return OrderLine(r.power, _unit_text(o), verdict, True,
                         r.reason.value if nmr else "no_order", nmr)
    order = str(o) if o is not None else r.text
    verdict = r.describe()[len(order) + 2:]  # describe() is "ORDER: verdict"
    if r.reason is Reason.NOTED:
        verdict = "noted"  # a standing instruction (PERMIT, NO CONVERT): nothing to succeed
    if isinstance(o, Retreat) and not r.success:
        verdict += ": disbanded"
    return OrderLine(r.power, order, verdict, r.success, r.reason.value)


def _unordered(v: Variant, before: Position, given: Mapping[str, list[Order]]) -> list[Unit]:
    """Units of the powers (not neutral units) that had no order: per province,
    the units beyond the orders given there (several share a high sea)."""
    out: list[Unit] = []
    for power in v.powers:
        ordered: dict[str, int] = {}
        for o in given.get(power, ()):
            ordered[province_of(o.location)] = ordered.get(province_of(o.location), 0) + 1
        for u in before.units_of(power):
            if ordered.get(u.province, 0) > 0:
                ordered[u.province] -= 1
            else:
                out.append(u)
    return out


def _no_order_lines(v: Variant, record: PhaseRecord, unordered: list[Unit],
                    nmr: list[str]) -> list[OrderLine]:
    """Units that held for want of an order: civil disorder for an NMR power."""
    lines = []
    for u in unordered:
        by = _attacked_by(v, record, u)
        verdict = "holds (civil disorder)" if u.power in nmr else "no order (holds)"
        if by is not None:
            verdict += f"; dislodged by {by.upper()}"
        lines.append(OrderLine(u.power, str(u), verdict, by is None,
                               Reason.CIVIL_DISORDER.value if u.power in nmr else "no_order",
                               u.power in nmr))
    return lines


def _attacked_by(v: Variant, record: PhaseRecord, unit: Unit) -> str | None:
    """Where the attack that dislodged a unit which stayed put came from, if one
    did: a unit that does not move is dislodged exactly when a move into its
    province succeeds (or, on a strike-only link, succeeds without entering)."""
    if unit.province in v.board_at(record.position.phase).high_seas:
        return None
    for r in record.results:
        o = r.order
        if isinstance(o, Move) and province_of(o.dest) == unit.province and \
                province_of(o.location) != unit.province and \
                (r.success or r.reason is Reason.NO_ENTRY):
            return province_of(o.location)
    return None


def _dislodged(v: Variant, record: PhaseRecord, after: Position, unordered: list[Unit],
               options: Options) -> list[DislodgedUnit]:
    """Every unit dislodged in a movement phase, neutral ones included."""
    retreating = {d.unit: d for d in after.dislodged}
    legal = legal_orders(after, options, v) if retreating else {}
    held = set(unordered)
    by: dict[tuple[str, str], str] = {}
    adjudicated: set[tuple[str, str]] = set()  # units whose order was adjudicated
    for r in record.results:
        o = r.order
        if o is not None and r.reason not in _NOT_ADJUDICATED:
            adjudicated.add((r.power, o.province))
            if r.dislodged_by is not None:
                by[r.power, o.province] = r.dislodged_by
    out = []
    for u in record.position.units:
        d = retreating.get(u)
        attacker = d.attacker_from if d is not None else by.get((u.power, u.province))
        if attacker is None and (u.power, u.province) not in adjudicated:
            # no order, a neutral unit, or an order that was not used: it held
            attacker = _attacked_by(v, record, u)
        if attacker is None:
            continue
        retreats = tuple(o.dest.upper() for o in legal.get(u.power, {}).get(u.location, ())
                         if isinstance(o, Retreat)) if d is not None else ()
        out.append(DislodgedUnit(u.power, str(u), attacker.upper(),
                                 u not in held and u.power in v.powers, retreats))
    return out


#: results of orders the movement pass did not use (their units held)
_NOT_ADJUDICATED = (Reason.INVALID, Reason.ILLEGAL, Reason.NOTED, Reason.NO_PASSAGE)


def _unused_builds(v: Variant, record: PhaseRecord, nmr: list[str]) -> list[OrderLine]:
    """Builds a power was owed and neither made nor waived: not made (DATC 4.D.7)."""
    lines = []
    for power, due in adjustment_counts(v, record.position).items():
        used = sum(1 for r in record.results if r.power == power and r.success
                   and isinstance(r.order, (Build, Waive)))
        n = due - used
        if due > 0 and n > 0:
            why = "civil disorder" if power in nmr else "waived"
            lines.append(OrderLine(power, "", f"{_count(n, 'build')} unused ({why})",
                                   True, "unused_builds", power in nmr))
    return lines


def _centre_changes(before: Position, after: Position) -> tuple[CentreChange, ...]:
    old, new = before.centres, after.centres
    return tuple(CentreChange(c.upper(), old.get(c), new.get(c))
                 for c in sorted(set(old) | set(new)) if old.get(c) != new.get(c))


def _standings(v: Variant, options: Options, before: Position, after: Position
               ) -> tuple[Standing, ...]:
    """Every power alive before or after the phase: its counts and its next task."""
    centres = after.centre_counts()
    kind = after.phase.kind
    owed = adjustment_counts(v, after) if kind is PhaseKind.ADJUSTMENT else {}
    # the core's legal orders say who may PERMIT passage through a canal
    canals = kind is PhaseKind.MOVEMENT and bool(v.board_at(after.phase).canals)
    legal = legal_orders(after, options, v) if canals else {}
    alive_before = {u.power for u in before.units} | set(before.centres.values())
    out = []
    for power in v.powers:
        units = len(after.units_of(power))
        if power not in alive_before and not units and not centres.get(power):
            continue
        task = "nothing"
        if kind is PhaseKind.MOVEMENT:
            mine = [loc.upper() for loc, os in legal.get(power, {}).items()
                    if os and all(isinstance(o, Permit) for o in os)]
            parts = [f"orders for {_count(units, 'unit')}"] if units else []
            if mine:
                parts.append(f"may permit passage through {', '.join(mine)}")
            task = "; ".join(parts) or task
        elif kind is PhaseKind.RETREAT:
            n = sum(1 for d in after.dislodged if d.unit.power == power)
            task = f"retreats for {_count(n, 'unit')}" if n else task
        elif owed.get(power, 0) > 0:
            task = f"build {owed[power]}"
        elif owed.get(power, 0) < 0:
            task = f"remove {-owed[power]}"
        if not units and not centres.get(power):
            task = "eliminated"
        out.append(Standing(power, centres.get(power, 0), units, owed.get(power, 0), task))
    return tuple(out)
