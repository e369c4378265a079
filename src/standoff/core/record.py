"""A game as data: the immutable record of a game and the pure functions that move it on.

A :class:`GameRecord` is everything a game is, and nothing about where it is
kept: its variant and rule options, the phases processed so far
(:class:`PhaseRecord`: the position, the orders given, the results), the
current position, the orders waiting for the next processing
(:class:`PendingOrders`) and how the game ended, if it has. Every part is a
frozen value; a change is a new record that shares everything it did not
change with the old one (the history grows by one shared tuple entry per
phase, nothing is copied deeply), so a record can be kept, compared, pickled
or handed to another thread while the game goes on.

The game moves on through pure functions, each returning a new record:

* :func:`submit_orders` checks a power's orders and adds them to the pending
  ones, all or nothing (:func:`submit_checked` also returns them normalised);
* :func:`process_phase` adjudicates the phase with the pending orders, appends
  the phase to the history, moves to the next position, clears the pending
  orders and asks the variant's victory rule (:func:`standoff.decide_victory`)
  whether the game is over;
* :func:`declare_draw` ends the game in a draw, :func:`concede` in one power's
  win that the others conceded; :func:`clear_orders` withdraws a power's
  pending orders.

Who has to act is :func:`powers_to_order` (a power with units to order,
retreats to make or adjustments due: the NMR list and a judge's readiness go by
it); :func:`powers_that_may_order` are the others who may send something this
phase without having to (the owner of a canal with no units of its own, who
may PERMIT passage).

The JSON form (:meth:`GameRecord.to_dict`, :meth:`GameRecord.from_dict`) is
the saved game's ``"game"`` object, unchanged from the files
:class:`standoff.Game` has always written. :class:`standoff.Game` is a thin
mutable holder of a record for the CLI and scripts; the web judge keeps the
same record in its database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, assert_never, final

from .adjudicator import PhaseResult, adjudicate, check_order, read_orders
from .adjustments import adjustment_counts
from .errors import GameStateError, IllegalOrderError, InvalidOrderError, StandoffError
from .geography import province_of
from .notation import parse_order
from .options import DEFAULT, Options
from .orders import Build, Disband, Order, Permit, Remove, Waive
from .pending import NO_ORDERS, PendingOrders, PowerOrders
from .phase import PhaseKind
from .position import Position
from .results import OrderResult
from .value import Value, fields_repr
from .variant import Variant, VariantRegistry, load_variant
from .victory import Outcome, decide_victory

# -- values ---------------------------------------------------------------------------------


@final
class PhaseRecord(Value):
    """One processed phase: the position, the orders given, what happened."""

    __slots__ = ("events", "orders", "position", "results")

    def __init__(self, position: Position, orders: Mapping[str, tuple[Order, ...]],
                 results: tuple[OrderResult, ...], events: tuple[str, ...] = ()) -> None:
        self.position: Final = position
        #: power -> its orders, in the order they were pending
        self.orders: Final = orders
        self.results: Final = results
        #: what a change of map did after this phase
        self.events: Final = events

    def _args(self) -> tuple[object, ...]:
        return (self.position, self.orders, self.results, self.events)

    def __repr__(self) -> str:
        return fields_repr(self, ("position", "orders", "results", "events"))


@dataclass(frozen=True, slots=True)
class Draw:
    """A game ended in a draw the players declared, shared by ``powers``."""

    powers: tuple[str, ...]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Draw, (self.powers,))


@final
class GameRecord(Value):
    """A whole game as one immutable value (see the module's description)."""

    __slots__ = ("history", "options", "outcome", "pending", "position", "variant")

    def __init__(self, variant: Variant, options: Options, position: Position,
                 history: tuple[PhaseRecord, ...] = (), pending: PendingOrders = NO_ORDERS,
                 outcome: Outcome | Draw | None = None) -> None:
        self.variant: Final = variant
        self.options: Final = options
        self.position: Final = position
        self.history: Final = history
        self.pending: Final = pending
        #: None while the game goes on; the victory rule's :class:`~standoff.Outcome`
        #: (a winner, or nobody when the last phase left nobody the winner); or a
        #: declared :class:`Draw`
        self.outcome: Final = outcome

    def _args(self) -> tuple[object, ...]:
        return (self.variant, self.options, self.position, self.history, self.pending,
                self.outcome)

    def __repr__(self) -> str:
        return fields_repr(self, ("variant", "options", "position", "history", "pending",
                                  "outcome"))

    @classmethod
    def new(cls, variant: str | Variant = "standard", options: Options = DEFAULT
            ) -> GameRecord:
        """A game at the variant's opening position, nothing processed yet."""
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        return cls(v, options, Position.initial(v))

    # -- the outcome, as the CLI and the reports say it -------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> str | None:
        o = self.outcome
        return o.winner if isinstance(o, Outcome) else None

    @property
    def draw(self) -> tuple[str, ...] | None:
        o = self.outcome
        return o.powers if isinstance(o, Draw) else None

    @property
    def no_winner(self) -> bool:
        """The game reached its last phase and nobody met the victory condition."""
        o = self.outcome
        return isinstance(o, Outcome) and o.winner is None

    @property
    def phase_name(self) -> str:
        return self.position.phase.name(self.variant.calendar)

    # -- JSON (a saved game's "game" object) ------------------------------------------------

    def to_dict(self, history: bool = True, pending: bool = True) -> dict[str, Any]:
        """The JSON object (a saved game's ``"game"``); positions are written with the
        record's own variant, never looked up by name.

        ``history=False`` leaves out the ``"history"`` key and ``pending=False`` the
        ``"orders"`` key (the pending orders): the current state alone, for a host
        that keeps past phases and pending orders in stores of its own (the web
        judge keeps them in rows). :meth:`from_dict` reads either shape back, a
        missing part as empty. The keys that remain keep their order."""
        registry = VariantRegistry.of(self.variant)
        outcome: dict[str, Any] | None = None
        o = self.outcome
        if isinstance(o, Draw):
            outcome = {"draw": list(o.powers)}
        elif isinstance(o, Outcome):
            outcome = {"winner": o.winner} if o.winner is not None else {"no_winner": True}
        data: dict[str, Any] = {"variant": self.variant.name,
                                "options": self.options.to_dict()}
        if history:
            data["history"] = [
                {
                    "position": r.position.to_dict(registry),
                    "orders": {p: [str(o) for o in os] for p, os in r.orders.items()},
                    "results": [x.to_dict() for x in r.results],
                    **({"events": list(r.events)} if r.events else {}),
                }
                for r in self.history
            ]
        data["position"] = self.position.to_dict(registry)
        if pending:
            data["orders"] = {p.power: [str(o) for o in p.orders] for p in self.pending.powers}
        data["outcome"] = outcome
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], registry: VariantRegistry | None = None
                  ) -> GameRecord:
        """Rebuild a game; raises StandoffError (or KeyError/TypeError) on bad data.
        Its variant is found in ``registry`` (default: the module's): a host of
        designers' variants (the judge) passes its own rather than registering them
        process-wide.

        Pending orders are checked against the rules again, each on its own (a
        saved game may hold batches written before the batch checks existed).
        Without ``"history"`` or ``"orders"`` (``to_dict(history=False,
        pending=False)``) the game has no past phases or no pending orders."""
        v = load_variant(str(data["variant"]), registry)
        registry = VariantRegistry.of(v)
        options = Options.from_dict(data.get("options", {}))
        reader = _Reader(v)
        history: list[PhaseRecord] = []
        for rec in data.get("history", ()):
            orders, bad = read_orders(v, rec["orders"])
            if bad:
                raise InvalidOrderError(bad[0].text, bad[0].detail)
            history.append(PhaseRecord(
                Position.from_dict(rec["position"], registry), _given(v, rec["orders"], orders),
                tuple(OrderResult.from_dict(x, reader.parse) for x in rec["results"]),
                tuple(str(e) for e in rec.get("events", []))))
        record = cls(v, options, Position.from_dict(data["position"], registry), tuple(history))
        for power, texts in data.get("orders", {}).items():
            record = _submit(record, power, texts, False, strict=False)[0]
        outcome = data.get("outcome")
        if outcome is None:
            return record
        end: Outcome | Draw
        if "winner" in outcome:
            end = Outcome(v.power(str(outcome["winner"])))
        elif "draw" in outcome:
            end = Draw(tuple(v.power(str(p)) for p in outcome["draw"]))
        elif outcome.get("no_winner") is True:
            end = Outcome(None)
        else:
            raise StandoffError("unknown game outcome")
        return _replace(record, outcome=end)


