"""What happened to each order, and why.

A result names the order, whether it succeeded, and a reason code with the
provinces involved, so a UI can say "bounced with A BUR" or "support cut by
F NTH" without re-adjudicating.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, Final

from .orders import Order


class Reason(str, Enum):
    """Why an order failed (or, for ``NONE``, that it did not)."""

    NONE = "none"
    INVALID = "invalid"  # the text could not be read as an order
    ILLEGAL = "illegal"  # the order broke the rules and was ignored (unit holds)
    BOUNCED = "bounced"  # a move met equal or greater strength
    NO_CONVOY = "no_convoy"  # no undisrupted convoy route
    PARADOX = "convoy_paradox"  # convoy taken out by the Szykman rule
    CUT = "cut"  # support cut by an attack
    VOID = "void"  # support/convoy for an order that was not given
    DISLODGED = "dislodged"  # the unit was dislodged
    NO_RETREAT = "no_retreat"  # dislodged with nowhere to go: disbanded
    CIVIL_DISORDER = "civil_disorder"  # order supplied by the civil-disorder rule
    NOT_ALLOWED = "not_allowed"  # adjustment beyond what the power may do
    NO_ENTRY = "no_entry"  # the attack succeeded along a strike-only link: no entry
    NOTED = "noted"  # a standing instruction (NO CONVERT, PERMIT), recorded
    NO_PASSAGE = "no_passage"  # a canal move without its owner's permission: unit holds

    def describe(self) -> str:
        return _TEXT[self]


_TEXT: Final = {
    Reason.NONE: "",
    Reason.INVALID: "invalid",
    Reason.ILLEGAL: "illegal",
    Reason.BOUNCED: "bounced with",
    Reason.NO_CONVOY: "no convoy route",
    Reason.PARADOX: "convoy disrupted by the Szykman rule (paradox)",
    Reason.CUT: "support cut by",
    Reason.VOID: "void: no matching order",
    Reason.DISLODGED: "dislodged by",
    Reason.NO_RETREAT: "dislodged with no retreat: disbanded",
    Reason.CIVIL_DISORDER: "civil disorder",
    Reason.NOT_ALLOWED: "not allowed",
    Reason.NO_ENTRY: "the attack succeeded but the unit may not enter from there",
    Reason.NOTED: "noted",
    Reason.NO_PASSAGE: "no passage: the canal's owner did not permit it",
}


#: each reason's text, without ``Enum.value`` (a Python-level property on 3.11)
_REASON_TEXT: Final[dict[Reason, str]] = {r: r.value for r in Reason}


class OrderResult:
    """One order's outcome; treat it as immutable.

    A plain class, not a dataclass: a phase builds one per order, and a
    hand-written constructor is compiled with the core (a dataclass's stays
    interpreted) and several times cheaper."""

    __slots__ = ("by", "detail", "dislodged_by", "order", "power", "reason", "success", "text")

    def __init__(self, power: str, order: Order | None, success: bool,
                 reason: Reason = Reason.NONE, by: tuple[str, ...] = (), detail: str = "",
                 dislodged_by: str | None = None, text: str = "") -> None:
        self.power = power
        self.order = order
        self.success = success
        self.reason = reason
        #: provinces of the units that caused the failure (bouncer, cutter, dislodger)
        self.by = by
        #: free text for illegal orders: why the order was refused
        self.detail = detail
        #: the unit was dislodged (a move/support/convoy can fail and the unit be
        #: dislodged too)
        self.dislodged_by = dislodged_by
        #: the order as written, when it could not be used (illegal)
        self.text = text

    def _key(self) -> tuple[object, ...]:
        return (self.power, self.order, self.success, self.reason, self.by, self.detail,
                self.dislodged_by, self.text)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (OrderResult, self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OrderResult):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable in principle, like the dataclass was

    def __repr__(self) -> str:
        return (f"OrderResult({self.power!r}, {self.order!r}, {self.success!r}, "
                f"Reason.{self.reason.name}, {self.by!r}, {self.detail!r}, "
                f"{self.dislodged_by!r}, {self.text!r})")

    def describe(self) -> str:
        """e.g. ``A PAR - BUR: fails (bounced with MUN)``."""
        order = str(self.order) if self.order is not None else self.text
        if self.success and self.dislodged_by is None:
            return f"{order}: succeeds"
        parts = []
        if not self.success:
            why = self.reason.describe()
            if self.by:
                why += " " + ", ".join(p.upper() for p in self.by)
            if self.detail:
                why = f"{why}: {self.detail}" if why else self.detail
            parts.append(why)
        if self.dislodged_by is not None and self.reason is not Reason.DISLODGED:
            parts.append(f"dislodged by {self.dislodged_by.upper()}")
        verdict = "succeeds" if self.success else "fails"
        return f"{order}: {verdict} ({'; '.join(p for p in parts if p)})"

    @classmethod
    def from_dict(cls, data: dict[str, Any], parse: Callable[[str], Order]) -> OrderResult:
        """Inverse of :meth:`to_dict`; ``parse`` reads the order text."""
        reason = Reason(data.get("reason", "none"))
        text = str(data["order"])
        order = None if reason is Reason.INVALID else parse(text)
        dis = data.get("dislodged_by")
        return cls(
            power=str(data["power"]),
            order=order,
            success=bool(data["success"]),
            reason=reason,
            by=tuple(str(p).lower() for p in data.get("by", ())),
            detail=str(data.get("detail", "")),
            dislodged_by=str(dis).lower() if dis is not None else None,
            text=text if order is None else "",
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "power": self.power,
            "order": str(self.order) if self.order is not None else self.text,
            "success": self.success,
        }
        if self.reason is not Reason.NONE:
            out["reason"] = _REASON_TEXT[self.reason]
        if self.by:
            out["by"] = [p.upper() for p in self.by]
        if self.detail:
            out["detail"] = self.detail
        if self.dislodged_by is not None:
            out["dislodged_by"] = self.dislodged_by.upper()
        return out
