"""The bots' arena: one seat to a hero bot, every other seat to a field bot, the
hero's seat rotated over every power of the variant.

    .venv/bin/python benchmarks/bots.py --hero heuristic --field random --variant standard \\
        --games 40 --max-year 1930 --workers 2
    .venv/bin/python benchmarks/bots.py --hero search --field heuristic --hero-setting budget=0.5
    .venv/bin/python benchmarks/bots.py --hero heuristic --field random --variant all --games 7

Game ``i`` of a variant seats the hero at the ``i``-th power in alphabetical
order (so ``--games`` a multiple of the number of powers gives every seat the
same number of games) and is played from the variant's start with the core's
public API only (``GameRecord.new``, ``submit_orders``, ``process_phase``)
until its victory rule ends it or the year limit passes: the last year played
is ``--max-year``, or the variant's first year plus ``--years`` - 1 (default
30 years: Standard to 1930). A game the limit ends, or that ends without a
winner, is a draw.

Every power that must or may order in a phase (a canal owner with nothing else
to do may permit) is asked for its orders from the same record, before any of
that phase's orders are submitted: a bot never sees another power's orders of
the phase. Each ``Bot.orders`` call is one order set and is timed on its own
(``time.perf_counter``), the hero's first (the bundled bots share a position's
legal orders between the powers asked about it: the hero's time includes
working them out, the field's then mostly does not); an order set the core
refuses is not submitted (the power is in civil disorder that phase) and is
counted under "refused": the contract says it never happens. Bots are loaded
per game with seeds derived from (``--seed``, game, role), so a run is
reproducible; with ``--workers`` W > 1 the games are spread over W processes
(``ProcessPoolExecutor``), which changes no game, only the wall time (and, on
a loaded machine, the times per order set: they are measured inside the
workers).

Printed per variant, the hero's row first, then the field's, side by side:
games, solo wins, draws, mean final supply centres per seat, mean
sum-of-squares score per seat (a power's centres squared over the sum of every
power's squares; a solo winner scores 1 and the others 0; where no power holds
a centre at the end, as in Sahara once the desert has taken them, units count
instead of centres), that score over the
fair share 1/powers, and the time per order set (median, 95th percentile,
mean), then the games' mean length and the variant's wall time. ``--json FILE``
also writes every figure and every game.

:func:`play_game` and :func:`summarise` are importable (``tests/test_bots_arena.py``);
``loader`` is any function taking ``(name, seed=..., **settings)`` and returning
an object with ``orders(record, power)``, :func:`standoff.bots.load` by default.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import standoff
from standoff import (
    GameRecord,
    StandoffError,
    available_variants,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    submit_orders,
)

Setting = str | int | float | bool


class Bot(Protocol):
    """What the arena needs of a bot (``../shared/spec/bots.md``)."""

    def orders(self, record: GameRecord, power: str) -> list[str]: ...


Loader = Callable[..., Bot]


def load_bot(name: str, *, seed: int | None = None, **settings: Setting) -> Bot:
    """:func:`standoff.bots.load`, imported only when a game needs it (module level,
    so worker processes can be handed it)."""
    from standoff import bots

    bot: Bot = bots.load(name, seed=seed, **settings)
    return bot


@dataclass(frozen=True)
class Entrant:
    """A bot by name, with the settings it is loaded with."""

    name: str
    settings: Mapping[str, Setting] = field(default_factory=dict)

    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.settings.items()))
        return f"{self.name}({extra})" if extra else self.name


@dataclass
class GameResult:
    """One game's outcome; seconds are per ``Bot.orders`` call."""

    variant: str
    index: int
    hero_power: str
    powers: int
    winner: str | None
    last_phase: str
    years: int
    phases: int
    hero_centres: int
    field_centres: list[int]
    hero_score: float
    field_scores: list[float]
    hero_seconds: list[float]
    field_seconds: list[float]
    refused: dict[str, int]
    wall_seconds: float


