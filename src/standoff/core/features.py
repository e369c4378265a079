"""Every variant feature, declared once.

A variant is data plus a few named hooks; what that data switches on is listed
here, one flag per feature, in the manner of python-chess's variant classes
(whose class attributes say, in one block, what each variant changes). Each
flag says what it means, the rule text it comes from and the core modules that
honour it. :attr:`standoff.core.variant.Variant.features` holds a variant's
flags, worked out from its data when the variant is built, so a program (or a
reader) asks ``variant.features.high_seas`` instead of searching the map.

The flags describe; they do not switch code paths on their own. The rules read
the data a flag summarises (the board in force, the calendar, the variant's
hooks), which is why a Standard game pays nothing for features it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant import Variant


@dataclass(frozen=True, slots=True)
class Features:
    """The features a variant uses (all False: the Standard game)."""

    #: Spaces of unlimited capacity: a sea with ``capacity = 0`` holds any number of
    #: fleets, which are never dislodged, cannot support, and each take an order.
    #: Rule: 1939 IV rules 5.1-5.4 (the high oceans).
    #: Honoured by: geography (Board.high_seas), position (check), order_checks, movement,
    #: retreats, adjustments, adjudicator, legal_orders, record (one pending order a fleet),
    #: report.
    high_seas: bool = False

    #: Strike-only links (``[adjacency] strike_only``): a unit attacks, supports and
    #: stands off along the link but never enters.
    #: Rule: City/Country rule .5 (a City is entered only from its Country or its sea).
    #: Honoured by: geography (Board.strike_only, can_enter), movement, retreats,
    #: report, hooks/split_centres (writes them), variant_check.
    strike_only_links: bool = False

    #: Canals and permits (``[canals]``): a canal's owner's fleets pass between its
    #: seas; another power's fleet needs the owner's PERMIT order that turn.
    #: Rule: The Twentieth Century, Straits & Canals.
    #: Honoured by: geography (Board.canals), orders (permit.py: PERMIT and its check),
    #: notation, order_checks (canal_owner), adjudicator (canal passage), legal_orders, record,
    #: report.
    canals: bool = False

    #: Stacked levels (provinces with a ``level``): two or more copies of a map,
    #: linked space to corresponding space.
    #: Rule: Twin Earths rules 1-3.
    #: Honoured by: hooks/levels (the transform), order_checks (why a move between
    #: levels is no link), notation (the variant's hints for a missing level).
    stacked_levels: bool = False

    #: Units of no power (``[neutral] units``), in civil disorder: they take the
    #: orders of the variant's neutral-orders hook (civil_disorder: none, so they
    #: hold and may be supported), are annihilated when dislodged, capture nothing.
    #: Rule: 1939 IV rules 2.2 and 7.5.
    #: Honoured by: position (initial, notation), hooks/neutral, adjudicator
    #: (retreats, centres), legal_orders, victory (unit counts), report.
    neutral_units: bool = False

    #: Build centres (``[build_centres]``): spaces that are no supply centre where
    #: a power may build while it owns one of the centres listed.
    #: Rule: 1939 IV rules 4.1-4.3 and 7.1 (Persia, Archangel).
    #: Honoured by: hooks/build_sites (WithBuildCentres), adjustments, variant_check.
    build_centres: bool = False

    #: Builds in any owned, empty supply centre (``builds = "owned"``), not only in
    #: home centres.
    #: Rule: Sahara rule 4.
    #: Honoured by: hooks/build_sites (OwnedCentres), adjustments.
    builds_anywhere: bool = False

    #: A map that changes during the game (``hooks = ["changing_map"]`` and
    #: ``[map_changes]``): seas dry, spaces open or close, centres come and go.
    #: Rule: Sahara rules 2, 3 and 5.
    #: Honoured by: hooks/changing_map (the Timeline), variant (board_at),
    #: map_change_effects (what a change does to units and centres), adjudicator,
    #: variant_check.
    changing_map: bool = False

    #: Stranded fleets become armies (``stranded_fleets = "army"``) unless their
    #: owner orders NO CONVERT; without the flag they are disbanded.
    #: Rule: Sahara rule 2.
    #: Honoured by: map_change_effects (apply_map_change), orders (NO CONVERT), notation,
    #: adjudicator (the notes), position (the notes field).
    no_convert: bool = False

    #: An optional season (``[calendar] optional``), played in the years the rule
    #: option ``optional_seasons`` picks.
    #: Rule: City/Country rule .62 (a Summer).
    #: Honoured by: phase (Calendar.plays, Phase.next_after_turn), options,
    #: adjudicator.
    optional_seasons: bool = False

    #: Eras (``[calendar] eras``): the seasons take new names (and letters) from a
    #: given year on; old and new names are both read.
    #: Rule: Sahara rule 6 ("Early Summer", "Late Summer", "Between Summers" from 1905).
    #: Honoured by: phase (Calendar).
    eras: bool = False

    @classmethod
    def of(cls, variant: Variant) -> Features:
        """The features ``variant``'s data uses."""
        board = variant.board
        provinces = board.provinces.values()
        return cls(
            high_seas=bool(board.high_seas),
            strike_only_links=bool(board.strike_only),
            canals=bool(board.canals),
            stacked_levels=len({p.level for p in provinces}) > 1,
            neutral_units=bool(variant.neutral_units),
            build_centres=bool(variant.build_centres),
            builds_anywhere=variant.builds == "owned",
            changing_map=variant.timeline is not None,
            no_convert=variant.stranded_fleets == "army",
            optional_seasons=bool(variant.calendar.optional),
            eras=bool(variant.calendar.eras),
        )

    def names(self) -> list[str]:
        """The features in use, by flag name, in declaration order."""
        return [f.name for f in fields(self) if getattr(self, f.name)]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # by the constructor's arguments, as every value of the compiled core
        return (Features, tuple(getattr(self, f.name) for f in fields(self)))
