"""Helpers shared by the map transforms: reading and writing link lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def edges(adjacency: Mapping[str, Any], kind: str) -> list[tuple[str, str]]:
    """The ``kind`` ("army", "fleet", "strike_only") links of raw adjacency data."""
    text = adjacency.get(kind, "")
    items = text.split() if isinstance(text, str) else list(text)
    out = []
    for item in items:
        a, _, b = item.partition("-")
        out.append((a, b))
    return out


def join(pairs: Iterable[tuple[str, str]], directed: bool = False) -> str:
    """Links back to the data format, each once (whichever way round it was
    given, unless ``directed``: strike-only links go one way)."""
    seen: set[frozenset[str] | tuple[str, str]] = set()
    out = []
    for a, b in pairs:
        key: frozenset[str] | tuple[str, str] = (a, b) if directed else frozenset((a, b))
        if key not in seen:
            seen.add(key)
            out.append(f"{a}-{b}")
    return " ".join(out)


def province(location: str) -> str:
    return location.split("/", 1)[0]
