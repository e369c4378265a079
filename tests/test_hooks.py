"""Named, typed hooks (core/hooks): each kind's registry, the implementations the
bundled variants choose by name, and a designer's file choosing them the same way."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from standoff import (
    CentreCountWinner,
    LastUnitIn,
    Move,
    Position,
    Unit,
    UnitCountWinner,
    UnitType,
    Variant,
    adjudicate,
    load_variant,
)
from standoff.core import hooks
from standoff.core.errors import VariantError
from standoff.core.hooks.build_sites import (
    BuildCentre,
    HomeCentres,
    OwnedCentres,
    WithBuildCentres,
)
from standoff.core.hooks.changing_map import ChangingMap
from standoff.core.hooks.neutral import CivilDisorder
from standoff.core.variant import available_variants, variant_from_text

STANDARD = load_variant("standard")
IV = load_variant("1939-iv")
SAHARA = load_variant("sahara")


def test_registries_name_every_hook() -> None:
    assert set(hooks.TRANSFORMS) == {"twin_levels", "split_centres"}
    assert set(hooks.MAP_CHANGES) == {"changing_map"}
    assert list(hooks.VICTORY) == ["centres", "units", "unit_in"]
    assert set(hooks.BUILD_SITES) == {"home", "owned"}
    assert set(hooks.NEUTRAL_ORDERS) == {"civil_disorder"}


@pytest.mark.parametrize(("name", "victory", "sites", "neutral", "timeline"), [
    ("standard", CentreCountWinner(18), HomeCentres(), CivilDisorder(), False),
    ("sahara", None, OwnedCentres(), CivilDisorder(), True),
    ("twin-earths", UnitCountWinner(35), HomeCentres(), CivilDisorder(), False),
    ("twentieth-century", CentreCountWinner(74, 1), HomeCentres(), CivilDisorder(), False),
    ("1939-iv", CentreCountWinner(20), None, CivilDisorder(), False),
])
def test_each_variant_file_chooses_its_hooks_by_name(name: str, victory: object, sites: object,
                                                      neutral: object, timeline: bool) -> None:
    v = load_variant(name)
    if victory is not None:
        assert v.victory == victory
    if sites is not None:
        assert v.build_sites == sites
    assert v.neutral_orders == neutral
    assert isinstance(v.timeline, ChangingMap) is timeline


def test_sahara_victory_is_the_last_unit_in_iceland() -> None:
    assert isinstance(SAHARA.victory, LastUnitIn) and SAHARA.victory.space == "ice"


# -- build sites -------------------------------------------------------------------------------


def test_home_centres_owned_and_empty() -> None:
    """Rulebook: builds only in owned, unoccupied home centres."""
    centres = {"par": "france", "mar": "france", "bre": "germany", "bel": "france"}
    sites = HomeCentres().sites(STANDARD, "france", centres, {"mar"})
    assert sites == ["par"]
    board = STANDARD.board
    refusal = HomeCentres().refusal
    assert refusal(STANDARD, board, "france", "bel", centres, set()) == (
        "BEL is not a home centre of france")
    assert refusal(STANDARD, board, "france", "bre", centres, set()) == "france does not own BRE"
    assert refusal(STANDARD, board, "france", "mar", centres, {"mar"}) == "MAR is occupied"


def test_owned_centres_anywhere() -> None:
    """Sahara rule 4: a power builds in any supply centre it owns and nobody holds."""
    centres = {"par": "france", "bel": "france", "mun": "germany"}
    assert OwnedCentres().sites(SAHARA, "france", centres, {"par"}) == ["bel"]
    refusal = OwnedCentres().refusal
    board = SAHARA.board
    assert refusal(SAHARA, board, "france", "bur", centres, set()) == (
        "BUR is not a supply centre")
    assert refusal(SAHARA, board, "france", "mun", centres, set()) == "france does not own MUN"


def test_build_centres_while_a_listed_centre_is_owned() -> None:
    """1939 IV rules 4.1-4.3, 7.1: Russia builds in Persia while it owns one of
    Leningrad, Moscow, Sevastopol or Kuibyshev; in Archangel while it owns Leningrad."""
    sites = IV.build_sites
    assert isinstance(sites, WithBuildCentres) and sites.base == HomeCentres()
    assert sites.extra["per"] == BuildCentre("per", "russia", ("len", "mos", "sev", "kui"))
    pos = Position.initial(IV)
    free = {"len", "mos", "sev", "kui"} - {u.province for u in pos.units}
    owned = {c: "russia" for c in ("mos",)}
    got = sites.sites(IV, "russia", owned, {u.province for u in pos.units})
    assert "per" in got and "arc" not in got
    assert set(got) - {"per"} <= free | {"mos"}
    refusal = sites.refusal(IV, IV.board, "russia", "arc", owned, set())
    assert refusal == "russia may build in ARC only while it owns one of LEN"
    assert sites.refusal(IV, IV.board, "russia", "per", owned, {"per"}) == "PER is occupied"
    # another power's reasons are the base rule's
    assert "not a home centre" in sites.refusal(IV, IV.board, "england", "per", owned, set())


# -- neutral units -----------------------------------------------------------------------------


def test_civil_disorder_gives_no_orders() -> None:
    """1939 IV rule 2.2: the neutral armies are in civil disorder: no orders, so they hold."""
    pos = Position.initial(IV)
    assert any(u.power == IV.neutral for u in pos.units)
    assert IV.neutral_orders.orders(IV, pos) == []


class _Advance:
    """A neutral-orders hook of a test's own: the neutral army in Finland attacks Norway."""

    def orders(self, variant: Variant, position: Position) -> list[Move]:
        return [Move(UnitType.ARMY, "fin", "nwy")]


