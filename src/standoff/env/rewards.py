"""The reward scheme: supply centres as they change hands, and the outcome at the end.

Two parts, each a number of :class:`RewardScheme`, so an experiment changes
them in one place:

* every step, ``centre`` times the change in the centres a power owns (a
  step that takes two centres and loses one gives ``centre``). Over a whole
  game a power's centre rewards add up to ``centre`` times its final count
  less its first: shaping that points at the victory condition of most
  variants without rewarding anything the game does not count;
* when the game ends by its victory rule, the winner gets ``win`` and the
  other powers still playing share ``-win`` equally (with ``zero_sum``; else
  they get nothing), so the outcome rewards add up to zero and a learner is
  not paid for others' wins. A game that ends with nobody winning (Sahara's
  Iceland left empty) and a truncated game give no outcome reward: the
  centres already said who did well.

A power eliminated before the end leaves with its (negative) centre rewards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RewardScheme:
    """How much a centre and a win are worth (see the module's docstring)."""

    #: reward per centre gained in a step (a centre lost: minus this)
    centre: float = 0.1
    #: the solo winner's reward at the end
    win: float = 1.0
    #: the other powers still in the game share ``-win`` (else they get 0)
    zero_sum: bool = True

    def step(self, before: Mapping[str, int], after: Mapping[str, int],
             agents: Iterable[str]) -> dict[str, float]:
        """Each agent's centre reward for a step, from centre counts before and after."""
        return {a: self.centre * (after.get(a, 0) - before.get(a, 0)) for a in agents}

    def outcome(self, winner: str | None, agents: Iterable[str]) -> dict[str, float]:
        """Each agent's outcome reward when the game ends with ``winner`` (or none)."""
        playing = list(agents)
        if winner is None:
            return dict.fromkeys(playing, 0.0)
        others = [a for a in playing if a != winner]
        share = -self.win / len(others) if others and self.zero_sum else 0.0
        out = dict.fromkeys(others, share)
        if winner in playing:
            out[winner] = self.win
        return out
