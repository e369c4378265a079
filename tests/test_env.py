"""The PettingZoo and Gymnasium environments (``standoff.env``).

PettingZoo's and Gymnasium's own checkers on every bundled variant, the masks
against ``legal_orders`` order for order, decoding, seeding, rewards against
centre counts, eliminations, a solo win and a truncation.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test

from standoff import (
    GameRecord,
    Hold,
    Move,
    Order,
    PhaseKind,
    Position,
    SupportMove,
    UnitType,
    VariantError,
    available_variants,
    legal_orders,
    load_variant,
    random_orders,
)
from standoff.env import (
    DiplomacyEnv,
    DiplomacyParallelEnv,
    RewardScheme,
    convoy_routes,
)

#: one name per bundled variant (aliases dropped)
VARIANTS = sorted({load_variant(name).name for name in available_variants()})
#: one horizon for every test, so each variant's action table is built once
YEARS = 3


def _random_actions(env: DiplomacyParallelEnv, rng: np.random.Generator
                    ) -> dict[str, np.ndarray]:
    return {a: env.table.random_action(env.flat_mask(a), rng) for a in env.agents}


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_parallel_api_test(variant: str) -> None:
    """PettingZoo's own test, then every observation is in its space (which that
    test does not check) through a few phases."""
    env = DiplomacyParallelEnv(variant, max_years=YEARS)
    parallel_api_test(env, num_cycles=12)
    observations, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(4):
        for agent, obs in observations.items():
            assert env.observation_space(agent).contains(obs), (variant, agent)
        observations, *_ = env.step(_random_actions(env, rng))


def test_an_action_means_the_same_order_in_every_process() -> None:
    """The vocabularies do not depend on the order Python iterates sets in
    (string hashing is randomised per process): a policy trained in one process
    gives the same orders in another."""
    code = ("import hashlib; from standoff import load_variant; "
            "from standoff.env import action_table; "
            "t = action_table(load_variant('standard'), 1910); "
            "print(hashlib.sha256(repr([list(map(str, v)) for v in t.vocabulary])"
            ".encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}
                              ).stdout for seed in ("1", "2")}
    assert len(digests) == 1


def test_pettingzoo_parallel_seed_test() -> None:
    parallel_seed_test(lambda: DiplomacyParallelEnv("standard", max_years=YEARS))


def test_gymnasium_check_env() -> None:
    check_env(DiplomacyEnv("standard", "france", max_years=YEARS), skip_render_check=True)


def test_importing_without_the_extra_names_it() -> None:
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import standoff.env\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "pip install 'standoff[env]'" in out


def _busy_actions(env: DiplomacyParallelEnv, rng: np.random.Generator
                  ) -> dict[str, np.ndarray]:
    """Random orders that mostly move (``random_orders`` with a move bias, encoded
    as actions), so that units get dislodged; random actions to adjust. A canal's
    slot takes one order: its unit's (``random_orders`` may give PERMITs beside it)."""
    position = env.record.position
    if position.phase.kind is PhaseKind.ADJUSTMENT:
        return _random_actions(env, rng)
    orders = random_orders(position, random.Random(int(rng.integers(1 << 30))),
                           move_bias=0.8, variant=env.variant)
    return {a: env.table.encode({o.location: o for o in orders.get(a, [])
                                 if o.kind != "permit"})
            for a in env.agents}


def _unmasked(env: DiplomacyParallelEnv, agent: str, kind: PhaseKind
              ) -> dict[str, set[Order]]:
    """Location -> the orders ``agent``'s unmasked actions decode to ("no order",
    unmasked in every slot, left out)."""
    table = env.table
    out: dict[str, set[Order]] = {}
    for pos in np.flatnonzero(env.flat_mask(agent)):
        slot = int(np.searchsorted(table.offsets, pos, side="right")) - 1
        order = table.decode[kind][pos]
        if pos == table.offsets[slot]:
            assert order is None
            continue
        assert order is not None, (agent, table.slots[slot], pos)
        # a high sea's extra slots (a second fleet's) offer its orders again
        out.setdefault(table.slots[slot].split("#")[0], set()).add(order)
    return out


