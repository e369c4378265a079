"""standoff: a fast, DATC 3.0 compliant Diplomacy adjudicator built for variants.

The rules core (this package minus ``cli``) uses only the standard library.
"""

from .adjudicator import PhaseResult, adjudicate
from .errors import (
    CorruptGameError,
    IllegalOrderError,
    InvalidOrderError,
    NotationError,
    StandoffError,
)
from .geography import Board, Province, Terrain, UnitType
from .options import Options
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from .phase import Phase, PhaseKind
from .position import Dislodged, Position, Unit
from .results import OrderResult, Reason
from .variant import Variant, load_variant

__version__ = "0.1.0"

from . import movement as _movement

#: True when the rules core runs compiled by mypyc (a wheel or ``pip install .``),
#: False for the pure Python modules (an editable install). Same rules, same
#: results; the compiled core is about twice as fast (see setup.py).
COMPILED: bool = not _movement.__file__.endswith(".py")
#: which core runs, in words, for version lines and benchmark reports
BUILD: str = "compiled core (mypyc)" if COMPILED else "pure Python core"

__all__ = [
    "BUILD", "COMPILED", "Board", "Build", "Convoy", "CorruptGameError", "Disband", "Dislodged",
    "Hold",
    "IllegalOrderError", "InvalidOrderError", "Move", "NotationError", "Options", "Order",
    "OrderResult", "Phase", "PhaseKind", "PhaseResult", "Position", "Province", "Reason",
    "Remove", "Retreat", "StandoffError", "SupportHold", "SupportMove", "Terrain", "Unit",
    "UnitType", "Variant", "Waive", "adjudicate", "load_variant",
]
