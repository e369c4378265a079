"""The search bot (``standoff.bots.search``): registered strongest last, its
settings checked, every order it gives legal in every bundled variant and
phase kind, the same answer for the same record, seed and ``samples``, its
work bounded by ``samples`` and cut by a spent ``budget`` on Standard and the
Twentieth Century (13 powers, the largest board). How fast it is and how much
better it plays are the arena's business (``benchmarks/bots.py``, figures in
``docs/bots.md``), not a test's."""

from __future__ import annotations

import random
import time

import pytest

from standoff import (
    GameRecord,
    PhaseKind,
    adjudicate,
    available_variants,
    load_variant,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    random_orders,
    submit_orders,
)
from standoff.bots import load, names
from standoff.bots.heuristic import HeuristicBot
from standoff.bots.search import OPPONENT_SAMPLES, SearchBot, _Search, position_value


def _played(variant: str, phases: int, seed: int, movement: bool = False) -> GameRecord:
    """A game of random (move-biased) orders, ``phases`` phases in (and on to
    the next movement phase if ``movement``)."""
    record = GameRecord.new(variant)
    rng = random.Random(seed)
    played = 0
    while played < phases or (movement and record.position.phase.kind is not PhaseKind.MOVEMENT):
        if record.outcome is not None:
            break
        played += 1
        picks = random_orders(record.position, rng, 0.7, record.options, record.variant)
        for power, orders in picks.items():
            if orders:
                record = submit_orders(record, power, orders)
        record = process_phase(record)[0]
    return record


def _ask_everyone(record: GameRecord, seed: int = 1, **settings: int | float) -> None:
    """Every power that may order answers; the core accepts every answer."""
    bot = load("search", seed=seed, **settings)
    for power in [*powers_to_order(record), *powers_that_may_order(record)]:
        orders = bot.orders(record, power)
        submit_orders(record, power, orders)  # raises on an illegal or invalid order


def test_registered_strongest_last_with_checked_settings() -> None:
    assert names()[-1] == "search"
    bot = load("search", seed=3, budget=0.5)
    assert isinstance(bot, SearchBot)
    assert bot.name == "search" and bot.description
    assert bot.settings["budget"] == 0.5
    default = load("search")
    assert isinstance(default, SearchBot)
    assert float(default.settings["budget"]) <= 2.0  # the default cap
    with pytest.raises(ValueError, match="samples"):
        load("search", samples=-1)
    with pytest.raises(ValueError, match="budget"):
        load("search", budget=0)
    with pytest.raises(ValueError, match="budget, samples"):
        load("search", depth=2)


@pytest.mark.parametrize("variant", sorted({load_variant(n).name for n in available_variants()}))
def test_every_order_is_legal_in_every_variant_and_phase_kind(variant: str) -> None:
    seen: set[PhaseKind] = set()
    for phases, seed in ((0, 0), (3, 1), (7, 2), (12, 3)):
        record = _played(variant, phases, seed)
        if record.outcome is not None:
            continue
        seen.add(record.position.phase.kind)
        _ask_everyone(record, seed=seed, samples=30)
    assert PhaseKind.MOVEMENT in seen


def test_every_phase_kind_of_a_standard_game() -> None:
    """Retreats and adjustments too (the heuristic's choices, passed through)."""
    record = GameRecord.new("standard")
    rng = random.Random(5)
    kinds: set[PhaseKind] = set()
    while record.position.phase.year < 1904 and record.outcome is None:
        kinds.add(record.position.phase.kind)
        _ask_everyone(record, samples=20)
        picks = random_orders(record.position, rng, 0.8, record.options, record.variant)
        for power, orders in picks.items():
            if orders:
                record = submit_orders(record, power, orders)
        record = process_phase(record)[0]
    assert kinds == set(PhaseKind)


def test_the_same_answer_for_the_same_record_seed_and_samples() -> None:
    record = _played("standard", 4, 9, movement=True)
    assert record.position.phase.kind is PhaseKind.MOVEMENT
    power = "france"
    first = load("search", seed=4, samples=200).orders(record, power)
    bot = load("search", seed=4, samples=200)
    bot.orders(_played("standard", 2, 1), "england")  # no state carried between calls
    assert bot.orders(record, power) == first
    assert load("search", seed=4, samples=200).orders(record, power) == first


