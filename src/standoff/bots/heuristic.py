"""The heuristic bot: DumbBot's idea (values spread from the centres, each unit
to its best space), plus what DumbBot never knew: stand-offs it can predict,
convoys, coasts, canals, maps that change and victory rules that name a space.

:class:`~standoff.bots.values.Values` gives every space a worth for the power
(centres it is or leads to, whose they are, who threatens them), read on the
board the units will stand on after the season (a changing map's next board,
:mod:`standoff.bots.ahead`), with a goal the victory rule names worth more as
the deciding phase nears. :mod:`standoff.bots.moves` decides a movement
phase from them. Retreats go to the best free space (never two into one);
builds go where the values are highest, removals take the units worth least.
Every order is taken from :func:`standoff.legal_orders`' list for the position
(NO CONVERT, which no list offers, is checked by the core's own rules like any
other order), so an illegal order cannot be given; every variant's rules reach
the bot through that list and the variant's rules (``variant.board_at``,
``build_sites``, ``stranded_fleets``, ``victory``), never by its name.
"""

from __future__ import annotations

from typing import ClassVar

from standoff import (
    GameRecord,
    Order,
    PhaseKind,
    Position,
    Retreat,
    UnitType,
    Variant,
    adjustment_counts,
    province_of,
)

from . import BaseBot, Setting, legal_for
from .ahead import MapAhead, goals
from .moves import Movement
from .values import Values, tables


class HeuristicBot(BaseBot):
    """DumbBot's family, with stand-offs, convoys, coasts and canals."""

    name: ClassVar[str] = "heuristic"
    description: ClassVar[str] = (
        "Goes for the centres it can take and guards the ones it may lose, "
        "with supports and convoys between its units: fast, and no diplomat.")
    SETTINGS: ClassVar[dict[str, Setting]] = {
        "decay": 0.5,      # what a centre one step further lends a space (spring)
        "defence": 0.6,    # an own centre's worth per enemy unit that can reach it
        "neutral": 1.3,    # a centre nobody owns (another power's is 1)
        "noise": 0.05,     # random spread between near-equal choices
    }

    def orders(self, record: GameRecord, power: str) -> list[str]:
        v = record.variant
        pid = v.power(power)
        pos = record.position
        legal = legal_for(record).get(pid)
        if not legal:
            return []
        board = v.board_at(pos.phase)
        after = board
        kind = pos.phase.kind
        if v.timeline is not None and kind is not PhaseKind.ADJUSTMENT:
            after = v.board_at(pos.phase.next_after_turn(v.calendar))  # the change ahead
        ahead = MapAhead(v, pos, pid, board, after)
        decay = float(self.settings["decay"])
        if kind is PhaseKind.MOVEMENT and pos.phase.is_last_season(v.calendar):
            decay *= 0.7  # autumn: standing on a centre is what counts
        wanted = goals(v, pos.phase)
        ahead_tables = tables(after, frozenset(wanted)) if wanted or after is not board \
            else None
        vals = Values(tables(board), pos, pid, v.powers, decay,
                      float(self.settings["defence"]), float(self.settings["neutral"]),
                      ahead_tables, wanted)
        rng = self.rng(record, pid)
        if kind is PhaseKind.MOVEMENT:
            chosen = Movement(v, pos, pid, legal, vals, ahead, rng,
                              float(self.settings["noise"])).decide()
        elif kind is PhaseKind.RETREAT:
            chosen = _retreats(legal, vals, ahead)
        else:
            chosen = _adjustments(v, pos, pid, legal, vals)
        return [str(o) for o in chosen]


def _retreats(legal: dict[str, list[Order]], vals: Values, ahead: MapAhead) -> list[Order]:
    """Each dislodged unit to the best space no other of them takes (the one
    with the most to choose from first; a space the map ahead takes from it
    worth nothing), else disband."""
    out: list[Order] = []
    taken: set[str] = set()
    for loc in sorted(legal, key=lambda loc: (len(legal[loc]), loc)):
        best: Retreat | None = None
        best_value = -1.0
        for o in legal[loc]:
            if isinstance(o, Retreat):
                prov = province_of(o.dest)
                worth = ahead.worth(vals, o.unit, o.dest) - 0.3 * vals.threat.get(prov, 0)
                if prov not in taken and worth > best_value:
                    best, best_value = o, worth
        if best is None:
            out.append(next(o for o in legal[loc] if o.kind == "disband"))
        else:
            taken.add(province_of(best.dest))
            out.append(best)
    return out


def _adjustments(v: Variant, pos: Position, pid: str, legal: dict[str, list[Order]],
                 vals: Values) -> list[Order]:
    """Builds at the best sites (the best unit type for each), or the removals of
    the units worth least."""
    due = adjustment_counts(v, pos).get(pid, 0)
    if due > 0:
        units = pos.units_of(pid)
        fleets = sum(1 for u in units if u.type is UnitType.FLEET)
        picks: list[tuple[float, str, Order]] = []
        for site, options in legal.items():
            best: tuple[float, str, Order] | None = None
            for o in options:
                if o.kind != "build":
                    continue
                worth = vals.of(o.unit, o.location)
                if o.unit is UnitType.FLEET and fleets * 3 < len(units):
                    worth *= 1.1  # some fleets, to carry armies and reach the coasts
                if best is None or worth > best[0]:
                    best = (worth, site, o)
            if best is not None:
                picks.append(best)
        picks.sort(key=lambda p: (-p[0], p[1]))
        return [o for _, _, o in picks[:due]]
    if due < 0:
        scored: list[tuple[float, str, Order]] = []
        for u in pos.units_of(pid):
            options = legal.get(u.location, [])
            removal = next((o for o in options if o.kind == "remove"), None)
            if removal is not None:
                scored.append((vals.of(u.type, u.location), u.location, removal))
        scored.sort(key=lambda s: (s[0], s[1]))
        return [o for _, _, o in scored[:-due]]
    return []


BOT = HeuristicBot
