"""The judge's one door into the rules core.

Every use of ``standoff``'s engine by the judge is in this module, through the
core's public API (the game record and its pure functions, ``legal_orders``,
``Options``, the variants, the renderer, the phase report), and everything
crosses it as JSON-ready data: the game's state is the game record's own JSON
(``GameRecord.to_dict()`` without history and pending orders), orders are
text. The judge keeps pending orders as rows per (game, turn, power); they
become the record's pending orders by submitting each power's stored texts
(:meth:`Rules.process`). When the core's game record changes shape, this is
the file to port.

A game's rules are a :class:`Rules`: its :class:`~standoff.Variant` object and
a registry that knows it (:meth:`standoff.VariantRegistry.of`), handed to
every core function that would otherwise find a variant by its name in the
process-wide registry. So a designer's variant is never registered
process-wide: two uploads that share a name (in two judges in one process, or
a name and the same name with a trailing space) can never stand for each
other. The judge gets a game's :class:`Rules` from its
:class:`~standoff.judge.variants.VariantStore`.

Rejections come out as the API's errors: an order that cannot be read is
400 ``invalid``, a readable one the rules forbid 422 ``illegal``, both with the
engine's reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypedDict, assert_never

import standoff
from standoff import (
    CHOICES,
    GameRecord,
    GameStateError,
    IllegalOrderError,
    InvalidOrderError,
    Options,
    Order,
    OrderResult,
    Phase,
    PhaseKind,
    Position,
    StandoffError,
    UnitType,
    Variant,
    VariantRegistry,
    adjustment_counts,
    available_variants,
    clear_orders,
    game_report,
    legal_orders,
    load_variant,
    narrow_order,
    process_phase,
    province_of,
    submit_checked,
    submit_orders,
    variant_from_text,
)

from .errors import ApiError, invalid

log = logging.getLogger("standoff.judge")

#: the engine's phase kinds, as the API's deadline keys name them
KINDS = {"M": "movement", "R": "retreat", "A": "adjustment"}


@dataclass(frozen=True)
class VariantInfo:
    name: str
    title: str
    powers: list[str]
    description: str
    notes: list[str]


@dataclass(frozen=True)
class Processed:
    """What processing one phase gives the judge to store."""

    #: the new state (next phase, or the game over)
    state: dict[str, Any]
    #: the processed phase's record: phase, position, orders, results, events
    record: dict[str, Any]
    #: the results report of the phase (:func:`standoff.game_report`), as data
    report: dict[str, Any] | None
    #: the same report as text (what the results mail says)
    report_text: str | None
    phase: str
    kind: str
    to_order: list[str]
    outcome: dict[str, Any] | None


class LegalOption(TypedDict):
    """One legal order as the game page builds its menus from it, without reading
    the order's text (the route's docstring and ``web/README.md`` show the JSON).

    Every location is upper case as orders write it, with its coast (``STP/SC``)
    and, on a stacked map, its level (``BUD2``)."""

    #: the canonical text: what the page sends back (``PUT .../orders`` with merge)
    order: str
    #: the core's :attr:`standoff.Order.kind`
    kind: str
    #: where the ordered unit stands (a build's site, a permit's canal; None for WAIVE)
    location: str | None
    #: the unit ordered, built or removed (``A PAR``); None for PERMIT and WAIVE
    unit: str | None
    #: ``A`` or ``F``, the type of that unit
    unit_type: Literal["A", "F"] | None
    #: where a move or retreat goes; a supported or convoyed move's destination; the
    #: location of the unit a support-to-hold supports
    target: str | None
    #: an army's move only: ``land`` (no convoy asked, the army can walk there) or
    #: ``convoy`` (``VIA CONVOY``, or a destination only a convoy reaches)
    via: Literal["land", "convoy"] | None
    #: a support's supported order (``A MAR - BUR``, or ``A MUN`` holding)
    supported: str | None
    #: a convoy's convoyed move (``A LON - BEL``)
    convoyed: str | None
    #: the location of the unit a support or convoy is for (``MAR``, ``LON``)
    subject: str | None
    #: a PERMIT's power (lower-case id: ``italy``), whose fleets may pass the canal
    power: str | None


def _unit(unit: UnitType | None, location: str) -> str | None:
    return None if unit is None else f"{unit.value} {location.upper()}"


def legal_option(order: Order, army_links: dict[str, frozenset[str]]) -> LegalOption:
    """``order`` as a :class:`LegalOption`; ``army_links``: where an army walks from
    each province (the board in force), which tells a move by land from one by
    convoy when the order does not say (DATC 4.A.3 makes the difference matter)."""
    o = narrow_order(order)
    out = LegalOption(order=str(o), kind=o.kind, location=o.location.upper() or None,
                      unit=_unit(o.unit, o.location),
                      unit_type=None if o.unit is None else o.unit.value,
                      target=None, via=None, supported=None, convoyed=None, subject=None,
                      power=None)
    match o.kind:
        case "move":
            out["target"] = o.dest.upper()
            if o.unit is UnitType.ARMY:
                walks = province_of(o.dest) in army_links.get(province_of(o.location), ())
                out["via"] = "land" if walks and not o.via_convoy else "convoy"
        case "retreat":
            out["target"] = o.dest.upper()
        case "support_hold":
            out["target"] = out["subject"] = o.target.upper()
            out["supported"] = _unit(o.target_unit, o.target) or o.target.upper()
        case "support_move":
            out["target"], out["subject"] = o.dest.upper(), o.target.upper()
            mover = _unit(o.target_unit, o.target) or o.target.upper()
            out["supported"] = f"{mover} - {o.dest.upper()}"
        case "convoy":
            out["target"], out["subject"] = o.dest.upper(), o.target.upper()
            out["convoyed"] = f"A {o.target.upper()} - {o.dest.upper()}"
        case "permit":
            out["power"] = o.power
        case "hold" | "no_convert" | "disband" | "build" | "remove" | "waive":
            pass
        case _:
            assert_never(o.kind)
    return out


# -- what does not depend on a game's variant --------------------------------------------

@cache
def bundled_variants() -> list[VariantInfo]:
    """The bundled variants, each once (the registry also lists aliases)."""
    seen: dict[str, VariantInfo] = {}
    for name in available_variants():
        v = load_variant(name)
        if v.name not in seen:
            seen[v.name] = VariantInfo(v.name, v.title, list(v.powers), v.description,
                                       list(v.notes))
    return sorted(seen.values(), key=lambda i: (i.name != "standard", i.name))


def bundled_variant(name: str) -> Variant:
    """A variant shipped with standoff, by name or alias (canonical form: trimmed, any
    case); 400 for any other name (an uploaded variant is played from its own file)."""
    key = name.strip().lower()
    if key not in available_variants():
        known = ", ".join(i.name for i in bundled_variants())
        raise invalid(f"unknown variant {name!r} (known: {known}; or send your own as "
                      "variant_file)")
    return load_variant(key)


def check_options(options: dict[str, Any]) -> dict[str, str]:
    """The rule options the engine accepts (only those differing from the defaults)."""
    for key, value in options.items():
        if not isinstance(value, str):
            raise invalid(f"option {key} must be a string (choose one of "
                          f"{', '.join(CHOICES.get(key, ((),))[0]) or 'the known values'})")
    try:
        return Options.from_dict(options).to_dict()
    except StandoffError as exc:
        raise invalid(str(exc)) from exc


def rule_options() -> list[tuple[str, list[str], str, str]]:
    """(name, allowed values, DATC issue, what it decides); the first value is the default."""
    default = Options().to_dict(only_changed=False)
    out = []
    for name, (values, issue, text) in CHOICES.items():
        ordered = [default[name], *[v for v in values if v != default[name]]]
        out.append((name, ordered, issue, text))
    return out


# -- one game's rules --------------------------------------------------------------------

class Rules:
    """The rules of one variant as the judge uses them: every function of the core
    it calls, with the variant object (and a registry that knows it) passed in."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.registry = VariantRegistry.of(variant)
        #: each power's id and its name as players read it (``france``: ``France``)
        self.power_names = {pid: p.name for pid, p in variant.powers.items()}

    def __repr__(self) -> str:
        return f"Rules({self.variant.name!r})"

    @property
    def name(self) -> str:
        return self.variant.name

    @property
    def title(self) -> str:
        return self.variant.title

    @property
    def notes(self) -> list[str]:
        """The variant's special rules in a few lines (``[variant] notes``)."""
        return list(self.variant.notes)

    @property
    def powers(self) -> list[str]:
        return list(self.variant.powers)

    def power_id(self, text: str) -> str:
        """A power by id, name or adjective, as the engine reads them."""
        try:
            return self.variant.power(text)
        except StandoffError as exc:
            raise invalid(str(exc)) from exc

    # -- the state ------------------------------------------------------------------

    def new_state(self, options: dict[str, str]) -> dict[str, Any]:
        return self._state(GameRecord.new(self.variant, Options.from_dict(options)))

    def _state(self, record: GameRecord) -> dict[str, Any]:
        """The record's JSON without its history and pending orders (the judge keeps
        those in their own rows)."""
        return record.to_dict(history=False, pending=False)

    def _load(self, state: dict[str, Any]) -> GameRecord:
        return GameRecord.from_dict(state, self.registry)

    def record(self, state: dict[str, Any]) -> GameRecord:
        """The state as the engine's record (without history): what a bot is given."""
        return self._load(state)

    def checked_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """A state someone wrote (a planning board's units), as the engine reads it
        back; 422 with the engine's reason when it is no position of this variant."""
        try:
            return self._state(self._load(state))
        except StandoffError as exc:
            raise ApiError(422, f"that is no position of {self.title}: {exc}") from exc
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ApiError(422, f"that is no position of {self.title}: "
                                f"{type(exc).__name__} {exc}") from exc

    def phase_of(self, state: dict[str, Any]) -> tuple[str, str]:
        """(short phase name, phase kind) of the state's current phase."""
        phase = self._phase(state)
        return phase.name(self.variant.calendar), KINDS[phase.kind.value]

    def _phase(self, state: dict[str, Any]) -> Phase:
        """The state's phase, read from its position's name alone (no game built)."""
        return Phase.parse(str(state["position"]["phase"]), self.variant.calendar)

    def phase_title(self, state: dict[str, Any]) -> str:
        """The state's phase as people read it: ``Spring 1902, Movement``."""
        return self._phase(state).long_name(self.variant.calendar)

    def phase_title_of(self, phase: str) -> str:
        """A phase's short name (``S1902M``) as people read it, without building a
        game (a board names every step's phase); a name the calendar cannot read is
        given back as it is."""
        try:
            return Phase.parse(phase, self.variant.calendar).long_name(self.variant.calendar)
        except StandoffError:
            return phase

    def adjustments(self, state: dict[str, Any]) -> dict[str, int]:
        """power -> builds (positive) or removals (negative) due in the state's
        phase, as the rules count them (builds limited by the free sites the
        variant's build rule allows); empty outside an adjustment phase. The pages
        show this count rather than subtracting units from centres. The game is
        built only in an adjustment phase."""
        if self._phase(state).kind is not PhaseKind.ADJUSTMENT:
            return {}
        return adjustment_counts(self.variant, self._load(state).position)

    def powers_to_order(self, state: dict[str, Any]) -> list[str]:
        """The powers that must act this phase (units, retreats, adjustments): the
        ones processing waits for and whose silence is an NMR."""
        record = self._load(state)
        return [] if record.is_over else standoff.powers_to_order(record)

    def powers_that_may_order(self, state: dict[str, Any]) -> list[str]:
        """Powers that may send orders this phase without having to (a canal owner
        with no units may PERMIT passage: The Twentieth Century)."""
        record = self._load(state)
        return [] if record.is_over else standoff.powers_that_may_order(record)

    def surviving_powers(self, state: dict[str, Any]) -> list[str]:
        """Powers that still have units or centres (those whose vote counts in a draw)."""
        return standoff.surviving_powers(self._load(state))

    # -- orders ---------------------------------------------------------------------

    def check_orders(self, state: dict[str, Any], power: str, texts: list[str],
                     merge_into: list[str] | None = None) -> list[str]:
        """The canonical texts of ``power``'s whole set of orders for the phase:
        ``texts`` alone, or with ``merge_into`` (the canonical orders already
        stored) ``texts`` added to them, each replacing the earlier order of the
        same unit, as the engine keeps orders; raise 400 invalid / 422 illegal with
        the engine's reason."""
        record = self._load(state)
        try:
            if merge_into is None:
                _, checked = submit_checked(record, power, texts, replace=True)
                return [str(o) for o in checked]
            record = submit_orders(record, power, merge_into, replace=True)
            merged, _ = submit_checked(record, power, texts, replace=False)
        except InvalidOrderError as exc:
            raise ApiError(400, str(exc), order=exc.text) from exc
        except IllegalOrderError as exc:
            raise ApiError(422, str(exc), order=exc.order) from exc
        except StandoffError as exc:
            raise ApiError(409 if record.is_over else 422, str(exc)) from exc
        mine = merged.pending.of(power)
        return [str(o) for o in mine.orders] if mine is not None else []

    def legal(self, state: dict[str, Any], power: str) -> dict[str, list[str]]:
        record = self._load(state)
        if record.is_over:
            return {}
        table = legal_orders(record.position, record.options, self.variant).get(power, {})
        return {loc.upper(): [str(o) for o in orders] for loc, orders in table.items()}

    def legal_options(self, state: dict[str, Any], power: str
                      ) -> dict[str, list[LegalOption]]:
        """:meth:`legal`, each order described by its parts (:class:`LegalOption`)."""
        record = self._load(state)
        if record.is_over:
            return {}
        links = self.variant.board_at(record.position.phase).army_links
        table = legal_orders(record.position, record.options, self.variant).get(power, {})
        return {loc.upper(): [legal_option(o, links) for o in orders]
                for loc, orders in table.items()}

    # -- processing -----------------------------------------------------------------

    def process(self, state: dict[str, Any], orders: dict[str, list[str]]) -> Processed:
        """Adjudicate the current phase with the given orders (powers left out are in
        civil disorder) and return the next state, the phase record and its report."""
        game = self._load(state)
        # the stored rows become the record's pending orders: each power's texts, as
        # one submission, in the order of the powers
        for power, texts in sorted(orders.items()):
            try:
                game = submit_orders(game, power, texts, replace=True)
            except StandoffError:
                # accepted when submitted against this very position, so only a change
                # of the engine's rules between then and now gets here: keep every
                # order that still passes on its own rather than lose them all
                log.warning("orders of %s no longer pass as a whole; keeping those that do",
                            power)
                game = clear_orders(game, power)
                for text in texts:
                    try:
                        game = submit_orders(game, power, [text])
                    except StandoffError as exc:
                        log.warning("dropped %s's order %r: %s", power, text, exc)
        game, _ = process_phase(game)
        rec = game.history[-1]
        record = {
            "phase": rec.position.phase.name(game.variant.calendar),
            "position": rec.position.to_dict(self.registry),
            "orders": {p: [str(o) for o in os] for p, os in rec.orders.items()},
            "results": [r.to_dict() for r in rec.results],
            "events": list(rec.events),
        }
        phase, kind = game.phase_name, KINDS[game.position.phase.kind.value]
        new = self._state(game)
        report, report_text = _report(game)
        return Processed(new, record, report, report_text, phase, kind,
                         [] if game.is_over else standoff.powers_to_order(game), new.get("outcome"))

    def declare_draw(self, state: dict[str, Any], powers: list[str] | None = None
                     ) -> dict[str, Any]:
        """The state ended in a draw shared by ``powers`` (default: every surviving power)."""
        game = self._load(state)
        try:
            drawn = standoff.declare_draw(game, powers)
        except StandoffError as exc:
            raise ApiError(409, str(exc)) from exc
        return self._state(drawn)

    def concede(self, state: dict[str, Any], winner: str) -> dict[str, Any]:
        """The state ended with ``winner`` winning: the others conceded it the game
        (:func:`standoff.concede`: an ordinary win). 409 for a game over or a power
        out of the game, 400 for an unknown power."""
        game = self._load(state)
        try:
            won = standoff.concede(game, winner)
        except GameStateError as exc:
            raise ApiError(409, str(exc)) from exc
        except StandoffError as exc:
            raise invalid(str(exc)) from exc
        return self._state(won)

    # -- pictures -------------------------------------------------------------------

    def render_svg(self, position: dict[str, Any], orders: dict[str, list[str]] | None = None,
                   results: list[dict[str, Any]] | None = None, title: str = "") -> str:
        """The map of a position, with a phase's orders and results drawn on it; 404
        for a variant that has no drawing (a designer's own map)."""
        from standoff.render import render_svg as draw

        v = self.variant
        pos = Position.from_dict(position, self.registry)

        def parse(text: str) -> Order:
            return Order.parse(text, v)

        drawn = {p: [parse(t) for t in ts] for p, ts in (orders or {}).items()}
        outcome = [OrderResult.from_dict(r, parse) for r in (results or [])]
        try:
            return draw(pos, orders=drawn or None, results=outcome or None, title=title,
                        variant=v)
        except StandoffError as exc:
            raise ApiError(404, f"there is no map drawing of {v.title}: {exc}") from exc


def _report(game: GameRecord) -> tuple[dict[str, Any] | None, str | None]:
    """The phase's results report (:func:`standoff.game_report`), as data and as text."""
    try:
        report = game_report(game)
        return report.to_dict(), report.to_text()
    except Exception:  # a report is a courtesy: it never stops a phase
        log.exception("the results report of %s failed", game.history[-1].position.phase)
        return None, None


class UnreadableVariant(Exception):
    """A designer's variant file that the core's loader refuses (its reason)."""


def rules_from_text(text: str, path: str) -> Rules:
    """The rules of a designer's variant file (its TOML text, read as if from
    ``path``); :class:`UnreadableVariant` when it does not load."""
    try:
        return Rules(variant_from_text(text, path))
    except StandoffError as exc:
        raise UnreadableVariant(str(exc)) from exc


def bundled_rules(name: str) -> Rules:
    """The rules of a bundled variant by name or alias (one object per variant, kept
    for the process: there are six of them). 400 for an unknown name."""
    return _bundled_rules(bundled_variant(name).name)


@cache
def _bundled_rules(name: str) -> Rules:
    return Rules(load_variant(name))