def test_the_answer_scores_at_least_the_heuristic_plan_it_starts_from() -> None:
    """Under the search's own objective (the samples of the others' orders it
    adjudicates against), its answer is never worse than the heuristic's plan,
    and that objective is built from :func:`position_value` of adjudicated
    positions."""
    record = _played("standard", 2, 3, movement=True)
    heuristic = HeuristicBot(seed=0)
    for power in ("austria", "england", "russia", "turkey"):
        base = heuristic.orders(record, power)
        search = _Search(record, power, base, random.Random(0), time.perf_counter() + 60)
        search.predict(heuristic)
        start = search.score(search.start)
        answer = search.run(300)
        again = _Search(record, power, answer, random.Random(0), time.perf_counter() + 60)
        again.opponents = search.opponents
        assert again.score(again.start) >= start - 1e-9
        others = {p: o for p, o in search.opponents[0].items()}
        result = adjudicate(record.position, {**others, power: base}, record.options,
                            record.variant)
        assert position_value(record.variant, result.next_position, power) > 0


@pytest.mark.parametrize(("variant", "phases"), [("standard", 6), ("twentieth-century", 4)])
def test_the_work_is_bounded_by_samples(variant: str, phases: int) -> None:
    """``samples`` caps the adjudications of a movement phase (the bot counts
    them in ``adjudications``); a budget too generous to cut anything leaves
    the count to ``samples`` alone, so it is the same on any machine. Too few
    samples to score even the starting plan against every opponent sample
    answer the heuristic's plan unadjudicated."""
    record = _played(variant, phases, 2, movement=True)
    assert record.position.phase.kind is PhaseKind.MOVEMENT
    power = sorted(powers_to_order(record))[0]
    for samples in (40, 120):
        bot = load("search", seed=1, samples=samples, budget=3600.0)
        orders = bot.orders(record, power)
        submit_orders(record, power, orders)
        assert isinstance(bot, SearchBot)
        assert OPPONENT_SAMPLES <= bot.adjudications <= samples
    few = load("search", seed=1, samples=OPPONENT_SAMPLES - 1, budget=3600.0)
    heuristic = load("heuristic", seed=1).orders(record, power)
    assert sorted(few.orders(record, power)) == sorted(heuristic)
    assert isinstance(few, SearchBot) and few.adjudications == 0


def test_a_spent_budget_stops_the_search_with_a_legal_answer() -> None:
    """``budget`` is a safety cut: a search whose budget is gone before it
    starts (a billionth of a second: spent by the heuristic's plan alone, on
    any machine) adjudicates nothing, whatever ``samples`` asks, and answers
    the heuristic's plan, which the core accepts. Outside movement phases the
    search bot passes the heuristic's answer on without adjudicating."""
    record = _played("standard", 6, 2, movement=True)
    power = sorted(powers_to_order(record))[0]
    bot = load("search", seed=1, samples=10**7, budget=1e-9)
    orders = bot.orders(record, power)
    submit_orders(record, power, orders)
    assert isinstance(bot, SearchBot) and bot.adjudications == 0
    assert sorted(orders) == sorted(load("heuristic", seed=1).orders(record, power))
    builds = _played("standard", 2, 1)
    assert builds.position.phase.kind is PhaseKind.ADJUSTMENT
    generous = load("search", seed=1, budget=3600.0)
    for power in powers_to_order(builds):
        generous.orders(builds, power)
        assert isinstance(generous, SearchBot) and generous.adjudications == 0


#: every bundled bot's answers about a few Standard and Twentieth Century positions,
#: printed as JSON (run in a fresh process: its string-hash seed is the point)
_ANSWERS = """
import json, sys
sys.path.insert(0, {tests!r})
from test_bots_search import _played
from standoff import powers_to_order
from standoff.bots import load, names
out = []
for variant, seeds in (("standard", range(12)), ("twentieth-century", range(3))):
    for s in seeds:
        record = _played(variant, 4 + s % 5, s, movement=True)
        for name in names():
            bot = load(name, seed=3, **({{"samples": 150, "budget": 60.0}}
                                        if name == "search" else {{}}))
            out += [bot.orders(record, p) for p in powers_to_order(record)]
print(json.dumps(out))
"""


def test_the_same_answer_in_any_process() -> None:
    """The bots' contract: "the same answer for the same record, seed and settings"
    (any process can ask about any game: the judge's workers, a job taken again).
    The search bot summed its positions' values in a set's order, which follows
    Python's string-hash seed, so near-ties fell another way in another process:
    these positions gave another answer under PYTHONHASHSEED=2 than under 1."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = _ANSWERS.format(tests=str(Path(__file__).parent))
    answers = []
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed}, timeout=600,
                              check=True)
        answers.append(done.stdout)
    assert answers[0] == answers[1]
    assert len(answers[0]) > 1000
