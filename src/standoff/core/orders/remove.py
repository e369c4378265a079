"""REMOVE: the power takes one of its units off the board (``REMOVE A WAR``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, final

from ..phase import PhaseKind
from .base import Order, unit_text


@final
@dataclass(frozen=True, slots=True, repr=False)
class Remove(Order):
    @property
    def kind(self) -> Literal["remove"]:
        return "remove"

    @property
    def phase(self) -> PhaseKind:
        return PhaseKind.ADJUSTMENT

    def __str__(self) -> str:
        return f"REMOVE {unit_text(self.unit, self.location)}"
