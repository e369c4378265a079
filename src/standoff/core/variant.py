"""Variants are data: a TOML file per variant, read into a :class:`Variant`.

The file names the map (provinces, terrain, centres, coasts, adjacency), the
powers with their home centres and starting units, the calendar, the victory
condition and any schedules. What data cannot say is a named, typed hook from
:mod:`standoff.core.hooks`: *transforms* that derive a map from another
variant's data at load time (two stacked boards, split centres), and hooks that
act during play (a map that changes on schedule, the victory rule, where
builds go, what neutral units are ordered to do). The features the data uses
are :attr:`Variant.features` (:mod:`standoff.core.features`). The core never
asks "which variant is this?".

Format (see ``variants/standard.toml`` for a complete example); a name in
quotes chooses a hook from its registry in :mod:`standoff.core.hooks`::

    [variant]  name, title, aliases, description, start ("S1901M"),
               builds ("home" | "owned": BUILD_SITES),
               stranded_fleets ("disband" | "army"),
               hooks (["changing_map"]: MAP_CHANGES)
    [derive]   base (a variant name), transforms (["twin_levels"]: TRANSFORMS)
               and their settings
    [calendar] seasons, letters, adjustment_season, optional (["Summer"]), eras
    [victory]  centres = 18 [, at_start_of = "Fall"] | units = 35
               | unit_in = "ice", after = "W1911A"   (the key names the rule: VICTORY)
    [powers.<id>]  name, adjective, home_centres, units (["A par", "F stp/sc"])
    [provinces]  <id> = { name, terrain, centre, coasts, aliases, capacity, convoys, level }
    [adjacency]  army, fleet, strike_only: whitespace-separated "a-b" links
    [canals]   <centre> = [the seas it joins]
    [neutral]  id ("neutral"), units (["A fin"]), orders ("civil_disorder": NEUTRAL_ORDERS)
    [build_centres]  <space> = { power, requires_any = [centres] }
    [map_changes]  the changing map's schedule (hooks/changing_map.py)
    [notation] hints: word -> why it is not a location ("name the level")

A derived variant starts from its base's data, runs the transforms, then adds
its own sections on top (tables are merged key by key).
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from .errors import NotationError, StandoffError, VariantError
from .features import Features
from .geography import Board, UnitType, province_of
from .hooks import (
    BUILD_SITES,
    MAP_CHANGES,
    NEUTRAL_ORDERS,
    TRANSFORMS,
    BuildCentre,
    BuildSites,
    NeutralOrders,
    Timeline,
    build_sites,
)
from .hooks.neutral import CivilDisorder
from .limits import check_size, checked_transforms
from .phase import Calendar, Phase
from .variant_sections import build_board, read_calendar, read_notes, read_unit, read_victory
from .victory import VictoryRule


@dataclass(frozen=True, slots=True)
class Power:
    id: str
    name: str
    adjective: str
    home_centres: tuple[str, ...]
    #: starting units as (type, location)
    units: tuple[tuple[UnitType, str], ...]
    #: other names orders may use (The Twentieth Century's text spells "Columbia")
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VariantSource:
    """A variant read from a designer's own file: where it was and the text
    read. A saved game keeps both, so the game loads again when the file moves
    or changes, and a change of the file can be noticed (by the digest)."""

    path: str
    text: str

    @property
    def digest(self) -> str:
        """SHA-256 of the text (UTF-8), hex."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    """A variant: its map, powers and calendar, and the hooks (from
    :mod:`standoff.core.hooks`) for what data cannot say: ``victory``,
    ``build_sites``, ``neutral_orders`` and a changing map's ``timeline``.
    ``features`` lists, typed, what the variant uses
    (:class:`standoff.core.features.Features`)."""

    name: str
    title: str
    aliases: tuple[str, ...]
    powers: Mapping[str, Power]
    board: Board
    calendar: Calendar
    start: Phase
    #: how the game is won (:mod:`standoff.core.victory`; ``[victory]`` names it)
    victory: VictoryRule
    hooks: tuple[str, ...] = ()
    description: str = ""
    #: the variant's special rules in a few lines a player reads before playing
    #: (``[variant] notes``; at most :data:`MAX_NOTES` of :data:`MAX_NOTE_CHARS` each)
    notes: tuple[str, ...] = ()
    #: where builds go, by name (:data:`standoff.core.hooks.BUILD_SITES`): "home"
    #: (owned empty home centres) or "owned" (any owned empty centre, Sahara rule 4);
    #: :attr:`build_sites` is that rule, with the build centres
    builds: str = "home"
    #: what happens to a fleet the map leaves inland: "disband", or "army" (it
    #: becomes an army unless its owner ordered NO CONVERT, Sahara rule 2)
    stranded_fleets: str = "disband"
    #: notation: word -> why it is not a location (e.g. a missing board level)
    hints: Mapping[str, str] = field(default_factory=dict)
    timeline: Timeline | None = None
    #: the id given to units in civil disorder that belong to no power (1939 IV
    #: neutral armies), "" if none; such units always hold and never retreat
    neutral: str = ""
    neutral_units: tuple[tuple[UnitType, str], ...] = ()
    #: build centres: non-centre spaces where a power may also build, each with
    #: the centres of which it must own at least one (1939 IV Persia, Archangel)
    build_centres: Mapping[str, BuildCentre] = field(default_factory=dict)
    #: the file and text of a variant read by :func:`variant_from_text` (a
    #: designer's own file); None for the bundled variants and code-built ones
    source: VariantSource | None = None
    #: what the units of no power are ordered to do (``[neutral] orders``)
    neutral_orders: NeutralOrders = field(default_factory=CivilDisorder)
    #: where a power may build: the ``builds`` rule plus the build centres
    build_sites: BuildSites = field(init=False, repr=False)
    #: the variant features the data uses, worked out when the variant is built
    features: Features = field(init=False, repr=False)

    def __post_init__(self) -> None:
        try:
            sites = build_sites(self.builds, self.build_centres)
        except KeyError:
            raise VariantError(f"unknown builds rule {self.builds!r} (known: "
                               f"{', '.join(sorted(BUILD_SITES))})") from None
        object.__setattr__(self, "build_sites", sites)
        object.__setattr__(self, "features", Features.of(self))

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by name, as positions and saved games name their variant: the
        receiving process loads the same variant (a variant built in code must be
        registered there too)."""
        try:
            known = load_variant(self.name) is self
        except StandoffError:
            known = False
        if not known:
            raise pickle.PicklingError(
                f"variant {self.name!r} cannot be found again by its name: "
                "register_variant() it before pickling what uses it")
        return (load_variant, (self.name,))

    def board_at(self, phase: Phase) -> Board:
        """The map in force during ``phase`` (one board unless a hook changes it)."""
        if self.timeline is None:
            return self.board
        return self.timeline.board_at(phase)

    def power(self, text: str) -> str:
        """Find a power id by id, name or adjective, case-insensitively."""
        names = self._power_names()
        found = names.get(text)  # as usually written: lower, upper or title case
        if found is None:
            found = names.get(text.strip().lower())
        if found is None:
            raise VariantError(
                f"unknown power {text!r} in {self.title} "
                f"(powers: {', '.join(p.name for p in self.powers.values())})"
            )
        return found

    def _power_names(self) -> dict[str, str]:
        table = _POWER_TABLES.get(self)
        if table is None:
            table = _POWER_TABLES[self] = _power_table(self)
        return table

    @property
    def supply_centres(self) -> frozenset[str]:
        return self.board.supply_centres

    def home_of(self, province: str) -> str | None:
        """The power whose home centre this is, if any."""
        for p in self.powers.values():
            if province in p.home_centres:
                return p.id
        return None


