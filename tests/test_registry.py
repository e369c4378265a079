"""The variant registry: an object that can be passed in, the module's one the default."""

from __future__ import annotations

import pickle

import pytest

from standoff import (
    DEFAULT_REGISTRY,
    Board,
    Calendar,
    CentreCountWinner,
    Phase,
    PhaseKind,
    Position,
    Power,
    Province,
    Terrain,
    Variant,
    VariantError,
    VariantRegistry,
    available_variants,
    derivation,
    load_variant,
)


def _tiny(name: str) -> Variant:
    board = Board.build([Province("a", "A", Terrain.LAND, supply_centre=True),
                         Province("b", "B", Terrain.LAND)], [("a", "b")], [])
    return Variant(name, name.title(), (f"{name}-alias",),
                   {"p": Power("p", "P", "P", ("a",), ())}, board, Calendar(),
                   Phase(1901, 0, PhaseKind.MOVEMENT), CentreCountWinner(1))


def test_a_registry_of_its_own_keeps_its_variants_to_itself() -> None:
    mine = VariantRegistry()
    v = _tiny("registry-own-test")
    mine.register(v)
    assert mine.load("registry-own-test") is v
    assert mine.load("Registry-Own-Test-Alias") is v
    assert load_variant("registry-own-test", mine) is v
    assert mine.registered("registry-own-test") is v
    assert "registry-own-test" in mine.names() and "standard" in mine.names()
    with pytest.raises(VariantError, match="unknown variant"):
        load_variant("registry-own-test")  # not in the default registry
    assert DEFAULT_REGISTRY.registered("registry-own-test") is None


def test_bundled_variants_are_one_object_whichever_registry_asks() -> None:
    mine = VariantRegistry()
    assert mine.load("standard") is load_variant("standard") is DEFAULT_REGISTRY.load("standard")
    assert mine.load("20th") is load_variant("twentieth-century")
    assert mine.available() == available_variants()
    assert derivation("twin-earths", mine) == ("standard", ("twin_levels",))


def test_a_registered_variant_comes_before_the_bundled_one_of_its_name() -> None:
    mine = VariantRegistry()
    shadow = _tiny("standard")
    mine.register(shadow)
    assert mine.load("standard") is shadow
    assert load_variant("standard") is not shadow


def test_registering_after_a_load_takes_effect_at_once() -> None:
    """The registry remembers what each name loaded (the adjudicator asks every
    phase); a registration forgets it, so the next load sees the new variant."""
    mine = VariantRegistry()
    assert mine.load("standard") is load_variant("standard")
    shadow = _tiny("standard")
    mine.register(shadow)
    assert mine.load("standard") is shadow
    assert mine.load("STANDARD") is shadow


def test_power_names_are_read_in_any_case_and_spacing() -> None:
    v = load_variant("standard")
    for text in ("austria", "AUSTRIA", "Austria", "AuStRiA", "  austria ", "Austrian",
                 "AUSTRIAN", "austrian\t"):
        assert v.power(text) == "austria", text
    with pytest.raises(VariantError, match="unknown power"):
        v.power("Austrai")


def test_positions_read_and_write_through_a_given_registry() -> None:
    mine = VariantRegistry()
    v = _tiny("registry-position-test")
    mine.register(v)
    pos = Position.initial(v)
    text = pos.to_text(mine)
    assert text == "registry-position-test | S1901M | - | p: A | - | -"
    assert Position.from_text(text, mine) == pos
    assert Position.from_json(pos.to_json(registry=mine), mine) == pos
    with pytest.raises(Exception, match="unknown variant"):
        Position.from_text(text)  # the default registry does not know it


def test_pickling_is_by_name_in_the_default_registry() -> None:
    """Values cross process boundaries by name: the receiving process looks the
    name up in its default registry, so only a variant found there pickles."""
    mine = VariantRegistry()
    v = _tiny("registry-pickle-test")
    mine.register(v)
    with pytest.raises(pickle.PicklingError, match="register_variant"):
        pickle.dumps(v)
    assert pickle.loads(pickle.dumps(load_variant("sahara"))) is load_variant("sahara")


def test_a_variant_notes_its_special_rules_within_bounds() -> None:
    """``[variant] notes``: the special rules in a few lines (issue 29: shown on the game
    page); a derived variant does not inherit its base's; a designer's file is bounded."""
    from standoff import StandoffError, load_variant
    from standoff.core.variant import variant_from_text
    from standoff.core.variant_sections import MAX_NOTES

    assert load_variant("standard").notes and load_variant("sahara").notes != load_variant(
        "standard").notes
    base = '[variant]\nname = "noted"\n{notes}\n[derive]\nbase = "standard"\n'
    assert variant_from_text(base.format(notes='notes = ["Armies fly."]'), "n.toml").notes == (
        "Armies fly.",)
    assert variant_from_text(base.format(notes=""), "n.toml").notes == ()
    many = "notes = [" + ", ".join('"x"' for _ in range(MAX_NOTES + 1)) + "]"
    with pytest.raises(StandoffError, match="notes"):
        variant_from_text(base.format(notes=many), "n.toml")
    with pytest.raises(StandoffError, match="notes"):
        variant_from_text(base.format(notes="notes = [1, 2]"), "n.toml")
