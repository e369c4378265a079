"""Reinforcement-learning environments over any variant: PettingZoo and Gymnasium.

* :class:`DiplomacyParallelEnv` (``parallel.py``): a PettingZoo ``ParallelEnv``,
  every power an agent, one step per phase;
* :class:`DiplomacyEnv` (``single.py``): a Gymnasium ``Env`` for one learning
  power, the others played by a policy (random legal orders by default) or by
  a bot (``opponents="heuristic"``, or any object with ``orders(record, power)``);
* the action space and masks (``actions.py``, with the convoy routes it must
  name in ``convoys.py``), the observations (``observations.py``) and the
  reward scheme (``rewards.py``).

An adapter wing: it reaches the rules only through :mod:`standoff`, and needs
the ``env`` extra (PettingZoo, Gymnasium, NumPy): ``pip install 'standoff[env]'``.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError(f"standoff.env needs the 'env' extra ({e.name} is missing): "
                      "pip install 'standoff[env]'") from None

from .actions import ActionTable, action_table
from .convoys import ConvoyRoutes, convoy_routes
from .observations import ObservationEncoder
from .parallel import DiplomacyParallelEnv, Observation, board_text
from .rewards import RewardScheme
from .single import DiplomacyEnv, Opponents, Policy, RandomPolicy

__all__ = [
    "ActionTable", "ConvoyRoutes", "DiplomacyEnv", "DiplomacyParallelEnv", "Observation",
    "ObservationEncoder", "Opponents", "Policy", "RandomPolicy", "RewardScheme", "action_table",
    "board_text", "convoy_routes",
]