#: variant -> :func:`_power_table`: a plain dict probe, not ``functools.cache``,
#: whose wrapper the compiled core can only call through the interpreter (every
#: phase looks up every power that gives orders)
_POWER_TABLES: Final[dict[Variant, dict[str, str]]] = {}


def _power_table(variant: Variant) -> dict[str, str]:
    """Every way of naming a power -> its id: lower case, plus each name as
    written, in upper case and capitalised (as orders and files spell them), so
    that most lookups need no case folding."""
    table: dict[str, str] = {}
    for p in variant.powers.values():
        for key in (p.id, p.name, p.adjective, *p.aliases):
            for spelling in (key.lower(), key, key.upper(), key.capitalize()):
                table[spelling] = p.id
    return table


def _variant_dir() -> Path:
    return Path(str(resources.files("standoff.core") / "variants"))


@cache
def available_variants() -> dict[str, Path]:
    """Every variant name and alias (lower case) -> its data file."""
    names: dict[str, Path] = {}
    for path in sorted(_variant_dir().glob("*.toml")):
        with path.open("rb") as fh:
            head = tomllib.load(fh).get("variant")
        if not isinstance(head, dict):
            continue  # a data file that is not a variant
        for n in [head.get("name", path.stem), *head.get("aliases", [])]:
            names[str(n).lower()] = path
    return names


