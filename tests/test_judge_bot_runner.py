"""A bot's child process (``standoff.judge.bot_runner``, issue 28): the bot's time
limit counts from when its position is built, not from when its process started
(on a loaded machine, starting Python and importing the rules took longer than a
1 s budget, and every seat of a fresh worker fell into civil disorder), and a
slow start has a limit of its own, after which the next job starts afresh."""

from __future__ import annotations

import pytest

from standoff.judge.bot_runner import (
    TEST_PREPARE_DELAY_ENV,
    BotFailed,
    BotGame,
    BotRequest,
    BotRunner,
)
from standoff.judge.rules import bundled_rules


def _request(power: str = "france") -> BotRequest:
    state = bundled_rules("standard").new_state({})
    return BotRequest(game=BotGame(variant="standard", text=None, sha256=None, state=state),
                      power=power, bot="heuristic", seed=1)


def _checked(orders: list[str], power: str = "france") -> list[str]:
    rules = bundled_rules("standard")
    return rules.check_orders(_request(power).game.state, power, orders)


def test_a_slow_start_is_not_the_bots_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_PREPARE_DELAY_ENV, "1.5")
    runner = BotRunner(seconds=1.0, memory_mib=2048, prepare_seconds=20.0)
    try:
        orders = runner.orders(_request())
        assert len(orders) == 3 and _checked(orders) == orders
        again = runner.orders(_request("germany"))  # the same child, slow again
        assert len(again) == 3 and _checked(again, "germany") == again
    finally:
        runner.close()


def test_a_start_slower_than_its_own_limit_fails_and_the_next_starts_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TEST_PREPARE_DELAY_ENV, "5")
    runner = BotRunner(seconds=10.0, memory_mib=2048, prepare_seconds=1.0)
    try:
        with pytest.raises(BotFailed, match="starting the bot and building its position "
                                            "took longer than 1 s"):
            runner.orders(_request())
        monkeypatch.delenv(TEST_PREPARE_DELAY_ENV)
        runner.prepare_seconds = 30.0
        orders = runner.orders(_request())
        assert len(orders) == 3 and _checked(orders) == orders
    finally:
        runner.close()
