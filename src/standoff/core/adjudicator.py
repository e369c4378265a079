"""One phase in, the next position out.

:func:`adjudicate` is the single entry point of the rules core: it reads the
orders (text or :class:`Order`), sorts out the invalid and the illegal ones,
adjudicates the phase, and works out the next phase, skipping a retreat phase
nobody needs and an adjustment phase with nothing to adjust, and updating
centre ownership after the last season of the year.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, assert_never

from .adjustments import adjudicate_adjustments, adjustment_counts, counts_for
from .buckets import bucket
from .errors import IllegalOrderError, InvalidOrderError, StandoffError
from .geography import Board, province_of
from .map_change_effects import apply_map_change
from .movement import MovementAdjudicator
from .notation import parse_order
from .options import DEFAULT, Options
from .order_checks import canal_owner
from .orders import MovementOrder, Order, Remove, RetreatOrder
from .phase import Phase, PhaseKind
from .position import (
    Dislodged,
    InOrder,
    Position,
    Unit,
    centre_table,
    changed_owners,
    insert_unit,
)
from .results import OrderResult, Reason
from .retreats import adjudicate_retreats, retreat_targets
from .variant import Variant, VariantRegistry, load_variant

OrdersInput = Mapping[str, Iterable["Order | str"]]


class PhaseResult:
    """The outcome of one phase: per-order results and the position after it.

    ``results`` is built on first access: explaining every order costs about
    as much as adjudicating, and bots that only want ``next_position`` should
    not pay for it.
    """

    __slots__ = ("_late", "_results", "disbanded", "events", "next_position", "position")

    def __init__(self, position: Position, results: list[OrderResult], next_position: Position,
                 disbanded: list[Unit] | None = None,
                 late: Callable[[], list[OrderResult]] | None = None,
                 events: list[str] | None = None) -> None:
        self.position = position
        self.next_position = next_position
        #: units disbanded because they were dislodged with nowhere to retreat
        self.disbanded = disbanded or []
        #: what a change of map did after the season (units disbanded or converted,
        #: centres lost and gained, spaces changing terrain)
        self.events = events or []
        self._results = results
        self._late = late

    @property
    def results(self) -> list[OrderResult]:
        """Every order's result: invalid and illegal ones first, then by unit."""
        if self._late is not None:
            self._results = self._results + self._late()
            self._late = None
        return self._results

    def to_dict(self, registry: VariantRegistry | None = None) -> dict[str, Any]:
        """The JSON object; the variant is found in ``registry`` (default: the
        module's :data:`~standoff.core.variant.DEFAULT_REGISTRY`)."""
        variant = load_variant(self.position.variant, registry)
        return {
            "phase": self.position.phase.name(variant.calendar),
            "results": [r.to_dict() for r in self.results],
            "disbanded": [f"{u.power} {u}" for u in self.disbanded],
            "events": list(self.events),
            "next": self.next_position.to_dict(registry),
        }


def read_orders(
    variant: Variant, orders: OrdersInput
) -> tuple[dict[str, list[Order]], list[OrderResult]]:
    """Parse text orders; unreadable ones become INVALID results (never exceptions)."""
    parsed: dict[str, list[Order]] = {}
    bad: list[OrderResult] = []
    for power, order in _read(variant, orders, bad):
        bucket(parsed, power).append(order)
    return parsed, bad


def _read(variant: Variant, orders: OrdersInput, bad: list[OrderResult]
          ) -> list[tuple[str, Order]]:
    """(power id, order) for every readable order, in the order given; an unknown
    power or unreadable text is appended to ``bad`` as an INVALID result.

    A list, not a generator: read once per phase, and a compiled generator costs
    more to resume than a list costs to fill."""
    out: list[tuple[str, Order]] = []
    # a dict of lists (as orders mostly come) is read with the compiled core's own
    # dict and list loops, not the interpreter's generic iteration
    table = orders if isinstance(orders, dict) else dict(orders)
    for power_name, given in table.items():
        if not given:
            continue  # an empty list: nothing to read (most powers, in most retreats)
        items = given if isinstance(given, list) else list(given)
        try:
            power = variant.power(power_name)
        except StandoffError as exc:
            bad.extend(OrderResult(power_name, None, False, Reason.INVALID,
                                   detail=str(exc), text=str(item)) for item in items)
            continue
        for item in items:
            if isinstance(item, Order):
                out.append((power, item))
                continue
            try:
                order = parse_order(item, variant)
            except InvalidOrderError as exc:
                bad.append(OrderResult(power, None, False, Reason.INVALID, detail=exc.reason,
                                       text=item))
                continue
            out.append((power, order))
    return out


