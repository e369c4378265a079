"""Kruijswijk's guess-and-check resolver, independent of what the decisions mean.

The movement rules are a set of yes/no *decisions* (does this move succeed, is
this support cut...) that depend on each other, sometimes in cycles. This
module knows nothing of Diplomacy: it resolves integer decision ids through
the caller's :class:`Decisions`, whose ``decide`` may itself ask for other
decisions. When a decision depends on its own guess (a cycle), both guesses
are tried; one consistent answer is taken, and when there are none or two,
the caller's *backup rule* settles the cycle (circular movement, or the
Szykman rule for convoy paradoxes). This is the algorithm of L. B.
Kruijswijk, "The Math of Adjudication" (DATC ch. 5).
"""

from __future__ import annotations

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2


class Decisions:
    """The caller's side of the resolver: what a decision means and the backup rule.

    A base class to subclass rather than two callbacks: the compiled core calls
    a base class's methods directly, where a callback is a generic call through
    the interpreter (one for every decision asked, thirty-odd a movement phase)."""

    __slots__ = ()

    def decide(self, nr: int) -> bool:
        """Decision ``nr``, given the others (asked of the resolver)."""
        raise NotImplementedError(f"{type(self).__name__} decides nothing")

    def backup(self, cycle: list[int]) -> None:
        """Settle a cycle with no or two consistent resolutions
        (:meth:`Resolver.settle`)."""
        raise NotImplementedError(f"{type(self).__name__} has no backup rule")


class _Released(Decisions):
    """What a released resolver asks: nothing more may be resolved."""

    __slots__ = ()

    def decide(self, nr: int) -> bool:
        raise RuntimeError("the resolver was released: resolution is over")

    def backup(self, cycle: list[int]) -> None:
        raise RuntimeError("the resolver was released: resolution is over")


_RELEASED = _Released()


class Resolver:
    """Resolve decisions ``0..n-1`` given ``rules.decide(decision) -> bool``."""

    __slots__ = ("_rules", "deps", "result", "state")

    def __init__(self, size: int, rules: Decisions) -> None:
        self.state = [UNRESOLVED] * size
        self.result = [False] * size
        self.deps: list[int] = []
        self._rules = rules

    def release(self) -> None:
        """Drop the rules once everything needed is resolved.

        The rules are the adjudicator, which holds this resolver: a reference
        cycle that only the cyclic GC could free. Breaking it lets each phase's
        objects go the moment they are unused.
        """
        self._rules = _RELEASED

    def settle(self, decision: int, value: bool) -> None:
        """Fix a decision (used by backup rules)."""
        self.state[decision] = RESOLVED
        self.result[decision] = value

    def resolve(self, nr: int) -> bool:
        state = self.state
        st = state[nr]
        if st == RESOLVED:
            return self.result[nr]
        deps = self.deps
        if st == GUESSING:
            # Always record the dependency, even if ``nr`` is listed already: the
            # caller must see the list grow, or it would think itself independent
            # of guesses (a flaw of the published pseudo-code).
            deps.append(nr)
            return self.result[nr]
        old = len(deps)
        self.result[nr] = False
        state[nr] = GUESSING
        first = self._rules.decide(nr)
        if len(deps) == old:
            # Depends on no guess: final. (A backup rule may already have settled it.)
            if state[nr] != RESOLVED:
                self.result[nr] = first
                state[nr] = RESOLVED
            return self.result[nr]
        if deps[old] != nr:
            # Depends on someone else's guess: report upwards, stay a guess.
            deps.append(nr)
            self.result[nr] = first
            return first
        # Our own guess is part of a cycle: try the other guess.
        for d in deps[old:]:
            state[d] = UNRESOLVED
        del deps[old:]
        self.result[nr] = True
        state[nr] = GUESSING
        second = self._rules.decide(nr)
        if first == second:
            # A cycle with exactly one consistent resolution.
            for d in deps[old:]:
                state[d] = UNRESOLVED
            del deps[old:]
            self.result[nr] = first
            state[nr] = RESOLVED
            return first
        # None or two resolutions: the backup rule decides.
        cycle = deps[old:]
        if nr not in cycle:
            cycle.append(nr)
        del deps[old:]
        for d in cycle:
            if state[d] != RESOLVED:
                state[d] = UNRESOLVED
        self._rules.backup(cycle)
        return self.resolve(nr)
