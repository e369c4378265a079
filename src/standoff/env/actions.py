"""The fixed action space of a variant: one slot per place, a vocabulary of orders per slot.

Why this shape. A power gives one order per unit (or build site), and the
legal-order generator (``standoff.legal_orders``) lists them per location, so
the action is a ``MultiDiscrete`` with one slot per location of the map (a
province, or a coast of a split-coast province: ``stp``, ``stp/nc``,
``stp/sc``), and each slot's vocabulary is every order that could ever be
given there in this variant, in any phase. Index 0 of every slot is "no
order": the unit holds (retreats: disbands; adjustments: the civil-disorder
rule), as the judge treats a unit without orders.

A per-slot vocabulary keeps the masks small: a slot lists only the orders of
a unit standing there (a few dozen; a sea's convoys hundreds), where one
vocabulary shared by every slot would make each mask as long as all the
orders of the map. The masks of all slots together are as long as the
vocabularies: Standard's 81 slots have 19,580 actions in all, the largest
slot (a sea's convoys) 964; the README's table gives every variant's.

One action means one thing in every kind of phase: the entry "A MUN - BOH"
is the move in a movement phase and the retreat to BOH in a retreat phase,
and "remove A MUN" is the removal in an adjustment phase and the disband of
a dislodged army in a retreat phase. So a learner sees one "go there" and one
"leave the board" per unit, not a copy per phase kind.

What is in a slot, for each board the variant uses during the game (Sahara's
map changes): hold, moves and retreats along the map's links (and through
canals), the supports the map allows (as the generator offers them: without
a coast), disband/remove, builds on the centre's coasts and WAIVE in every
centre or build centre, PERMIT for every power on a canal, and the convoy
orders, convoyed moves and supports of convoy-only moves of every convoy
route (:mod:`standoff.env.convoys`; on a map with too many routes to list,
routes up to a length, and the legal orders beyond it are counted as
``outside`` in the environment's infos).

A 1939 IV high sea holds any number of fleets, and ``legal_orders`` gives a
power one list for the sea to pick from once per fleet: so a high sea has
:data:`HIGH_SEA_FLEETS` slots (``afh``, ``afh#2``, ``afh#3``), the same
vocabulary in each, the n-th unmasked while the power has n fleets there; a
fleet beyond them holds. A canal owner's PERMIT orders share the canal's slot with the orders of its
unit there, likewise. NO CONVERT (Sahara) is not offered by the generator, so
it is not in the space.

Each slot's entries are sorted by kind, then notation, so an action means the
same order in every process and every run (a trained policy's outputs keep
their meaning). The tables are built once per (variant, horizon, route
length) and cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from standoff import (
    Board,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Permit,
    Phase,
    PhaseKind,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitType,
    Variant,
    Waive,
    province_of,
)

from .convoys import convoy_routes

Mask: TypeAlias = npt.NDArray[np.int8]
Actions: TypeAlias = npt.NDArray[np.int64]

#: the phase kinds
KINDS = (PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT)
#: slots per high sea: a power's fleets there beyond this many hold
HIGH_SEA_FLEETS = 3
#: orders remembered by identity per slot (bounded: retreats and removals are new
#: objects every phase)
_SEEN_PER_SLOT = 4096
#: the one waive there is (every WAIVE is equal to it)
_WAIVE = Waive(None, "")


def _canonical(order: Order) -> Order:
    """The vocabulary entry of an order: a retreat is its move, a disband its removal."""
    if isinstance(order, Retreat):
        return Move(order.unit, order.location, order.dest)
    if isinstance(order, Disband):
        return Remove(order.unit, order.location)
    return order


def _meanings(entry: Order) -> tuple[Order | None, Order | None, Order | None]:
    """What a vocabulary entry orders in a movement, a retreat and an adjustment
    phase (None: nothing there)."""
    if isinstance(entry, Remove):
        return None, Disband(entry.unit, entry.location), entry
    if isinstance(entry, (Build, Waive)):
        return None, None, entry
    if isinstance(entry, Move) and not entry.via_convoy:
        return entry, Retreat(entry.unit, entry.location, entry.dest), None
    return entry, None, None


class ActionTable:
    """A variant's slots and vocabularies, and the index tables that turn legal
    orders into masks and actions into orders without a Python loop per slot.
    Built once per variant (:func:`action_table`) and never changed."""

    def __init__(self, slots: tuple[str, ...], vocabulary: tuple[tuple[Order, ...], ...],
                 max_convoy_fleets: int, convoys_complete: bool) -> None:
        #: the slots, sorted: locations, and a high sea's extra slots (``afh#2``)
        self.slots = slots
        #: the locations of the map (the slots but the extra ones)
        self.locations = tuple(s for s in slots if "#" not in s)
        #: a high sea's location -> its extra slots' indexes, in order
        self.extra: dict[str, list[int]] = {}
        for i, name in enumerate(slots):
            if "#" in name:
                self.extra.setdefault(name.split("#", 1)[0], []).append(i)
        #: per slot, its orders (entry ``i`` is action ``i + 1``; 0 is "no order")
        self.vocabulary = vocabulary
        #: convoy routes of at most this many fleets are in the space
        self.max_convoy_fleets = max_convoy_fleets
        #: every convoy route of the maps is in the space
        self.convoys_complete = convoys_complete
        sizes = np.array([len(v) + 1 for v in vocabulary], dtype=np.int64)
        #: each slot's number of actions (the ``MultiDiscrete``'s nvec)
        self.nvec = sizes
        #: where each slot starts in the flat mask
        self.offsets: npt.NDArray[np.int64] = np.concatenate(
            ([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        #: the flat mask's length: every slot's actions
        self.size = int(sizes.sum())
        self.slot_index = {s: i for i, s in enumerate(slots)}
        self.index: list[dict[Order, int]] = [
            {o: k + 1 for k, o in enumerate(v)} for v in vocabulary]
        # flat position -> the order it means, per phase kind (None: no order)
        meanings = [m for vocab in vocabulary
                    for m in ((None, None, None), *(_meanings(e) for e in vocab))]
        self.decode: dict[PhaseKind, list[Order | None]] = {
            kind: [m[i] for m in meanings] for i, kind in enumerate(KINDS)}
        self._no_order = np.zeros(self.size, dtype=bool)
        self._no_order[self.offsets] = True
        self._slot_of = np.repeat(np.arange(len(sizes)), sizes)
        ends = self.offsets + sizes
        self._bounds = [(int(a), int(b)) for a, b in zip(self.offsets, ends, strict=True)]
        # per slot: id(order) -> (order, flat position), for the order objects the
        # generator hands out again and again (it shares them from its memo tables):
        # an identity check instead of hashing an order's fields, which is most of
        # the cost of a mask. The order is kept, so its id cannot be reused.
        self._seen: list[dict[int, tuple[Order, int]]] = [{} for _ in slots]

    def mask(self, legal: Mapping[str, Sequence[Order]],
             fleets: Mapping[str, int] | None = None) -> tuple[Mask, int]:
        """The flat mask (every slot's "no order" set) of one power's legal orders
        (location -> orders, as ``legal_orders`` gives them), and how many legal
        orders the space cannot name (convoy routes longer than it includes).
        ``fleets``: the power's fleets on each high sea holding more than one."""
        flat = np.zeros(self.size, dtype=np.int8)
        flat[self.offsets] = 1
        outside = 0
        on: list[int] = []
        for loc, orders in legal.items():
            slot = self.slot_index.get(loc)
            if slot is None:
                outside += len(orders)
                continue
            seen = self._seen[slot]
            for o in orders:
                hit = seen.get(id(o))
                if hit is not None and hit[0] is o:
                    on.append(hit[1])
                    continue
                k = self.index[slot].get(o) or self.index[slot].get(_canonical(o))
                if k is None:
                    outside += 1
                    continue
                pos = self._bounds[slot][0] + k
                if len(seen) < _SEEN_PER_SLOT:
                    seen[id(o)] = (o, pos)
                on.append(pos)
        for sea, n in (fleets or {}).items():  # a second fleet's slot offers the same
            slot = self.slot_index.get(sea)
            if n < 2 or slot is None or sea not in legal:
                continue
            start, end = self._bounds[slot]
            offered = [pos - start for pos in on if start <= pos < end]
            for extra in self.extra.get(sea, [])[:n - 1]:
                on.extend(self._bounds[extra][0] + k for k in offered)
        flat[on] = 1
        return flat, outside

    def encode(self, orders: Mapping[str, Order]) -> Actions:
        """The action giving ``orders``, one per location keyed as ``legal_orders``
        keys them (a build and a WAIVE under the site's province, a PERMIT under
        its canal): to replay recorded games or script an opponent. An order the
        space cannot name is a ValueError."""
        action = np.zeros(len(self.nvec), dtype=np.int64)
        for loc, order in orders.items():
            slot = self.slot_index.get(loc)
            k = None if slot is None else (
                self.index[slot].get(order) or self.index[slot].get(_canonical(order)))
            if slot is None or k is None:
                raise ValueError(f"no action gives {order} at {loc.upper()}")
            action[slot] = k
        return action

    def split(self, flat: Mask) -> tuple[Mask, ...]:
        """The flat mask as one array per slot (views), as ``MultiDiscrete.sample``
        and the PettingZoo convention take it."""
        return tuple([flat[a:b] for a, b in self._bounds])

    def orders(self, action: Actions, flat: Mask, kind: PhaseKind) -> list[Order]:
        """The orders an action gives, in slot order: the chosen entries the mask
        allows (anything else, like 0, gives no order)."""
        pos = self.offsets + action
        chosen = pos[(action > 0) & (flat[pos] == 1)]
        table = self.decode[kind]
        return [o for o in (table[int(i)] for i in chosen) if o is not None]

    def random_action(self, flat: Mask, rng: np.random.Generator) -> Actions:
        """A uniformly random legal order in every slot that has one (0 elsewhere):
        the default opponents, and the benchmark's random players."""
        legal = np.flatnonzero((flat == 1) & ~self._no_order)
        action = np.zeros(len(self.nvec), dtype=np.int64)
        if legal.size == 0:
            return action
        slots = self._slot_of[legal]
        counts = np.bincount(slots, minlength=len(self.nvec))
        firsts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        have = np.flatnonzero(counts)
        picks = legal[firsts[have] + (rng.random(have.size) * counts[have]).astype(np.int64)]
        action[have] = picks - self.offsets[have]
        return action


def boards_until(variant: Variant, last_year: int) -> list[Board]:
    """The distinct boards a game of ``variant`` uses up to ``last_year``."""
    boards: dict[int, Board] = {id(variant.board): variant.board}
    if variant.timeline is not None:
        seasons = len(variant.calendar.seasons)
        for year in range(variant.start.year, last_year + 1):
            for season in range(seasons):
                for kind in KINDS:
                    b = variant.board_at(Phase(year, season, kind))
                    boards.setdefault(id(b), b)
    return list(boards.values())


@lru_cache(maxsize=32)
def action_table(variant: Variant, last_year: int, max_convoy_fleets: int | None = None
                 ) -> ActionTable:
    """The action table of ``variant`` for games until ``last_year`` (cached)."""
    slots: dict[str, set[Order]] = {}
    fleets = 0
    complete = True
    boards = boards_until(variant, last_year)
    for board in boards:
        routes = convoy_routes(board, max_convoy_fleets)
        fleets = max(fleets, routes.max_fleets)
        complete = complete and routes.complete
        _map_orders(board, slots)
        _convoy_orders(board, routes.seas, slots)
        _builds(board, variant, slots)
        for canal in board.canals:
            slots.setdefault(canal, set()).update(
                Permit(None, canal, p) for p in variant.powers)
    for sea in {h for board in boards for h in board.high_seas}:
        for n in range(2, HIGH_SEA_FLEETS + 1):
            slots[f"{sea}#{n}"] = slots[sea]
    names = tuple(sorted(slots))
    vocab = tuple(tuple(sorted(slots[s], key=_sort_key)) for s in names)
    return ActionTable(names, vocab, fleets, complete)


def _sort_key(order: Order) -> tuple[str, str]:
    return (order.kind, str(order))


def _reach(board: Board, unit: UnitType) -> Mapping[str, frozenset[str]]:
    return board.army_reach if unit is UnitType.ARMY else board.fleet_reach


def _map_orders(board: Board, slots: dict[str, set[Order]]) -> None:
    """Hold, moves (retreats), removals (disbands) and supports: fixed by the map,
    as ``legal_orders`` derives them (its supports ignore convoys)."""
    standing = [(t, loc) for t in (UnitType.ARMY, UnitType.FLEET)
                for loc in (board.army_links if t is UnitType.ARMY else board.fleet_links)]
    for t, loc in standing:
        mine = slots.setdefault(loc, set())
        mine.add(Hold(t, loc))
        mine.add(Remove(t, loc))
        dests = set(board.links(t, loc))
        if t is UnitType.FLEET:
            dests.update(board.canal_links.get(loc, ()))
        mine.update(Move(t, loc, d) for d in dests)
        prov = province_of(loc)
        if prov in board.high_seas:
            continue  # fleets on a high sea give no support
        reach = _reach(board, t).get(loc, frozenset())
        for ot, other in standing:
            oprov = province_of(other)
            if oprov == prov:
                continue
            if oprov in reach:
                mine.add(SupportHold(t, loc, ot, oprov))
            theirs = _reach(board, ot).get(other, frozenset())
            if ot is UnitType.FLEET and other in board.canal_links:
                theirs = theirs | frozenset(board.canal_links[other])
            mine.update(SupportMove(t, loc, ot, oprov, p) for p in theirs & reach if p != prov)


def _convoy_orders(board: Board, routes: Mapping[tuple[str, str], Iterable[str]],
                   slots: dict[str, set[Order]]) -> None:
    """Convoys, convoyed moves and the supports of moves only a convoy makes."""
    to: dict[str, set[str]] = {}
    for (src, dst), seas in routes.items():
        adjacent = dst in board.army_links.get(src, frozenset())
        slots.setdefault(src, set()).add(Move(UnitType.ARMY, src, dst, adjacent))
        for sea in seas:
            slots.setdefault(sea, set()).add(Convoy(UnitType.FLEET, sea, src, dst))
        to.setdefault(dst, set()).add(src)
    for t in (UnitType.ARMY, UnitType.FLEET):
        for loc, reach in _reach(board, t).items():
            prov = province_of(loc)
            if prov in board.high_seas:
                continue
            mine = slots.setdefault(loc, set())
            for p in reach:
                mine.update(SupportMove(t, loc, UnitType.ARMY, src, p)
                            for src in to.get(p, ()) if src != prov)


def _builds(board: Board, variant: Variant, slots: dict[str, set[Order]]) -> None:
    """Builds on every centre (and build centre): any owned centre may be a site
    (Sahara), and the builds a site allows are fixed by the map."""
    for prov in sorted(board.supply_centres | set(variant.build_centres)):
        if prov not in board.provinces:
            continue
        mine = slots.setdefault(prov, set())
        if board.can_stand(UnitType.ARMY, prov):
            mine.add(Build(UnitType.ARMY, prov))
        mine.update(Build(UnitType.FLEET, loc) for loc in board.locations_of(prov)
                    if board.can_stand(UnitType.FLEET, loc))
        mine.add(_WAIVE)
