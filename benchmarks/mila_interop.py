"""MILA JSON interop checked against MILA's ``diplomacy`` 1.1.2 and pydipcc, and timed.

How to run (the first run builds ``.bench-venv`` by itself, see ``setup_env.py``)::

    python3 benchmarks/mila_interop.py [--games 10] [--phases 40] [FILES ...]
    PYDIPCC_PATH=/path/to/dipcc/python python3 benchmarks/mila_interop.py

``diplomacy`` is AGPL-3.0 and pydipcc is optional (``--pydipcc DIR`` or
``PYDIPCC_PATH``, skipped with one line when absent); both are imported here
only, never by standoff (``standoff.mila`` reads and writes their JSON).

1. **Import.** MILA plays ``--games`` games of random legal orders
   (``get_all_possible_orders``, seeded) and saves each with
   ``to_saved_game_format``; standoff reads the JSON and replays every phase
   (``standoff.mila.replay``). Reported: phases per second from JSON text to the
   finished report, and the disagreements by cause; every one must be a known
   MILA departure from DATC 3.0 (none ``unexplained``). ``FILES`` (MILA saved
   games, JSON or JSON lines, e.g. a public archive) are replayed the same way.
2. **Export.** standoff plays ``--games`` games of random legal orders and
   exports each (``standoff.mila.to_saved_game``). Then:

   * MILA loads the file (``load_saved_games_from_disk``, i.e.
     ``from_saved_game_format``) and must stand at its last phase with its
     units, retreats and centres;
   * MILA replays it from the start with the exported orders: every order must
     be accepted as written, and after each phase MILA's state must be the
     exported one, or differ for a known cause (then MILA is put back on the
     export's position and goes on);
   * pydipcc, when found, does both the same way (``Game.from_json``).

Timings are of one process on a shared machine: noisy, read them as orders of
magnitude.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent


def _bootstrap() -> None:
    sys.path.insert(0, str(HERE))
    import setup_env

    setup_env.bootstrap(__file__)


_bootstrap()

from diplomacy import Game as MilaGame  # noqa: E402  (AGPL: benchmark environment only)
from diplomacy.utils.export import (  # noqa: E402
    from_saved_game_format,
    load_saved_games_from_disk,
    to_saved_game_format,
)
from peers import add_pydipcc_option, load_pydipcc  # noqa: E402

import standoff  # noqa: E402
from standoff import GameRecord, adjudicate, random_orders  # noqa: E402
from standoff.mila import (  # noqa: E402
    UNEXPLAINED,
    Difference,
    State,
    classify,
    read_saved_games,
    replay,
    saved_games_from_text,
    state_from_dict,
    state_of_mila,
    to_saved_game,
)


def mila_random_game(seed: int, phases: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = MilaGame(game_id=f"mila-{seed}")
    while not game.is_game_done and len(game.get_phase_history()) < phases:
        possible = game.get_all_possible_orders()
        for name, power in game.powers.items():
            locs = [loc for loc in game.get_orderable_locations(name) if possible.get(loc)]
            if game.get_current_phase().endswith("A"):
                locs = rng.sample(locs, min(abs(len(power.centers) - len(power.units)),
                                            len(locs)))
            game.set_orders(name, [rng.choice(possible[loc]) for loc in locs])
        game.process()
    saved: dict[str, Any] = to_saved_game_format(game)
    return saved


def standoff_random_game(seed: int, phases: int) -> GameRecord:
    rng = random.Random(seed)
    game = standoff.Game.new("standard")
    while len(game.history) < phases and not game.is_over:
        for power, orders in random_orders(game.position, rng, move_bias=0.6).items():
            if orders:
                game.submit(power, orders)
        game.process()
    return game.record


def check_import(texts: list[tuple[str, str]]) -> None:
    phases, ns = 0, 0
    causes: Counter[str] = Counter()
    for name, text in texts:
        t0 = time.perf_counter_ns()
        replays = [replay(g) for g in saved_games_from_text(text, name)]
        ns += time.perf_counter_ns() - t0
        for r in replays:
            phases += r.compared
            causes.update(d.cause for d in r.disagreements)
    rate = phases / (ns / 1e9) if ns else 0.0
    print(f"import + replay: {phases} phases in {ns / 1e6:.0f} ms: {rate:,.0f} phases/s "
          f"({ns / 1e3 / max(phases, 1):.0f} µs a phase, JSON text to report)")
    _print_causes(causes, phases)


def _print_causes(causes: Counter[str], phases: int) -> None:
    print(f"  {phases - sum(causes.values())} of {phases} phases agree")
    for cause, n in causes.most_common():
        print(f"  {n:5} differ: {cause}")
    if causes[UNEXPLAINED]:
        print("  FAIL: unexplained disagreements")


#: the state an engine stands at: (phase name, state dict) -> comparable State
def _state(name: str, state: dict[str, Any]) -> State:
    return state_of_mila(state_from_dict(state, "engine", name))


def _truncated(saved: dict[str, Any], upto: int) -> dict[str, Any]:
    """The saved game up to phase ``upto``, that phase current with no orders yet."""
    phases = [dict(p) for p in saved["phases"][:upto + 1]]
    phases[-1]["orders"] = {p: [] for p in phases[-1]["orders"]}
    phases[-1]["results"] = {}
    return {**saved, "phases": phases}


class Engine:
    """MILA or pydipcc, driven the same way through their saved-game JSON."""

    def __init__(self, name: str, load: Callable[[dict[str, Any]], Any],
                 accepted: Callable[[Any, str], int]) -> None:
        self.name = name
        self.load = load
        #: (game, power) -> how many orders the engine holds for the power
        self.accepted = accepted
        #: retreat phases in which no unit could go anywhere, stepped over (see check)
        self.stepped = 0

    def check(self, record: GameRecord, saved: dict[str, Any]) -> tuple[int, Counter[str],
                                                                         int]:
        """(phases compared, causes of the differences, orders not accepted)."""
        phases = saved["phases"]
        last = self.load(saved)
        want = _state(phases[-1]["name"], phases[-1]["state"])
        got = _state(last.get_current_phase(), last.get_state())
        if want.diff(got, "export", self.name):
            raise SystemExit(f"{self.name} loads {saved['id']} at another position: "
                             f"{want.diff(got, 'export', self.name)}")
        causes: Counter[str] = Counter()
        refused = 0
        game = self.load(_truncated(saved, 0))
        for i, rec in enumerate(record.history):
            orders = phases[i]["orders"]
            for power, items in orders.items():
                if items:
                    game.set_orders(power, items)
                    refused += max(0, len(items) - self.accepted(game, power))
            game.process()
            self._step_over_hopeless_retreats(game)
            nxt = phases[i + 1]
            want = _state(nxt["name"], nxt["state"])
            got = _state(game.get_current_phase(), game.get_state())
            if want.diff(got, "export", self.name):
                result = adjudicate(rec.position, orders, variant=record.variant)
                causes[classify(Difference(phases[i]["name"], orders, rec.position, got, want,
                                           result, record.variant))] += 1
                game = self.load(_truncated(saved, i + 1))
        return len(record.history), causes, refused


    def _step_over_hopeless_retreats(self, game: Any) -> None:
        """pydipcc keeps a retreat phase for dislodged units with nowhere to go (each
        must disband); standoff and MILA disband them at once. The position after that
        phase is the same, so it is processed (no orders) and counted."""
        state = game.get_state()
        if game.get_current_phase().endswith("R") and not any(
                where for units in state["retreats"].values() for where in units.values()):
            game.process()
            self.stepped += 1


def check_export(records: list[GameRecord], engines: list[Engine]) -> None:
    t0 = time.perf_counter_ns()
    saved = [to_saved_game(r, f"standoff-{i}") for i, r in enumerate(records)]
    texts = [json.dumps(s) for s in saved]
    ns = time.perf_counter_ns() - t0
    phases = sum(len(r.history) + 1 for r in records)
    print(f"export: {phases} phases in {ns / 1e6:.0f} ms: {phases / (ns / 1e9):,.0f} phases/s "
          f"({sum(map(len, texts)) // 1024} KiB of JSON)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        path.write_text("\n".join(texts) + "\n")
        loaded = load_saved_games_from_disk(str(path))
        print(f"MILA load_saved_games_from_disk: {len(loaded)} of {len(texts)} games loaded")
    for engine in engines:
        total, refused = 0, 0
        causes: Counter[str] = Counter()
        for record, s in zip(records, saved, strict=True):
            n, c, r = engine.check(record, s)
            total, refused = total + n, refused + r
            causes.update(c)
        print(f"{engine.name}: every export loads at its last position; replayed from the "
              f"start with the exported orders, {refused} orders refused")
        if engine.stepped:
            print(f"  {engine.stepped} retreat phases where no unit could retreat stepped over "
                  f"({engine.name} keeps them; standoff and MILA disband at once)")
        _print_causes(causes, total)


def _mila_load(saved: dict[str, Any]) -> Any:
    return from_saved_game_format(saved)


def _pydipcc_loader(pydipcc: ModuleType) -> Callable[[dict[str, Any]], Any]:
    def load(saved: dict[str, Any]) -> Any:
        return pydipcc.Game.from_json(json.dumps(saved))
    return load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="MILA saved games to replay too")
    ap.add_argument("--games", type=int, default=10, help="random games of each engine")
    ap.add_argument("--phases", type=int, default=40, help="phases per random game")
    ap.add_argument("--pure", action="store_true", help="standoff's pure Python core")
    add_pydipcc_option(ap)
    args = ap.parse_args()
    pydipcc = load_pydipcc(args.pydipcc)
    print(f"standoff {standoff.__version__} ({standoff.BUILD}), diplomacy (MILA) 1.1.2")
    mila = [(f"mila-{s}", json.dumps(mila_random_game(s, args.phases)))
            for s in range(args.games)]
    for f in args.files:
        games = read_saved_games(f)
        print(f"{f}: {len(games)} games")
        mila.append((f.name, f.read_text(encoding="utf-8")))
    check_import(mila)
    records = [standoff_random_game(s, args.phases) for s in range(args.games)]
    engines = [Engine("MILA", _mila_load, lambda g, p: len(g.get_orders(p)))]
    if pydipcc is not None:
        engines.append(Engine("pydipcc", _pydipcc_loader(pydipcc),
                              lambda g, p: len(g.get_orders().get(p, []))))
    check_export(records, engines)


if __name__ == "__main__":
    main()
