"""A bot's orders, worked out in a child process bounded in time and memory.

A bot is code run on a game's position, and a position from a designer's
variant file can be large; a bot that loops, or that needs more memory than the
judge can spare, must cost its own seat a phase (civil disorder) and nothing
else. So each bot worker keeps one child process (``python -m
standoff.judge.bot_runner``) with an address-space limit set from outside
(``prlimit``: no ``preexec_fn`` in a threaded server), and sends it one request a
line (JSON): the variant (a bundled name, or a designer's text the first time
the child meets it), the game's state, the power, the bot and its seed. It
answers two lines: ``{"ready": true}`` once it has started and built the position
(its own time limit, ``prepare_seconds``: starting Python on a loaded machine or
building a designer's large variant is not the bot's thinking), then the orders,
or the error, within the bot's time limit. No line within its limit: the child
is killed (and started again for the next job) and the job fails with a sentence
saying so.

The child keeps the variants it has built, so a worker that plays the same
games again and again builds each variant once.

``STANDOFF_TEST_BOT_DELAY`` and ``STANDOFF_TEST_BOT_PREPARE_DELAY`` (seconds)
are test hooks, read only here: the child sleeps that long once ready, before its
bot is asked (so the tests can kill a worker in the middle of a job, or make a bot
overrun its time), or before it builds the position (a slow start). Never set them
in production.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

TEST_DELAY_ENV = "STANDOFF_TEST_BOT_DELAY"
TEST_PREPARE_DELAY_ENV = "STANDOFF_TEST_BOT_PREPARE_DELAY"


class BotFailed(Exception):
    """The bot gave no orders: it raised, overran its time, or ran out of memory."""


@dataclass(frozen=True, slots=True)
class BotGame:
    """The game bots are asked about, as plain values a child process can be sent
    (a worker reads it once for all of a phase's bots)."""

    variant: str
    #: the designer's variant text (None: a bundled variant) and its digest
    text: str | None
    sha256: str | None
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BotRequest:
    """What a bot needs to give one power's orders: the game, the power, which bot,
    its seed."""

    game: BotGame
    power: str
    bot: str
    seed: int


class BotRunner:
    """One child process at a time, asked one request at a time (not thread-safe:
    each worker thread has its own)."""

    def __init__(self, *, seconds: float, memory_mib: int, prepare_seconds: float) -> None:
        self.seconds = seconds
        self.memory_mib = memory_mib
        self.prepare_seconds = prepare_seconds
        self._child: subprocess.Popen[bytes] | None = None
        #: the designers' texts this child has been sent (it keeps them)
        self._sent: set[str] = set()
        #: what the child wrote past the line last read
        self._unread = bytearray()

    def orders(self, request: BotRequest) -> list[str]:
        """The bot's orders for the request's power; :class:`BotFailed` with the reason."""
        child = self._start()
        game = request.game
        line: dict[str, Any] = {"variant": game.variant, "sha256": game.sha256,
                                "state": game.state, "power": request.power,
                                "bot": request.bot, "seed": request.seed}
        if game.text is not None and game.sha256 not in self._sent:
            line["text"] = game.text
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(json.dumps(line).encode("utf-8", "surrogatepass") + b"\n")
            child.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self.close()
            raise BotFailed(f"the bot's process stopped ({exc})") from exc
        if game.sha256 is not None and game.text is not None:
            self._sent.add(game.sha256)
        reply = self._reply(child, self.prepare_seconds,
                            f"starting the bot and building its position took longer "
                            f"than {self.prepare_seconds:g} s")
        if reply.get("ready"):
            reply = self._reply(child, self.seconds,
                                f"the bot took longer than {self.seconds:g} s")
        if "error" in reply:
            raise BotFailed(str(reply["error"]))
        return [str(o) for o in reply["orders"]]

    def _reply(self, child: subprocess.Popen[bytes], seconds: float,
               too_long: str) -> dict[str, Any]:
        """The child's next line; :class:`BotFailed` (the child stopped) when none
        comes within ``seconds``."""
        assert child.stdout is not None
        line = _read_line(child.stdout, seconds, self._unread)
        if line is None:
            code = child.poll()
            self.close()
            if code is None:
                raise BotFailed(too_long)
            raise BotFailed(f"the bot's process ended (exit status {code}): it may have "
                            f"needed more than {self.memory_mib} MiB")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def _start(self) -> subprocess.Popen[bytes]:
        if self._child is not None and self._child.poll() is None:
            return self._child
        import resource

        env = {k: v for k, v in os.environ.items()
               if not k.startswith("STANDOFF_") or k in (TEST_DELAY_ENV,
                                                         TEST_PREPARE_DELAY_ENV)}
        child = subprocess.Popen([sys.executable, "-m", "standoff.judge.bot_runner"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=env)
        size = self.memory_mib * 1024 * 1024
        with contextlib.suppress(ProcessLookupError):  # died at once: the request says so
            resource.prlimit(child.pid, resource.RLIMIT_AS, (size, size))
        self._child, self._sent, self._unread = child, set(), bytearray()
        return child

    def close(self) -> None:
        """Stop the child (it is started again for the next request)."""
        child, self._child = self._child, None
        if child is None:
            return
        child.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(5)
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def _read_line(stream: IO[bytes], seconds: float, buffer: bytearray) -> bytes | None:
    """One line from ``stream`` within ``seconds``; None on timeout or end of file.
    ``buffer`` keeps what was read past the line (the child's next line, when both
    came at once)."""
    fd = stream.fileno()
    deadline = time.monotonic() + seconds
    while b"\n" not in buffer:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return None
        buffer += chunk
    end = buffer.index(b"\n") + 1
    line = bytes(buffer[:end])
    del buffer[:end]
    return line


def answer(request: dict[str, Any], kept: dict[str, Any],
           ready: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """The child's answer to one request (``kept``: the variants' rules it built);
    ``ready`` is called once the position is built, when the bot's time starts."""
    from standoff import bots

    from .rules import bundled_rules, rules_from_text

    key = request.get("sha256") or request["variant"]
    rules = kept.get(key)
    if rules is None:
        text = request.get("text")
        if request.get("sha256") and text is None:
            return {"error": "the variant file was not sent"}
        rules = rules_from_text(text, "uploaded variant") if text else bundled_rules(
            request["variant"])
        kept[key] = rules
    record = rules.record(request["state"])
    bot = bots.load(request["bot"], seed=int(request["seed"]))
    ready()
    return {"orders": bot.orders(record, request["power"])}


def main() -> None:  # pragma: no cover - the child's loop, run by the judge's tests
    kept: dict[str, Any] = {}
    out = sys.stdout.buffer
    delay = float(os.environ.get(TEST_DELAY_ENV) or 0)
    prepare_delay = float(os.environ.get(TEST_PREPARE_DELAY_ENV) or 0)

    def send(reply: dict[str, Any]) -> None:
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()

    def ready() -> None:
        send({"ready": True})
        if delay:
            time.sleep(delay)

    for raw in sys.stdin.buffer:
        if prepare_delay:
            time.sleep(prepare_delay)
        try:
            reply = answer(json.loads(raw.decode("utf-8", "surrogatepass")), kept, ready)
        except MemoryError:
            reply = {"error": "the bot ran out of memory"}
        except Exception as exc:
            reply = {"error": f"the bot failed: {type(exc).__name__}: {exc}"[:1000]}
        send(reply)


if __name__ == "__main__":  # pragma: no cover
    main()
