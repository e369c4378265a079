"""BUILD: a new unit in one of the power's build sites (``BUILD F STP/NC``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, final

from ..phase import PhaseKind
from .base import Order, unit_text


@final
@dataclass(frozen=True, slots=True, repr=False)
class Build(Order):
    @property
    def kind(self) -> Literal["build"]:
        return "build"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return f"BUILD {unit_text(self.unit, self.location)}"
