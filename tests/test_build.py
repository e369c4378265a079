"""The build under test: the pure Python core or the mypyc-compiled one.

CI runs the whole suite twice (README, "The two commands"): on the editable
install, where the core is pure Python, and on a compiled install with
``STANDOFF_EXPECT_COMPILED=1``. These tests make sure each run really tests the
build it claims to, and that ``setup.py`` compiles every module it names.
"""

from __future__ import annotations

import ast
import ctypes
import importlib
import os
import sys
from pathlib import Path

import pytest

import standoff

ROOT = Path(__file__).resolve().parent.parent


def _compiled_packages() -> list[str]:
    """The ``COMPILED_PACKAGES`` of setup.py, read without running setup.py."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "COMPILED_PACKAGES" for t in targets):
                assert node.value is not None
                value = ast.literal_eval(node.value)
                assert isinstance(value, list)
                return [str(m) for m in value]
    raise AssertionError("setup.py has no COMPILED_PACKAGES list")


def _compiled_modules() -> list[str]:
    """Every module of the compiled packages, as a dotted name."""
    out = []
    for pkg in _compiled_packages():
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = path.relative_to(ROOT / "src").with_suffix("").parts
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_the_suite_runs_on_the_build_it_expects() -> None:
    expected = os.environ.get("STANDOFF_EXPECT_COMPILED", "0") == "1"
    assert standoff.COMPILED is expected, (
        f"expected the {'compiled' if expected else 'pure Python'} core, got the "
        f"{'compiled' if standoff.COMPILED else 'pure Python'} one")


def test_setup_compiles_the_core_package_whole() -> None:
    """The core package, not a hand-kept list of its modules: a new core module
    is compiled without anyone remembering to add it."""
    assert "src/standoff/core" in _compiled_packages()
    modules = _compiled_modules()
    for name in ("standoff.core.movement", "standoff.core.resolver",
                 "standoff.core.hooks.changing_map", "standoff.cases.runner"):
        assert name in modules


def test_every_compiled_module_is_compiled_or_none_is() -> None:
    for name in _compiled_modules():
        module = importlib.import_module(name)
        compiled = not str(module.__file__).endswith(".py")
        assert compiled is standoff.COMPILED, f"{name}: compiled={compiled}"


def test_the_interface_layers_stay_interpreted() -> None:
    """The CLI, storage, rendering and the judge are adapters: never compiled."""
    for package in _compiled_packages():
        assert package.split("/")[-1] not in ("cli", "storage", "render", "judge")
    modules = _compiled_modules()
    assert not any(m.startswith(("standoff.cli", "standoff.storage", "standoff.render",
                                 "standoff.judge")) for m in modules)


def test_the_compiled_core_binds_its_own_calls_directly() -> None:
    """setup.py's LINUX_FLAGS: the library exports its module initialisers only, so
    its functions call one another directly, not through the PLT (a cache line of
    code and one of data per function called, on a phase met once)."""
    if not standoff.COMPILED or not sys.platform.startswith("linux"):
        pytest.skip("only the compiled core on Linux is built with these flags")
    library = importlib.import_module("standoff_core__mypyc")
    lib = ctypes.CDLL(str(library.__file__))
    assert hasattr(lib, "PyInit_standoff_core__mypyc")  # Python must still find it
    for internal in ("CPyDef_adjudicator___adjudicate", "CPyDict_GetItem", "CPy_AddTraceback"):
        assert not hasattr(lib, internal), f"{internal} is exported"
