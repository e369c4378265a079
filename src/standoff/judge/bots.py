"""The bots the judge offers, and the check of a bot's name in a request.

The judge seats the bots ``standoff.bots`` offers, by name: the bundled ones and
those of packages installed beside the judge (the ``standoff.bots`` entry points;
docs/writing-a-bot.md). A seat's bot is stored as its name and loaded by any
worker, in any process, from that name and a seed (``worker.bot_seed``), and asked
in the worker's bounded child process like a bundled one. An unknown name is
refused with the choices.
"""

from __future__ import annotations

from standoff import bots

from .errors import ApiError

#: the bot that stands in for a person after a takeover unless the game names one:
#: the strongest bundled bot that answers in milliseconds
DEFAULT_STAND_IN = "heuristic"


def bots_on_offer() -> list[tuple[str, str]]:
    """(name, description) of every bot on offer: the bundled ones weakest first,
    then the installed ones."""
    return [(b["name"], b["description"]) for b in bots.describe()]


def bot_name(name: str) -> str:
    """A bot's name, as given; 422 naming the choices for any other."""
    if name not in bots.names():
        raise ApiError(422, f"there is no bot {name!r}: the bots are "
                            f"{', '.join(bots.names())}")
    return name