class VariantRegistry:
    """Where variants are found by name: those registered in it (built in code, or
    read from a designer's file), then the bundled data files by name or alias,
    or a variant file by its path.

    The module keeps one, :data:`DEFAULT_REGISTRY`, which :func:`load_variant`,
    :func:`register_variant`, positions and pickling use unless given another. A
    program that hosts variants of its own (the judge's uploads, a test) may keep
    them in a registry of its own and pass it in. The bundled variants are read
    once whichever registry asks (the same :class:`Variant` object); a value
    pickled by name is loaded from the default registry in the receiving process.
    """

    __slots__ = ("_loaded", "_registered")

    def __init__(self) -> None:
        self._registered: dict[str, Variant] = {}
        #: every name asked for, exactly as written -> what it loaded: the adjudicator
        #: asks by a position's variant name every phase (cleared by :meth:`register`)
        self._loaded: dict[str, Variant] = {}

    @classmethod
    def of(cls, *variants: Variant) -> VariantRegistry:
        """A registry that knows ``variants`` (and the bundled ones): what a caller
        holding a variant object passes to the functions that find a position's
        variant by its name, so no process-wide registration is needed."""
        registry = cls()
        for v in variants:
            registry.register(v)
        return registry

    def register(self, variant: Variant) -> None:
        """Make ``variant`` known by its name and aliases (case-insensitive),
        before the bundled variant of that name, if there is one."""
        for key in (variant.name, *variant.aliases):
            self._registered[key.lower()] = variant
        self._loaded.clear()

    def registered(self, name: str) -> Variant | None:
        """The variant registered under ``name``, if any (no bundled file is read)."""
        return self._registered.get(name.lower())

    def load(self, name: str = "standard") -> Variant:
        """A registered variant, a bundled one by name/alias, or a variant file by path."""
        found = self._loaded.get(name)
        if found is None:
            found = self._registered.get(name.lower())
            if found is None:
                found = _load_variant(name)
            self._loaded[name] = found
        return found

    def available(self) -> dict[str, Path]:
        """Every bundled variant name and alias (lower case) -> its data file."""
        return available_variants()

    def names(self) -> list[str]:
        """Every name this registry answers to: registered and bundled (lower case)."""
        return sorted({*self._registered, *available_variants()})


#: The registry used wherever none is given.
DEFAULT_REGISTRY: Final = VariantRegistry()


def register_variant(variant: Variant, registry: VariantRegistry | None = None) -> None:
    """Make a variant built in code (or loaded from a file) known by its name in
    ``registry`` (default: :data:`DEFAULT_REGISTRY`), so positions and games that
    name it can find it again."""
    (DEFAULT_REGISTRY if registry is None else registry).register(variant)


def load_variant(name: str = "standard", registry: VariantRegistry | None = None) -> Variant:
    """A registered variant, a built-in one by name/alias, or a variant file by path,
    from ``registry`` (default: :data:`DEFAULT_REGISTRY`)."""
    return (DEFAULT_REGISTRY if registry is None else registry).load(name)


