"""The search bot: the heuristic bot's plan, improved by adjudicating.

What no other Diplomacy engine can afford, standoff can: an adjudication of a
whole movement phase costs a fraction of a millisecond, so a bot can try
hundreds of its own order sets against what its neighbours will likely do
and keep the one whose outcome is best. This bot does exactly that:

1. **Its starting plan** is the heuristic bot's order set for its power
   (so it is never worse-informed than the heuristic, and always has a legal
   answer: the search only ever swaps one legal order for another).
2. **What the others will do**: the heuristic bot's orders for every other
   power near enough to matter (a power whose units cannot reach within two
   steps of this power's units and centres is left holding: it cannot change
   the outcome), plus a few perturbed samples where some of the neighbours'
   units nearest to this power attack or move elsewhere instead.
3. **The search** is a seeded hill climb over this power's units' orders:
   change one unit's order (a move, a hold, a support for one of its own
   units' current moves or holds), or move one unit and have another support
   that move; adjudicate the candidate against every opponent sample with
   :func:`standoff.adjudicate`; keep it if its score (a mix of the mean and
   the worst over the samples) is better.
4. **The score of a position** (:func:`position_value`) is this power's
   supply centres as they will stand after the year's last season if every
   unit stays where it is, with what each centre risks (more enemy units
   can reach it than own units defend it) and what each enemy centre
   offers (own units can reach it in greater strength than its defenders),
   plus a small bonus per unit and a penalty per unit dislodged, and a
   space the victory rule names (Sahara's Iceland) as the heuristic values it.

Retreats and adjustments are the heuristic bot's. Canal permissions and
NO CONVERT notes in a movement phase are the heuristic's too (kept as given).

Determinism: the work is counted in ``samples`` (adjudications per movement
phase), never in seconds, so an answer depends only on the record, the seed
and the settings. ``budget`` (seconds per order set) is a safety cut only: a
search that reaches it stops early and answers its best so far, which is the
one way an answer can depend on the machine; the default ``samples`` finish
well inside the default budget on Standard and the Twentieth Century (see
``docs/bots.md`` for the figures).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from random import Random
from typing import ClassVar

from standoff import (
    Board,
    GameRecord,
    Hold,
    Move,
    Order,
    PhaseKind,
    Position,
    StandoffError,
    SupportHold,
    SupportMove,
    UnitType,
    Variant,
    adjudicate,
    legal_orders,
    parse_order,
    province_of,
)

from . import BaseBot, Setting
from .ahead import goals
from .heuristic import HeuristicBot

#: how many opponent samples each candidate is adjudicated against (the
#: heuristic's own prediction is always the first)
OPPONENT_SAMPLES = 4
#: a candidate's score: this much of its mean over the samples, the rest its worst
MEAN_WEIGHT = 0.7
#: the kinds of order the search changes; anything else the heuristic gives in a
#: movement phase (canal permits, NO CONVERT notes) is kept as it is
_UNIT_KINDS = frozenset({"hold", "move", "support_hold", "support_move", "convoy"})


class SearchBot(BaseBot):
    """The heuristic's plan, improved by adjudicating candidates against
    likely replies (see the module)."""

    name: ClassVar[str] = "search"
    description: ClassVar[str] = (
        "Starts from the heuristic bot's plan and adjudicates hundreds of variations "
        "against its neighbours' likely orders, keeping the one that ends best.")
    SETTINGS: ClassVar[dict[str, Setting]] = {"samples": 600, "budget": 2.0}

    def __init__(self, *, seed: int | None = None, **settings: Setting) -> None:
        super().__init__(seed=seed, **settings)
        samples, budget = self.settings["samples"], self.settings["budget"]
        assert isinstance(samples, int) and isinstance(budget, float)
        if samples < 0:
            raise ValueError(f"setting 'samples' of bot 'search' must be at least 0, "
                             f"not {samples}")
        if budget <= 0:
            raise ValueError(f"setting 'budget' of bot 'search' must be positive, "
                             f"not {budget}")
        self.samples = samples
        self.budget = budget
        #: the opponents' model and this bot's starting plan
        self.heuristic: BaseBot = HeuristicBot(seed=self.seed)
        #: how many adjudications the last ``orders`` call made (never more than
        #: ``samples``; fewer where the budget cut it short): read by tests and
        #: benchmarks, never by the bot
        self.adjudications = 0

    def orders(self, record: GameRecord, power: str) -> list[str]:
        start = time.perf_counter()
        self.adjudications = 0
        pid = record.variant.power(power)
        base = self.heuristic.orders(record, pid)
        position = record.position
        if position.phase.kind is not PhaseKind.MOVEMENT or self.samples == 0:
            return base
        if not any(u.power == pid for u in position.units):
            return base
        deadline = start + self.budget * 0.85
        search = _Search(record, pid, base, self.rng(record, pid), deadline)
        search.predict(self.heuristic)
        answer = search.run(self.samples)
        self.adjudications = search.used
        return answer


class _Search:
    """One movement phase's search for one power (see the module)."""

    def __init__(self, record: GameRecord, power: str, base: list[str], rng: Random,
                 deadline: float) -> None:
        self.record = record
        self.variant: Variant = record.variant
        self.position: Position = record.position
        self.power = power
        self.rng = rng
        self.deadline = deadline
        #: adjudications made so far (each candidate scored costs one per sample)
        self.used = 0
        self.board = self.variant.board_at(self.position.phase)
        legal = legal_orders(self.position, record.options, self.variant)
        self.legal: dict[str, dict[str, list[Order]]] = legal
        mine = legal.get(power, {})
        # one slot per unit (several fleets of a power on a high sea share a list)
        self.slots: list[str] = [u.location for u in self.position.units
                                 if u.power == power and u.location in mine]
        self.options: list[list[Order]] = [
            [o for o in mine[loc] if o.kind in _UNIT_KINDS] for loc in self.slots]
        self.extras: list[Order] = []
        self.start: list[Order] = self._start_plan(base)
        self.opponents: list[dict[str, list[Order]]] = [{}]
        #: the centres a candidate can change (within three steps of this power's
        #: units, and its own): the others add the same to every candidate's score
        own = {c for c, p in self.position.centres.items() if p == power}
        ring = self._ring({province_of(loc) for loc in self.slots}, 3)
        self.counted: frozenset[str] = frozenset(
            c for c in self.board.supply_centres if c in ring or c in own)

    def _start_plan(self, base: list[str]) -> list[Order]:
        """The heuristic's orders, one per slot (a hold where it gave none);
        its other orders (permits, notes) go to ``extras`` unchanged."""
        plan: list[Order | None] = [None] * len(self.slots)
        for text in base:
            order = parse_order(text, self.variant)
            if order.kind not in _UNIT_KINDS:
                self.extras.append(order)
                continue
            for i, loc in enumerate(self.slots):
                if plan[i] is None and province_of(loc) == province_of(order.location):
                    plan[i] = order
                    break
            else:
                self.extras.append(order)
        return [o if o is not None else _hold_of(self.options[i], loc)
                for i, (o, loc) in enumerate(zip(plan, self.slots, strict=True))]

    # -- what the others do ------------------------------------------------------

    def predict(self, heuristic: BaseBot) -> None:
        """The opponent samples: the heuristic's orders for every power near
        this one, then perturbed copies where some of the nearest units do
        something else (attack this power or move on)."""
        near = self._near_powers()
        predicted: dict[str, list[Order]] = {}
        for other in near:
            if time.perf_counter() > self.deadline:
                break  # the safety cut: the powers not asked are taken to hold
            orders: list[Order] = []
            for text in heuristic.orders(self.record, other):
                try:
                    orders.append(parse_order(text, self.variant))
                except StandoffError:
                    continue
            predicted[other] = orders
        self.opponents = [predicted]
        mine = {province_of(loc) for loc in self.slots}
        mine |= {c for c, p in self.position.centres.items() if p == self.power}
        for _ in range(OPPONENT_SAMPLES - 1):
            self.opponents.append(self._perturbed(predicted, mine))

    def _near_powers(self) -> list[str]:
        """Powers with a unit within two steps of this power's units or centres."""
        ring = {province_of(loc) for loc in self.slots}
        ring |= {c for c, p in self.position.centres.items() if p == self.power}
        ring = self._ring(ring, 2)
        return sorted({u.power for u in self.position.units
                       if u.power != self.power and province_of(u.location) in ring
                       and u.power in self.legal})

    def _ring(self, provinces: set[str], steps: int) -> set[str]:
        """``provinces`` and every province within ``steps`` steps of them."""
        nb = self.board.neighbours
        ring = set(provinces)
        for _ in range(steps):
            ring |= {n for p in ring for n in nb.get(p, ())}
        return ring

    def _perturbed(self, predicted: Mapping[str, list[Order]], mine: set[str]
                   ) -> dict[str, list[Order]]:
        """``predicted`` with each opponent unit that can reach this power's
        spaces changed, with probability one half, to a move into one of them
        (or, if it has none, any move)."""
        out: dict[str, list[Order]] = {}
        for other, orders in predicted.items():
            legal = self.legal.get(other, {})
            changed: list[Order] = []
            for order in orders:
                choices = legal.get(order.location, [])
                if order.kind in _UNIT_KINDS and choices and self.rng.random() < 0.5:
                    attacks = [o for o in choices if isinstance(o, Move)
                               and province_of(o.dest) in mine]
                    if attacks:
                        order = self.rng.choice(attacks)
                changed.append(order)
            out[other] = changed
        return out

    # -- the climb ---------------------------------------------------------------

    def run(self, samples: int) -> list[str]:
        """Hill climb from the heuristic's plan for at most ``samples``
        adjudications (or until the deadline); the best plan found, as text.
        With too few samples to score even the start, or the deadline already
        past, the start (the heuristic's plan) is the answer."""
        best = list(self.start)
        if len(self.opponents) > samples or time.perf_counter() > self.deadline:
            return [str(o) for o in best + self.extras]
        seen: set[tuple[Order, ...]] = {tuple(best)}
        best_score = self.score(best)
        tries = 0
        while self.used + len(self.opponents) <= samples and tries < samples * 4:
            if time.perf_counter() > self.deadline:
                break  # the safety cut (see the module): the best so far
            tries += 1
            cand = self.mutate(best)
            key = tuple(cand)
            if key in seen:
                continue
            seen.add(key)
            score = self.score(cand)
            if score > best_score:
                best, best_score = cand, score
        return [str(o) for o in best + self.extras]

    def score(self, plan: Sequence[Order]) -> float:
        """The plan's value: a mix of its mean and worst over the samples."""
        values = []
        for others in self.opponents:
            orders: dict[str, list[Order]] = dict(others)
            orders[self.power] = list(plan) + self.extras
            result = adjudicate(self.position, orders, self.record.options, self.variant)
            values.append(position_value(self.variant, result.next_position, self.power,
                                         self.counted))
        self.used += len(values)
        mean = sum(values) / len(values)
        return MEAN_WEIGHT * mean + (1 - MEAN_WEIGHT) * min(values)

    def mutate(self, plan: list[Order]) -> list[Order]:
        """One step: a unit's new order, or a move with another unit's support."""
        rng = self.rng
        new = list(plan)
        n = len(new)
        i = rng.randrange(n)
        options = self.options[i]
        if not options:
            return new
        moves = [o for o in options if isinstance(o, Move)]
        roll = rng.random()
        if roll < 0.35 and moves and n > 1:  # a supported move
            move = rng.choice(moves)
            new[i] = move
            dest = province_of(move.dest)
            helpers = [(j, o) for j in range(n) if j != i for o in self.options[j]
                       if isinstance(o, SupportMove) and o.target == move.location
                       and province_of(o.dest) == dest]
            if helpers:
                j, support = rng.choice(helpers)
                new[j] = support
            return new
        if roll < 0.65 and n > 1:  # support one of its own units' current orders
            supports = [o for o in options if _supports_plan(o, new)]
            if supports:
                new[i] = rng.choice(supports)
                return new
        if roll < 0.75:
            new[i] = _hold_of(options, self.slots[i])
            return new
        new[i] = rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(options)
        return new


