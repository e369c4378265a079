"""WAIVE: the power declines one build (``WAIVE``). ``location`` is empty: a
waive is for no site."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, final

from ..phase import PhaseKind
from .base import Order


@final
@dataclass(frozen=True, slots=True, repr=False)
class Waive(Order):
    @property
    def kind(self) -> Literal["waive"]:
        return "waive"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return "WAIVE"


#: the one waive there is (orders are values: every WAIVE is equal to it)
WAIVE = Waive(None, "")
