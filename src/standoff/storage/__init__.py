"""Saved games: the adapter that keeps a game in a file (``savefile``).

A versioned, checksummed JSON file holding a game record
(:class:`standoff.GameRecord`), changed only under a lock and written
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
    load_record,
    loads,
    loads_record,
    open_variant,
    read_variant_file,
    save,
)

__all__ = [
    "FORMAT", "LOCK_TIMEOUT", "VERSION", "VariantChangedWarning", "create", "dumps", "editing",
    "load", "load_record", "loads", "loads_record", "open_variant", "read_variant_file", "save",
]