def _hold_of(options: list[Order], loc: str) -> Order:
    """The unit's hold order (every unit may hold)."""
    for o in options:
        if isinstance(o, Hold):
            return o
    return Hold(None, loc)


def _supports_plan(order: Order, plan: Sequence[Order]) -> bool:
    """Does ``order`` support one of the plan's own moves or holding units?"""
    if isinstance(order, SupportMove):
        return any(isinstance(o, Move) and o.location == order.target
                   and province_of(o.dest) == province_of(order.dest) for o in plan)
    if isinstance(order, SupportHold):
        return any(o.location == order.target and not isinstance(o, Move) for o in plan)
    return False


# -- the value of a position -----------------------------------------------------

#: a centre this power holds but more enemy units can reach than it defends with
LOSS_RISK = 0.6
#: the same with as many defenders as attackers (a supported attack may still win)
LOSS_RISK_EVEN = 0.15
#: an enemy or neutral centre this power reaches in greater strength than its defence
GAIN_CHANCE = 0.45
#: ... in equal strength
GAIN_CHANCE_EVEN = 0.1
#: per own unit on the board, and per own unit dislodged (awaiting retreat)
UNIT_VALUE = 0.25
DISLODGED_PENALTY = 0.35
#: a goal the victory rule names (:func:`standoff.bots.ahead.goals`): its worth with
#: an own unit on it; this share of it with one next to it, or lost with another
#: power's unit on it
GOAL_NEAR = 0.3
GOAL_LOST = 0.5


