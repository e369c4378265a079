"""Saved games: the adapter that keeps a game in a file (``savefile``).

A versioned, checksummed JSON file, changed only under a lock and written
atomically; see :mod:`standoff.storage.savefile`.
"""

from .savefile import (
    FORMAT,
    LOCK_TIMEOUT,
    VERSION,
    VariantChangedWarning,
    create,
    dumps,
    editing,
    load,
    loads,
    open_variant,
    read_variant_file,
    save,
)

__all__ = [
    "FORMAT", "LOCK_TIMEOUT", "VERSION", "VariantChangedWarning", "create", "dumps", "editing",
    "load", "loads", "open_variant", "read_variant_file", "save",
]
