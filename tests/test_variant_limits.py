"""The size of a variant file *as derived* is bounded before it is built (issue 26 item 1).

The core refuses, with a VariantError saying which bound, a file whose
``[derive]`` repeats a transform or names too many, and one whose data (derived
and merged) has too many spaces, names, links or powers: before building, so
the refusal costs microseconds whatever the file describes. Every bundled
variant fits with room to spare.
"""

from __future__ import annotations

import time

import pytest

from standoff import VariantError, available_variants, load_variant, variant_from_text
from standoff.core.limits import LIMITS, VariantLimits, check_size, measure
from standoff.core.variant import variant_data


def _grid(side: int, aliases: int = 0, powers: int = 1, extra_links: int = 0) -> str:
    ids = [f"p{k}" for k in range(side * side)]
    lines = ["[variant]", 'name = "grid"']
    for pid in ids:
        names = ", ".join(f'"{pid}a{k}"' for k in range(aliases))
        lines.append(f'[provinces.{pid}]\nname = "{pid}"\nterrain = "land"\ncentre = true\n'
                     f"aliases = [{names}]")
    links = [f"{ids[k]}-{ids[k + 1]}" for k in range(len(ids) - 1)]
    links += [f"{ids[0]}-{ids[1]}"] * extra_links
    lines.append('[adjacency]\narmy = "' + " ".join(links) + '"')
    for k in range(powers):
        lines.append(f'[powers.q{k}]\nname = "Q{k}"\nhome_centres = ["{ids[k]}"]\n'
                     f'units = ["A {ids[k]}"]')
    lines.append("[victory]\ncentres = 10")
    return "\n".join(lines) + "\n"


def _derived(transforms: str, base: str = "standard", levels: int = 2) -> str:
    return (f'[variant]\nname = "d"\n[derive]\nbase = "{base}"\nlevels = {levels}\n'
            f"transforms = {transforms}\n")


def test_a_transform_applied_twice_is_refused_before_it_runs() -> None:
    """Six ``twin_levels`` over Standard made 64 boards (2.5 GiB): refused at once."""
    six = ", ".join(['"twin_levels"'] * 6)
    started = time.perf_counter()
    with pytest.raises(VariantError, match="names a transform twice"):
        variant_from_text(_derived(f"[{six}]"), "bomb")
    assert time.perf_counter() - started < 0.5


def test_transforms_must_be_a_short_list_of_names() -> None:
    with pytest.raises(VariantError, match="must be a list of names"):
        variant_from_text(_derived('"twin_levels"'), "f")  # a string is not a list
    with pytest.raises(VariantError, match="must be a list of names"):
        variant_from_text(_derived("[1, 2]"), "f")
    many = VariantLimits().transforms + 1
    names = ", ".join(f'"t{k}"' for k in range(many))
    with pytest.raises(VariantError, match=f"names {many} transforms; at most"):
        variant_from_text(_derived(f"[{names}]"), "f")


def test_the_largest_stacked_boards_a_file_may_ask_for_are_built() -> None:
    """Four levels of City/Country (its split spaces, 440 spaces): within every bound."""
    v = variant_from_text(_derived('["twin_levels"]', "city-country", 4)
                          .replace("[derive]", 'title = "CC4"\n[derive]'), "cc4")
    assert len(v.board.provinces) == 4 * len(load_variant("city-country").board.provinces)


@pytest.mark.parametrize(("text", "what"), [
    (_grid(39), "1521 spaces"),  # 39 x 39 > 1,500
    (_grid(20, aliases=50), "names"),  # 400 x 51 > 20,000
    (_grid(10, extra_links=10_000), "links"),
    (_grid(7, powers=41), "41 powers"),
])
def test_a_file_over_a_bound_is_refused_saying_which(text: str, what: str) -> None:
    started = time.perf_counter()
    with pytest.raises(VariantError, match=f"too large: .*{what}"):
        variant_from_text(text, "big.toml")
    assert time.perf_counter() - started < 2.0


def test_a_file_at_the_bounds_is_read() -> None:
    v = variant_from_text(_grid(38), "grid.toml")  # 1,444 spaces
    assert len(v.board.provinces) == 38 * 38


def test_every_bundled_variant_fits_with_room_to_spare() -> None:
    for name in sorted({load_variant(n).name for n in available_variants()}):
        sizes = measure(variant_data(name))
        for what, count in sizes.items():
            assert count * 2 <= getattr(LIMITS, what), (name, what, count)
        check_size(variant_data(name), name)


def test_the_bounds_are_a_value_a_caller_may_tighten() -> None:
    data = variant_data("standard")
    check_size(data, "standard")
    with pytest.raises(VariantError, match="76 spaces as derived \\(at most 50\\)"):
        check_size(data, "standard", VariantLimits(spaces=50))
