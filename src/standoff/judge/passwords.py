"""Passwords: argon2id hashing, a bound on how many run at once, and a strength rule.

Why a bound: one argon2id hash or verification at the default cost holds 64 MiB
(``argon2_memory_kib``) and keeps the CPU busy for a tenth of a second or more. A
server that starts one for every request in flight grows by 64 MiB per request:
80 concurrent sign-ups took a judge from 97 MiB to 2.3 GiB, and every other
request waited 16 s behind them. So each process runs at most
``max_concurrent_hashes`` of them at once (:class:`HashGate`). A request waits for
a slot at most ``hash_wait_seconds`` *without holding a thread* (it waits on the
event loop), then gets ``503 unavailable`` with ``Retry-After``: the queue never
grows without bound and the server keeps answering everything else.

The bound is per process: ``standoff serve --workers N`` runs N processes, so at
most N x ``max_concurrent_hashes`` hashes run on the machine, using up to
N x ``max_concurrent_hashes`` x ``argon2_memory_kib`` of memory at once (with the
defaults and 4 workers: 4 x 2 x 64 MiB = 512 MiB).

Why a strength rule: eight spaces, ``password`` and ``12345678`` were accepted.
:func:`check_strength` refuses what zxcvbn (Dropbox's estimator, MIT) scores
below 2 (fewer than about a million guesses), with its warning in the sentence.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.concurrency import run_in_threadpool

from .errors import ApiError, invalid
from .settings import Settings

T = TypeVar("T")

#: zxcvbn's score (0-4) a password needs: 2 is "somewhat guessable" (10^6 to 10^8
#: guesses), the least that survives an online attack under the log-in throttle
MIN_SCORE = 2
#: zxcvbn refuses longer input (its cost grows with the length): the first 72
#: characters are estimated, and a password whose first 72 are guessable is refused
ESTIMATE_CHARS = 72


class HashGate:
    """At most ``size`` holders at once in this process, whatever thread or event
    loop they come from.

    A semaphore of asyncio's own belongs to one event loop, and one process may run
    several apps on several loops (the tests do; so may an embedding program), so
    this one keeps its waiters as (loop, future) pairs under a thread lock and hands
    a released slot straight to the oldest waiter (first come, first served; a
    newcomer cannot overtake a waiter).
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("STANDOFF_MAX_CONCURRENT_HASHES must be at least 1")
        self.size = size
        self._lock = threading.Lock()
        self._free = size
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()

    @property
    def in_use(self) -> int:
        with self._lock:
            return self.size - self._free

    async def acquire(self, timeout: float) -> bool:
        """Take a slot, waiting at most ``timeout`` seconds; False if none came."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._free > 0 and not self._waiters:
                self._free -= 1
                return True
            waiter: asyncio.Future[None] = loop.create_future()
            entry = (loop, waiter)
            self._waiters.append(entry)
        try:
            # shielded: a timeout or a cancelled request must not cancel the future
            # itself, which release() may be resolving from another thread
            await asyncio.wait_for(asyncio.shield(waiter), timeout)
            return True
        except BaseException as exc:
            with self._lock:
                try:
                    self._waiters.remove(entry)
                    handed = False
                except ValueError:  # release() chose us meanwhile: pass the slot on
                    handed = True
            if handed:
                self.release()
            if isinstance(exc, TimeoutError):
                return False
            raise

    def release(self) -> None:
        """Give a slot back: to the oldest waiter, or to the free count."""
        with self._lock:
            while self._waiters:
                loop, waiter = self._waiters.popleft()
                try:
                    loop.call_soon_threadsafe(_resolve, waiter)
                except RuntimeError:  # that waiter's loop has closed: the next one
                    continue
                return
            self._free += 1

    async def run(self, timeout: float, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread while holding a slot; 503 with
        ``Retry-After`` when no slot comes within ``timeout`` seconds."""
        if not await self.acquire(timeout):
            raise ApiError(503, "the server is busy checking other passwords: try again in a "
                           "few seconds", {"Retry-After": str(max(1, round(timeout)))})
        started = False

        def job() -> T:
            nonlocal started
            started = True
            try:
                return fn(*args)
            finally:  # released by the thread itself: the bound holds even if the
                self.release()  # request is cancelled while the hash still runs

        try:
            return await run_in_threadpool(job)
        finally:
            if not started:  # cancelled before a thread took the job
                self.release()


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Passwords:
    """argon2id with the settings' cost, every computation through the process's gate."""

    def __init__(self, settings: Settings, gate: HashGate) -> None:
        self._hasher = PasswordHasher(time_cost=settings.argon2_time_cost,
                                      memory_cost=settings.argon2_memory_kib,
                                      parallelism=settings.argon2_parallelism)
        self.gate = gate
        self.wait = settings.hash_wait_seconds
        #: verified instead of a stored hash when the name is unknown, so an
        #: unknown name costs the same time as a known one with a wrong password;
        #: made on first need, in a worker thread holding a slot of the gate
        self._dummy: str | None = None

    def hash_now(self, password: str) -> str:
        """The hash, computed in this thread (outside the gate: tests, the CLI)."""
        return self._hasher.hash(password)

    def verify_now(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with ``stored`` None the dummy
        hash is verified all the same (the same cost) and the answer is False."""
        target = stored
        if target is None:
            if self._dummy is None:
                self._dummy = self._hasher.hash(secrets.token_urlsafe(16))
            target = self._dummy
        try:
            matched = self._hasher.verify(target, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
        return matched and stored is not None

    async def hash(self, password: str) -> str:
        """The hash, computed in a worker thread once the gate gives a slot (503 if not)."""
        return await self.gate.run(self.wait, self.hash_now, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """:meth:`verify_now` in a worker thread once the gate gives a slot (503 if not)."""
        return await self.gate.run(self.wait, self.verify_now, stored, password)


_lock = threading.Lock()
_gates: dict[int, HashGate] = {}
_passwords: dict[tuple[int, int, int, int, float], Passwords] = {}


def passwords(settings: Settings) -> Passwords:
    """The process's hasher for these settings (its dummy hash made once), sharing the
    process's gate of that size with every other app in the process."""
    key = (settings.argon2_time_cost, settings.argon2_memory_kib, settings.argon2_parallelism,
           settings.max_concurrent_hashes, settings.hash_wait_seconds)
    with _lock:
        found = _passwords.get(key)
        if found is None:
            size = settings.max_concurrent_hashes
            gate = _gates.get(size)
            if gate is None:
                gate = _gates[size] = HashGate(size)
            found = _passwords[key] = Passwords(settings, gate)
    return found


def strength_problem(password: str, *context: str | None) -> str | None:
    """Why ``password`` is too weak, as a sentence, or None. ``context`` (the
    username, the e-mail address) counts as known to an attacker."""
    if not password.strip():
        return "the password may not be only spaces"
    from zxcvbn import zxcvbn  # type: ignore[import-untyped]  # lists load on first use

    inputs = [c for c in context if c]
    for c in list(inputs):  # the parts of an e-mail address too
        inputs.extend(p for p in c.replace("@", ".").split(".") if len(p) >= 3)
    result: dict[str, Any] = zxcvbn(password[:ESTIMATE_CHARS], user_inputs=inputs)
    if int(result["score"]) >= MIN_SCORE:
        return None
    warning = str(result.get("feedback", {}).get("warning") or "").strip().rstrip(".")
    why = f" ({warning[0].lower()}{warning[1:]})" if warning else ""
    return (f"the password is too easy to guess{why}: use a longer one, for instance a few "
            f"unrelated words")


def check_strength(password: str, *context: str | None) -> None:
    """400 invalid with the reason when the password is too weak."""
    problem = strength_problem(password, *context)
    if problem is not None:
        raise invalid(problem)
