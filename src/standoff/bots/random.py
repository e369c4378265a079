"""The baseline: each unit (build site, removal) picks uniformly among its
legal orders, as :func:`standoff.random_orders` picks them: several fleets on
one high sea each get their own pick (1939 IV 5.1), and a canal's owner orders
its unit standing in the canal among the unit's own orders and gives each of
its permissions with even chances (The Twentieth Century's canals).

One call of ``random_orders`` picks for every power of a position, from one
random stream per seed and phase: the bot keeps the last position's picks and
answers every power asked about it from them (the arena asks up to thirteen
powers about each position), so a power's answer still depends only on the
record, seed and settings.
"""

from __future__ import annotations

from random import Random
from typing import ClassVar

from standoff import GameRecord, random_orders

from . import BaseBot, Setting


class RandomBot(BaseBot):
    """Uniform over the legal orders (optionally preferring moves)."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "Plays any legal order at random: a baseline to measure others by."
    SETTINGS: ClassVar[dict[str, Setting]] = {"move_bias": 0.0}

    def __init__(self, *, seed: int | None = None, **settings: Setting) -> None:
        super().__init__(seed=seed, **settings)
        #: the last position asked about and every power's picks there (one
        #: tuple, replaced whole: threads sharing the bot see an entry or none)
        self._last: tuple[object, object, object, dict[str, list[str]]] | None = None

    def orders(self, record: GameRecord, power: str) -> list[str]:
        pid = record.variant.power(power)
        return self.picks(record).get(pid, [])

    def picks(self, record: GameRecord) -> dict[str, list[str]]:
        """Every power's random orders for the record's position (kept while the
        same position, options and variant are asked about)."""
        pos, options, variant = record.position, record.options, record.variant
        last = self._last
        if last is not None and last[0] is pos and last[1] is options and last[2] is variant:
            return last[3]
        bias = self.settings["move_bias"]
        assert isinstance(bias, float)
        rng = Random(f"{self.seed}:{variant.name}:{pos.phase!r}")
        found = {p: [str(o) for o in orders]
                 for p, orders in random_orders(pos, rng, bias, options, variant).items()}
        self._last = (pos, options, variant, found)
        return found


BOT = RandomBot
