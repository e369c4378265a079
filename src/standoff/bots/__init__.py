"""Bots: players for every seat, built on the rules core's public API only.

The contract (``docs/bots.md``): :func:`names`
lists the bundled bots, strongest last; :func:`load` makes one by name, with a
seed and its settings; a bot's :meth:`~Bot.orders` gives a power's legal orders
for the record's current phase, the same ones every time for the same record,
seed and settings, never changing the record.

How a bot is found, and why so: the bundled bots are the modules named in
:data:`BUNDLED`, in order of strength, each defining ``BOT``, its class (a
subclass of :class:`BaseBot`). Nothing registers itself as a side effect of
being imported (the house rule: a collaborator is named, not registered);
a module listed here that is not there yet (a bot still being written) is
simply not among :func:`names`. Adding a bot is one word in :data:`BUNDLED`
and one module. A program may pass any object with an ``orders(record,
power)`` method wherever the project takes a bot (:class:`Bot` is a
protocol, not a base class to inherit).

Bots of other packages are *installed*, not registered: a distribution names
its bots in its metadata, in the entry-point group :data:`ENTRY_POINTS`
(``[project.entry-points."standoff.bots"] mybot = "mypkg.bot:MyBot"``), each
a callable taking ``seed=`` and settings as keywords and returning a
:class:`Bot`. :func:`names`, :func:`load` and :func:`describe` then offer them
after the bundled bots, so everything that takes a bot by name (the judge's
seats and bot runner, ``playtest``, ``selfplay --bot``, the arena) takes
them too. A bundled bot's name cannot be taken by an installed one.

This package imports ``standoff`` (the public API) and never the core's
modules; the core never imports it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points
from random import Random  # (not `import random`: the submodule bots.random takes that name)
from typing import ClassVar, Protocol, runtime_checkable

from standoff import GameRecord, Order, legal_orders

#: the bundled bots' modules (``standoff.bots.<name>``), weakest first
BUNDLED: tuple[str, ...] = ("random", "heuristic", "search")

#: a setting's value: what ``load(name, **settings)`` accepts
Setting = int | float | bool | str

#: the entry-point group in which installed distributions name their bots
ENTRY_POINTS = "standoff.bots"


@runtime_checkable
class Bot(Protocol):
    """What the project takes wherever it takes a bot (its name and description are
    read, never set: a class attribute serves)."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    def orders(self, record: GameRecord, power: str) -> list[str]:
        """``power``'s orders for the record's current phase (see the module)."""
        ...


class BaseBot:
    """What the bundled bots share: a name and description, a seed, settings
    checked against the class's defaults, and a random stream per phase and
    power (so an answer depends only on the record, seed and settings, never on
    what the bot was asked before, nor on the global ``random``)."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: setting -> its default; ``load`` accepts these names, of these types
    SETTINGS: ClassVar[Mapping[str, Setting]] = {}

    def __init__(self, *, seed: int | None = None, **settings: Setting) -> None:
        self.seed: int = 0 if seed is None else int(seed)
        values = dict(self.SETTINGS)
        for key, value in settings.items():
            if key not in self.SETTINGS:
                choices = ", ".join(sorted(self.SETTINGS)) or "none"
                raise ValueError(f"unknown setting {key!r} for bot {self.name!r} "
                                 f"(settings: {choices})")
            default = self.SETTINGS[key]
            if isinstance(default, float) and isinstance(value, int) \
                    and not isinstance(value, bool):
                value = float(value)
            if type(value) is not type(default):
                raise ValueError(f"setting {key!r} of bot {self.name!r} takes a "
                                 f"{type(default).__name__}, not {value!r}")
            values[key] = value
        #: the settings in force, defaults filled in
        self.settings: dict[str, Setting] = values

    def rng(self, record: GameRecord, power: str) -> Random:
        """A random stream for this seed, phase and power: the same every time
        the same question is asked (a string seed is hashed stably by
        :class:`random.Random`, unlike ``hash()``)."""
        pos = record.position
        return Random(f"{self.seed}:{record.variant.name}:{pos.phase!r}:{power}")

    def orders(self, record: GameRecord, power: str) -> list[str]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<bot {self.name} seed={self.seed} {self.settings}>"


#: the last position's legal orders: (position, options, variant, power -> location ->
#: orders). Every power of a phase asks about the same position, and the Twentieth
#: Century's legal orders take about 13 ms on the pure-Python core; one entry,
#: replaced by a single assignment, so threads sharing it see a whole entry or none.
_LAST_LEGAL: list[tuple[object, object, object, dict[str, dict[str, list[Order]]]]] = []


def legal_for(record: GameRecord) -> dict[str, dict[str, list[Order]]]:
    """:func:`standoff.legal_orders` of the record's position (power -> location ->
    orders), reused while the bots are asked about the same position. The
    caller must not change it (it is shared)."""
    last = _LAST_LEGAL[0] if _LAST_LEGAL else None
    pos, options, variant = record.position, record.options, record.variant
    if last is not None and last[0] is pos and last[1] is options and last[2] is variant:
        return last[3]
    found = legal_orders(pos, options, variant)
    entry = (pos, options, variant, found)
    if _LAST_LEGAL:
        _LAST_LEGAL[0] = entry
    else:
        _LAST_LEGAL.append(entry)
    return found


def _bot_class(name: str) -> type[BaseBot] | None:
    """The class of the bundled bot ``name``, or None when its module is not
    there (only that module missing: an error inside a bot is not hidden)."""
    module_name = f"{__name__}.{name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:
            return None
        raise
    cls: type[BaseBot] = module.BOT
    return cls


def _installed() -> dict[str, EntryPoint]:
    """The installed bots' entry points by name, bundled names left out (a bundled
    bot is never replaced by another package's)."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)
            if ep.name not in BUNDLED}


