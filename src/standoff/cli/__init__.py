"""The ``standoff`` command line (click): a thin adapter over the rules core.

One module per command (``process.py`` is ``standoff process``); ``app.py``
holds the group, the error wrapper and the shared flags, ``io.py`` the file
readers and printers the commands share. Importing this package registers
every command on the group.

Exit codes: 0 success; 1 a case file had failures; 2 bad usage or unreadable
input (invalid order text, unreadable position); 3 an illegal order; 4 a saved
game that is corrupt, missing or of an unknown version; 5 an operation the
game's state does not allow (e.g. the game is over); 130 a run (``selfplay``,
``playtest``) stopped by Ctrl-C; ``backup`` and ``restore``
exit 1 when refused or failed. Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

from . import (  # noqa: F401  (each module registers its commands on the group)
    adjudicate,
    backup,
    cases,
    demo,
    draw,
    info,
    legal,
    mila,
    new,
    orders,
    playtest,
    process,
    render,
    selfplay,
    serve,
    show,
)
from .app import cli, main

__all__ = ["cli", "main"]
