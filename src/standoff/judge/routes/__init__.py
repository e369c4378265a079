"""The HTTP routes, one module per resource, each only HTTP: read the request,
call the access checks (``access``) and the services (``processing``,
``clock``, ``uploads``, ``rules``...), shape the answer (``schemas``).

Only ``app.py`` imports this package; nothing here imports another route module.
"""

from __future__ import annotations

from . import accounts, boards, events, games, history, lobby, master, orders, press, seats, votes

#: every router, in the order the app mounts them
ROUTERS = (accounts.router, games.router, master.router, lobby.router, orders.router,
           history.router, press.router, votes.router, seats.router, events.router,
           boards.router)