def names() -> list[str]:
    """The bots' names: the bundled ones weakest first (strongest last), then the
    installed ones that load, alphabetically (a broken one is not offered;
    :func:`load` says what is wrong with it)."""
    return [n for n in BUNDLED if _bot_class(n) is not None] + sorted(
        n for n in _installed() if _loads(n))


def _loads(name: str) -> bool:
    try:
        return _factory(name) is not None
    except ValueError:
        return False


def _factory(name: str) -> Callable[..., Bot] | None:
    """What makes the bot ``name``: a bundled class, or an installed entry point's
    object; None for an unknown name."""
    if name in BUNDLED:
        bundled: Callable[..., Bot] | None = _bot_class(name)
        return bundled
    found = _installed().get(name)
    if found is None:
        return None
    try:
        made = found.load()
    except Exception as exc:  # another package's module: anything may go wrong in it
        raise ValueError(f"the installed bot {name!r} ({found.value}) cannot be "
                         f"loaded: {type(exc).__name__}: {exc}") from exc
    if not callable(made):
        raise ValueError(f"the installed bot {name!r} ({found.value}) is not callable")
    factory: Callable[..., Bot] = made
    return factory


def load(name: str, *, seed: int | None = None, **settings: Setting) -> Bot:
    """The bot ``name`` (bundled or installed) with this seed and settings;
    ``ValueError`` naming the choices for an unknown name or setting, and for an
    installed bot that does not give orders."""
    factory = _factory(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(names())})")
    try:
        bot = factory(seed=seed, **settings)
    except TypeError as exc:  # an installed bot's factory refusing a setting
        raise ValueError(f"bot {name!r} refused its settings {sorted(settings)}: {exc}") \
            from exc
    if not callable(getattr(bot, "orders", None)):
        raise ValueError(f"the installed bot {name!r} made {bot!r}, which has no orders()")
    return bot


def describe() -> list[dict[str, str]]:
    """``[{"name", "description"}]`` for every bot, in :func:`names`' order (what
    ``GET /api/v1/bots`` answers). An installed bot is described by its factory's
    ``description`` attribute, or, lacking one, by a bot it makes with seed 0."""
    out = []
    for n in names():
        factory = _factory(n)
        assert factory is not None
        said = getattr(factory, "description", None)
        if not isinstance(said, str) or not said:
            try:
                said = str(getattr(factory(seed=0), "description", "") or "")
            except Exception:  # another package's bot that cannot be made: no sentence
                said = ""
        out.append({"name": n, "description": said})
    return out


__all__ = ["BUNDLED", "ENTRY_POINTS", "BaseBot", "Bot", "Setting", "describe", "legal_for", "load",
           "names"]
