"""The build under test: the pure Python core or the mypyc-compiled one.

CI runs the whole suite twice (README, "The two commands"): on the editable
install, where the core is pure Python, and on a compiled install with
``STANDOFF_EXPECT_COMPILED=1``. These tests make sure each run really tests the
build it claims to, and that ``setup.py`` compiles every module it names.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import standoff

ROOT = Path(__file__).resolve().parent.parent


def _core_modules() -> list[str]:
    """The ``CORE`` list of setup.py, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "CORE" for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(m) for m in value]
    raise AssertionError("setup.py has no CORE list")


def test_the_suite_runs_on_the_build_it_expects() -> None:
    expected = os.environ.get("STANDOFF_EXPECT_COMPILED", "0") == "1"
    assert standoff.COMPILED is expected, (
        f"expected the {'compiled' if expected else 'pure Python'} core, got the "
        f"{'compiled' if standoff.COMPILED else 'pure Python'} one")


def test_every_core_module_is_compiled_or_none_is() -> None:
    modules = _core_modules()
    assert "movement" in modules and "resolver" in modules
    for name in modules:
        assert (ROOT / "src" / "standoff" / f"{name}.py").is_file(), name
        module = importlib.import_module("standoff." + name.replace("/", "."))
        compiled = not str(module.__file__).endswith(".py")
        assert compiled is standoff.COMPILED, f"standoff.{name}: compiled={compiled}"


def test_the_interface_layers_stay_interpreted() -> None:
    """The CLI, storage and rendering are adapters: never in the compiled core."""
    modules = _core_modules()
    for adapter in ("cli", "storage", "casefile", "variant_check", "render/svg"):
        assert adapter not in modules
