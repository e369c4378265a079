"""Random self-play in the peer engines, pydipcc and ``diplomacy`` (MILA), for ``selfplay.py``.

standoff's self-play figure (``selfplay.py``, :func:`standoff_selfplay` there)
means little alone: the question a researcher asks is how many phases per
second each engine gives on the same machine. These are the same loops in
the peers, written as a bot writes them with each engine's own API, and
timed whole: legal orders generated, one random order picked per orderable
location, orders set as text, the phase processed. Every game is Standard
from the start and runs until the engine ends it or the end of ``max_year``
(the phases of that year are played; the same cap as standoff's), in this
process (``workers=0``) or over ``workers`` processes (spawned, as standoff's
are; times include starting them, as standoff's do).

A pick is uniform over the location's possible orders, or, with
``move_bias`` p, uniform over its board-changing ones (moves, retreats,
builds, removals) with probability p, as ``standoff.random_orders`` picks. In
an adjustment phase a power orders only as many builds or removals as it is
due, as standoff's random player does (the engines ignore extra ones, but
pydipcc logs a warning for each).

Each returns ``(phases, wall seconds, processor seconds)``, the shape
``selfplay.py`` gives standoff's runs in: phases processed (movement, retreat
and adjustment alike), wall-clock time, and the processor time the games
took summed over the processes (what a core gives when it is not shared with
other work, the steadier figure on a busy machine). Game i draws from its own
generator seeded with (``seed``, i), so a run is repeatable; the peers'
games are not standoff's (their engines and generators differ), only alike
in kind and length.
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any


def _active(choices: Sequence[str], kind: str) -> list[str]:
    """The board-changing orders among ``choices``, as MILA notation writes them."""
    if kind == "M":
        return [o for o in choices if " - " in o]
    if kind == "R":
        return [o for o in choices if " R " in o]
    return [o for o in choices if " B" in o or " D" in o]


def _pick(rng: random.Random, choices: Sequence[str], kind: str, move_bias: float) -> str:
    if move_bias:
        active = _active(choices, kind)
        if active and rng.random() < move_bias:
            return rng.choice(active)
    return rng.choice(choices)


def _game_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"{seed}:{index}")


def pydipcc_game(index: int, seed: int, max_year: int, move_bias: float
                 ) -> tuple[int, float]:
    """Play one random pydipcc game; return (phases processed, processor seconds)."""
    import pydipcc  # imported already, untimed: see _pydipcc_worker

    cpu = time.process_time()
    rng = _game_rng(seed, index)
    game = pydipcc.Game()
    phases = 0
    while not game.is_game_done and game.current_year <= max_year:
        kind = game.current_short_phase[-1]
        possible = game.get_all_possible_orders()
        due = game.get_state()["builds"] if kind == "A" else None
        for power, locs in game.get_orderable_locations().items():
            picks = [_pick(rng, possible[loc], kind, move_bias) for loc in locs if possible[loc]]
            if due is not None:
                picks = picks[:abs(due[power]["count"])]
            if picks:
                game.set_orders(power, picks)
        game.process()
        phases += 1
    return phases, time.process_time() - cpu


def mila_game(index: int, seed: int, max_year: int, move_bias: float) -> tuple[int, float]:
    """Play one random ``diplomacy`` game; return (phases processed, processor seconds)."""
    from diplomacy import Game  # AGPL: benchmark environment only

    cpu = time.process_time()
    rng = _game_rng(seed, index)
    game = Game()
    phases = 0
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
        kind = game.get_current_phase()[-1]
        possible = game.get_all_possible_orders()
        for power in game.powers.values():
            picks = [_pick(rng, possible[loc], kind, move_bias)
                     for loc in game.get_orderable_locations(power.name) if possible[loc]]
            if kind == "A":
                picks = picks[:abs(len(power.centers) - len(power.units))]
            if picks:
                game.set_orders(power.name, picks)
        game.process()
        phases += 1
    return phases, time.process_time() - cpu


def _pydipcc_worker(folder: str) -> None:
    """Find pydipcc where the parent process did, and load it once per process."""
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import pydipcc  # noqa: F401


Run = tuple[int, float, float]  # (phases, wall seconds, processor seconds)


def _play(play: Callable[[int, int, int, float], tuple[int, float]], games: int,
          workers: int, seed: int, max_year: int, move_bias: float,
          initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
          ) -> Run:
    start = time.perf_counter()
    if workers == 0:
        done = [play(i, seed, max_year, move_bias) for i in range(games)]
    else:
        # spawned, as standoff's self-play starts its workers: the same start-up cost
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers, spawn, initializer, initargs) as pool:
            done = list(pool.map(play, range(games), [seed] * games, [max_year] * games,
                                 [move_bias] * games,
                                 chunksize=max(1, games // (4 * workers))))
    wall = time.perf_counter() - start
    return sum(p for p, _ in done), wall, sum(c for _, c in done)


def pydipcc_selfplay(games: int, workers: int, folder: Path, seed: int = 1,
                     max_year: int = 1920, move_bias: float = 0.0) -> Run:
    """(phases, wall s, processor s) of ``games`` random pydipcc games in ``workers`` processes
    (0: in this process); ``folder`` holds ``pydipcc*.so`` (``peers.load_pydipcc``)."""
    _pydipcc_worker(str(folder))
    return _play(pydipcc_game, games, workers, seed, max_year, move_bias,
                 _pydipcc_worker, (str(folder),))


def _mila_worker() -> None:
    import diplomacy  # noqa: F401


def mila_selfplay(games: int, workers: int, seed: int = 1, max_year: int = 1920,
                  move_bias: float = 0.0) -> Run:
    """(phases, wall s, processor s) of ``games`` random ``diplomacy`` games in ``workers``
    processes (0: in this process)."""
    _mila_worker()
    return _play(mila_game, games, workers, seed, max_year, move_bias, _mila_worker)


def main() -> None:
    """Run the peers alone: ``python3 benchmarks/peer_selfplay.py [--games N] [--pydipcc DIR]``
    (in ``.bench-venv``, where ``diplomacy`` is installed; ``selfplay.py`` puts them
    beside standoff)."""
    import argparse

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import setup_env

    setup_env.bootstrap(__file__)
    from peers import add_pydipcc_option, load_pydipcc

    ap = argparse.ArgumentParser(description="random self-play in pydipcc and diplomacy")
    ap.add_argument("--games", type=int, default=100, help="pydipcc games (default 100)")
    ap.add_argument("--mila-games", type=int, default=10, help="diplomacy games (default 10)")
    ap.add_argument("--workers", type=int, nargs="+", default=[0, 2],
                    help="worker processes, one row each (0: in this process; default 0 2)")
    ap.add_argument("--max-year", type=int, default=1920)
    ap.add_argument("--move-bias", type=float, default=0.7)
    ap.add_argument("--seed", type=int, default=1)
    add_pydipcc_option(ap)
    args = ap.parse_args()
    module = load_pydipcc(args.pydipcc)
    print(f"random self-play to {args.max_year}, move bias {args.move_bias}; wall clock, "
          f"worker start included")
    for w in args.workers:
        where = "in this process" if w == 0 else f"{w} worker processes"
        if module is not None:
            phases, secs, cpu = pydipcc_selfplay(args.games, w,
                                                 Path(str(module.__file__)).parent,
                                                 args.seed, args.max_year, args.move_bias)
            print(f"  pydipcc    {where:<20} {args.games:>5} games {phases:>8,} phases "
                  f"{phases / secs:>8,.0f} phases/s {phases / cpu:>8,.0f} per CPU-s")
        phases, secs, cpu = mila_selfplay(args.mila_games, w, args.seed, args.max_year,
                                          args.move_bias)
        print(f"  diplomacy  {where:<20} {args.mila_games:>5} games {phases:>8,} phases "
              f"{phases / secs:>8,.0f} phases/s {phases / cpu:>8,.0f} per CPU-s")


if __name__ == "__main__":
    main()
