"""Build standoff: the rules core is compiled with mypyc when a wheel is built.

Everything else about the package is in ``pyproject.toml``; this file only adds
the compiled modules. The same typed Python runs either way: compiled, the
core adjudicates about twice as fast (``benchmarks/``), and a build that
cannot compile (no C compiler, no Python headers) falls back to the pure
Python package with a warning instead of failing.

``STANDOFF_COMPILE`` chooses:

* unset or ``auto``: compile for wheels and ``pip install .``, not for an
  editable install (``pip install -e .``), whose point is that edits to the
  ``.py`` files take effect at once (a compiled module would shadow them);
* ``1``: always compile, and fail if compiling fails;
* ``0``: never compile.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: the packages compiled: the rules core, whole (everything between order text and
#: the next position, its variant hooks included), and the case-file runner, which is
#: all reading and comparing around the core and would otherwise dominate a run of
#: thousands of cases. Both use only the standard library. The other adapters (CLI,
#: storage, rendering, the judge) stay interpreted: they wait on people, files and
#: sockets, not on the CPU.
COMPILED_PACKAGES = ["src/standoff/core", "src/standoff/cases"]

#: extra compiler flags for the compiled core on Linux (GCC and clang). The core is
#: one shared library whose functions call each other, and mypyc's runtime helpers,
#: hundreds of times a phase. By default each such call goes through the library's
#: PLT and GOT, because another library might interpose a function of the same name:
#: an extra jump and, for a position met once (its code and tables cold), an extra
#: cache line of code and one of data for each function called. ``-fvisibility=hidden``
#: binds the library's own calls directly (the modules' ``PyInit_`` functions stay
#: exported: Python's headers mark them so), and ``-fno-plt`` calls libpython through
#: the GOT without a PLT stub. Measured (benchmarks/README, "Build flags"): about 100
#: fewer cache lines of data missed per retreat phase met once, and 5-10 % off every
#: phase, cold and warm.
LINUX_FLAGS = ["-fvisibility=hidden", "-fno-plt"]


def _compiled_paths() -> list[str]:
    return sorted(str(p) for pkg in COMPILED_PACKAGES for p in Path(pkg).rglob("*.py"))


def _choice() -> str:
    flag = os.environ.get("STANDOFF_COMPILE", "auto").strip().lower()
    if flag not in ("auto", "0", "1"):
        sys.exit(f"STANDOFF_COMPILE must be auto, 0 or 1, not {flag!r}")
    if flag == "auto":
        editable = any(a in ("editable_wheel", "develop") for a in sys.argv)
        return "0" if editable else "auto"
    return flag


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python when compiling fails (unless
    ``STANDOFF_COMPILE=1``): the package is complete without its compiled core."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing, headers missing, ...
            if _choice() == "1":
                raise
            for out in self.get_outputs():
                Path(out).unlink(missing_ok=True)
            print(f"warning: standoff's core was not compiled ({exc}); "
                  "installing the pure Python package", file=sys.stderr)


def _ext_modules() -> list[Any]:
    choice = _choice()
    if choice == "0":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if choice == "1":
            raise
        print("warning: mypyc is not available; installing the pure Python package",
              file=sys.stderr)
        return []
    paths = _compiled_paths()
    try:
        extensions = list(mypycify(paths, opt_level="3", group_name="standoff_core"))
    except (Exception, SystemExit) as exc:  # mypyc refused the code (a newer mypy, say)
        if choice == "1":
            raise
        print(f"warning: mypyc could not compile standoff's core ({exc!r}); "
              "installing the pure Python package", file=sys.stderr)
        return []
    if sys.platform.startswith("linux"):
        for ext in extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *LINUX_FLAGS]
    return extensions


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