def test_the_adjudicator_gives_neutral_units_the_hooks_orders() -> None:
    """The hook is asked once per movement phase; what it orders is checked and
    adjudicated as any power's order is."""
    pos = Position.initial(IV)
    held = adjudicate(pos, {}, variant=IV).next_position
    assert Unit(IV.neutral, UnitType.ARMY, "fin") in held.units
    advancing = dataclasses.replace(IV, neutral_orders=_Advance())
    assert advancing.build_sites == IV.build_sites and advancing.features == IV.features
    moved = adjudicate(pos, {}, variant=advancing).next_position
    assert Unit(IV.neutral, UnitType.ARMY, "nwy") in moved.units
    assert Unit(IV.neutral, UnitType.ARMY, "fin") not in moved.units


def test_a_file_names_its_neutral_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hooks.NEUTRAL_ORDERS, "advance", _Advance)
    text = Path(available_variants()["1939-iv"]).read_text(encoding="utf-8")
    text = text.replace('name = "1939-iv"', 'name = "neutral-hook-test"', 1).replace(
        "[neutral]\n", '[neutral]\norders = "advance"\n', 1)
    assert isinstance(variant_from_text(text, "n.toml").neutral_orders, _Advance)
    with pytest.raises(VariantError, match="unknown \\[neutral\\] orders 'bogus'"):
        variant_from_text(text.replace('"advance"', '"bogus"'), "n.toml")


# -- a designer's file chooses hooks by name -----------------------------------------------------


def _standard_text() -> str:
    return Path(available_variants()["standard"]).read_text(encoding="utf-8").replace(
        'name = "standard"', 'name = "hooks-test"', 1).replace(
        'aliases = ["classical", "std"]', "aliases = []", 1)


def test_a_designer_file_names_its_hooks() -> None:
    text = _standard_text().replace("[victory]\ncentres = 18", "[victory]\nunits = 30")
    text = text.replace('[variant]\n', '[variant]\nbuilds = "owned"\n', 1)
    v = variant_from_text(text, "hooks-test.toml")
    assert v.victory == UnitCountWinner(30)
    assert v.build_sites == OwnedCentres()
    assert v.features.builds_anywhere


@pytest.mark.parametrize(("change", "message"), [
    (('[variant]\n', '[variant]\nbuilds = "bogus"\n'), "builds must be one of home, owned"),
    (('[variant]\n', '[variant]\nhooks = ["bogus"]\n'), "unknown rule hook 'bogus'"),
    (("[victory]\ncentres = 18", "[victory]\ncentres = 18\nunits = 35"),
     "exactly one of centres, units, unit_in"),
    (("[victory]\ncentres = 18", "[victory]\nunits = 35\nat_start_of = \"Fall\""),
     "at_start_of names a season"),
    (("[victory]\ncentres = 18", "[victory]\nunit_in = \"ice\""), "unit_in needs after"),
])
def test_unknown_hook_names_are_refused_with_the_known_ones(change: tuple[str, str],
                                                            message: str) -> None:
    text = _standard_text().replace(*change, 1)
    with pytest.raises(VariantError, match=message):
        variant_from_text(text, "hooks-test.toml")


def test_a_hook_registered_by_name_is_chosen_by_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding a rule means adding a name: a file may then choose it."""
    monkeypatch.setitem(hooks.BUILD_SITES, "owned_too", OwnedCentres)
    text = _standard_text().replace('[variant]\n', '[variant]\nbuilds = "owned_too"\n', 1)
    assert variant_from_text(text, "hooks-test.toml").build_sites == OwnedCentres()


def test_the_early_victory_key_still_loads() -> None:
    """Files written before [victory] named the centre count in [variant]."""
    text = _standard_text().replace("[victory]\ncentres = 18\n", "").replace(
        '[variant]\n', '[variant]\nvictory_centres = 17\n', 1)
    assert variant_from_text(text, "hooks-test.toml").victory == CentreCountWinner(17)