@cache
def _load_variant(name: str) -> Variant:
    return _load_path(_path_of(name).resolve())


@cache
def _load_path(path: Path) -> Variant:
    """One Variant per file, whichever name or alias asked for it."""
    return _built(copy.deepcopy(_read(path)), path)


def variant_from_text(text: str, path: str) -> Variant:
    """A variant from the TOML text of a designer's file (``path`` says where it
    came from, for messages and for :attr:`Variant.source`).

    Not cached and not registered: the caller decides whether the variant may
    take its name (a saved game rebuilds its variant from the text it keeps,
    which may differ from what the file holds now)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"cannot read variant file {path}: {exc}") from exc
    derived = _derived(data, path)
    check_size(derived, path)  # before building: a bomb is refused in microseconds
    return _built(derived, path, VariantSource(path, text))


def _built(data: dict[str, Any], path: Path | str,
           source: VariantSource | None = None) -> Variant:
    """:func:`_build`, with what is wrong in the data said as a VariantError."""
    try:
        return _build(data, source)
    except KeyError as exc:
        raise VariantError(f"variant file {path} is malformed: it has no {exc.args[0]!r} "
                           "entry") from exc
    except (TypeError, ValueError, AttributeError, NotationError) as exc:
        raise VariantError(f"variant file {path} is malformed: {exc!r}") from exc


def _path_of(name: str) -> Path:
    path = Path(name)
    if not (path.suffix == ".toml" and path.exists()):
        found = available_variants().get(name.strip().lower())
        if found is None:
            known = ", ".join(sorted(available_variants()))
            raise VariantError(f"unknown variant {name!r} (known: {known})")
        path = found
    return path


def variant_data(name: str) -> dict[str, Any]:
    """The raw data of a variant (by name, alias or file path), derivation applied."""
    return copy.deepcopy(_read(_path_of(name)))


def derivation(name: str, registry: VariantRegistry | None = None
               ) -> tuple[str | None, tuple[str, ...]]:
    """The base variant a variant is derived from and the transforms applied
    (``(None, ())`` for a variant of its own): what a drawing of it derives from."""
    found = (DEFAULT_REGISTRY if registry is None else registry).registered(name)
    try:
        if found is not None and found.source is not None:  # a designer's own file
            derive = tomllib.loads(found.source.text).get("derive") or {}
        else:
            with _path_of(name).open("rb") as fh:
                derive = tomllib.load(fh).get("derive") or {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise VariantError(f"cannot read variant {name!r}: {exc}") from exc
    base = derive.get("base")
    return (str(base) if base else None), tuple(str(t) for t in derive.get("transforms", ()))


@cache
def _read(path: Path, depth: int = 0) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise VariantError(f"cannot read variant file {path}: {exc}") from exc
    return _derived(data, path, depth)


def _derived(data: dict[str, Any], path: Path | str, depth: int = 0) -> dict[str, Any]:
    """A variant's data with its ``[derive]`` table applied: the base variant's
    data, transformed, under the variant's own tables."""
    derive = data.pop("derive", None)
    if derive is None:
        return data
    if not isinstance(derive, dict):
        raise VariantError(f"{path}: [derive] must be a table")
    if depth > 4:
        raise VariantError(f"{path}: variants derived too deeply")
    base_name = str(derive.get("base", ""))
    base_path = available_variants().get(base_name.lower())
    if base_path is None:
        raise VariantError(f"{path}: unknown base variant {base_name!r}")
    transforms = checked_transforms(derive.get("transforms"), path)
    base = copy.deepcopy(_read(base_path, depth + 1))
    for key in ("aliases", "title", "description", "notes"):
        base["variant"].pop(key, None)  # never inherited: they name the base
    for t in transforms:
        check_size(base, path)  # each transform starts from a bounded map
        transform = TRANSFORMS.get(t)
        if transform is None:
            raise VariantError(f"{path}: unknown transform {t!r} (known: "
                               f"{', '.join(sorted(TRANSFORMS))})")
        try:
            base = transform(base, derive)
        except (KeyError, TypeError, ValueError) as exc:
            raise VariantError(f"{path}: transform {t!r} failed: {exc!r}") from exc
    return _merge(base, data)


