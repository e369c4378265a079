"""Optional peer engines of the benchmarks: finding pydipcc, and driving it like the others.

pydipcc is the C++ adjudicator of Meta's Cicero project (MIT), the fastest
Diplomacy engine we know of and so the one standoff is measured against. It
is not on PyPI and needs a C++ build (``bash ../shared/reference/pydipcc/build.sh``,
about 5 minutes), so it is optional: a benchmark finds it through
``--pydipcc DIR`` or the ``PYDIPCC_PATH`` environment variable (the folder
holding ``pydipcc*.so``, as ``build.sh`` prints it) and otherwise prints one
line saying so and leaves its columns out. Like ``diplomacy`` it is only ever
imported by the benchmarks, never by standoff, and is no dependency of the
package.

:class:`PydipccReplay` plays a recorded game through pydipcc phase by phase,
timing what ``adjudication.py`` times for the other engines: the phase's orders
as text to the next position (``set_orders`` for every power, then
``process``). pydipcc generates every possible order of a phase lazily, the
first time anything asks (its ``set_orders`` does); that generation is done
before the phase's turn (:meth:`PydipccReplay.prepare`), so the figure is
adjudication alone (legal-order
generation is timed on its own by ``legal_orders.py``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

ENV_VAR = "PYDIPCC_PATH"
BUILD_HINT = "bash ../shared/reference/pydipcc/build.sh"
NOT_FOUND = (f"pydipcc: not found (set {ENV_VAR} to the folder build.sh printed: "
             f"{BUILD_HINT})")


def add_pydipcc_option(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--pydipcc", metavar="DIR", type=Path,
                    help=f"folder holding pydipcc*.so, the optional C++ peer engine "
                         f"(default: ${ENV_VAR}; build it with {BUILD_HINT})")


def _fail(message: str) -> NoReturn:
    """A folder was named but holds no usable pydipcc: bad input, one line, exit 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def load_pydipcc(folder: Path | None) -> ModuleType | None:
    """The pydipcc module from ``folder`` (else ``$PYDIPCC_PATH``), or None if
    neither is given. Prints one line either way, so every report says whether
    the peer was measured. A folder that is given but holds no importable
    pydipcc is an error (exit 2), not a silent skip."""
    if folder is None:
        env = os.environ.get(ENV_VAR, "").strip()
        folder = Path(env) if env else None
    if folder is None:
        print(NOT_FOUND)
        return None
    built = sorted(folder.glob("pydipcc*.so")) if folder.is_dir() else []
    if not built:
        _fail(f"no pydipcc*.so in {folder} (the folder {BUILD_HINT} prints)")
    sys.path.insert(0, str(folder))
    try:
        module = importlib.import_module("pydipcc")
    except ImportError as e:
        _fail(f"pydipcc in {folder} does not import: {e}")
    print(f"pydipcc: {built[0]}")
    return module


@dataclass
class PydipccReplay:
    """One recorded game replayed through pydipcc, kept level with ``diplomacy``.

    pydipcc reproduces ``diplomacy``'s adjudication almost everywhere (it was
    written to), but not on every convoy corner case; where it reaches another
    position the replay counts the difference and is rebuilt from
    ``diplomacy``'s game (its saved-game JSON, which pydipcc reads), so that
    every later phase is still timed from the same position as the other
    engines."""

    pydipcc: ModuleType
    game: Any = None
    #: extra empty retreat phases stepped over (see :meth:`play`)
    empty_retreats: int = 0
    #: called before the clock starts in :meth:`play` (``--evict``: see ``cold.py``)
    evict: Callable[[], None] | None = None

    def __post_init__(self) -> None:
        self.game = self.pydipcc.Game()

    @property
    def phase(self) -> str:
        return str(self.game.current_short_phase)

    def prepare(self) -> None:
        """Generate the phase's possible orders, which pydipcc does lazily on the first
        ``set_orders``: that is legal-order generation, not adjudication, so it is kept
        out of :meth:`play`'s time. Call it before the other engines take their turn,
        so that pydipcc, like them, starts its phase with caches others have used."""
        self.game.get_orderable_locations()

    def play(self, orders: Mapping[str, list[str]], reference_next: str) -> int:
        """Adjudicate the phase from its orders as text (after :meth:`prepare`); return
        the nanoseconds taken.

        When every unit dislodged in a movement phase has nowhere to retreat,
        ``diplomacy`` and standoff disband them at once and go on, while pydipcc
        stops at a retreat phase with nothing to order. Reaching the same next
        position then takes pydipcc one more ``process()``, which is timed and
        added (``reference_next``: the phase ``diplomacy`` went on to)."""
        game = self.game
        if self.evict is not None:
            self.evict()
        t0 = time.perf_counter_ns()
        for power, items in orders.items():
            game.set_orders(power, items)
        game.process()
        ns = time.perf_counter_ns() - t0
        if self.phase.endswith("R") and not reference_next.endswith("R") and not any(
                options for where in game.get_state()["retreats"].values()
                for options in where.values()):
            t0 = time.perf_counter_ns()
            game.process()
            ns += time.perf_counter_ns() - t0
            self.empty_retreats += 1
        return ns

    def rebuild_from(self, saved_game: dict[str, Any]) -> None:
        """Continue from ``diplomacy``'s game (``to_saved_game_format``) after a difference."""
        self.game = self.pydipcc.Game.from_json(json.dumps(saved_game))
