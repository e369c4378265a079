"""A whole game: orders per power, processing, history, victory and draws.

Orders are checked when submitted (an invalid or illegal order raises at once,
and nothing already submitted is lost), and may be replaced until the phase
is processed. Processing adjudicates the phase with whatever was submitted;
powers that sent nothing are in civil disorder (units hold, dislodged units
disband, removals chosen by the civil-disorder rule). The game ends when the
variant's victory condition is met (a count of centres, a count of units
after a Winter, or the unit left in a space after a given phase, which may
leave nobody the winner), or when a draw is declared.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .adjudicator import PhaseResult, adjudicate, check_order, read_orders
from .adjustments import adjustment_counts
from .errors import GameStateError, IllegalOrderError, InvalidOrderError, StandoffError
from .geography import province_of
from .notation import parse_order
from .options import DEFAULT, Options
from .orders import Build, Disband, NoConvert, Order, Permit, Remove, Waive
from .phase import PhaseKind
from .position import Position
from .results import OrderResult
from .variant import Variant, load_variant


@dataclass
class PhaseRecord:
    """One processed phase: the position, the orders given, what happened."""

    position: Position
    orders: dict[str, list[Order]]
    results: list[OrderResult]
    #: what a change of map did after this phase
    events: list[str] = field(default_factory=list)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # by the constructor's arguments, as every value of the compiled core
        return (PhaseRecord, (self.position, self.orders, self.results, self.events))


@dataclass
class Game:
    variant: Variant
    options: Options = DEFAULT
    position: Position = field(init=False)
    history: list[PhaseRecord] = field(default_factory=list)
    #: pending orders: power -> {unit location or waive slot -> order}
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    winner: str | None = None
    draw: tuple[str, ...] | None = None
    #: the game reached its last phase and nobody met the victory condition
    no_winner: bool = False

    def __post_init__(self) -> None:
        self.position = Position.initial(self.variant)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickle and copy a game whole (its variant by name)."""
        return (_restore_game, (self.variant, self.options, self.position, self.history,
                                self.orders, self.winner, self.draw, self.no_winner))

    @classmethod
    def new(cls, variant: str | Variant = "standard", options: Options = DEFAULT) -> Game:
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        return cls(v, options)

    # -- state ---------------------------------------------------------------------

    @property
    def phase_name(self) -> str:
        return self.position.phase.name(self.variant.calendar)

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.draw is not None or self.no_winner

    def powers_to_order(self) -> list[str]:
        """Powers with something to order this phase."""
        pos = self.position
        kind = pos.phase.kind
        if kind is PhaseKind.MOVEMENT:
            board = self.variant.board_at(pos.phase)
            owners = {pos.centres.get(c, "") for c in board.canals}  # they may PERMIT passage
            return sorted(({u.power for u in pos.units} | owners) & set(self.variant.powers))
        if kind is PhaseKind.RETREAT:
            return sorted({d.unit.power for d in pos.dislodged})
        return sorted(adjustment_counts(self.variant, pos))

    # -- orders -------------------------------------------------------------------

    def submit(self, power: str, orders: Iterable[str | Order], replace_all: bool = False
               ) -> list[Order]:
        """Check and record orders for ``power``; return them normalised.

        All-or-nothing: if any order is invalid or illegal the error is raised
        and the pending orders are unchanged. A new order for a unit replaces
        its earlier one; ``replace_all`` first drops every pending order of the
        power. What would only fail at processing is refused here, so the
        player hears of it while there is time to fix it: an order labelled
        with another power (``Germany: A MAR - GAS`` sent as France's), two
        orders for one unit in one batch, more builds than the power may make
        or more removals than it must.
        """
        return self._submit(power, orders, replace_all, strict=True)

    def _submit(self, power: str, orders: Iterable[str | Order], replace_all: bool,
                strict: bool) -> list[Order]:
        """:meth:`submit`; without ``strict`` (a saved game's pending orders,
        written before the batch checks existed) each order is still checked
        against the rules, but not against the rest of its batch."""
        if self.is_over:
            raise GameStateError("the game is over")
        pid = self.variant.power(power)
        checked: list[Order] = []
        for item in orders:
            if isinstance(item, str):
                if strict:
                    self._check_label(pid, item)
                order = parse_order(item, self.variant)
            else:
                order = item
            checked.append(check_order(self.position, pid, order, self.options, self.variant))
        pending = {} if replace_all else dict(self.orders.get(pid, {}))
        waives = sum(1 for k in pending if k.startswith("waive"))
        high = self.variant.board_at(self.position.phase).high_seas
        shared: dict[str, int] = {}  # high sea -> orders given for it in this call
        given: dict[str, Order] = {}  # province -> the order this call gives its unit
        for order in checked:
            prov = province_of(order.location)
            if isinstance(order, Waive):
                pending[f"waive{waives}"] = order
                waives += 1
            elif isinstance(order, NoConvert):
                pending[f"note:{prov}"] = order  # beside the unit's order
            elif isinstance(order, Permit):
                pending[f"permit:{prov}:{order.power}"] = order
            elif prov in high:  # several fleets: one order each (1939 IV)
                if prov not in shared:
                    pending = {k: o for k, o in pending.items() if k.split("#")[0] != prov}
                n = shared[prov] = shared.get(prov, 0) + 1
                if n > sum(1 for u in self.position.units_in(prov) if u.power == pid):
                    raise IllegalOrderError(str(order), f"more orders than {pid} has units "
                                                        f"in {prov.upper()}")
                pending[f"{prov}#{n}"] = order
            else:
                first = given.get(prov)
                if strict and first is not None:
                    raise IllegalOrderError(str(order), f"a second order for {prov.upper()} "
                                                        f"in one submission (the first: {first})")
                given[prov] = order
                pending[prov] = order
        if strict and self.position.phase.kind is PhaseKind.ADJUSTMENT:
            self._check_allowance(pid, pending, checked)
        self.orders[pid] = pending
        return checked

    def _check_label(self, pid: str, text: str) -> None:
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
            named = self.variant.power(label)
        except StandoffError:
            return  # not a power's name: the parser will judge the text
        if named != pid:
            raise IllegalOrderError(text, f"it is labelled {label}, but it is submitted "
                                          f"for {self.variant.powers[pid].name}")

    def _check_allowance(self, pid: str, pending: dict[str, Order],
                         checked: list[Order]) -> None:
        """More builds (and waives) than a power may make, or more removals
        than it must, would be cut at processing: say so now."""
        due = adjustment_counts(self.variant, self.position).get(pid, 0)
        builds = [o for o in pending.values() if isinstance(o, (Build, Waive))]
        removals = [o for o in pending.values() if isinstance(o, (Remove, Disband))]
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

    def clear_orders(self, power: str) -> None:
        self.orders.pop(self.variant.power(power), None)

    def pending(self) -> dict[str, list[Order]]:
        return {p: list(o.values()) for p, o in sorted(self.orders.items())}

    # -- processing ----------------------------------------------------------------

    def process(self) -> PhaseResult:
        """Adjudicate the current phase and move to the next."""
        if self.is_over:
            raise GameStateError("the game is over")
        orders = self.pending()
        result = adjudicate(self.position, orders, self.options, self.variant)
        self.history.append(PhaseRecord(self.position, orders, result.results, result.events))
        before = self.position
        self.position = result.next_position
        self.orders = {}
        self._check_victory(before)
        return result

    def _check_victory(self, before: Position) -> None:
        victory = self.variant.victory
        pos = self.position
        if victory.centres:
            if victory.at_start_of is not None and not (
                    pos.phase.kind is PhaseKind.MOVEMENT
                    and pos.phase.season == victory.at_start_of):
                return  # counted only as that season's turn begins
            counts = pos.centre_counts()
        elif victory.units:
            if pos.phase.year == before.phase.year:
                return  # units count only when a Winter has ended
            counts = {}
            for u in pos.units:
                if u.power != self.variant.neutral:
                    counts[u.power] = counts.get(u.power, 0) + 1
        else:
            if victory.after is None or not pos.phase > victory.after:
                return
            unit = pos.unit_at(victory.unit_in)
            if unit is None:
                self.no_winner = True
            else:
                self.winner = unit.power
            return
        best = max(counts.items(), key=lambda kv: kv[1], default=None)
        if best is not None and best[1] >= (victory.centres or victory.units):
            self.winner = best[0]

    def survivors(self) -> list[str]:
        """The powers still in the game: with units or centres (units in civil
        disorder belong to no power and share nothing)."""
        alive = {u.power for u in self.position.units} | set(self.position.centres.values())
        return sorted(alive & set(self.variant.powers))

    def declare_draw(self, powers: Iterable[str] | None = None) -> tuple[str, ...]:
        """End the game in a draw shared by ``powers`` (default: every survivor).

        A draw is shared: one power alone has not drawn but won or stalled, so
        fewer than two surviving powers is refused."""
        if self.is_over:
            raise GameStateError("the game is over")
        alive = self.survivors()
        chosen = sorted({self.variant.power(p) for p in powers} if powers else alive)
        dead = [p for p in chosen if p not in alive]
        if dead:
            raise GameStateError(f"eliminated powers cannot share a draw: {', '.join(dead)}")
        if len(chosen) < 2:
            raise GameStateError("a draw needs at least two surviving powers "
                                 f"(named: {', '.join(chosen) or 'none'})")
        self.draw = tuple(chosen)
        return self.draw

    # -- JSON ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        outcome: dict[str, Any] | None = None
        if self.winner is not None:
            outcome = {"winner": self.winner}
        elif self.draw is not None:
            outcome = {"draw": list(self.draw)}
        elif self.no_winner:
            outcome = {"no_winner": True}
        return {
            "variant": self.variant.name,
            "options": self.options.to_dict(),
            "history": [
                {
                    "position": r.position.to_dict(),
                    "orders": {p: [str(o) for o in os] for p, os in r.orders.items()},
                    "results": [x.to_dict() for x in r.results],
                    **({"events": list(r.events)} if r.events else {}),
                }
                for r in self.history
            ],
            "position": self.position.to_dict(),
            "orders": {p: [str(o) for o in os] for p, os in self.pending().items()},
            "outcome": outcome,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game; raises StandoffError (or KeyError/TypeError) on bad data."""
        game = cls(load_variant(str(data["variant"])), Options.from_dict(data.get("options", {})))
        v = game.variant

        def parse(text: str) -> Order:
            return parse_order(text, v)

        for rec in data["history"]:
            orders, bad = read_orders(v, rec["orders"])
            if bad:
                raise InvalidOrderError(bad[0].text, bad[0].detail)
            game.history.append(PhaseRecord(
                Position.from_dict(rec["position"]), orders,
                [OrderResult.from_dict(x, parse) for x in rec["results"]],
                [str(e) for e in rec.get("events", [])]))
        game.position = Position.from_dict(data["position"])
        for power, texts in data.get("orders", {}).items():
            game._submit(power, texts, False, strict=False)
        outcome = data.get("outcome")
        if outcome is not None:
            if "winner" in outcome:
                game.winner = v.power(str(outcome["winner"]))
            elif "draw" in outcome:
                game.draw = tuple(v.power(str(p)) for p in outcome["draw"])
            elif outcome.get("no_winner") is True:
                game.no_winner = True
            else:
                raise StandoffError("unknown game outcome")
        return game


def _restore_game(variant: Variant, options: Options, position: Position,
                  history: list[PhaseRecord], orders: dict[str, dict[str, Order]],
                  winner: str | None, draw: tuple[str, ...] | None, no_winner: bool) -> Game:
    """The inverse of :meth:`Game.__reduce__`."""
    game = Game(variant, options, history, orders, winner, draw, no_winner)
    game.position = position
    return game