def _given(v: Variant, saved: dict[str, Any], read: dict[str, list[Order]]
           ) -> dict[str, tuple[Order, ...]]:
    """A history entry's orders as saved: every power in the file's order, those
    that sent an empty set included (so the game saves again as it was)."""
    out: dict[str, tuple[Order, ...]] = {}
    for name, items in saved.items():
        if items:
            pid = v.power(name)
            out[pid] = tuple(read[pid])
        else:
            try:
                out[v.power(name)] = ()
            except StandoffError:
                continue  # an empty list under an unknown name says nothing
    return out


class _Reader:
    """Orders of one variant from text (a method, not a closure, for the compiled core)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def parse(self, text: str) -> Order:
        return parse_order(text, self.variant)


def _replace(record: GameRecord, *, position: Position | None = None,
             pending: PendingOrders | None = None,
             outcome: Outcome | Draw | None = None) -> GameRecord:
    """``record`` with some parts changed, the rest shared (a hand-written
    :func:`dataclasses.replace`: cheaper, and typed)."""
    return GameRecord(record.variant, record.options,
                      record.position if position is None else position, record.history,
                      record.pending if pending is None else pending,
                      record.outcome if outcome is None else outcome)


def with_position(record: GameRecord, position: Position) -> GameRecord:
    """``record`` at another position (a game set up from a given position, or a
    test's): the history, pending orders and outcome stay as they are."""
    return _replace(record, position=position)


# -- who acts --------------------------------------------------------------------------------


def powers_to_order(record: GameRecord) -> list[str]:
    """The powers that must act this phase: units to order (movement), dislodged
    units to retreat (retreats), builds or removals due (adjustments). A power
    among them that sends nothing is in NMR (its units hold or disband, the
    civil-disorder rule removes for it); a judge waits for these."""
    return must_order(record.variant, record.position)


def powers_that_may_order(record: GameRecord) -> list[str]:
    """The powers that may send orders this phase without having to (not in
    :func:`powers_to_order`): the owner of a canal with no units, who may PERMIT
    another power's fleets through it (The Twentieth Century). Sending nothing is
    no NMR for them."""
    return may_order(record.variant, record.position)


def must_order(variant: Variant, position: Position) -> list[str]:
    """:func:`powers_to_order` of any position (a report works from a past one)."""
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return sorted({u.power for u in position.units} & set(variant.powers))
    if kind is PhaseKind.RETREAT:
        return sorted({d.unit.power for d in position.dislodged})
    return sorted(adjustment_counts(variant, position))


def may_order(variant: Variant, position: Position) -> list[str]:
    """:func:`powers_that_may_order` of any position."""
    if position.phase.kind is not PhaseKind.MOVEMENT:
        return []
    canals = variant.board_at(position.phase).canals
    if not canals:
        return []
    owners = {position.centres.get(c, "") for c in canals}
    return sorted(owners & set(variant.powers) - {u.power for u in position.units})


def surviving_powers(record: GameRecord) -> list[str]:
    """The powers still in the game: with units or centres (units in civil
    disorder belong to no power and share nothing)."""
    pos = record.position
    alive = {u.power for u in pos.units} | set(pos.centres.values())
    return sorted(alive & set(record.variant.powers))


# -- submitting orders -------------------------------------------------------------------------


def submit_orders(record: GameRecord, power: str, orders: Iterable[str | Order],
                  replace: bool = False) -> GameRecord:
    """``record`` with ``power``'s orders added to the pending ones.

    All or nothing: if any order is invalid or illegal the error is raised
    (:class:`InvalidOrderError`, :class:`IllegalOrderError`) and no record is
    made. A new order for a unit replaces its earlier one; ``replace`` first
    drops every pending order of the power. What would only fail at processing
    is refused here, so the player hears of it while there is time to fix it:
    an order labelled with another power (``Germany: A MAR - GAS`` sent as
    France's), two orders for one unit in one batch, more builds than the
    power may make or more removals than it must, more orders for a space than
    the power has units there (1939 IV high seas)."""
    return _submit(record, power, orders, replace, strict=True)[0]


def submit_checked(record: GameRecord, power: str, orders: Iterable[str | Order],
                   replace: bool = False) -> tuple[GameRecord, list[Order]]:
    """:func:`submit_orders`, also returning the orders of this batch normalised
    (as the judge shows them back), in the order given."""
    return _submit(record, power, orders, replace, strict=True)


def clear_orders(record: GameRecord, power: str) -> GameRecord:
    """``record`` without any pending orders of ``power`` (as if it sent nothing)."""
    pid = record.variant.power(power)
    return _replace(record, pending=record.pending.without(pid))


#: which pending order a new one replaces (see :class:`PowerOrders`): (kind: "unit",
#: "note", "permit" or "waive"; province; a PERMIT's beneficiary; which of a power's
#: units on a high sea, which waive). Worked out while submitting, never stored; a
#: plain tuple, the cheapest key to build.
_Slot = tuple[str, str, str, int]


def _slot_kind(order: Order) -> Literal["unit", "waive", "note", "permit"]:
    """Which place among a power's pending orders an order takes: a unit's (a later
    order for the unit replaces it), a waive (each one counts), a standing note
    beside its unit's order (NO CONVERT), or a canal's permission for one power.
    A dispatch on every kind (``tests/test_orders.py``)."""
    match order.kind:
        case "hold" | "move" | "support_hold" | "support_move" | "convoy" | "retreat" | \
                "disband" | "build" | "remove":
            return "unit"
        case "waive":
            return "waive"
        case "no_convert":
            return "note"
        case "permit":
            return "permit"
        case _:
            assert_never(order.kind)


def _slot(order: Order, kind: Literal["unit", "waive", "note", "permit"], prov: str,
          n: int) -> _Slot:
    """The key ``order`` is kept under among its power's pending orders: waives,
    and the orders for several fleets of one power on one high sea, are numbered
    (``n``); a note or a permission sits beside its unit's order."""
    if kind == "permit":
        assert isinstance(order, Permit)
        return ("permit", prov, order.power, 0)
    if kind == "waive":
        return ("waive", "", "", n)
    return (kind, prov, "", n if kind == "unit" else 0)


def _slots(orders: Iterable[Order], high: frozenset[str] | set[str]) -> dict[_Slot, Order]:
    """Pending orders by slot, in their order."""
    out: dict[_Slot, Order] = {}
    waives = 0
    shared: dict[str, int] = {}
    for o in orders:
        kind = _slot_kind(o)
        prov = province_of(o.location)
        n = 0
        if kind == "waive":
            n = waives = waives + 1
        elif kind == "unit" and prov in high:
            n = shared[prov] = shared.get(prov, 0) + 1
        out[_slot(o, kind, prov, n)] = o
    return out


def _submit(record: GameRecord, power: str, orders: Iterable[str | Order], replace: bool,
            strict: bool) -> tuple[GameRecord, list[Order]]:
    """:func:`submit_checked`; without ``strict`` (a saved game's pending orders,
    written before the batch checks existed) each order is still checked
    against the rules, but not against the rest of its batch."""
    if record.outcome is not None:
        raise GameStateError("the game is over")
    v = record.variant
    position = record.position
    pid = v.power(power)
    checked: list[Order] = []
    for item in orders:
        if isinstance(item, str):
            if strict:
                _check_label(v, pid, item)
            order = parse_order(item, v)
        else:
            order = item
        checked.append(check_order(position, pid, order, record.options, v))
    high = v.board_at(position.phase).high_seas
    before = record.pending.of(pid)
    pending: dict[_Slot, Order] = {}
    if before is not None and not replace:
        pending = _slots(before.orders, high)
    waives = sum(1 for s in pending if s[0] == "waive")
    shared: dict[str, int] = {}  # high sea -> orders given for it in this call
    given: dict[str, Order] = {}  # province -> the order this call gives its unit
    for order in checked:
        kind = _slot_kind(order)
        prov = province_of(order.location)
        if kind == "waive":
            waives += 1
            pending[_slot(order, kind, prov, waives)] = order
        elif kind != "unit":  # a note or a permission, beside the unit's order
            pending[_slot(order, kind, prov, 0)] = order
        elif prov in high:  # several fleets: one order each (1939 IV)
            if prov not in shared:  # this call's orders there replace all earlier ones
                pending = {s: o for s, o in pending.items()
                           if not (s[0] == "unit" and s[1] == prov)}
            n = shared[prov] = shared.get(prov, 0) + 1
            if n > sum(1 for u in position.units_in(prov) if u.power == pid):
                raise IllegalOrderError(str(order), f"more orders than {pid} has units "
                                                    f"in {prov.upper()}")
            pending[_slot(order, kind, prov, n)] = order
        else:
            first = given.get(prov)
            if strict and first is not None:
                raise IllegalOrderError(str(order), f"a second order for {prov.upper()} "
                                                    f"in one submission (the first: {first})")
            given[prov] = order
            pending[_slot(order, kind, prov, 0)] = order
    kept = tuple(pending.values())
    if strict and position.phase.kind is PhaseKind.ADJUSTMENT:
        _check_allowance(v, position, pid, kept, checked)
    mine = PowerOrders(pid, kept)
    return _replace(record, pending=record.pending.with_orders(mine)), checked


def _check_label(v: Variant, pid: str, text: str) -> None:
    """Refuse an order whose own power label (``Germany: ...`` or ``German
    A MAR ...``) names another power than the one submitting it: the
    parser reads past the label, so without this a German order typed into
    France's batch would move a French unit."""
    head, colon, _ = text.partition(":")
    if colon:
        label = head.strip()
    else:
        words = text.split(None, 2)
        if len(words) < 3 or words[1].lower() not in ("a", "f", "army", "fleet"):
            return
        label = words[0]
    label = label.removesuffix("'s")
    try:
        named = v.power(label)
    except StandoffError:
        return  # not a power's name: the parser will judge the text
    if named != pid:
        raise IllegalOrderError(text, f"it is labelled {label}, but it is submitted "
                                      f"for {v.powers[pid].name}")


def _check_allowance(v: Variant, position: Position, pid: str, pending: tuple[Order, ...],
                     checked: list[Order]) -> None:
    """More builds (and waives) than a power may make, or more removals
    than it must, would be cut at processing: say so now."""
    due = adjustment_counts(v, position).get(pid, 0)
    builds = [o for o in pending if isinstance(o, (Build, Waive))]
    removals = [o for o in pending if isinstance(o, (Remove, Disband))]
    last = next((o for o in reversed(checked)
                 if isinstance(o, (Build, Waive, Remove, Disband))), None)
    if last is None:
        return  # nothing in this batch to count (an old save may hold extra)
    if due > 0 and len(builds) > due:
        raise IllegalOrderError(str(last), f"{pid} may build {due} unit(s) this phase, "
                                           f"and these orders make {len(builds)} "
                                           "builds and waives")
    if due < 0 and len(removals) > -due:
        raise IllegalOrderError(str(last), f"{pid} must remove {-due} unit(s) this "
                                           f"phase, and these orders remove "
                                           f"{len(removals)}")


# -- processing and the end of the game -----------------------------------------------------------


def process_phase(record: GameRecord) -> tuple[GameRecord, PhaseResult]:
    """Adjudicate the current phase with the pending orders (a power that sent
    nothing is in civil disorder) and move to the next: the new record has the
    phase appended to its history, the next position, no pending orders, and
    the outcome when the variant's victory rule says the game is over."""
    if record.outcome is not None:
        raise GameStateError("the game is over")
    v = record.variant
    before = record.position
    orders = {p.power: p.orders for p in record.pending.powers}
    result = adjudicate(before, orders, record.options, v)
    after = result.next_position
    entry = PhaseRecord(before, orders, tuple(result.results), tuple(result.events))
    outcome = decide_victory(v, before, after)
    return GameRecord(v, record.options, after, (*record.history, entry), NO_ORDERS,
                      outcome), result


def declare_draw(record: GameRecord, powers: Iterable[str] | None = None) -> GameRecord:
    """``record`` ended in a draw shared by ``powers`` (default: every survivor).

    A draw is shared: one power alone has not drawn but won or stalled, so
    fewer than two surviving powers is refused (:class:`GameStateError`), as are
    eliminated powers and a game already over. Pending orders stay as they were."""
    if record.outcome is not None:
        raise GameStateError("the game is over")
    alive = surviving_powers(record)
    chosen = sorted({record.variant.power(p) for p in powers} if powers else alive)
    dead = [p for p in chosen if p not in alive]
    if dead:
        raise GameStateError(f"eliminated powers cannot share a draw: {', '.join(dead)}")
    if len(chosen) < 2:
        raise GameStateError("a draw needs at least two surviving powers "
                             f"(named: {', '.join(chosen) or 'none'})")
    return _replace(record, outcome=Draw(tuple(chosen)))


def concede(record: GameRecord, winner: str) -> GameRecord:
    """``record`` ended with ``winner`` winning because the other players conceded
    it the game (a judge's unanimous concession vote).

    The outcome is an ordinary win, ``Outcome(winner)``: saved, reported and
    shown as a victory rule's would be, so nothing downstream needs to know how
    it came about. ``winner`` is a power's id, name or adjective. Refused, as
    :func:`declare_draw` refuses, for a game already over
    (:class:`GameStateError`), an unknown power (:class:`VariantError`) and a
    power out of the game (:class:`GameStateError`: one with neither units nor
    centres cannot be conceded anything). Pending orders stay as they were."""
    if record.outcome is not None:
        raise GameStateError("the game is over")
    pid = record.variant.power(winner)
    if pid not in surviving_powers(record):
        raise GameStateError(f"{pid} is out of the game: only a surviving power "
                             "can be conceded the game")
    return _replace(record, outcome=Outcome(pid))