def adjudicate(
    position: Position, orders: OrdersInput, options: Options = DEFAULT,
    variant: Variant | None = None,
) -> PhaseResult:
    """Adjudicate ``position``'s phase with ``orders`` (power -> orders)."""
    v = variant or load_variant(position.variant)
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return _movement(v, position, orders, options)
    parsed, results = read_orders(v, orders)
    if kind is PhaseKind.RETREAT:
        return _retreat(v, position, parsed, results, options)
    return _adjustment(v, position, parsed, results, options)


def _movement(v: Variant, position: Position, orders: OrdersInput,
              options: Options) -> PhaseResult:
    board = v.board_at(position.phase)
    units = list(position.units)
    index = position.unit_index
    high = board.high_seas
    legal: list[MovementOrder | None] = [None] * len(units)
    keep: set[int] = set()
    permits: set[tuple[str, str]] = set()
    results: list[OrderResult] = []
    # Reading and checking in one pass: this loop runs for every order of every
    # phase (no intermediate table of parsed orders).
    for power, order in _read(v, orders, results):
        try:
            checked = order.check_movement(v, board, position, power, options)
            match checked.kind:
                case "hold" | "move" | "support_hold" | "support_move" | "convoy":
                    prov = province_of(checked.location)
                    i = _free_slot(units, legal, power, prov) if prov in high else index[prov]
                case "no_convert":  # noted: read if the map changes under the fleet
                    keep.add(index[province_of(checked.location)])
                    results.append(OrderResult(power, checked, True, Reason.NOTED))
                    continue
                case "permit":  # noted: read when canal moves are adjudicated
                    permits.add((checked.location, checked.power))
                    results.append(OrderResult(power, checked, True, Reason.NOTED))
                    continue
                case _:
                    assert_never(checked)
        except IllegalOrderError as exc:
            results.append(OrderResult(power, order, False, Reason.ILLEGAL,
                                       detail=exc.reason))
            continue
        legal[i] = checked  # a later order replaces
    if v.neutral:  # units of no power: the variant's neutral-orders hook (1939 IV 2.2)
        for unit_order in v.neutral_orders.orders(v, position):
            checked = unit_order.check_movement(v, board, position, v.neutral, options)
            legal[index[province_of(checked.location)]] = checked
    if board.canal_links:
        _close_canals(board, position, units, legal, permits, results)
    adj = MovementAdjudicator(board, units, legal, options)
    outcome = adj.run()

    def late() -> list[OrderResult]:
        return [r for r, o in zip(outcome.explain(), legal, strict=True) if o is not None]

    # A NO CONVERT note follows its unit: to where it ends the phase, or, if it
    # was dislodged, onto the dislodged unit ("LOC<") until it retreats.
    notes = {outcome.final[i] or f"{units[i].location}<" for i in keep}
    occupied = outcome.occupied
    retreating: list[Dislodged] = []
    gone: list[Unit] = []
    for d in outcome.dislodged:
        # Units in civil disorder are annihilated when dislodged (1939 IV 7.5).
        if d.unit.power != v.neutral and retreat_targets(board, d, occupied, outcome.contested,
                                                         options):
            retreating.append(d)
        else:
            gone.append(d.unit)
    phase = position.phase
    if retreating:
        nxt = Position(v.name, phase.next_retreat(), tuple(outcome.units), position.centres,
                       tuple(retreating), outcome.contested, frozenset(notes))
        return PhaseResult(position, results, nxt, gone, late)
    nxt, events = _after_turn(v, position, outcome.units, notes, options)
    return PhaseResult(position, results, nxt, gone, late, events)


