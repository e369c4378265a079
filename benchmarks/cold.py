"""``--evict MIB``: a "met once" figure that does not depend on the host's mood.

By default a call is "met once" when it comes right after the other engines'
turns: ``diplomacy`` has just processed the phase, which pushes much of each
engine's code and tables out of the core's own caches. How much survives in the
shared last-level cache then depends on what else the host runs: on a shared
VM the same build measured 0.69x and 0.87x pydipcc on retreat phases an hour
apart. With ``--evict MIB`` every engine's timed call (standoff's, pydipcc's
and ``diplomacy``'s alike) is preceded by writing MIB MiB of memory, one byte
in every 64 (a cache line), which pushes everything out of every level: the
figure is then a reproducible worst case, as a position met after a neural
network's forward pass. 64 MiB is twice this machine's last-level cache.
The writing is done before the clock starts and is never timed.

It makes the starting state the same for every call and every engine; it
cannot make memory itself equally fast at all hours (a shared host's other
tenants load it too), so compare engines within one run, as always.
"""

from __future__ import annotations

import argparse

LINE = 64  # bytes in a cache line on the machines we run on (x86-64, arm64)


class Evictor:
    """Call it to push the caches' contents out (a no-op when ``mib`` is 0)."""

    def __init__(self, mib: int) -> None:
        if mib < 0:
            raise ValueError(f"--evict takes a size in MiB, not {mib}")
        self.mib = mib
        self._buffer = bytearray(mib << 20)
        self._lines = bytes(len(self._buffer) // LINE)

    def __call__(self) -> None:
        if self.mib:
            self._buffer[::LINE] = self._lines  # one store per cache line

    def describe(self) -> str:
        """One line for the report's header."""
        if not self.mib:
            return "met once: right after the other engines' turns (caches as they left them)"
        return (f"met once: after {self.mib} MiB written to evict every cache "
                "(--evict; before each engine's timed call, untimed)")


def add_evict_option(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--evict", type=int, default=0, metavar="MIB",
                    help="before each engine's timed call, write MIB MiB of memory so that "
                         "no cache holds anything of it (a reproducible cold figure; "
                         "64 is twice this machine's last-level cache; default 0: off)")
