"""The heuristic bot's movement phase: each unit to its best space, the
stand-offs it can predict avoided, supports and convoys between the power's
units, canal permissions, and NO CONVERT where a changing map strands a fleet.

How a movement phase is decided:

1. Each unit scores its legal moves: the chance the move succeeds (the
   power's strength that can reach the space against the largest one other
   power can bring, or the defence of the unit standing there; a canal another
   power owns is assumed closed) times what the space is worth above the one
   it stands on (:meth:`Movement.worth`: the values, what a changing map does
   to a unit ending there, and in the autumn the centre it takes or the build
   site it blocks). Units choose in turn, best first; two of the power's units
   never go for one space, nor one into a space another keeps, nor two swap
   places. A high sea (a sea of unlimited capacity, 1939 IV rule 5.1) is the
   exception: any number of the power's fleets may go to it or stay on it,
   and a move into it always succeeds (ruling R24). An army moves by convoy
   where the power's own fleets make a chain (the fleets are then ordered to
   convoy it). A move against a neutral army (it always holds) gets a
   support, from a unit that gives up a lesser move if need be.
2. Units that stay support: a move that needs the help most, or a threatened
   unit's hold; otherwise they hold.
3. A canal's owner permits the powers whose fleets, once through, would
   reach none of its other centres.
4. A fleet the next board leaves inland is told NO CONVERT where the build its
   disbanding makes room for is worth more than the army it would become
   (:mod:`standoff.bots.ahead`).
"""

from __future__ import annotations

from random import Random
from typing import Final

from standoff import (
    Board,
    Convoy,
    Move,
    NoConvert,
    Order,
    Permit,
    Position,
    SupportHold,
    SupportMove,
    UnitType,
    Variant,
    province_of,
)

from .ahead import Fate, MapAhead
from .values import Values

#: in the autumn, what standing on a centre not yet the power's adds (times its value)
CAPTURE: Final = 1.0
#: in the autumn, what standing on a build site the power needs free costs
BLOCKED_SITE: Final = 0.8


class _Unit:
    """One of the power's units in a movement phase, and what it was given."""

    __slots__ = ("choice", "convoys", "gain", "hold", "loc", "moves", "order", "prov",
                 "stay", "support_holds", "support_moves", "type")

    def __init__(self, utype: UnitType, loc: str, options: list[Order], board: Board) -> None:
        self.type = utype
        self.loc = loc
        self.prov = province_of(loc)
        self.hold: Order | None = None
        self.moves: list[Move] = []
        self.support_moves: dict[tuple[str, str], Order] = {}
        self.support_holds: dict[str, Order] = {}
        self.convoys: dict[tuple[str, str], Order] = {}
        for o in options:
            if isinstance(o, Move):
                # (a move that strikes without entering, City/Country .52, gains nothing)
                if not o.via_convoy and board.can_enter(loc, o.dest):
                    self.moves.append(o)
            elif isinstance(o, SupportMove):
                self.support_moves[province_of(o.target), province_of(o.dest)] = o
            elif isinstance(o, SupportHold):
                self.support_holds[province_of(o.target)] = o
            elif isinstance(o, Convoy):
                self.convoys[province_of(o.target), province_of(o.dest)] = o
            elif o.kind == "hold":
                self.hold = o
        #: None until decided; then the province it ends in if the move succeeds
        self.choice: Move | None = None
        #: what the chosen move was expected to gain
        self.gain = 0.0
        self.stay: bool | None = None  # decided to stay (hold, support or convoy)
        self.order: Order | None = None