def position_value(variant: Variant, position: Position, power: str,
                   centres: Collection[str] | None = None) -> float:
    """How good ``position`` is for ``power``, in supply centres.

    Centres count as they will stand after the year's last season if every
    unit stays put (a unit on a centre takes it); then each own centre loses
    what it risks and each other centre adds what it offers, by comparing
    how many of this power's units can reach it (or stand on it) with the
    most any one other power can bring. Cheap on purpose: it runs once per
    adjudication of the search. ``centres`` limits the count to some centres
    (the search counts only those its units could change: the others add
    the same to every candidate).
    """
    board = variant.board_at(position.phase)
    near_centres = _centre_reach(board)
    counted = board.supply_centres if centres is None else centres
    reach: dict[str, dict[str, int]] = {}
    occupant: dict[str, str] = {}
    units = 0
    for u in position.units:
        if u.power == power:
            units += 1
        prov = province_of(u.location)
        here = prov in board.supply_centres
        if here:
            occupant[prov] = u.power
        found = near_centres.get((u.type, u.location))
        for p in found if found is not None else ((prov,) if here else ()):
            counts = reach.get(p)
            if counts is None:
                counts = reach[p] = {}
            counts[u.power] = counts.get(u.power, 0) + 1
    value = UNIT_VALUE * units
    value -= DISLODGED_PENALTY * sum(1 for d in position.dislodged if d.unit.power == power)
    owners = position.centres
    # in a fixed order: a float sum taken in a set's order (which follows the
    # process's string-hash seed) rounds differently from one process to another, and
    # a near-tie between two plans then falls another way (the same record, seed and
    # settings must give the same answer in any process: the bots' contract)
    for c in sorted(counted):
        owner = occupant.get(c) or owners.get(c)
        near = reach.get(c)
        own = near.get(power, 0) if near else 0
        enemy = max((n for p, n in near.items() if p != power), default=0) if near else 0
        if owner == power:
            value += 1.0
            if enemy > own:
                value -= LOSS_RISK
            elif enemy and enemy == own:
                value -= LOSS_RISK_EVEN
        elif own > enemy:
            value += GAIN_CHANCE
        elif own and own == enemy:
            value += GAIN_CHANCE_EVEN
    for g, worth in goals(variant, position.phase).items():
        holder = position.unit_at(g)  # (a victory rule's space: Sahara's Iceland)
        if holder is not None:
            value += worth if holder.power == power else -worth * GOAL_LOST
        elif any(u.power == power and g in _reach_of(board, u.type, u.location)
                 for u in position.units):
            value += worth * GOAL_NEAR
    return value


def _reach_of(board: Board, utype: UnitType, loc: str) -> frozenset[str]:
    """The provinces a unit of this type at ``loc`` may move into."""
    table = board.army_reach if utype is UnitType.ARMY else board.fleet_reach
    return table.get(loc, frozenset())


_REACH: dict[int, tuple[Board, dict[tuple[UnitType, str], tuple[str, ...]]]] = {}


def _centre_reach(board: Board) -> dict[tuple[UnitType, str], tuple[str, ...]]:
    """(unit type, location) -> the supply centres a unit there stands on or
    can move into: worked out once per board (a changing map has a few)."""
    found = _REACH.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    centres = board.supply_centres
    table: dict[tuple[UnitType, str], tuple[str, ...]] = {}
    for utype, links in ((UnitType.ARMY, board.army_reach), (UnitType.FLEET, board.fleet_reach)):
        for loc, provs in links.items():
            here = province_of(loc)
            table[utype, loc] = tuple(sorted({p for p in (here, *provs) if p in centres}))
    if len(_REACH) >= 32:
        _REACH.pop(next(iter(_REACH)))
    _REACH[id(board)] = (board, table)
    return table


BOT = SearchBot