def canonical_variants() -> list[str]:
    """Every bundled variant once (``available_variants`` lists aliases too)."""
    seen: dict[str, None] = {}
    for name in available_variants():
        seen.setdefault(GameRecord.new(name).variant.name, None)
    return sorted(seen)


def bot_seed(seed: int, variant: str, index: int, role: str) -> int:
    """A 32-bit seed for one bot of one game (``random.Random`` hashes a string
    seed with SHA-512: the same on every machine and process)."""
    return random.Random(f"{seed}/{variant}/{index}/{role}").getrandbits(32)


def scores(centres: Mapping[str, int], winner: str | None) -> dict[str, float]:
    """Sum-of-squares scores: a power's centres squared over the sum of all the
    squares; a solo winner 1 and everyone else 0."""
    if winner is not None:
        return {p: 1.0 if p == winner else 0.0 for p in centres}
    total = sum(c * c for c in centres.values())
    return {p: (c * c / total if total else 0.0) for p, c in centres.items()}


def strengths(record: GameRecord, centres: Mapping[str, int]) -> Mapping[str, int]:
    """What the score counts: the centres, or, where no power holds one at the end
    (Sahara, whose desert takes them all by its last year), the units."""
    if any(centres.values()):
        return centres
    units = dict.fromkeys(centres, 0)
    for unit in record.position.units:
        units[unit.power] = units.get(unit.power, 0) + 1
    return units


def play_game(variant: str, index: int, hero: Entrant, rival: Entrant, seed: int,
              years: int | None, max_year: int | None,
              loader: Loader = load_bot) -> GameResult:
    """Game ``index``: the hero at the ``index``-th power (alphabetical), the
    rival bot at every other seat, to the variant's victory or the year limit."""
    start = time.perf_counter()
    record = GameRecord.new(variant)
    powers = sorted(record.variant.powers)
    hero_power = powers[index % len(powers)]
    first_year = record.position.phase.year
    last_year = max_year if max_year is not None else first_year + (years or 30) - 1
    hero_bot = loader(hero.name, seed=bot_seed(seed, variant, index, "hero"), **hero.settings)
    field_bot = loader(rival.name, seed=bot_seed(seed, variant, index, "field"),
                       **rival.settings)
    timings: dict[bool, list[float]] = {True: [], False: []}
    refused: dict[str, int] = {}
    phases = 0
    while record.outcome is None and record.position.phase.year <= last_year:
        asked = record  # every power answers the same record: none sees another's orders
        given: list[tuple[str, list[str]]] = []
        # the hero first: bots may share a position's legal orders between the powers
        # asked about it, so the hero's time includes working them out, as if alone
        asking = [*powers_to_order(asked), *powers_that_may_order(asked)]
        for power in sorted(asking, key=lambda p: p != hero_power):
            is_hero = power == hero_power
            bot = hero_bot if is_hero else field_bot
            t0 = time.perf_counter()
            orders = bot.orders(asked, power)
            timings[is_hero].append(time.perf_counter() - t0)
            given.append((power, orders))
        for power, orders in given:
            if not orders:
                continue
            try:
                record = submit_orders(record, power, orders)
            except StandoffError as exc:
                role = "hero" if power == hero_power else "field"
                refused[role] = refused.get(role, 0) + 1
                print(f"  refused ({variant} game {index}, {record.phase_name}, {power}, "
                      f"{role}): {exc}", file=sys.stderr)
        record = process_phase(record)[0]
        phases += 1
    counts = record.position.centre_counts()
    centres = {p: counts.get(p, 0) for p in powers}
    winner = record.winner
    score = scores(strengths(record, centres), winner)
    others = [p for p in powers if p != hero_power]
    return GameResult(
        variant=record.variant.name, index=index, hero_power=hero_power, powers=len(powers),
        winner=winner, last_phase=record.phase_name,
        years=record.position.phase.year - first_year, phases=phases,
        hero_centres=centres[hero_power], field_centres=[centres[p] for p in others],
        hero_score=score[hero_power], field_scores=[score[p] for p in others],
        hero_seconds=timings[True], field_seconds=timings[False], refused=refused,
        wall_seconds=time.perf_counter() - start)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def summarise(games: Sequence[GameResult]) -> dict[str, Any]:
    """A variant's figures: per role (hero, field), per seat."""
    n = games[0].powers
    field_seats = len(games) * (n - 1)

    def role(wins: int, centres: Sequence[int], sos: Sequence[float],
             seconds: Sequence[float]) -> dict[str, Any]:
        mean_sos = statistics.fmean(sos) if sos else 0.0
        return {"seats": len(centres), "solo_wins": wins,
                "mean_centres": statistics.fmean(centres) if centres else 0.0,
                "mean_score": mean_sos, "score_over_fair": mean_sos * n,
                "order_sets": len(seconds),
                "ms_median": 1000 * statistics.median(seconds) if seconds else 0.0,
                "ms_p95": 1000 * percentile(seconds, 95),
                "ms_mean": 1000 * statistics.fmean(seconds) if seconds else 0.0,
                "ms_max": 1000 * max(seconds, default=0.0)}

    hero_wins = sum(g.winner == g.hero_power for g in games)
    solos = sum(g.winner is not None for g in games)
    hero = role(hero_wins, [g.hero_centres for g in games], [g.hero_score for g in games],
                [s for g in games for s in g.hero_seconds])
    rest = role(solos - hero_wins, [c for g in games for c in g.field_centres],
                [s for g in games for s in g.field_scores],
                [s for g in games for s in g.field_seconds])
    assert rest["seats"] == field_seats
    by_seat: dict[str, list[int]] = {}
    for g in games:
        by_seat.setdefault(g.hero_power, [0, 0])
        by_seat[g.hero_power][0] += 1
        by_seat[g.hero_power][1] += g.winner == g.hero_power
    return {"variant": games[0].variant, "powers": n, "games": len(games),
            "draws": len(games) - solos, "fair_share": 1 / n, "hero": hero, "field": rest,
            "mean_years": statistics.fmean(g.years for g in games),
            "mean_phases": statistics.fmean(g.phases for g in games),
            "refused": {r: sum(g.refused.get(r, 0) for g in games) for r in ("hero", "field")},
            "hero_games_and_wins_by_seat": by_seat}