@pytest.mark.parametrize(("variant", "years"), [
    ("standard", 10), ("1939-iv", 10), ("sahara", 12), ("twentieth-century", 5)])
def test_masks_are_exactly_the_legal_orders(variant: str, years: int) -> None:
    """Every unmasked action decodes to a legal order of its slot, and every legal
    order has an unmasked action: for every agent, through random games until
    they have had phases of every kind (Sahara's map changes among them)."""
    env = DiplomacyParallelEnv(variant, max_years=years)
    kinds = set()
    for seed in range(8):
        if len(kinds) == 3:
            break
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            position = env.record.position
            kind = position.phase.kind
            kinds.add(kind)
            legal = legal_orders(position, variant=env.variant)
            for agent in env.agents:
                assert _unmasked(env, agent, kind) == {
                    loc: set(orders) for loc, orders in legal.get(agent, {}).items()}
            env.step(_busy_actions(env, rng))
    assert kinds == {PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT}


def test_convoy_routes_are_the_boards_own() -> None:
    """The routes enumerated for the action space are exactly those the rules
    accept (``Board.convoy_route_seas`` with every sea occupied)."""
    board = load_variant("standard").board
    routes = convoy_routes(board)
    assert routes.complete
    seas = frozenset(p for p, prov in board.provinces.items() if prov.convoys)
    coasts = [p for p in board.provinces if board.is_coastal(p)]
    for src in coasts:
        for dst in coasts:
            if src != dst:
                assert routes.seas.get((src, dst), frozenset()) == \
                    board.convoy_route_seas(src, dst, seas)


def test_a_long_route_map_is_cut_and_says_so() -> None:
    board = load_variant("twentieth-century").board
    short = convoy_routes(board, max_fleets=2)
    longer = convoy_routes(board, max_fleets=3)
    assert short.max_fleets == 2 and not short.complete
    assert set(short.seas) < set(longer.seas)
    for (src, dst), seas in list(short.seas.items())[::50]:
        assert board.convoy_route_seas(src, dst, seas) == seas  # real routes, and all of them


def test_the_actions_decode_to_the_orders_given() -> None:
    """An encoded set of orders is what the game receives; a masked-out choice
    gives no order, so the unit holds."""
    env = DiplomacyParallelEnv("standard", max_years=YEARS)
    env.reset()
    bur = {"par": Move(UnitType.ARMY, "par", "bur"),
           "mar": SupportMove(UnitType.ARMY, "mar", UnitType.ARMY, "par", "bur")}
    action = env.table.encode(bur)
    off_board = env.table.encode({"mun": Hold(UnitType.ARMY, "mun")})
    off_board[env.table.slot_index["kie"]] = 1  # an entry the mask refuses
    env.step({"france": action, "germany": off_board})
    given = env.record.history[-1].orders
    assert set(given["france"]) == set(bur.values())
    assert given["germany"] == (Hold(UnitType.ARMY, "mun"),)
    assert env.record.position.unit_at("bur") is not None


def test_each_fleet_on_a_high_sea_has_a_slot() -> None:
    """1939 IV: two British fleets on the high sea AFH get two slots with the same
    orders, and each goes its own way."""
    position = Position.from_text(
        "1939-iv | S1939M | england: F AFH, F AFH, A LON; france: A PAR | "
        "england: LON; france: PAR | - | -")
    env = DiplomacyParallelEnv("1939-iv", max_years=YEARS)
    observations, _ = env.reset(options={"position": position})
    table = env.table
    mask = observations["england"]["action_mask"]
    first, second, third = (table.slot_index[s] for s in ("afh", "afh#2", "afh#3"))
    assert mask[first].sum() > 1 and (mask[first] == mask[second]).all()
    assert mask[third].sum() == 1  # "no order" only: there is no third fleet
    assert observations["france"]["action_mask"][second].sum() == 1
    action = table.encode({"afh": Move(UnitType.FLEET, "afh", "red"),
                           "afh#2": Move(UnitType.FLEET, "afh", "sao")})
    env.step({"england": action})
    assert {u.location for u in env.record.position.units_of("england")} == \
        {"red", "sao", "lon"}


