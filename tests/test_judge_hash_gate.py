"""The process's bound on argon2 work (``passwords.HashGate``): at most ``size`` holders
at once whichever event loop they wait on, a waiter that gets no slot in time is told
so (and the route answers 503), and no slot is ever lost, also when a waiter times
out or is cancelled at the moment a slot is handed to it.

The gate is shared by every app of a process, and apps may run on different event
loops (TestClient runs each on a thread of its own), so these tests drive it from
several loops in several threads at once.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from standoff.judge.errors import ApiError
from standoff.judge.passwords import HashGate


def run_apart(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(scenario())`` on a thread of its own: the session's browser tests
    leave Playwright's event loop running on the main thread, where asyncio.run refuses."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(scenario())).result()


def test_the_bound_holds_across_event_loops() -> None:
    gate = HashGate(2)
    lock = threading.Lock()
    running = 0
    most = 0

    def work() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        threading.Event().wait(0.005)  # the "hash": a few milliseconds of holding the slot
        with lock:
            running -= 1

    async def many() -> int:
        done = await asyncio.gather(*(gate.run(30, work) for _ in range(20)))
        return len(done)

    with ThreadPoolExecutor(4) as pool:  # four event loops, one per thread
        finished = list(pool.map(lambda _: asyncio.run(many()), range(4)))
    assert finished == [20] * 4
    assert most == 2
    assert gate.in_use == 0


def test_a_waiter_gets_no_slot_after_its_timeout_and_503_from_run() -> None:
    gate = HashGate(1)

    async def scenario() -> None:
        assert await gate.acquire(1)
        assert not await gate.acquire(0.05)  # the one slot is held
        with pytest.raises(ApiError) as refused:
            await gate.run(0.05, lambda: None)
        assert refused.value.status == 503 and refused.value.headers["Retry-After"] == "1"
        gate.release()
        assert gate.in_use == 0
        assert await gate.run(0.05, lambda: 7) == 7
        assert gate.in_use == 0

    run_apart(scenario)


def test_a_released_slot_goes_to_the_oldest_waiter() -> None:
    gate = HashGate(1)
    order: list[int] = []

    async def scenario() -> None:
        assert await gate.acquire(1)

        async def wait(n: int) -> None:
            assert await gate.acquire(5)
            order.append(n)
            gate.release()

        waiters = [asyncio.create_task(wait(n)) for n in range(5)]
        await asyncio.sleep(0)  # let each waiter queue (in order of creation)
        gate.release()
        await asyncio.gather(*waiters)

    run_apart(scenario)
    assert order == [0, 1, 2, 3, 4]
    assert gate.in_use == 0


def test_cancelled_waiters_lose_no_slot() -> None:
    gate = HashGate(1)

    async def scenario() -> None:
        assert await gate.acquire(1)
        waiters = [asyncio.create_task(gate.acquire(1)) for _ in range(10)]
        await asyncio.sleep(0)
        # release and cancel in the same turn of the loop: the slot is handed to a
        # waiter whose task is cancelled before it runs, and must be passed on
        gate.release()
        for task in waiters[:5]:
            task.cancel()
        results = await asyncio.gather(*waiters, return_exceptions=True)
        got = [r for r in results if r is True]
        assert len(got) == 1  # exactly one waiter holds the slot now
        gate.release()

    run_apart(scenario)
    assert gate.in_use == 0