#: top-level tables a derived variant adds to; any other table it gives replaces the base's
_MERGED = frozenset({"variant", "provinces", "powers", "adjacency", "notation"})


def _merge(base: dict[str, Any], top: Mapping[str, Any], depth: int = 0) -> dict[str, Any]:
    """``top`` over ``base``: the :data:`_MERGED` tables merge key by key (link
    strings are joined); everything else in ``top`` replaces."""
    out = dict(base)
    for key, value in top.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, Mapping) and (depth or key in _MERGED):
            out[key] = _merge(old, value, depth + 1)
        elif key in ("army", "fleet", "strike_only") and isinstance(old, str):
            out[key] = old + " " + str(value)
        else:
            out[key] = value
    return out


def _build(data: dict[str, Any], source: VariantSource | None = None) -> Variant:
    head = data["variant"]
    board = build_board(data)
    calendar = read_calendar(head, data.get("calendar", {}))
    powers = {}
    for pid, p in data["powers"].items():
        units = [read_unit(board, u, pid) for u in p.get("units", ())]
        homes = tuple(p["home_centres"])
        for h in homes:
            if not board.provinces[province_of(h)].supply_centre:
                raise VariantError(f"home centre {h!r} of {pid} is not a supply centre")
        powers[pid] = Power(pid, p["name"], p.get("adjective", p["name"]), homes, tuple(units),
                            tuple(p.get("aliases", ())))
    hooks = tuple(head.get("hooks", ()))
    timeline = None
    for h in hooks:
        make = MAP_CHANGES.get(h)
        if make is None:
            raise VariantError(f"unknown rule hook {h!r} (known: "
                               f"{', '.join(sorted(MAP_CHANGES))})")
        timeline = make(data, board, calendar)
    neutral = data.get("neutral", {})
    neutral_units = tuple(read_unit(board, u, "neutral") for u in neutral.get("units", ()))
    neutral_id = str(neutral.get("id", "neutral")) if neutral else ""
    if neutral_id in powers:
        raise VariantError(f"the neutral id {neutral_id!r} is also a power")
    build_centres = {}
    for prov, spec in data.get("build_centres", {}).items():
        if prov not in board.provinces or spec.get("power") not in powers:
            raise VariantError(f"build centre {prov!r}: unknown space or power")
        if board.provinces[prov].supply_centre:
            raise VariantError(f"build centre {prov!r} is a supply centre already")
        build_centres[prov] = BuildCentre(prov, str(spec["power"]),
                                          tuple(spec.get("requires_any", ())))
    builds = str(head.get("builds", "home"))
    stranded = str(head.get("stranded_fleets", "disband"))
    if builds not in BUILD_SITES or stranded not in ("disband", "army"):
        raise VariantError(f"builds must be one of {', '.join(sorted(BUILD_SITES))}; "
                           "stranded_fleets 'disband' or 'army'")
    neutral_orders = str(neutral.get("orders", "civil_disorder"))
    make_orders = NEUTRAL_ORDERS.get(neutral_orders)
    if make_orders is None:
        raise VariantError(f"unknown [neutral] orders {neutral_orders!r} (known: "
                           f"{', '.join(sorted(NEUTRAL_ORDERS))})")
    return Variant(
        name=head["name"],
        title=head.get("title", head["name"]),
        aliases=tuple(head.get("aliases", ())),
        powers=powers,
        board=board,
        calendar=calendar,
        start=Phase.parse(head.get("start", "S1901M"), calendar),
        victory=read_victory(data, calendar),
        hooks=hooks,
        description=str(head.get("description", "")),
        notes=read_notes(head.get("notes", ())),
        builds=builds,
        stranded_fleets=stranded,
        hints={str(k).lower(): str(m)
               for k, m in data.get("notation", {}).get("hints", {}).items()},
        timeline=timeline,
        neutral=neutral_id,
        neutral_units=neutral_units,
        build_centres=build_centres,
        source=source,
        neutral_orders=make_orders(),
    )