def test_bad_actions_are_one_clear_error() -> None:
    env = DiplomacyParallelEnv("standard", max_years=YEARS)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step({"france": np.zeros(3, dtype=np.int64)})
    with pytest.raises(ValueError, match="outside its action space"):
        env.step({"france": env.table.nvec})
    with pytest.raises(ValueError, match="render_mode"):
        DiplomacyParallelEnv("standard", render_mode="human")


def _rollout(seed: int) -> tuple[list[float], str]:
    env = DiplomacyEnv("standard", "england", max_years=YEARS)
    obs, _ = env.reset(seed=seed)
    rewards = []
    done = False
    while not done:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    return rewards, env.game.record.position.to_text()


def test_a_seeded_rollout_replays_exactly() -> None:
    first = _rollout(7)
    assert first == _rollout(7)
    assert first[1] != _rollout(8)[1]


def test_the_opponents_play_the_policy_given() -> None:
    """Opponents that send "no order" everywhere leave only the learner's orders."""
    env = DiplomacyEnv("standard", "italy", max_years=YEARS,
                       opponents=lambda agent, obs: np.zeros(len(obs["action_mask"]), int))
    obs, _ = env.reset(seed=2)
    env.step(env.action_space.sample(mask=obs["action_mask"]))
    assert set(env.game.record.history[-1].orders) == {"italy"}
    with pytest.raises(VariantError, match="unknown power 'atlantis'"):
        DiplomacyEnv("standard", "atlantis")
    lonely = Position.from_text("standard | S1901M | russia: A MOS | russia: MOS | - | -")
    with pytest.raises(ValueError, match="italy has no units and no centres"):
        env.reset(options={"position": lonely})


class SpyBot:
    """A deterministic bot that holds every unit in a movement phase (nothing
    otherwise) and notes every question it is asked."""

    name = "spy"
    description = "Holds everything, and remembers who asked."

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, int]] = []

    def orders(self, record: GameRecord, power: str) -> list[str]:
        self.asked.append((record.phase_name, power, id(record)))
        if record.position.phase.kind is not PhaseKind.MOVEMENT:
            return []
        return [f"{u} H" for u in record.position.units_of(power)]


def test_bot_opponents_give_the_orders() -> None:
    """With a bot as opponents, each other power is asked once a phase about the
    same record, the learner never, and the orders played are the bot's."""
    spy = SpyBot()
    env = DiplomacyEnv("standard", "france", max_years=YEARS, opponents=spy)
    obs, _ = env.reset(seed=1)
    paris = env.game.table.slot_index["par"]
    action = np.zeros(len(obs["action_mask"]), int)
    action[paris] = 1 + env.game.table.vocabulary[paris].index(
        Move(UnitType.ARMY, "par", "bur"))
    env.step(action)
    others = sorted(p for p in env.game.possible_agents if p != "france")
    assert sorted(p for _, p, _ in spy.asked) == others
    assert len({r for _, _, r in spy.asked}) == 1 and {ph for ph, _, _ in spy.asked} == {"S1901M"}
    phase = env.game.record.history[-1]
    assert [str(o) for o in phase.orders["france"]] == ["A PAR - BUR"]
    for power in others:
        units = phase.position.units_of(power)
        assert sorted(str(o) for o in phase.orders[power]) == sorted(f"{u} H" for u in units)
    assert env.game.record.position.unit_at("bur") is not None and env.refused == []