def _free_slot(units: list[Unit], legal: list[MovementOrder | None], power: str,
               prov: str) -> int:
    """In a space holding several units, the next of ``power``'s units there with
    no order yet: each order a power gives for such a space goes to another of
    its units there (1939 IV high oceans)."""
    mine = [i for i, u in enumerate(units) if u.power == power and province_of(u.location) == prov]
    for i in mine:
        if legal[i] is None:
            return i
    raise IllegalOrderError("", f"every unit of {power} in {prov.upper()} already has an "
                                f"order ({len(mine)} there)")


def _close_canals(board: Board, position: Position, units: list[Unit],
                  legal: list[MovementOrder | None], permits: set[tuple[str, str]],
                  results: list[OrderResult]) -> None:
    """Canal moves of powers that neither own the canal nor hold its owner's
    permission this turn fail, and the fleet holds (The Twentieth Century's
    straits and canals). Permission is given by orders of the same turn, so it
    can only be checked here, with every power's orders in hand."""
    for i, order in enumerate(legal):
        if order is None or order.kind != "move":
            continue
        canal = board.canal_through(order.location, order.dest)
        if canal is None:
            continue
        power = units[i].power
        owner = canal_owner(board, position, canal)
        if owner == power or (canal, power) in permits:
            continue
        legal[i] = None
        who = f"{owner} owns {canal.upper()}" if owner else f"nobody owns {canal.upper()}"
        results.append(OrderResult(power, order, False, Reason.NO_PASSAGE, (canal,),
                                   detail=f"{who} and gave {power} no permission to pass"))


def _retreat(v: Variant, position: Position, parsed: dict[str, list[Order]],
             results: list[OrderResult], options: Options) -> PhaseResult:
    board = v.board_at(position.phase)
    occupied = position.unit_index  # every province holding a unit
    # (provinces from province_of: a unit's ``province`` is a named tuple's
    # property, which the compiled core can only call through the interpreter)
    by_prov = {province_of(d.unit.location): d for d in position.dislodged}
    allowed = {p: retreat_targets(board, d, occupied, position.contested, options)
               for p, d in by_prov.items()}
    legal: dict[str, RetreatOrder] = {}
    for power, items in parsed.items():
        for order in items:
            d = by_prov.get(province_of(order.location))
            try:
                if d is None:
                    raise IllegalOrderError(str(order), "no dislodged unit in "
                                            f"{province_of(order.location).upper()}")
                if d.unit.power != power:
                    raise IllegalOrderError(str(order), f"the dislodged unit in "
                                            f"{d.unit.province.upper()} belongs to {d.unit.power}")
                prov = province_of(d.unit.location)
                legal[prov] = order.check_retreat(board, d, allowed[prov], options)
            except IllegalOrderError as exc:
                results.append(OrderResult(power, order, False, Reason.ILLEGAL,
                                           detail=exc.reason))
    res, arrived = adjudicate_retreats(position.dislodged, legal, board.high_seas)
    results.extend(res)
    units = list(position.units)
    for unit in arrived:
        insert_unit(units, unit)
    notes = {n for n in position.notes if not n.endswith("<")}
    for d in position.dislodged if position.notes else ():
        retreat = legal.get(province_of(d.unit.location))
        if f"{d.unit.location}<" in position.notes and retreat is not None and \
                retreat.kind == "retreat" and \
                Unit(d.unit.power, d.unit.type, retreat.dest) in arrived:
            notes.add(retreat.dest)
    nxt, events = _after_turn(v, position, units, notes, options, in_order=True)
    gone = [d.unit for d in position.dislodged
            if not any(r.success and r.order is not None and r.order.location == d.unit.location
                       and r.order.kind == "retreat" for r in res)]
    return PhaseResult(position, results, nxt, gone, events=events)


