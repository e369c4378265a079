"""A PettingZoo ``ParallelEnv`` over any variant: every power orders at once, every phase.

Agents are the variant's powers (``load_variant(name).powers``, in its
order). Each step is one phase of the game, whatever its kind (movement,
retreat, adjustment): every agent still in the game sends an action, and an
agent with nothing to order this phase (no dislodged unit in a retreat phase,
no builds due) sends one too; it is ignored. Actions and masks are described
in :mod:`standoff.env.actions`, observations in
:mod:`standoff.env.observations`, rewards in :mod:`standoff.env.rewards`.

Each agent's observation is ``{"observation": ..., "action_mask": ...}``, the
PettingZoo and RLlib convention, with the mask as one ``int8`` array per slot
(what ``MultiDiscrete.sample(mask=...)`` takes, so PettingZoo's own API test
samples legal orders). The mask is exactly ``standoff.legal_orders`` for that
power, plus "no order" in every slot. A masked-out choice gives no order (the
unit holds, as the judge treats an illegal order), so any action in the space,
``action_space.sample()`` included, is safe.

``infos[agent]`` holds ``"phase"`` (the phase now, ``"F1901M"``) and
``"outside"``: how many of the agent's legal orders the action space cannot
name (convoys along routes longer than it lists: only on maps too big to list
them all, see :mod:`standoff.env.convoys`; 0 elsewhere).

The game is a ``standoff.GameRecord`` moved on by ``submit_orders`` and
``process_phase``, as every other front end moves it; :attr:`record` is the
game so far (its history holds every phase's orders and results). An agent
leaves ``agents`` when it is eliminated (no units, none dislodged, no centres:
``terminations``); all leave when the victory rule ends the game
(``terminations``), or at the ``max_years`` the caller sets (``truncations``).

Adjustments: each build site's slot may choose a build (or WAIVE), each unit's
slot a removal; a power that chooses more than it may make keeps the first in
slot order (as the adjudicator keeps the first legal ones, DATC 4.D.4).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from standoff import (
    DEFAULT,
    Build,
    GameRecord,
    IllegalOrderError,
    Options,
    Order,
    PhaseKind,
    Position,
    Remove,
    Variant,
    Waive,
    adjustment_counts,
    legal_orders,
    load_variant,
    process_phase,
    submit_orders,
)

from .actions import Actions, ActionTable, Mask, action_table
from .observations import ObservationEncoder
from .rewards import RewardScheme

#: an agent's observation: {"observation": {...arrays}, "action_mask": (per-slot masks)}
Observation = dict[str, Any]


class DiplomacyParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """Diplomacy for every power at once (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "standoff_diplomacy_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, variant: str | Variant = "standard", *, max_years: int = 50,
                 rewards: RewardScheme | None = None, max_convoy_fleets: int | None = None,
                 options: Options = DEFAULT, render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_years < 1:
            raise ValueError(f"max_years must be at least 1, not {max_years}")
        if max_convoy_fleets is not None and max_convoy_fleets < 1:
            raise ValueError(f"max_convoy_fleets must be at least 1, not {max_convoy_fleets}")
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.max_years = max_years
        self.rewards = rewards or RewardScheme()
        self.options = options
        self.render_mode = render_mode
        start = self.variant.start.year
        self.table: ActionTable = action_table(self.variant, start + max_years,
                                               max_convoy_fleets)
        self.encoder = ObservationEncoder(self.variant, self.table, max_years)
        self.possible_agents: list[str] = list(self.variant.powers)
        self.agents: list[str] = []
        self._action_spaces = {a: spaces.MultiDiscrete(self.table.nvec)
                               for a in self.possible_agents}
        self._observation_spaces = {a: self._observation_space()
                                    for a in self.possible_agents}
        self.record = GameRecord.new(self.variant, options)
        self._masks: dict[str, Mask] = {}

    def _observation_space(self) -> spaces.Dict:
        masks = spaces.Tuple(tuple(spaces.MultiBinary(int(n)) for n in self.table.nvec))
        return spaces.Dict({"observation": self.encoder.board_space(), "action_mask": masks})

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.MultiDiscrete:
        return self._action_spaces[agent]

    # -- the game ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """A new game at the variant's opening position, or at
        ``options["position"]`` (a :class:`standoff.Position` of this variant: a
        curriculum, a test; its powers without units or centres are out). ``seed``
        seeds the action spaces' samplers (agent ``i`` gets ``seed + i``); the game
        itself has no chance in it."""
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        position = (options or {}).get("position")
        if position is None:
            self.record = GameRecord.new(self.variant, self.options)
        elif isinstance(position, Position) and position.variant == self.variant.name:
            self.record = GameRecord(self.variant, self.options, position)
        else:
            raise ValueError(f"options['position'] must be a Position of {self.variant.name}")
        alive = _alive(self.record.position)
        self.agents = [a for a in self.possible_agents if a in alive]
        return self._observe(self.agents)

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """One phase: every agent's action to orders, adjudicated."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start another")
        record = self.record
        position = record.position
        kind = position.phase.kind
        due = adjustment_counts(self.variant, position) if kind is PhaseKind.ADJUSTMENT \
            else {}
        for agent in self.agents:
            action = actions.get(agent)
            if action is None:
                continue
            orders = self.table.orders(self._checked(agent, action), self._masks[agent], kind)
            if agent in due:
                orders = _allowance(orders, due[agent])
            if orders:
                record = _submit(record, agent, orders)
        before = position.centre_counts()
        record, _ = process_phase(record)
        self.record = record
        playing = list(self.agents)
        rewards = self.rewards.step(before, record.position.centre_counts(), playing)
        terminated = dict.fromkeys(playing, False)
        truncated = dict.fromkeys(playing, False)
        if record.outcome is not None:
            for agent, bonus in self.rewards.outcome(record.winner, playing).items():
                rewards[agent] += bonus
            terminated = dict.fromkeys(playing, True)
        elif record.position.phase.year - self.variant.start.year >= self.max_years:
            truncated = dict.fromkeys(playing, True)
        else:
            alive = _alive(record.position)
            terminated = {a: a not in alive for a in playing}
        self.agents = [a for a in playing if not (terminated[a] or truncated[a])]
        observations, infos = self._observe(playing)
        return observations, rewards, terminated, truncated, infos

    def _checked(self, agent: str, action: Any) -> Actions:
        """The action as an array of the space's shape, each entry in its slot's range."""
        try:
            arr = np.asarray(action, dtype=np.int64)
        except (TypeError, ValueError):
            raise ValueError(f"{agent}'s action is not an array of integers") from None
        if arr.shape != self.table.nvec.shape:
            raise ValueError(f"{agent}'s action has shape {arr.shape}, the action space "
                             f"{self.table.nvec.shape}")
        if (arr < 0).any() or (arr >= self.table.nvec).any():
            raise ValueError(f"{agent}'s action is outside its action space")
        return arr

    def _observe(self, agents: list[str]
                 ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Observations and infos of ``agents`` at the present position; keeps the
        masks that the next step's actions are read against."""
        position = self.record.position
        legal = legal_orders(position, self.options, self.variant)
        board = self.encoder.board(position)
        adjustments = self.encoder.adjustments(position)
        phase = self.record.phase_name
        observations: dict[str, Observation] = {}
        infos: dict[str, dict[str, Any]] = {}
        self._masks = {}
        fleets = _stacked(position, self.variant.board_at(position.phase).high_seas)
        for agent in agents:
            mask, outside = self.table.mask(legal.get(agent, {}), fleets.get(agent))
            self._masks[agent] = mask
            seen = dict(board)
            seen["power"] = self.encoder.power(agent)
            seen["adjustment"] = adjustments[agent]
            observations[agent] = {"observation": seen, "action_mask": self.table.split(mask)}
            infos[agent] = {"phase": phase, "outside": outside}
        return observations, infos

    def flat_mask(self, agent: str) -> Mask:
        """``agent``'s mask now as one flat array (every slot's, one after another)."""
        return self._masks[agent]

    # -- the rest of the PettingZoo API -----------------------------------------------------

    def render(self) -> str | None:
        """The position as text ("ansi"); nothing without a render mode."""
        if self.render_mode != "ansi":
            return None
        return board_text(self.record)

    def close(self) -> None:
        """Nothing to release: the game is plain data."""


def board_text(record: GameRecord) -> str:
    """A text board: the phase, then each power's centres and units."""
    v = record.variant
    pos = record.position
    lines = [pos.phase.long_name(v.calendar)]
    counts = pos.centre_counts()
    for pid, power in v.powers.items():
        units = ", ".join(str(u) for u in pos.units_of(pid)) or "-"
        lines.append(f"{power.name}: {counts.get(pid, 0)} centres; {units}")
    for d in pos.dislodged:
        owner = v.powers[d.unit.power].name if d.unit.power in v.powers else d.unit.power
        lines.append(f"dislodged: {owner} {d}")
    if record.outcome is not None:
        lines.append(f"over: {record.winner or 'no winner'}")
    return "\n".join(lines)


def _stacked(position: Position, high_seas: frozenset[str]) -> dict[str, dict[str, int]]:
    """power -> high sea -> its units there, where it has more than one."""
    if not high_seas:
        return {}
    counts: dict[tuple[str, str], int] = {}
    for u in position.units:
        if u.location in high_seas:
            counts[u.power, u.location] = counts.get((u.power, u.location), 0) + 1
    out: dict[str, dict[str, int]] = {}
    for (power, sea), n in counts.items():
        if n > 1:
            out.setdefault(power, {})[sea] = n
    return out


def _alive(position: Position) -> set[str]:
    """The powers still in the game: with units, dislodged units awaiting their
    retreat, or centres."""
    return {u.power for u in position.units} | {d.unit.power for d in position.dislodged} \
        | set(position.centres.values())


def _allowance(orders: list[Order], due: int) -> list[Order]:
    """A power's adjustment orders cut to what it may make: the first ``due``
    builds and waives, or the first ``-due`` removals, in slot order."""
    kinds: tuple[type[Order], ...] = (Build, Waive) if due > 0 else (Remove,)
    return [o for o in orders if isinstance(o, kinds)][:abs(due)]


def _submit(record: GameRecord, agent: str, orders: list[Order]) -> GameRecord:
    """``record`` with ``agent``'s orders; should the batch be refused as a whole (it
    is made of legal orders, so only a rule about batches could), each order is
    tried alone and those refused are dropped: the unit holds."""
    try:
        return submit_orders(record, agent, orders)
    except IllegalOrderError:
        for order in orders:
            try:
                record = submit_orders(record, agent, [order])
            except IllegalOrderError:
                continue
        return record
