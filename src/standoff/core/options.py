"""Rule options: the 2023 rulebook as DATC 3.0 prefers it, and the older choices.

Each option is a DATC chapter 4 issue; the default is the DATC's preference.
Options are a frozen value so a game, a case or a benchmark can carry them and
they can be written to and read from ``key=value`` text and JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final, Literal, get_args

from .errors import StandoffError
from .phase import OptionalSeasonYears

# Each option's values, declared once: the type mypy checks and the values
# CHOICES lists (the default first) are both read from these.
ConvoyDisruption = Literal["all_routes", "any_route"]
Paradox = Literal["szykman", "2000", "1982"]
AdjacentConvoy = Literal["2023", "1971", "1982", "2000", "dptg"]
SupportCutByConvoyedTarget = Literal["not_cut", "cut"]
ConvoyRetreat = Literal["allowed", "forbidden"]
DislodgedBounce = Literal["head_to_head", "never"]
OmittedCoast = Literal["attempt", "fail"]
ImpossibleCoast = Literal["illegal", "ignore"]
CivilDisorder = Literal["2023", "1982"]

#: option -> (allowed values, the default first; DATC issue; what it decides)
CHOICES: dict[str, tuple[tuple[str, ...], str, str]] = {
    "convoy_disruption": (get_args(ConvoyDisruption), "4.A.1",
                          "a multi-route convoy fails when all routes (or, 1971: any route) "
                          "are disrupted"),
    "paradox": (get_args(Paradox), "4.A.2",
                "convoy paradoxes: the Szykman rule; the 2000/2023 rule (a convoyed army does "
                "not cut support for an attack on a fleet its convoy needs); or the 1982 rule "
                "(... for an action in a sea holding a convoying fleet). Szykman stays the "
                "backup for paradoxes the older rules leave open"),
    "adjacent_convoy": (get_args(AdjacentConvoy), "4.A.3",
                        "when an army ordered to an adjacent province goes by convoy. 2000: "
                        "the 2000 rules as DATC 2.x read them (older judges): as 2023, but "
                        "with no convoy route ordered the army moves over land, 'via "
                        "convoy' or not (6.G.8); a route ordered and disrupted: it stays"),
    "support_cut_by_convoyed_target": (get_args(SupportCutByConvoyedTarget), "4.A.4",
                                       "whether an army convoyed from the supported attack's "
                                       "target cuts the support"),
    "convoy_retreat": (get_args(ConvoyRetreat), "4.A.5",
                       "whether a unit dislodged by a convoyed army may retreat to the "
                       "army's origin"),
    "dislodged_bounce": (get_args(DislodgedBounce), "4.A.7",
                         "a dislodged unit loses its effect on the attacker's origin only in a "
                         "head-to-head battle, or always"),
    "omitted_coast": (get_args(OmittedCoast), "4.B.2",
                      "a fleet move without a coast where only one coast is reachable"),
    "impossible_coast": (get_args(ImpossibleCoast), "4.B.3",
                         "a fleet move to a coast it cannot reach"),
    "civil_disorder": (get_args(CivilDisorder), "4.D.8",
                       "which units a power in civil disorder removes"),
    "optional_seasons": (get_args(OptionalSeasonYears), "City/Country .62",
                         "in which years a variant's optional season (a Summer) is played"),
}


class OptionError(StandoffError):
    """An unknown option or value."""


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options of a game. Each value is typed by its ``Literal`` (mypy
    refuses ``Options(paradox="bogus")``); text from files and the command line
    is checked when the value is made (:class:`OptionError`)."""

    convoy_disruption: ConvoyDisruption = "all_routes"
    paradox: Paradox = "szykman"
    adjacent_convoy: AdjacentConvoy = "2023"
    support_cut_by_convoyed_target: SupportCutByConvoyedTarget = "not_cut"
    convoy_retreat: ConvoyRetreat = "allowed"
    dislodged_bounce: DislodgedBounce = "head_to_head"
    omitted_coast: OmittedCoast = "attempt"
    impossible_coast: ImpossibleCoast = "illegal"
    civil_disorder: CivilDisorder = "2023"
    optional_seasons: OptionalSeasonYears = "never"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = CHOICES[f.name][0]
            if value not in allowed:
                raise OptionError(
                    f"option {f.name} cannot be {value!r} (choose one of {', '.join(allowed)})"
                )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Options, tuple(getattr(self, f.name) for f in fields(self)))

    def with_(self, **changes: str) -> Options:
        """These options with some changed, given as text (checked here: a value
        outside its option's ``Literal`` raises OptionError)."""
        unknown = set(changes) - set(CHOICES)
        if unknown:
            raise OptionError(f"unknown option {sorted(unknown)[0]!r} "
                              f"(known: {', '.join(CHOICES)})")
        checked: dict[str, Any] = changes  # __post_init__ checks each value
        return replace(self, **checked)

    @classmethod
    def parse(cls, items: list[str] | tuple[str, ...]) -> Options:
        """From ``["paradox=1982", ...]``."""
        changes = {}
        for item in items:
            key, sep, value = item.partition("=")
            if not sep:
                raise OptionError(f"option {item!r} must be key=value")
            changes[key.strip()] = value.strip()
        return cls().with_(**changes)

    def to_dict(self, only_changed: bool = True) -> dict[str, str]:
        d = asdict(self)
        if only_changed:
            default = asdict(Options())
            return {k: v for k, v in d.items() if v != default[k]}
        return d

    @classmethod
    def from_dict(cls, data: Any) -> Options:
        if not isinstance(data, dict):
            raise OptionError("options must be an object of key: value")
        return cls().with_(**{str(k): str(v) for k, v in data.items()})

    def __str__(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.to_dict().items()) or "defaults"


DEFAULT: Final = Options()
