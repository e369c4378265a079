"""Adjudication of a movement phase: the order semantics around the resolver.

Each unit ``i`` (index into the list of ordered units) has one decision ``i``:
its move succeeds / its support is not cut / it is not dislodged. A convoyed
army ``i`` also has a *path* decision ``n + i``: an undisrupted convoy route
exists. Strengths (attack, hold, defend, prevent) are computed from those
decisions exactly as in DATC chapter 5; :class:`~standoff.core.resolver.Resolver`
handles the guessing and the cycles.

Backup rule for cycles: if the cycle contains convoy paths, the Szykman rule
(DATC 4.A.2) makes those convoys fail; otherwise it is circular movement and
every move in the cycle succeeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from .buckets import bucket
from .geography import Board, UnitType, province_of
from .options import Options
from .orders import Move, MovementOrder, OrderKind
from .position import Dislodged, Unit, new_unit
from .resolver import RESOLVED, Decisions, Resolver
from .results import OrderResult, Reason


class MovementOutcome:
    """What a movement phase did (a plain class: its constructor is compiled)."""

    __slots__ = ("contested", "dislodged", "explain", "final", "occupied", "units")

    def __init__(self, units: list[Unit], dislodged: list[Dislodged],
                 contested: frozenset[str], occupied: set[str],
                 explain: Callable[[], list[OrderResult]], final: list[str]) -> None:
        #: units after the phase (dislodged ones excluded)
        self.units = units
        self.dislodged = dislodged
        #: provinces left empty by a stand-off
        self.contested = contested
        #: provinces holding a unit after the phase
        self.occupied = occupied
        #: builds the per-order results on demand (bots that only need the next
        #: position do not pay for explanations)
        self.explain = explain
        #: where unit ``i`` ends the phase ("" if dislodged)
        self.final = final


class MovementAdjudicator(Decisions):
    """One movement phase. Build it, call :meth:`run`."""

    def __init__(
        self,
        board: Board,
        units: list[Unit],
        orders: list[MovementOrder | None],
        options: Options,
    ) -> None:
        """``orders[i]`` is the legal, normalised order of ``units[i]`` (None: hold)."""
        self.board = board
        self.units = units
        self.orders = orders
        self.options = options
        n = self.n = len(units)
        self.prov = [province_of(u.location) for u in units]
        self.power = [u.power for u in units]
        high = board.high_seas
        #: province -> its unit; a high sea (any number of fleets, never dislodged:
        #: 1939 IV 5.1) has no single occupant and is listed in ``in_high`` instead
        self.occupant = {p: i for i, p in enumerate(self.prov) if p not in high}
        self.in_high: dict[str, list[int]] = {}
        if high:
            for i, p in enumerate(self.prov):
                if p in high:
                    bucket(self.in_high, p).append(i)
        #: a move into a high sea: it always succeeds and attacks nobody
        self.free = [False] * n
        #: each unit's order kind (a unit with no order, or a standing instruction, holds)
        self.kind: list[OrderKind] = ["hold"] * n
        self.dest = [""] * n  # move: destination province; support/convoy: target dest
        self.exact = [""] * n  # move, support of a move: the destination with its coast
        self.target = [-1] * n  # support/convoy: index of the unit supported
        self.attackers: dict[str, list[int]] = {}
        self.supports: list[list[int]] = [[] for _ in range(n)]
        self.convoyed = [False] * n
        self.convoyers: list[list[int]] = [[] for _ in range(n)]
        self.void = [False] * n
        self.no_route = [False] * n
        self.fallback = [False] * n  # 1971 rule: a disrupted adjacent convoy goes by land
        #: a move along a strike-only link: attacks, stands off, cuts and dislodges,
        #: but the unit never leaves its space (City/Country rule .5)
        self.strike = [False] * n
        self._classify()
        self.resolver = Resolver(2 * n, self)
        self.paradox = [False] * n

    # -- set-up ----------------------------------------------------------------------

    def _classify(self) -> None:
        """Each order's kind, destination and target unit; which convoys and
        supports match the orders they name (the others are void)."""
        kind, dest, target, occupant = self.kind, self.dest, self.target, self.occupant
        exact = self.exact
        board = self.board
        moves: list[tuple[int, Move]] = []
        convoys: list[int] = []
        supports: list[int] = []
        high_targets: list[tuple[int, str]] = []
        for i, order in enumerate(self.orders):
            if order is None:
                continue  # no order: the unit holds
            match order.kind:
                case "move":
                    kind[i] = "move"
                    dest[i] = province_of(order.dest)
                    exact[i] = order.dest
                    moves.append((i, order))
                case "support_move":
                    kind[i] = "support_move"
                    dest[i] = province_of(order.dest)
                    exact[i] = order.dest
                    t = target[i] = occupant.get(order.target, -1)
                    if t < 0 and self.in_high:
                        high_targets.append((i, order.target))
                    supports.append(i)
                case "support_hold":
                    kind[i] = "support_hold"
                    target[i] = occupant.get(order.target, -1)
                    supports.append(i)
                case "convoy":
                    kind[i] = "convoy"
                    dest[i] = order.dest
                    target[i] = occupant.get(order.target, -1)
                    convoys.append(i)
                case "hold" | "no_convert" | "permit":
                    pass  # holds (a standing instruction is noted, never adjudicated)
                case _:
                    assert_never(order)
        # convoy orders matching an army's move
        for i in convoys:
            t = target[i]
            if t >= 0 and kind[t] == "move" and dest[t] == dest[i] and \
                    self.units[t].type is UnitType.ARMY:
                self.convoyers[t].append(i)
            else:
                self.void[i] = True
        army_links = board.army_links
        high = board.high_seas
        for i, order in moves:
            d = dest[i]
            if d in high:
                self.free[i] = True
                continue
            if self.units[i].type is UnitType.ARMY:
                adjacent = d in army_links.get(self.prov[i], ())
                convoyed = (not adjacent) or self._chooses_convoy(i, order)
                if convoyed:
                    if adjacent and self.options.adjacent_convoy == "1971":
                        # 1971: the convoy is taken only if it is not disrupted (DATC 4.A.3)
                        self.fallback[i] = True
                        convoyed = self._route_possible(i)
                    elif not self._route_possible(i):
                        if adjacent and self.options.adjacent_convoy == "2000":
                            # 2000 rules as DATC 2.x read them (4.A.3 choice d, 6.G.8):
                            # with no convoy route ordered only the land route exists,
                            # and the army takes it, 'via convoy' or not. An ordered
                            # route that is then disrupted has no such fallback.
                            convoyed = False
                        else:
                            # No convoy ordered along any route: the move is not valid
                            # (DATC 4.E.1) and attacks nothing; it is still a move, so
                            # it gets no hold support (DATC 6.D.8).
                            self.convoyed[i] = self.no_route[i] = True
                            continue
                    self.convoyed[i] = convoyed
            if board.strike_only and not self.convoyed[i] and \
                    not board.can_enter(self.units[i].location, order.dest):
                self.strike[i] = True  # a convoyed army lands from the sea instead
            bucket(self.attackers, d).append(i)
        for i, sea in high_targets:
            target[i] = self._high_sea_mover(i, sea)
        for i in supports:
            t = target[i]
            if kind[i] == "support_hold":
                if t >= 0 and kind[t] != "move":
                    self.supports[t].append(i)
                else:
                    self.void[i] = True
            elif t >= 0 and kind[t] == "move" and dest[t] == dest[i] and \
                    ("/" not in exact[i] or exact[i] == exact[t]):
                self.supports[t].append(i)
            else:
                self.void[i] = True

    def _high_sea_mover(self, supporter: int, sea: str) -> int:
        """The fleet a support-move means when it names a high sea holding several:
        the one moving to the support's destination; of several, one of the
        supporter's own power's; if several of other powers, none: the support
        is void, as it cannot say whose move it backs."""
        movers = [j for j in self.in_high.get(sea, ())
                  if self.kind[j] == "move" and self.dest[j] == self.dest[supporter]]
        own = [j for j in movers if self.power[j] == self.power[supporter]]
        if own:
            return own[0]
        return movers[0] if len(movers) == 1 else -1

    def _chooses_convoy(self, i: int, order: Move) -> bool:
        """An army ordered to an adjacent province: by land or by convoy? (DATC 4.A.3)"""
        rule = self.options.adjacent_convoy
        if order.via_convoy and rule != "1971":
            return True  # no land fallback when the convoy is not there (DATC 6.G.8)
        fleets = self.convoyers[i]
        if not fleets or rule == "dptg":
            return False
        if rule == "1971":
            # convoy only considered when the unit at the destination moves the other way
            j = self.occupant.get(self.dest[i], -1)
            return j >= 0 and self.kind[j] == "move" and self.dest[j] == self.prov[i]
        return any(self.power[f] == self.power[i] for f in fleets)

    def _route_possible(self, i: int) -> bool:
        """Is there a chain of fleets ordered to convoy this army, ignoring dislodgement?"""
        return self._route(i, lambda f: True)

    def _route(self, i: int, usable: Callable[[int], bool]) -> bool:
        """A chain of this army's convoying fleets, each ``usable``, from its
        province to its destination. ``usable`` is asked only for fleets the
        search reaches, so the resolver records no needless dependencies (which
        is why this is not :meth:`Board.sea_path_exists` over a filtered set)."""
        fleets = {self.prov[f]: f for f in self.convoyers[i]}
        if not fleets:
            return False
        near = self.board.neighbours
        start, goal = self.prov[i], self.dest[i]
        stack = [p for p in near[start] if p in fleets and usable(fleets[p])]
        seen = set(stack)
        while stack:
            p = stack.pop()
            if goal in near[p]:
                return True
            for q in near[p]:
                if q in fleets and q not in seen and usable(fleets[q]):
                    seen.add(q)
                    stack.append(q)
        return False

    # -- decisions -----------------------------------------------------------------

    def decide(self, nr: int) -> bool:
        n = self.n
        if nr >= n:
            return self._path(nr - n)
        k = self.kind[nr]
        if k == "move":
            return self._move(nr)
        if k == "support_hold" or k == "support_move":
            return self._support(nr)
        return not self._dislodged(nr)

    def _path(self, i: int) -> bool:
        resolver = self.resolver  # (its method called directly: a native call)
        if self.options.convoy_disruption == "any_route" and not all(
            resolver.resolve(f) for f in self.convoyers[i]
        ):
            return False  # 1971: one disrupted route disrupts the convoy
        return self._route(i, resolver.resolve)

    def _move(self, i: int) -> bool:
        if self.free[i]:
            return True  # a high sea is never full (1939 IV 5.1)
        resolver = self.resolver  # (its method called directly: a native call)
        if self.convoyed[i] and (self.no_route[i] or not resolver.resolve(self.n + i)) and \
                not self.fallback[i]:
            return False
        d = self.dest[i]
        attack = self._attack(i)
        j = self.occupant.get(d, -1)
        if j >= 0 and self._head_to_head(i, j):
            if attack <= self._support_count(j) + 1:
                return False
        elif attack <= self._hold(d):
            return False
        for k in self.attackers.get(d, ()):
            if k != i and attack <= self._prevent(k):
                return False
        return True

    def _head_to_head(self, i: int, j: int) -> bool:
        return (self.kind[j] == "move" and self.dest[j] == self.prov[i] and not self.free[j]
                and not self._by_convoy(i) and not self._by_convoy(j))

    def _by_convoy(self, i: int) -> bool:
        """Does this move go by convoy? Only the 1971 fallback makes it a decision."""
        if not self.convoyed[i]:
            return False
        return not self.fallback[i] or self.resolver.resolve(self.n + i)

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        resolver = self.resolver  # (its method called directly: a native call)
        power = self.power
        count = 0
        for s in self.supports[i]:
            if power[s] != exclude_power and resolver.resolve(s):
                count += 1
        return count

    def _attack(self, i: int) -> int:
        d = self.dest[i]
        j = self.occupant.get(d, -1)
        if j < 0:
            return 1 + self._support_count(i)
        if self.kind[j] == "move" and not self.strike[j] and not self._head_to_head(i, j) \
                and self.resolver.resolve(j):
            return 1 + self._support_count(i)
        if self.power[j] == self.power[i]:
            return 0
        return 1 + self._support_count(i, self.power[j])

    def _hold(self, province: str) -> int:
        j = self.occupant.get(province, -1)
        if j < 0:
            return 0
        if self.kind[j] == "move":
            if self.strike[j]:
                return 1  # it stays whatever happens to its attack
            return 0 if self.resolver.resolve(j) else 1
        return 1 + self._support_count(j)

    def _prevent(self, k: int) -> int:
        resolver = self.resolver  # (its method called directly: a native call)
        if self.convoyed[k] and not self.fallback[k] and not resolver.resolve(self.n + k):
            return 0
        j = self.occupant.get(self.dest[k], -1)
        if j >= 0 and self.kind[j] == "move" and self.dest[j] == self.prov[k] and \
                not self.free[j]:
            lost = self._head_to_head(k, j) or self.options.dislodged_bounce == "never"
            if lost and resolver.resolve(j):
                return 0
        return 1 + self._support_count(k)

    def _support(self, i: int) -> bool:
        """Not cut: no attack from elsewhere, and not dislodged (DATC 5.B.7)."""
        if self.void[i]:
            return False
        resolver = self.resolver  # (its method called directly: a native call)
        target_dest = self.dest[i] if self.kind[i] == "support_move" else ""
        for k in self.attackers.get(self.prov[i], ()):
            if self.power[k] == self.power[i]:
                continue  # own units neither cut nor dislodge
            if self._by_convoy(k):
                if self._paradox_exempt(i, k):
                    continue  # 1982/2000 rule: not cut, not even by dislodging (6.F.17)
                if self.prov[k] != target_dest or \
                        self.options.support_cut_by_convoyed_target == "cut":
                    if resolver.resolve(self.n + k):
                        return False
                    continue
            elif self.prov[k] != target_dest:
                return False
            # An attack from the province the support goes into cuts only by dislodging.
            if resolver.resolve(k):
                return False
        return True

    def _paradox_exempt(self, supporter: int, army: int) -> bool:
        """The older paradox rules: a convoyed army does not cut this support (4.A.2)."""
        rule = self.options.paradox
        if rule == "szykman":
            return False
        if self.kind[supporter] == "support_move":
            body = self.dest[supporter]
        else:
            t = self.target[supporter]
            body = self.prov[t] if t >= 0 else ""
        j = self.occupant.get(body, -1)
        if rule == "1982":
            # supporting an action in a sea that holds a convoying fleet
            return j >= 0 and self.kind[j] == "convoy"
        # 2000: supporting an attack on a fleet this army's convoy needs
        if self.kind[supporter] != "support_move" or j < 0 or j not in self.convoyers[army]:
            return False
        return not self._route(army, lambda f: f != j)

    def _dislodged(self, i: int) -> bool:
        resolver = self.resolver  # (its method called directly: a native call)
        if self.kind[i] == "move" and not self.strike[i] and resolver.resolve(i):
            return False
        return any(resolver.resolve(k) for k in self.attackers.get(self.prov[i], ()))

    def backup(self, cycle: list[int]) -> None:
        n = self.n
        paths = [d for d in cycle if d >= n]
        if paths:
            # Szykman: the convoys in the paradox fail (the armies do not move).
            for d in paths:
                self.paradox[d - n] = True
                self.resolver.settle(d, False)
            return
        moves = [d for d in cycle if self.kind[d] == "move"]
        for d in moves or cycle:
            # Circular movement: every move in the cycle succeeds.
            self.resolver.settle(d, bool(moves))

    # -- results -----------------------------------------------------------------------

    def run(self) -> MovementOutcome:
        resolver = self.resolver  # (its method called directly: a native call)
        n = self.n
        state, result = self.resolver.state, self.resolver.result
        kind, prov, attackers, void = self.kind, self.prov, self.attackers, self.void
        for i in range(n):
            # Fast path: a unit that does not move and is not attacked keeps its
            # support (unless void) and cannot be dislodged.
            if kind[i] != "move" and prov[i] not in attackers:
                state[i] = RESOLVED
                result[i] = not void[i] or kind[i] == "convoy" or kind[i] == "hold"
        ok = [resolver.resolve(i) for i in range(n)]
        dislodger: list[int] = [-1] * n
        strike = self.strike
        for i in range(n):
            if self.kind[i] == "move" and ok[i] and not strike[i]:
                continue
            for k in self.attackers.get(self.prov[i], ()):
                if ok[k]:
                    dislodger[i] = k
                    break
        units: list[Unit] = []
        dislodged: list[Dislodged] = []
        final = [""] * n
        for i, u in enumerate(self.units):
            k = dislodger[i]
            if k >= 0:
                dislodged.append(Dislodged(u, self.prov[k], self._by_convoy(k)))
                continue
            if self.kind[i] == "move" and ok[i] and not strike[i]:
                units.append(new_unit(u.power, u.type, self.exact[i]))
            else:
                units.append(u)
            final[i] = units[-1].location
        occupied = {province_of(u.location) for u in units}
        # A stand-off leaves a province empty when two or more moves into it still
        # had the strength to bounce each other; a lone move that lost a head-to-head
        # battle or its convoy bounced off nothing (DATC 6.H).
        contested = frozenset(
            d for d, movers in self.attackers.items()
            if d not in occupied and len(movers) > 1 and not any(ok[k] for k in movers)
            and sum(1 for k in movers if self._prevent(k) > 0) > 1
        )
        self.resolver.release()

        def explain() -> list[OrderResult]:
            return [self._explain(i, ok[i], dislodger[i]) for i in range(n)]

        return MovementOutcome(units, dislodged, contested, occupied, explain, final)

    def _explain(self, i: int, ok: bool, dislodger: int) -> OrderResult:
        order = self.orders[i]
        power = self.power[i]
        dis = self.prov[dislodger] if dislodger >= 0 else None
        kind = self.kind[i]
        if self.no_route[i]:
            return OrderResult(power, order, False, Reason.NO_CONVOY, dislodged_by=dis)
        if kind == "hold" or (kind == "convoy" and not self.void[i]):
            if dis is not None:
                return OrderResult(power, order, False, Reason.DISLODGED, (dis,), dislodged_by=dis)
            return OrderResult(power, order, True)
        if ok and self.strike[i]:
            return OrderResult(power, order, False, Reason.NO_ENTRY, dislodged_by=dis,
                               detail=f"the link into {self.dest[i].upper()} allows attack "
                                      "and support, not entry")
        if ok:
            return OrderResult(power, order, True, dislodged_by=dis)
        if kind == "convoy" or self.void[i]:
            return OrderResult(power, order, False, Reason.VOID, dislodged_by=dis)
        if kind == "move":
            return OrderResult(power, order, False, *self._why_move(i), dislodged_by=dis)
        # a support that failed: cut by an attack, or by its dislodgement
        for k in self.attackers.get(self.prov[i], ()):
            arrived = not self.convoyed[k] or self.resolver.result[self.n + k]
            if self.power[k] != power and arrived and (
                k == dislodger or self.prov[k] != self.dest[i]
            ):
                return OrderResult(power, order, False, Reason.CUT, (self.prov[k],),
                                   dislodged_by=dis)
        return OrderResult(power, order, False, Reason.DISLODGED, (dis,) if dis else (),
                           dislodged_by=dis)

    def _why_move(self, i: int) -> tuple[Reason, tuple[str, ...]]:
        if self._by_convoy(i) or (self.convoyed[i] and not self.fallback[i]):
            if self.paradox[i]:
                return Reason.PARADOX, ()
            if not self.resolver.result[self.n + i]:
                return Reason.NO_CONVOY, ()
        d = self.dest[i]
        by = [self.prov[k] for k in self.attackers.get(d, ()) if k != i]
        j = self.occupant.get(d, -1)
        if j >= 0:
            by.insert(0, d)
        return Reason.BOUNCED, tuple(by)

