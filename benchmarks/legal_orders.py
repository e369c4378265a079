"""Legal-order generation: standoff's ``legal_orders`` against ``diplomacy``'s and
pydipcc's ``get_all_possible_orders``, on the same positions, in one run.

    python3 benchmarks/legal_orders.py [--games 20] [--pydipcc DIR]

(re-executes itself in ``.bench-venv``, built by ``benchmarks/setup_env.py``,
the only place the AGPL ``diplomacy`` package is installed; pydipcc is
optional, found as ``peers.py`` says.)

Positions are those reached by replaying the recorded games of
``benchmarks/data/random_games.json`` in ``diplomacy`` (pydipcc replays them
alongside); standoff reads each movement and adjustment position from
diplomacy's state, so every engine is timed on the same positions.

Two figures per engine, the first being the one to quote:

* **Met once**, as a bot meets a position: one call on a position no call has
  seen. standoff: ``legal_orders`` on a new ``Position`` object (its
  per-position caches empty; the per-variant tables built long before, as in
  any process that has played a phase); diplomacy: the first
  ``get_all_possible_orders`` after the phase was processed; pydipcc: the
  first call after it advanced to the phase, which generates the orders and
  converts them into a Python dict of order texts. The engines take their
  turns position by position, diplomacy first, then pydipcc and standoff
  swapping places from one position to the next.
* **Warm repeat**: the median of ``--repeat`` further calls on the same
  position. Caches then help: standoff's per-position ones, pydipcc keeps
  the generated orders (only the dict is rebuilt), diplomacy's per-phase memo
  is cleared before each call. Not how a bot meets a position; shown second.

Also printed: the number of orders each offers (they differ by design in a
few places: diplomacy and pydipcc list coast-specific supports and ``VIA``
variants that standoff offers once, see ``standoff.core.legal_orders``). Medians of
per-position µs; ratio = the other engine's time over standoff's (how many
times faster standoff is; under 1x, slower).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import setup_env  # noqa: E402

setup_env.bootstrap(__file__)  # into the benchmark venv (compiled; --pure: pure Python)

import diplomacy  # noqa: E402
from cold import Evictor, add_evict_option  # noqa: E402
from diplomacy.utils.export import to_saved_game_format  # noqa: E402
from engine_states import VARIANT, dip_state, pdc_state, position_from_dip  # noqa: E402
from peers import PydipccReplay, add_pydipcc_option, load_pydipcc  # noqa: E402

import standoff  # noqa: E402
from standoff import Position  # noqa: E402
from standoff.core.legal_orders import legal_orders  # noqa: E402

BENCH = HERE / "data" / "random_games.json"
KINDS = {"M": "movement", "A": "adjustment"}


def timed_once(fn: Callable[[], object]) -> tuple[float, Any]:
    """(µs, result) of one call, the garbage collector held off as in ``timed``."""
    gc.disable()
    t0 = time.perf_counter_ns()
    out = fn()
    t = time.perf_counter_ns() - t0
    gc.enable()
    return t / 1000, out


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median µs of ``repeat`` calls."""
    return statistics.median(timed_once(fn)[0] for _ in range(repeat))


@dataclass
class Engine:
    """One engine's figures over the positions of a phase type."""

    once: list[float] = field(default_factory=list)  # µs, met once
    warm: list[float] = field(default_factory=list)  # µs, median of the warm repeats
    orders: list[int] = field(default_factory=list)  # orders offered per position


def _count_dict(orders: dict[str, list[str]]) -> int:
    """Orders in a loc -> orders dict, each once (pydipcc files a coastal
    fleet's orders under both the coast and the province)."""
    return len({o for os in orders.values() for o in os})


def measure(pos: Position, game: diplomacy.Game, peer: PydipccReplay | None, kind: str,
            rows: dict[str, dict[str, Engine]], repeat: int, peer_first: bool,
            evict: Evictor) -> None:
    """Time every engine on one position: met once (after ``evict``: see ``cold.py``),
    then the warm repeats."""
    v = VARIANT
    row = rows[kind]
    evict()
    t, theirs = timed_once(game.get_all_possible_orders)
    row["diplomacy"].once.append(t)

    def peer_once() -> None:
        if peer is not None:
            evict()
            t, got = timed_once(peer.game.get_all_possible_orders)
            row["pydipcc"].once.append(t)
            row["pydipcc"].orders.append(_count_dict(got))

    def ours() -> object:
        return legal_orders(pos, variant=v)

    if peer_first:
        peer_once()
    evict()
    t, mine = timed_once(ours)
    row["standoff"].once.append(t)
    if not peer_first:
        peer_once()

    def theirs_again() -> object:
        game.clear_cache()
        return game.get_all_possible_orders()

    row["standoff"].warm.append(timed(ours, repeat))
    row["diplomacy"].warm.append(timed(theirs_again, repeat))
    if peer is not None:
        row["pydipcc"].warm.append(timed(peer.game.get_all_possible_orders, repeat))
    row["standoff"].orders.append(sum(len(os) for locs in mine.values() for os in locs.values()))
    row["diplomacy"].orders.append(_count_dict(theirs))


