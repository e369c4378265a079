"""The baseline: each unit (build site, removal) picks uniformly among its
legal orders, as :func:`standoff.random_orders` picks them."""

from __future__ import annotations

from typing import ClassVar

from standoff import GameRecord, random_orders

from . import BaseBot, Setting


class RandomBot(BaseBot):
    """Uniform over the legal orders (optionally preferring moves)."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "Plays any legal order at random: a baseline to measure others by."
    SETTINGS: ClassVar[dict[str, Setting]] = {"move_bias": 0.0}

    def orders(self, record: GameRecord, power: str) -> list[str]:
        pid = record.variant.power(power)
        bias = self.settings["move_bias"]
        assert isinstance(bias, float)
        picks = random_orders(record.position, self.rng(record, pid), bias,
                              record.options, record.variant)
        return [str(o) for o in picks.get(pid, [])]


BOT = RandomBot