COLUMNS = (("bot", "<", 22), ("seats", ">", 5), ("solo wins", ">", 10), ("draws", ">", 6),
           ("centres", ">", 7), ("sos score", ">", 9), ("x fair", ">", 6),
           ("ms median", ">", 9), ("ms p95", ">", 8), ("ms worst", ">", 8),
           ("ms mean", ">", 8), ("order sets", ">", 10))


def table(summary: Mapping[str, Any], hero: Entrant, rival: Entrant, wall: float) -> str:
    """The variant's two rows (hero first), plain and aligned."""
    s = summary
    lines = [f"{s['variant']}: {s['games']} games, {s['powers']} powers (fair share "
             f"{s['fair_share']:.3f}), mean {s['mean_years']:.1f} years / "
             f"{s['mean_phases']:.0f} phases a game, {wall:.1f} s wall"]
    lines.append("  " + " ".join(f"{name:{align}{width}}" for name, align, width in COLUMNS))
    for label, r, draws in ((f"hero {hero.label()}", s["hero"], f"{s['draws']}"),
                            (f"field {rival.label()}", s["field"], "")):
        cells = (label, r["seats"], f"{r['solo_wins']} ({100 * r['solo_wins'] / s['games']:.0f}%)",
                 draws, f"{r['mean_centres']:.1f}", f"{r['mean_score']:.3f}",
                 f"{r['score_over_fair']:.2f}", f"{r['ms_median']:.1f}", f"{r['ms_p95']:.1f}",
                 f"{r['ms_max']:.1f}", f"{r['ms_mean']:.1f}", r["order_sets"])
        lines.append("  " + " ".join(f"{c!s:{align}{width}}"
                                     for c, (_, align, width) in zip(cells, COLUMNS, strict=True)))
    if any(s["refused"].values()):
        lines.append(f"  REFUSED order sets (illegal): {s['refused']}")
    return "\n".join(lines)


