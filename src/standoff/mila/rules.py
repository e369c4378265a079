"""MILA's game rules (``"rules": [...]`` in a saved game): which change adjudication.

Most of MILA's rules are about press, deadlines and who plays whom; they change
nothing in the positions a game goes through. Three do, and each is honoured:

* ``BUILD_ANY``: builds in any owned supply centre, not only home centres. The
  game is replayed on Standard with owned-centre builds, a variant derived here
  (``standard-build-any``, the same hook Sahara uses).
* ``DONT_SKIP_PHASES``: empty retreat and adjustment phases are played, not
  skipped. The replay accepts such a phase where standoff goes straight on.
* ``NO_CHECK``: orders are recorded unchecked; standoff adjudicates an illegal
  one as it always does (the unit holds), which is what MILA does with it too.

``HOLD_WIN`` and ``SHARED_VICTORY`` change only when a game ends, which the
replay does not compare. A rule not listed here is reported as unknown.

Whatever its rules, MILA removes the units of a power in civil disorder by the
1982 rulebook; that is a standoff rule option (``civil_disorder=1982``), not a
MILA rule, so it is a cause of differences (see :mod:`.differences`) rather than
something read from the file.
"""

from __future__ import annotations

from collections.abc import Iterable

from standoff import Variant, VariantError, load_variant, register_variant, variant_from_text

BUILD_ANY = "BUILD_ANY"
DONT_SKIP_PHASES = "DONT_SKIP_PHASES"

#: rule -> what it means for a replay through standoff
RULES: dict[str, str] = {
    BUILD_ANY: "builds in any owned centre: replayed on the variant standard-build-any",
    DONT_SKIP_PHASES: "empty retreat and adjustment phases played: accepted where standoff "
                      "skips them",
    "NO_CHECK": "orders recorded unchecked: an illegal one is adjudicated as a hold",
    "CIVIL_DISORDER": "orders defaulted for powers that sent none: holds, and removals by "
                      "MILA's rule (the cause civil-disorder-removals-1982 where it differs)",
    "HOLD_WIN": "victory held two years: game end only, not compared",
    "SHARED_VICTORY": "several winners at once: game end only, not compared",
    **{r: "no effect on adjudication" for r in (
        "NO_PRESS", "PUBLIC_PRESS", "POWER_CHOICE", "REAL_TIME", "NO_DEADLINE", "SOLITAIRE",
        "IGNORE_ERRORS", "CD_DUMMIES", "ALWAYS_WAIT", "START_MASTER",
        "MULTIPLE_POWERS_PER_PLAYER", "NO_OBSERVATIONS", "PROPOSE_DIAS", "NO_DIAS")},
}

_BUILD_ANY_VARIANT = """\
[variant]
name = "standard-build-any"
builds = "owned"

[derive]
base = "standard"
"""


def variant_for(rules: Iterable[str]) -> Variant:
    """The variant a MILA Standard game with these rules is replayed on."""
    if BUILD_ANY not in set(rules):
        return load_variant("standard")
    try:
        return load_variant("standard-build-any")
    except VariantError:  # not registered yet in this process
        v = variant_from_text(_BUILD_ANY_VARIANT, "<MILA rule BUILD_ANY>")
        register_variant(v)
        return v


def rule_notes(rules: Iterable[str]) -> list[str]:
    """One line per rule of the game that is not plainly harmless."""
    out = []
    for r in rules:
        meaning = RULES.get(r)
        if meaning is None:
            out.append(f"rule {r}: unknown to standoff, its effect (if any) is not modelled")
        elif meaning != "no effect on adjudication":
            out.append(f"rule {r}: {meaning}")
    return out


def mila_rules(variant: Variant) -> list[str]:
    """The MILA rules a standoff game of ``variant`` is exported with."""
    rules = ["NO_PRESS", "POWER_CHOICE"]
    if variant.name == "standard-build-any":
        rules.append(BUILD_ANY)
    return rules