def _adjustment(v: Variant, position: Position, parsed: dict[str, list[Order]],
                results: list[OrderResult], options: Options) -> PhaseResult:
    # a disband given now is a removal (results show it as one)
    normal = {p: [Remove(o.unit, o.location) if o.kind == "disband" else o for o in items]
              for p, items in parsed.items()}
    res, units = adjudicate_adjustments(v, position, normal, options)
    results.extend(res)
    nxt = Position(v.name, position.phase.next_after_turn(v.calendar, options.optional_seasons),
                   InOrder(units), position.centres)
    return PhaseResult(position, results, nxt)


def _after_turn(v: Variant, position: Position, units: list[Unit], notes: set[str],
                options: Options, in_order: bool = False) -> tuple[Position, list[str]]:
    """The phase after a season's movement/retreats, skipping empty adjustments.

    Also applies a change of map scheduled after this season (before centres
    change hands and before adjustments): returns the next position and what
    the change did (units it disbanded or converted, centres lost and gained).
    ``in_order``: ``units`` are in canonical order already (a retreat phase puts
    its arrivals in place), so the next position need not sort them.
    """
    phase = position.phase
    centres = position.centres
    # (the same for this season's movement and retreat phases)
    nxt_phase = phase.next_after_turn(v.calendar, options.optional_seasons)
    events: list[str] = []
    old, new = v.board_at(phase), v.board_at(nxt_phase)
    if new is not old:
        units, centres, events = apply_map_change(old, new, units, centres,
                                                  v.stranded_fleets, notes)
        in_order = False
    if phase.is_last_season(v.calendar):
        centres = update_centres(v, nxt_phase, units, centres)
    nxt = Position(v.name, nxt_phase, InOrder(units) if in_order else units, centres)
    if nxt_phase.kind is PhaseKind.ADJUSTMENT:
        # the new position's province table tells which build sites are free
        counts = counts_for(v, nxt.units, centres, occupied=nxt.unit_index)
        if not counts:  # nobody has anything to adjust: the phase is skipped
            skip = nxt_phase.next_after_turn(v.calendar, options.optional_seasons)
            return Position(v.name, skip, InOrder(nxt.units), centres), events
        nxt.keep_counts(counts)  # the adjustment phase's counts, worked out here anyway
    return nxt, events


def update_centres(v: Variant, phase: Phase, units: Iterable[Unit],
                   centres: Mapping[str, str]) -> Mapping[str, str]:
    """Occupied supply centres (on the map in force at ``phase``) change hands;
    empty ones keep their owner.

    Returns ``centres`` itself when nothing changed (positions share the table).
    """
    centre_at = v.board_at(phase).centre_at
    neutral = v.neutral
    owners = centre_table(centres)
    changes: dict[str, str] | None = None
    for u in units:
        prov = centre_at.get(u.location)
        if prov is None:
            continue  # not on a supply centre
        power = u.power
        if power != neutral and owners.get(prov) != power:
            # (a neutral army keeps its country unowned: 1939 IV 2.2)
            if changes is None:
                changes = {}
            changes[prov] = power
    return centres if changes is None else changed_owners(centres, changes)


def check_order(position: Position, power: str, order: Order, options: Options = DEFAULT,
                variant: Variant | None = None) -> Order:
    """Check one order for submission: the normalised order, or IllegalOrderError.

    The same tests the adjudication applies, so a judge can refuse an illegal
    order when it is written instead of silently ignoring it later.
    """
    v = variant or load_variant(position.variant)
    board = v.board_at(position.phase)
    kind = position.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return order.check_movement(v, board, position, power, options)
    if kind is PhaseKind.RETREAT:
        d = next((d for d in position.dislodged
                  if d.unit.province == province_of(order.location)), None)
        if d is None or d.unit.power != power:
            raise IllegalOrderError(str(order), f"{power} has no dislodged unit in "
                                                f"{province_of(order.location).upper()}")
        occupied = position.unit_index  # every province holding a unit
        allowed = retreat_targets(board, d, occupied, position.contested, options)
        return order.check_retreat(board, d, allowed, options)
    due = adjustment_counts(v, position).get(power, 0)
    return order.check_adjustment(v, board, position, power, due)