def parse_setting(text: str) -> tuple[str, Setting]:
    """``k=v``: v as an int, a float, true/false, or else the text."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected k=v, got {text!r}")
    value: Setting
    if raw.lower() in ("true", "false"):
        return key, raw.lower() == "true"
    for kind in (int, float):
        try:
            value = kind(raw)
            return key, value
        except ValueError:
            pass
    return key, raw


Task = tuple[str, int, Entrant, Entrant, int, int | None, int | None]


def _play(task: Task) -> GameResult:
    return play_game(*task)


def run(tasks: Sequence[Task], workers: int) -> Iterator[GameResult]:
    """The games, in this process (``workers`` <= 1) or over a process pool,
    yielded in the order given."""
    if workers <= 1:
        yield from map(_play, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_play, tasks)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hero", default="heuristic", help="the bot in the one seat")
    ap.add_argument("--field", default="random", help="the bot in every other seat")
    ap.add_argument("--variant", default="standard",
                    help="a bundled variant's name, or 'all' (default standard)")
    ap.add_argument("--games", type=int, default=0,
                    help="games per variant (default: one per power)")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--max-year", type=int, default=None,
                       help="the last year played (every variant given)")
    limit.add_argument("--years", type=int, default=30,
                       help="years played from each variant's start (default 30)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1,
                    help="processes playing games (default 1: this process)")
    ap.add_argument("--hero-setting", type=parse_setting, action="append", default=[],
                    metavar="K=V", help="a setting of the hero bot, e.g. budget=0.5")
    ap.add_argument("--field-setting", type=parse_setting, action="append", default=[],
                    metavar="K=V", help="a setting of the field bot")
    ap.add_argument("--json", metavar="FILE", help="also write the figures and games as JSON")
    args = ap.parse_args(argv)
    variants = canonical_variants() if args.variant == "all" else \
        [GameRecord.new(args.variant).variant.name]
    hero = Entrant(args.hero, dict(args.hero_setting))
    rival = Entrant(args.field, dict(args.field_setting))
    limit_text = f"to {args.max_year}" if args.max_year is not None else \
        f"{args.years} years from each variant's start"
    print(f"standoff {standoff.__version__}, {standoff.BUILD}, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, {max(args.workers, 1)} "
          f"process(es); hero {hero.label()} in one seat, field {rival.label()}; "
          f"{limit_text}; seed {args.seed}", flush=True)
    report: dict[str, Any] = {"build": standoff.BUILD, "hero": asdict(hero),
                              "field": asdict(rival), "seed": args.seed,
                              "max_year": args.max_year,
                              "years": None if args.max_year is not None else args.years,
                              "workers": args.workers, "argv": list(sys.argv[1:]),
                              "variants": []}
    total = time.perf_counter()
    for variant in variants:
        powers = len(GameRecord.new(variant).variant.powers)
        count = args.games or powers
        tasks: list[Task] = [(variant, i, hero, rival, args.seed,
                              None if args.max_year is not None else args.years, args.max_year)
                             for i in range(count)]
        start = time.perf_counter()
        games: list[GameResult] = []
        for g in run(tasks, args.workers):
            games.append(g)
            print(f"  {variant} {len(games)}/{count}: hero {g.hero_power}, "
                  f"{'won by ' + g.winner if g.winner else 'draw'} at {g.last_phase}, "
                  f"hero {g.hero_centres} centres, {g.wall_seconds:.1f} s",
                  file=sys.stderr, flush=True)
        wall = time.perf_counter() - start
        summary = summarise(games)
        summary["wall_seconds"] = wall
        print(table(summary, hero, rival, wall), flush=True)
        report["variants"].append({**summary, "games_played": [asdict(g) for g in games]})
    print(f"total {time.perf_counter() - total:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
