"""standoff: a fast, DATC 3.0 compliant Diplomacy adjudicator and judge built for variants.

This module is the rules core's public API: everything a program (and every
adapter of this package: the CLI, saved-game storage, the case-file runner,
the renderer, the web judge) uses of the rules. The core itself lives in
:mod:`standoff.core`, imports only the standard library and never an
adapter; the adapters live beside it in their own subpackages
(``standoff.cli``, ``standoff.storage``, ``standoff.cases``,
``standoff.render``, ``standoff.judge``) and import the core through this
module only. ``docs/architecture.md`` maps the whole tree.
"""

from .core import movement as _movement
from .core.adjudicator import PhaseResult, adjudicate, check_order, read_orders
from .core.adjustments import adjustment_counts
from .core.batch import GameBatch, game_rng
from .core.errors import (
    CorruptGameError,
    GameStateError,
    IllegalOrderError,
    InvalidOrderError,
    NotationError,
    StandoffError,
    VariantError,
    quote,
)
from .core.features import Features
from .core.game import Game
from .core.geography import Board, Province, Terrain, UnitType, province_of
from .core.legal_orders import legal_orders, random_orders
from .core.notation import parse_order
from .core.options import CHOICES, DEFAULT, OptionError, Options
from .core.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    NoConvert,
    Order,
    OrderKind,
    Permit,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    narrow_order,
)
from .core.pending import PendingOrders, PowerOrders
from .core.phase import Calendar, Phase, PhaseKind
from .core.position import Dislodged, Position, Unit
from .core.record import (
    Draw,
    GameRecord,
    PhaseRecord,
    clear_orders,
    concede,
    declare_draw,
    powers_that_may_order,
    powers_to_order,
    process_phase,
    submit_checked,
    submit_orders,
    surviving_powers,
)
from .core.report import PhaseReport, game_report, phase_report
from .core.results import OrderResult, Reason
from .core.retreats import retreat_options
from .core.variant import (
    DEFAULT_REGISTRY,
    Power,
    Variant,
    VariantRegistry,
    VariantSource,
    available_variants,
    derivation,
    load_variant,
    register_variant,
    variant_data,
    variant_from_text,
)
from .core.variant_check import check_variant, variant_summary
from .core.victory import (
    CentreCountWinner,
    LastUnitIn,
    Outcome,
    UnitCountWinner,
    VictoryRule,
    decide_victory,
)

__version__ = "0.1.0"

#: True when the rules core runs compiled by mypyc (a wheel or ``pip install .``),
#: False for the pure Python modules (an editable install). Same rules, same
#: results; the compiled core is about twice as fast (see setup.py).
COMPILED: bool = not _movement.__file__.endswith(".py")
#: which core runs, in words, for version lines and benchmark reports
BUILD: str = "compiled core (mypyc)" if COMPILED else "pure Python core"

__all__ = [
    "BUILD", "CHOICES", "COMPILED", "DEFAULT", "DEFAULT_REGISTRY", "AnyOrder", "Board", "Build",
    "Calendar", "CentreCountWinner", "Convoy", "CorruptGameError", "Disband", "Dislodged",
    "Draw", "Features", "Game", "GameBatch", "GameRecord", "GameStateError", "Hold",
    "IllegalOrderError",
    "InvalidOrderError", "LastUnitIn", "Move", "NoConvert", "NotationError", "OptionError",
    "Options", "Order", "OrderKind", "OrderResult", "Outcome", "PendingOrders", "Permit",
    "Phase", "PhaseKind", "PhaseRecord", "PhaseReport", "PhaseResult", "Position", "Power",
    "PowerOrders", "Province", "Reason", "Remove", "Retreat", "StandoffError", "SupportHold",
    "SupportMove", "Terrain", "Unit", "UnitCountWinner", "UnitType", "Variant", "VariantError",
    "VariantRegistry", "VariantSource", "VictoryRule", "Waive", "adjudicate",
    "adjustment_counts",
    "available_variants", "check_order", "check_variant", "clear_orders", "concede",
    "decide_victory",
    "declare_draw", "derivation", "game_report", "game_rng", "legal_orders", "load_variant",
    "narrow_order",
    "parse_order", "phase_report", "powers_that_may_order", "powers_to_order", "process_phase",
    "province_of", "quote", "random_orders", "read_orders", "register_variant", "retreat_options",
    "submit_checked", "submit_orders", "surviving_powers", "variant_data", "variant_from_text",
    "variant_summary",
]
