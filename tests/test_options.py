"""Rule options: each option's values are one Literal type, which CHOICES lists and
mypy checks; text from files and the command line is checked at run time."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

from standoff import CHOICES, OptionError, Options
from standoff.core import options as options_module
from standoff.core.phase import OPTIONAL_SEASON_YEARS

SRC = Path(__file__).resolve().parent.parent / "src" / "standoff" / "core"


def _field_types() -> dict[str, str]:
    """Each field of Options -> the name of its type, as written in options.py (the
    compiled core keeps no annotations to read at run time)."""
    tree = ast.parse((SRC / "options.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Options")
    return {n.target.id: ast.unparse(n.annotation) for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def test_choices_are_the_literal_types_of_the_fields() -> None:
    """One declaration: CHOICES lists exactly the values of each field's Literal,
    in order, and each field's default is the first."""
    types = _field_types()
    assert list(CHOICES) == [f.name for f in dataclasses.fields(Options)] == list(types)
    for f in dataclasses.fields(Options):
        literal = getattr(options_module, types[f.name])
        assert typing.get_origin(literal) is typing.Literal, f.name
        assert CHOICES[f.name][0] == typing.get_args(literal), f.name
        assert f.default == CHOICES[f.name][0][0], f.name


def test_optional_seasons_are_the_calendars_values() -> None:
    assert CHOICES["optional_seasons"][0] == OPTIONAL_SEASON_YEARS == (
        "never", "odd", "even", "always")


@pytest.mark.parametrize("make", [
    lambda: Options(paradox="bogus"),  # type: ignore[arg-type]
    lambda: Options().with_(paradox="bogus"),
    lambda: Options.parse(["paradox=bogus"]),
    lambda: Options.from_dict({"paradox": "bogus"}),
])
def test_a_value_outside_its_literal_is_refused_at_run_time(make: typing.Any) -> None:
    with pytest.raises(OptionError, match="option paradox cannot be 'bogus'"):
        make()


def test_text_values_become_typed_options() -> None:
    o = Options.parse(["paradox=1982", "optional_seasons=odd"])
    assert o == Options(paradox="1982", optional_seasons="odd")
    assert o.to_dict() == {"paradox": "1982", "optional_seasons": "odd"}


def test_mypy_refuses_a_value_outside_the_literal(tmp_path: Path) -> None:
    """The point of the Literal types: a typo in code is a type error, not a game
    played under a default rule."""
    api = pytest.importorskip("mypy.api")
    src = ("from standoff import Options\n"
           "def ok(o: Options) -> bool:\n"
           "    return o.paradox == '1982'\n"
           "def typo(o: Options) -> bool:\n"
           "    return o.paradox == '1983'\n"
           "Options(paradox='bogus')\n")
    out, _, status = api.run(["--strict", "--no-incremental", "--config-file", "",
                              "--cache-dir", str(tmp_path), "-c", src])
    assert status == 1, out
    assert "<string>:5: error: Non-overlapping equality check" in out
    assert "<string>:6: error: Argument \"paradox\" to \"Options\"" in out
    assert "Found 2 errors" in out
