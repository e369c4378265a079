"""Variant features: every flag declared once (core/features.py), each with what it
means, the rule text it comes from and the core modules that honour it; every
variant exposes its flags typed as ``variant.features``."""

from __future__ import annotations

import dataclasses
import pickle
import re
from pathlib import Path

import pytest

from standoff import load_variant, variant_summary
from standoff.core.features import Features

CORE = Path(__file__).resolve().parent.parent / "src" / "standoff" / "core"


@pytest.mark.parametrize(("name", "features"), [
    ("standard", []),
    ("sahara", ["builds_anywhere", "changing_map", "no_convert", "eras"]),
    ("twin-earths", ["stacked_levels"]),
    ("city-country", ["strike_only_links", "optional_seasons"]),
    ("twentieth-century", ["canals"]),
    ("1939-iv", ["high_seas", "neutral_units", "build_centres"]),
])
def test_each_bundled_variant_uses_the_features_its_rules_name(name: str,
                                                               features: list[str]) -> None:
    v = load_variant(name)
    assert v.features.names() == features
    assert variant_summary(v)["features"] == features
    for flag in features:
        assert getattr(v.features, flag) is True


def test_standard_is_the_variant_without_features() -> None:
    assert load_variant("standard").features == Features()


def _declarations() -> dict[str, str]:
    """Each flag of the Features class block -> the comment above it."""
    text = (CORE / "features.py").read_text()
    block = text[text.index("class Features"):text.index("    @classmethod")]
    out = {}
    for m in re.finditer(r"((?:    #:.*\n)+)    (\w+): bool = False\n", block):
        out[m.group(2)] = " ".join(line.strip()[2:].strip()
                                   for line in m.group(1).splitlines())
    return out


def test_every_flag_is_declared_with_its_meaning_rule_and_modules() -> None:
    """One line (or more) of meaning, a "Rule:" line, and a "Honoured by:" list of
    core modules that exist."""
    declared = _declarations()
    assert list(declared) == [f.name for f in dataclasses.fields(Features)]
    for flag, doc in declared.items():
        meaning, sep, rest = doc.partition(" Rule: ")
        assert sep and meaning, flag
        rule, sep, honoured = rest.partition(" Honoured by: ")
        assert sep and rule, flag
        modules = re.sub(r"\([^)]*\)", "", honoured).rstrip(".").split(",")
        assert modules, flag
        for name in (m.strip() for m in modules):
            assert (CORE / f"{name}.py").exists() or (CORE / name).is_dir(), (flag, name)


def test_features_are_values() -> None:
    f = load_variant("1939-iv").features
    assert pickle.loads(pickle.dumps(f)) == f
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.high_seas = False  # type: ignore[misc]
