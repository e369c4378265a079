"""Grouping values by key without ``dict.setdefault``.

``table.setdefault(key, []).append(x)`` is the natural way to group, but the
compiled core turns ``setdefault`` with an empty list, dict or set into a
lookup that raises and clears a ``KeyError`` whenever the key is new: about a
thousand instructions and a dozen cache lines of the interpreter's error code
for each new key. The movement phase groups every move by its destination, the
other phases their orders by power, and the legal orders every unit by power,
so these two helpers (a probe, and a store only for a new key) are used
instead wherever that runs once a phase or more.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")
W = TypeVar("W")


def bucket(table: dict[K, list[V]], key: K) -> list[V]:
    """``table.setdefault(key, [])``: the list kept for ``key``, made if new."""
    found = table.get(key)
    if found is None:
        found = table[key] = []
    return found


def subtable(table: dict[K, dict[V, W]], key: K) -> dict[V, W]:
    """``table.setdefault(key, {})``: the dict kept for ``key``, made if new."""
    found = table.get(key)
    if found is None:
        found = table[key] = {}
    return found