def test_a_bundled_bot_by_name_is_seeded_by_reset() -> None:
    def rollout(seed: int) -> GameRecord:
        env = DiplomacyEnv("standard", "england", max_years=YEARS, opponents="random")
        obs, _ = env.reset(seed=seed)
        for _ in range(3):
            obs, *_ = env.step(np.zeros(len(obs["action_mask"]), int))
        return env.game.record

    first = rollout(4)
    assert first == rollout(4) and first != rollout(5)
    assert set(first.history[0].orders) == set(first.variant.powers) - {"england"}
    with pytest.raises(ValueError, match=r"unknown bot 'nope' \(bots: random, heuristic"):
        DiplomacyEnv("standard", "england", opponents="nope")
    with pytest.raises(TypeError, match="opponents must be a policy"):
        DiplomacyEnv("standard", "england", opponents=5)  # type: ignore[arg-type]


def test_rewards_add_up_to_the_centre_changes() -> None:
    env = DiplomacyParallelEnv("standard", max_years=YEARS,
                               rewards=RewardScheme(centre=1.0, win=0.0))
    env.reset(seed=3)
    start = env.record.position.centre_counts()
    total = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    while env.agents:
        _, rewards, _, truncated, _ = env.step(_random_actions(env, rng))
        for agent, r in rewards.items():
            total[agent] += r
    assert all(truncated.values())
    end = env.record.position.centre_counts()
    assert total == {a: float(end.get(a, 0) - start.get(a, 0)) for a in env.possible_agents}
    assert env.record.position.phase.year == 1901 + YEARS


def test_an_eliminated_power_leaves_the_agents() -> None:
    """Austria's last army is dislodged: it stays while the unit awaits its retreat,
    and leaves when it disbands, with no centre and no unit left."""
    position = Position.from_text(
        "standard | S1901M | austria: A BUD; russia: A GAL, A RUM | "
        "russia: MOS SEV STP WAR | - | -")
    env = DiplomacyParallelEnv("standard", max_years=YEARS)
    _, infos = env.reset(options={"position": position})
    assert env.agents == ["austria", "russia"]
    assert infos["austria"]["phase"] == "S1901M"
    attack = env.table.encode({
        "gal": Move(UnitType.ARMY, "gal", "bud"),
        "rum": SupportMove(UnitType.ARMY, "rum", UnitType.ARMY, "gal", "bud")})
    _, _, terminated, _, _ = env.step({"russia": attack})
    assert env.record.position.phase.kind is PhaseKind.RETREAT
    assert env.agents == ["austria", "russia"] and not any(terminated.values())
    _, _, terminated, _, _ = env.step({})  # Austria sends nothing: its army disbands
    assert terminated == {"austria": True, "russia": False}
    assert env.agents == ["russia"]


def test_a_solo_win_ends_the_game_with_the_outcome_rewards() -> None:
    """France holds 17 centres and takes Munich in the Fall: 18, the game is won."""
    standard = load_variant("standard")
    others = {"mun", "ber", "kie", "war", "mos", "sev", "stp", "ank", "con", "smy", "rum",
              "bul", "swe", "nwy", "den", "hol", "por"}
    french = sorted(standard.supply_centres - others)
    assert len(french) == 18 - 1
    position = Position.from_text(
        f"standard | F1901M | france: A BUR; germany: A BER; russia: A MOS | "
        f"france: {' '.join(c.upper() for c in french)}; germany: BER MUN KIE; "
        f"russia: MOS | - | -")
    env = DiplomacyParallelEnv("standard", max_years=YEARS,
                               rewards=RewardScheme(centre=0.5, win=2.0))
    env.reset(options={"position": position})
    take = env.table.encode({"bur": Move(UnitType.ARMY, "bur", "mun")})
    _, rewards, terminated, truncated, _ = env.step({"france": take})
    assert env.record.winner == "france"
    assert all(terminated.values()) and not any(truncated.values())
    assert env.agents == []
    assert rewards == {"france": 0.5 + 2.0, "germany": -0.5 - 1.0, "russia": -1.0}
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_the_text_board() -> None:
    env = DiplomacyParallelEnv("standard", max_years=YEARS, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text is not None
    assert text.splitlines()[0] == "Spring 1901, Movement"
    assert "France: 3 centres; A MAR, A PAR, F BRE" in text