class Movement:
    """A movement phase's decision for one power (see the module's description)."""

    def __init__(self, v: Variant, pos: Position, pid: str, legal: dict[str, list[Order]],
                 vals: Values, ahead: MapAhead, rng: Random, noise: float) -> None:
        self.v, self.pos, self.pid, self.legal, self.vals = v, pos, pid, legal, vals
        self.ahead = ahead
        self.rng, self.noise = rng, noise
        self.board = ahead.now
        self.next_board = ahead.after
        #: the spaces any number of units may share: the board's seas of unlimited
        #: capacity (``capacity = 0``; 1939 IV 5.1); a move into one never fails
        self.open = self.board.high_seas
        self.units = [_Unit(u.type, u.location, legal[u.location], self.board)
                      for u in pos.units if u.power == pid and u.location in legal]
        #: the season before the adjustments: centres change hands after it
        self.autumn = pos.phase.is_last_season(v.calendar)
        self.blocked = self.blocked_sites() if self.autumn else frozenset()
        #: what the builds a fleet refusing to convert makes room for are worth
        self.spare = ahead.spare_builds(vals, self.autumn)

    # -- worth --------------------------------------------------------------------------

    def blocked_sites(self) -> frozenset[str]:
        """The power's build sites its own units stand on, when the centres it
        owns would pay for more builds than its free sites take: a unit still
        there after the autumn costs the power a build."""
        pos, pid = self.pos, self.pid
        mine = sum(1 for p in pos.centres.values() if p == pid)
        units = sum(1 for u in pos.units if u.power == pid)
        if mine <= units:
            return frozenset()
        sites = self.v.build_sites.sites(self.v, pid, dict(pos.centres), ())
        ours = {u.province for u in pos.units if u.power == pid}
        taken = [s for s in sites if s in ours]
        free = sum(1 for s in sites if pos.unit_at(s) is None)
        return frozenset(taken) if mine - units > free else frozenset()

    def worth(self, utype: UnitType | None, loc: str) -> float:
        """What a unit ending the season at ``loc`` is worth: what the map
        ahead makes of it (nothing if disbanded; a fleet left inland the better
        of the army it becomes and the build its refusing would make room for),
        and in the autumn, the centre it takes or the build site it blocks."""
        if not self.ahead.changes:
            return self.vals.of(utype, loc) + self.autumn_bonus(province_of(loc))
        fate, where = self.ahead.fate(utype, loc)
        if fate is Fate.GONE:
            return 0.0
        if fate is Fate.CONVERTS:
            army = self.vals.army(where) + self.autumn_bonus(where)
            return max(army, self.spare[0]) if self.spare else army
        return self.vals.of(utype, where) + self.autumn_bonus(province_of(where))

    def autumn_bonus(self, prov: str) -> float:
        """In the autumn: a centre ending the season in the power's hands is one
        more build; a blocked build site one fewer."""
        if not self.autumn:
            return 0.0
        if prov in self.blocked:
            return -BLOCKED_SITE
        if self.pos.centres.get(prov) != self.pid and prov in self.vals.base \
                and self.next_board.provinces[prov].supply_centre:
            return CAPTURE * self.vals.base[prov]
        return 0.0

    def chance(self, u: _Unit, m: Move) -> float:
        """How likely the move is to succeed, from the strengths that can reach
        its space (a guess: nobody's orders are known)."""
        dprov = province_of(m.dest)
        ours = self.vals.might.get(dprov, 1)
        enemy = self.vals.threat.get(dprov, 0)
        occupant = self.pos.unit_at(dprov)
        if dprov in self.open:
            p = 1.0  # nothing bounces there, nobody there is attacked (1939 IV 5.1, R24)
        elif occupant is not None and occupant.power != self.pid:
            defence = 1 + self.vals.counts.get(occupant.power, {}).get(dprov, 0)
            p = 0.85 if ours > max(defence, enemy) else 0.3
        elif occupant is not None:
            p = 0.8  # ours: it may well move on
        else:
            p = 0.9 if ours > enemy else (0.55 if ours == enemy else 0.25)
        canal = self.board.canal_through(u.loc, m.dest)
        if canal is not None:
            keeper = self.pos.centres.get(canal)
            if keeper is not None and keeper != self.pid:
                p *= 0.2  # another power's canal: it must permit us
        return p

    # -- deciding -------------------------------------------------------------------------

    def decide(self) -> list[Order]:
        scored: list[tuple[float, int, list[tuple[float, Move]]]] = []
        for i, u in enumerate(self.units):
            here = self.worth(u.type, u.loc)
            options = []
            for m in u.moves:
                gain = self.chance(u, m) * (self.worth(u.type, m.dest) - here)
                gain += self.noise * self.rng.random() * (abs(gain) + 0.05)
                if gain > 0:
                    options.append((gain, m))
            options.sort(key=lambda g: -g[0])
            scored.append((options[0][0] if options else 0.0, i, options))
        scored.sort(key=lambda s: (-s[0], s[1]))
        claimed: set[str] = set()  # provinces a unit of ours moves into or keeps
        # (a high sea is never claimed: the power's fleets may crowd it, 1939 IV 5.1)
        by_prov = {u.prov: u for u in self.units if u.prov not in self.open}
        for _, i, options in scored:
            u = self.units[i]
            if u.stay is not None:
                continue  # already taken as a convoying fleet
            for gain, m in options:
                dprov = province_of(m.dest)
                if dprov in self.open:
                    u.choice, u.stay, u.gain = m, False, gain  # room for every fleet
                    break
                if dprov in claimed:
                    continue
                other = by_prov.get(dprov)
                if other is not None and (other.stay or (
                        other.choice is not None and province_of(other.choice.dest) == u.prov
                        and u.prov not in self.open)):
                    continue  # it stays there, or we would swap places and bounce
                if u.type is UnitType.ARMY \
                        and dprov not in self.board.army_reach.get(u.loc, ()) \
                        and not self.arrange_convoy(u, dprov, claimed):
                    continue
                u.choice, u.stay, u.gain = m, False, gain
                claimed.add(dprov)
                break
            else:
                u.stay = True
                if u.prov not in self.open:
                    claimed.add(u.prov)
        self.reinforce()
        self.settle(by_prov)
        self.supports()
        out = [u.order or u.choice or u.hold for u in self.units]
        orders = [o for o in out if o is not None]
        orders.extend(self.permits())
        orders.extend(self.refusals())
        return orders

    def arrange_convoy(self, army: _Unit, dprov: str, claimed: set[str]) -> bool:
        """Order the power's free fleets to carry ``army`` to ``dprov`` if they
        make a chain; False when they cannot. Free: a fleet not yet decided (and
        not in the way of a unit moving in), or one that stays with nothing yet
        to do (it would only hold, or support later)."""
        free = {u.prov: u for u in self.units if u.type is UnitType.FLEET and (
            (u.stay is None and u.prov not in claimed)
            or (u.stay and u.order is None and u.choice is None))}
        seas = self.board.convoy_route_seas(army.prov, dprov, free)
        if not seas:
            return False
        fleets = [free[s] for s in sorted(seas)]
        if any((army.prov, dprov) not in f.convoys for f in fleets):
            return False
        for f in fleets:
            f.stay, f.order = True, f.convoys[army.prov, dprov]
            claimed.add(f.prov)
        return True

    def reinforce(self) -> None:
        """A move against a unit of no power (a neutral army: it always holds,
        1939 IV 2.1 and 7.5) fails without a support. Where the units staying
        cannot give enough, units moving elsewhere for less than the attack
        gains give up their moves to support it (the cheapest first)."""
        powers = self.v.powers
        for m in sorted((u for u in self.units if u.choice is not None),
                        key=lambda u: -u.gain):
            if m.choice is None:
                continue  # it became a supporter
            dprov = province_of(m.choice.dest)
            if dprov in self.open:
                continue
            occupant = self.pos.unit_at(dprov)
            if occupant is None or occupant.power in powers:
                continue  # empty, or a power's unit: it may move away (chance() guesses)
            helpers = [u for u in self.units if u is not m and u.order is None
                       and (m.prov, dprov) in u.support_moves]
            staying = [u for u in helpers if u.choice is None]
            moving = sorted((u for u in helpers if u.choice is not None),
                            key=lambda u: u.gain)
            if staying:
                continue  # a support is at hand: supports() gives it
            if not moving or moving[0].gain >= m.gain:
                continue
            h = moving[0]
            h.choice, h.stay, h.gain = None, True, 0.0
            h.order = h.support_moves[m.prov, dprov]

    def settle(self, by_prov: dict[str, _Unit]) -> None:
        """Moves into a space where a unit of ours stays would bounce: such
        movers stay instead (which may in turn stop another)."""
        changed = True
        while changed:
            changed = False
            for u in self.units:
                if u.choice is None:
                    continue
                other = by_prov.get(province_of(u.choice.dest))
                if other is not None and other is not u and other.choice is None:
                    u.choice, u.stay, changed = None, True, True

    def supports(self) -> None:
        """Give each unit that stays (and does not convoy) the support that helps
        most: a move that needs strength, or a threatened unit's hold."""
        vals = self.vals
        given: dict[str, int] = {}  # province -> supports given to the unit moving/holding there
        movers = [u for u in self.units if u.choice is not None]
        while True:
            best: tuple[float, _Unit, Order, str] | None = None
            for s in self.units:
                if s.choice is not None or s.order is not None:
                    continue
                for m in movers:
                    assert m.choice is not None
                    dprov = province_of(m.choice.dest)
                    o = s.support_moves.get((m.prov, dprov))
                    if o is None:
                        continue
                    strength = 1 + given.get(dprov, 0)
                    occupant = self.pos.unit_at(dprov)
                    need = vals.threat.get(dprov, 0)
                    if occupant is not None and occupant.power != self.pid:
                        need = max(need, 1 + vals.counts.get(occupant.power, {}).get(dprov, 0))
                    worth = self.worth(m.type, m.choice.dest) - self.worth(m.type, m.loc)
                    gain = max(worth, 0.1) * (0.5 if strength <= need else 0.05)
                    if best is None or gain > best[0]:
                        best = (gain, s, o, dprov)
                for h in self.units:
                    if h.choice is not None or h is s:
                        continue
                    o = s.support_holds.get(h.prov)
                    if o is None:
                        continue
                    threat = vals.threat.get(h.prov, 0)
                    if threat == 0 or h.prov in self.open:
                        continue  # (a fleet on a high sea cannot be dislodged: 1939 IV 5.1)
                    strength = 1 + given.get(h.prov, 0)
                    gain = self.worth(h.type, h.loc) * (0.4 if strength <= threat else 0.04)
                    if best is None or gain > best[0]:
                        best = (gain, s, o, h.prov)
            if best is None or best[0] <= 0:
                return
            _, s, o, prov = best
            s.order = o
            given[prov] = given.get(prov, 0) + 1

    def permits(self) -> list[Order]:
        """A canal's owner lets a power through unless passing would bring one
        of its fleets next to another of the owner's centres: a permission only
        lets the power's fleets on one of the canal's seas end on the other
        (Twentieth Century, "Straits & Canals"; ruling R4: per power, per canal,
        for one phase). The canal's own centre touches both seas, so passing
        changes nothing for it; a power with no fleet on either sea is let
        through (it costs nothing)."""
        mine = {c for c, p in self.pos.centres.items() if p == self.pid}
        out: list[Order] = []
        for canal, options in sorted(self.legal.items()):
            for o in options:
                if isinstance(o, Permit) and not self.exposes(o.power, canal, mine):
                    out.append(o)
        return out

    def exposes(self, power: str, canal: str, mine: set[str]) -> bool:
        """Would a fleet of ``power`` passing ``canal`` end in a sea from which it
        reaches one of the owner's centres ``mine`` (the canal's own aside)?"""
        seas = self.board.canals.get(canal, frozenset())
        for u in self.pos.units:
            if u.power != power or u.type is not UnitType.FLEET or u.location not in seas:
                continue
            for far in seas:
                if far != u.location and any(
                        c in mine and c != canal for c in self.board.fleet_reach.get(far, ())):
                    return True
        return False

    def refusals(self) -> list[Order]:
        """NO CONVERT for the fleets the next board leaves inland (where they
        end the season if their orders succeed) whose army would be worth less
        than the spare build their disbanding makes room for."""
        if not self.spare:
            return []
        armies: list[tuple[float, str]] = []
        for u in self.units:
            if u.type is not UnitType.FLEET:
                continue
            end = u.choice.dest if u.choice is not None else u.loc
            fate, where = self.ahead.fate(u.type, end)
            if fate is Fate.CONVERTS:
                armies.append((self.vals.army(where) + self.autumn_bonus(where), u.loc))
        return [NoConvert(UnitType.FLEET, loc)
                for loc in self.ahead.refusals(self.spare, armies)]