def replay(games: list[dict[str, Any]], pydipcc: ModuleType | None, repeat: int,
           evict: Evictor) -> tuple[dict[str, dict[str, Engine]], int]:
    """Replay the games, measuring each movement and adjustment position; return the
    figures and the number of phases pydipcc had to be rebuilt after."""
    engines = ("standoff", "pydipcc", "diplomacy")
    rows = {k: {e: Engine() for e in engines} for k in KINDS}
    rebuilt = 0
    turn = 0
    for rec in games:
        game = diplomacy.Game(map_name="standard")
        peer = PydipccReplay(pydipcc) if pydipcc is not None else None
        for phase in rec["phases"]:
            kind = phase["name"][-1]
            if kind in KINDS:
                turn += 1
                pos = position_from_dip(game)  # a new Position: no call has seen it
                measure(pos, game, peer, kind, rows, repeat, turn % 2 == 0, evict)
            if peer is not None:
                peer.prepare()
            for power, orders in phase["orders"].items():
                game.set_orders(power, orders)
            game.process()
            if peer is not None:
                peer.play(phase["orders"], game.get_current_phase())
                if dip_state(game).diff(pdc_state(peer.game)):
                    peer.rebuild_from(to_saved_game_format(game))
                    rebuilt += 1
            if game.is_game_done:
                break
    return rows, rebuilt


def _ratio(other: float, ours: float) -> str:
    return f"{other / ours:.2f}x" if other / ours < 10 else f"{other / ours:.1f}x"


def report(rows: dict[str, dict[str, Engine]], peer: bool) -> None:
    engines = ["standoff", *(["pydipcc"] if peer else []), "diplomacy"]
    for title, attr in (("met once (one call on a new position, as a bot meets it)", "once"),
                        ("warm repeat (median of further calls on the same position)", "warm")):
        print(f"\n{title}")
        head = f"  {'phase':<11}{'positions':>10}" + "".join(f"{e + ' µs':>14}" for e in engines)
        head += "".join(f"{'x ' + e:>13}" for e in engines[1:])
        print(head)
        for kind, name in KINDS.items():
            r = rows[kind]
            if not r["standoff"].once:
                continue
            med = {e: statistics.median(getattr(r[e], attr)) for e in engines}
            line = f"  {name:<11}{len(r['standoff'].once):>10}"
            line += "".join(f"{med[e]:>14,.0f}" if med[e] >= 10 else f"{med[e]:>14.1f}"
                            for e in engines)
            line += "".join(f"{_ratio(med[e], med['standoff']):>13}" for e in engines[1:])
            print(line)
    print("\norders offered per position (median)")
    print(f"  {'phase':<11}" + "".join(f"{e:>12}" for e in engines))
    for kind, name in KINDS.items():
        r = rows[kind]
        if r["standoff"].orders:
            print(f"  {name:<11}" + "".join(f"{statistics.median(r[e].orders):>12,.0f}"
                                            for e in engines))
    print("  (x pydipcc, x diplomacy: that engine's µs over standoff's, i.e. how many times "
          "faster standoff is; under 1x it is slower)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pure", action="store_true",
                    help="the pure Python standoff (.bench-venv-pure), not the compiled one")
    add_pydipcc_option(ap)
    add_evict_option(ap)
    args = ap.parse_args()
    if args.evict < 0:
        ap.exit(2, f"error: --evict takes a size in MiB, not {args.evict}\n")
    evict = Evictor(args.evict)
    print(f"legal-order generation, {args.games} games of {BENCH.name}; standoff: "
          f"{standoff.BUILD}")
    print(evict.describe())
    pydipcc = load_pydipcc(args.pydipcc)
    recorded = json.loads(BENCH.read_text())["games"]
    # warm-up: every engine's code and tables loaded, on the file's last game (not
    # among those measured unless --games takes them all), so no position measured
    # has been seen by standoff's process-wide memos (convoy routes, order values)
    replay(recorded[-1:], pydipcc, 1, Evictor(0))
    rows, rebuilt = replay(recorded[: args.games], pydipcc, args.repeat, evict)
    report(rows, pydipcc is not None)
    if rebuilt:
        print(f"  (pydipcc reached another position than diplomacy after {rebuilt} phases and "
              f"was rebuilt from diplomacy's game each time)")


if __name__ == "__main__":
    main()
