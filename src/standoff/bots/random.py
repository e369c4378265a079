"""The baseline: each unit (build site, removal) picks uniformly among its
legal orders, as :func:`standoff.random_orders` picks them.

In a movement phase the bot picks from :func:`standoff.legal_orders` itself
rather than through ``random_orders``: a canal's owner finds its PERMIT orders
in the same list as the orders of its unit standing in the canal, where
``random_orders`` makes one pick for both (the unit then goes unordered).
Here the unit picks among its own orders and each permission is given or not
with even chances.
"""

from __future__ import annotations

from typing import ClassVar

from standoff import GameRecord, Order, PhaseKind, random_orders

from . import BaseBot, Setting, legal_for


class RandomBot(BaseBot):
    """Uniform over the legal orders (optionally preferring moves)."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "Plays any legal order at random: a baseline to measure others by."
    SETTINGS: ClassVar[dict[str, Setting]] = {"move_bias": 0.0}

    def orders(self, record: GameRecord, power: str) -> list[str]:
        pid = record.variant.power(power)
        bias = self.settings["move_bias"]
        assert isinstance(bias, float)
        rng = self.rng(record, pid)
        pos = record.position
        if pos.phase.kind is not PhaseKind.MOVEMENT:
            picks = random_orders(pos, rng, bias, record.options, record.variant)
            return [str(o) for o in picks.get(pid, [])]
        legal = legal_for(record).get(pid, {})
        out: list[Order] = []
        for u in pos.units:  # (several fleets on one high sea share its list)
            if u.power != pid or u.location not in legal:
                continue
            choices = [o for o in legal[u.location] if o.kind != "permit"]
            if bias:
                moves = [o for o in choices if o.kind == "move"]
                if moves and rng.random() < bias:
                    choices = moves
            out.append(rng.choice(choices))
        for _loc, options in sorted(legal.items()):
            out.extend(o for o in options if o.kind == "permit" and rng.random() < 0.5)
        return [str(o) for o in out]


BOT = RandomBot
