"""Errors that carry data.

Every error a user can provoke is a subclass of :class:`StandoffError`, so an
adapter (CLI, server) can catch one type and print ``str(error)`` without a
traceback. The DATC (section 4.E.1) distinguishes an order that cannot be read
(*invalid* here: :class:`InvalidOrderError`) from a readable order that breaks
the rules (*illegal*: :class:`IllegalOrderError`); callers need to tell the two
apart, so they are separate types.
"""

from __future__ import annotations

#: how much of a long order an error message quotes
QUOTE_LIMIT = 60


def quote(text: str) -> str:
    """``text`` quoted for a message, shortened when long: a megabyte of pasted
    junk must give a one-line error, not a megabyte of echo."""
    if len(text) <= QUOTE_LIMIT:
        return repr(text)
    return f"{text[:QUOTE_LIMIT]!r}… ({len(text)} characters)"


class StandoffError(Exception):
    """Base class of every error standoff raises on bad input."""


class InvalidOrderError(StandoffError):
    """The text is not an order at all: it cannot be parsed."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"invalid order {quote(text)}: {reason}")
        self.text = text
        self.reason = reason


class IllegalOrderError(StandoffError):
    """A well-formed order that the rules do not allow in this position."""

    def __init__(self, order: str, reason: str) -> None:
        super().__init__(f"illegal order {quote(order)}: {reason}")
        self.order = order
        self.reason = reason


class VariantError(StandoffError):
    """A variant data file is missing, malformed or inconsistent."""


class NotationError(StandoffError):
    """A position, phase or game in text/JSON form cannot be read."""


class CorruptGameError(NotationError):
    """A saved game is damaged or from an unknown format version."""


class GameStateError(StandoffError):
    """An operation that the game's current state does not allow."""
