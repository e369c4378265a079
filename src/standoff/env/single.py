"""A Gymnasium ``Env`` for one learning power; the other powers play a given policy or bot.

The learner's observation and action spaces are its spaces in
:class:`~standoff.env.DiplomacyParallelEnv` (the same objects). Each step the
other powers still in the game act through ``opponents``, one of:

* a :data:`Policy`: a callable from an agent's name and observation to its
  action. The default, :class:`RandomPolicy`, gives every unit a uniformly
  random legal order (as ``standoff.random_orders`` does), seeded by
  ``reset(seed=...)``, so a seeded episode replays exactly;
* a bot: a bundled bot's name (``"heuristic"``: :func:`standoff.bots.names`),
  loaded again at each ``reset`` with a seed drawn from the episode's seed, or
  any object with an ``orders(record, power) -> list[str]`` method (the bots'
  contract, ``docs/bots.md``), used as given. Bots answer in order text, not
  actions: each opponent is asked about the game's record before any order of
  the phase is given (as every front end that seats bots asks,
  :mod:`standoff.selfplay.with_bots`), and its orders are submitted to the game
  as they are, so an order the action space cannot name (a convoy route longer
  than the Twentieth Century's table lists) is still played. An order set the
  rules refuse is dropped (that power sends nothing) and counted in
  :attr:`DiplomacyEnv.refused`.

The episode ends for the learner when it is eliminated (``terminated``), when
the game ends (``terminated``), or at ``max_years`` (``truncated``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from standoff import DEFAULT, Options, Variant, bots, load_variant
from standoff.selfplay import Player, Refusal
from standoff.selfplay.with_bots import ask, submit

from .actions import Actions, ActionTable
from .parallel import DiplomacyParallelEnv, Observation
from .rewards import RewardScheme

#: an opponent: (agent, its observation) -> its action
Policy = Callable[[str, Observation], Any]

#: what ``opponents=`` takes: a policy, a bundled bot's name, or a bot (anything
#: with the bots' ``orders(record, power)`` method)
Opponents = Policy | str | Player


class RandomPolicy:
    """Random legal orders: in each slot with a legal order, one of them at random
    (never "no order" while an order is legal)."""

    def __init__(self, table: ActionTable, seed: int | None = None) -> None:
        self.table = table
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, agent: str, observation: Observation) -> Actions:
        flat = np.concatenate(observation["action_mask"])
        return self.table.random_action(flat, self.rng)


class DiplomacyEnv(gymnasium.Env[Observation, Actions]):
    """One power learns; the others follow ``opponents`` (see the module's docstring).

    ``bot`` is the opponents' bot (None while they play a :data:`Policy`);
    ``refused`` lists the order sets the rules refused it this episode."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (Gymnasium's attribute)

    def __init__(self, variant: str | Variant = "standard", power: str | None = None, *,
                 opponents: Opponents | None = None, max_years: int = 50,
                 rewards: RewardScheme | None = None, max_convoy_fleets: int | None = None,
                 options: Options = DEFAULT, render_mode: str | None = None) -> None:
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        self.game = DiplomacyParallelEnv(v, max_years=max_years, rewards=rewards,
                                         max_convoy_fleets=max_convoy_fleets, options=options,
                                         render_mode=render_mode)
        #: the learning power's id
        self.power = v.power(power) if power is not None else self.game.possible_agents[0]
        self.render_mode = render_mode
        self._random = RandomPolicy(self.game.table)
        self._bot_name: str | None = None
        self.bot: Player | None = None
        self.opponents: Policy = self._random
        if isinstance(opponents, str):
            self._bot_name = opponents
            self.bot = bots.load(opponents)  # an unknown name fails here (ValueError naming them)
        elif opponents is not None and callable(getattr(opponents, "orders", None)):
            self.bot = opponents  # type: ignore[assignment]  # checked: it has orders()
        elif opponents is not None and callable(opponents):
            self.opponents = opponents
        elif opponents is not None:
            raise TypeError("opponents must be a policy (agent, observation) -> action, a bot "
                            f"name or an object with orders(record, power), not {opponents!r}")
        self.refused: list[Refusal] = []
        self.observation_space = self.game.observation_space(self.power)
        self.action_space = self.game.action_space(self.power)
        self._observations: dict[str, Observation] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new game (``options["position"]``: from that position, as
        :meth:`DiplomacyParallelEnv.reset`)."""
        super().reset(seed=seed)
        self._random.seed(int(self.np_random.integers(2**63)) if seed is not None else None)
        if self._bot_name is not None:
            self.bot = bots.load(self._bot_name, seed=int(self.np_random.integers(2**32)))
        self.refused = []
        self._observations, infos = self.game.reset(seed=seed, options=options)
        if self.power not in self._observations:
            raise ValueError(f"{self.power} has no units and no centres in that position")
        return self._observations[self.power], infos[self.power]

    def step(self, action: Actions) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.power not in self.game.agents:
            raise RuntimeError("the episode is over: call reset() to start another")
        actions: dict[str, Any] = {self.power: action}
        others = [a for a in self.game.agents if a != self.power]
        if self.bot is not None:
            # the bots' orders go into the record before the step; an opponent with
            # no action is left out of the step's own submissions
            record = self.game.record
            answers = ask(record, dict.fromkeys(others, self.bot))
            self.game.record, refused = submit(record, answers)
            self.refused += refused
        else:
            for agent in others:
                actions[agent] = self.opponents(agent, self._observations[agent])
        obs, rewards, terminated, truncated, infos = self.game.step(actions)
        self._observations = obs
        p = self.power
        return obs[p], rewards[p], terminated[p], truncated[p], infos[p]

    def render(self) -> str | None:
        return self.game.render()
