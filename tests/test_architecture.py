"""The shape of the package: a pure rules core and adapters in their own wings.

``docs/architecture.md`` describes the tree; these tests hold it to that:

* the core (``standoff/core``) imports the standard library and itself, nothing
  else: no adapter, no third-party package;
* each adapter (``cli``, ``storage``, ``cases``, ``render``, ``judge``) reaches
  the core only through the public API, the ``standoff`` package itself, never
  ``standoff.core.*``;
* ``import standoff`` works with nothing but the standard library installed,
  and loads no adapter.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import venv
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "standoff"
ADAPTERS = ("cli", "storage", "cases", "render", "judge", "selfplay", "env", "mila")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(level, absolute-or-relative module name) of every import in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(0, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out.append((node.level, node.module or ""))
    return out


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def test_the_wings_are_subpackages() -> None:
    """Every module of the package is in the core or in one adapter wing (the
    package's own ``__init__`` is the public API, ``__main__`` runs the CLI)."""
    top = sorted(p.name for p in PACKAGE.iterdir()
                 if p.suffix == ".py" or (p.is_dir() and p.name != "__pycache__"))
    assert top == sorted(["__init__.py", "__main__.py", "core", *ADAPTERS])


def test_the_core_imports_only_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names
    core = _modules(PACKAGE / "core")
    assert any(p.name == "resolver.py" for p in core)
    for path in core:
        for level, name in _imports(path):
            if level:
                continue  # relative: inside the core (it has no parent to climb to)
            assert name.split(".")[0] in stdlib, f"{path.relative_to(SRC)} imports {name}"


def test_relative_imports_in_the_core_stay_in_the_core() -> None:
    core = PACKAGE / "core"
    for path in _modules(core):
        depth = len(path.relative_to(core).parts)  # core/x.py: 1, core/hooks/x.py: 2
        for level, name in _imports(path):
            assert level <= depth, f"{path.relative_to(SRC)} climbs out to {name}"


@pytest.mark.parametrize("wing", ADAPTERS)
def test_adapters_use_only_the_public_api(wing: str) -> None:
    """``from standoff import X`` is the way in; ``standoff.core`` is private to
    the core, so it can be reorganised without breaking a wing."""
    for path in _modules(PACKAGE / wing):
        depth = len(path.relative_to(PACKAGE).parts) - 1
        for level, name in _imports(path):
            absolute = name if level == 0 else None
            if level > depth:  # climbs to the package: from .. import / from ..core...
                absolute = "standoff" + ("." + name if name else "")
            if absolute is None:
                continue
            assert not absolute.startswith("standoff.core"), (
                f"{path.relative_to(SRC)} imports {absolute}")


def test_import_standoff_with_only_the_standard_library(tmp_path: Path) -> None:
    """A bare virtual environment (no pip, nothing installed) imports the core
    from the source tree, adjudicates a phase, and loads no adapter."""
    env = tmp_path / "bare"
    venv.create(env, with_pip=False, system_site_packages=False)
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import standoff\n"
        "pos = standoff.Position.initial(standoff.load_variant('standard'))\n"
        "r = standoff.adjudicate(pos, {'france': ['A PAR - BUR']})\n"
        "assert r.next_position.unit_at('bur') is not None\n"
        "adapters = [m for m in sys.modules if m.startswith(("
        "'standoff.cli', 'standoff.storage', 'standoff.cases', 'standoff.render', "
        "'standoff.judge', 'click', 'resvg_py', 'fastapi', 'sqlalchemy'))]\n"
        "assert not adapters, adapters\n"
        "print('ok')\n"
    )
    done = subprocess.run([str(env / "bin" / "python"), "-I", "-c", code, str(SRC)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


_WITHOUT = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Block())
from standoff.cli import main
sys.argv = ['standoff', *{argv!r}]
main()
"""


@pytest.mark.parametrize(("blocked", "argv", "extra"), [
    ({"resvg_py"}, ["render", "{game}", "-o", "{out}.png"], "png"),
    ({"fastapi", "uvicorn", "sqlalchemy"}, ["serve", "--port", "1"], "judge"),
])
def test_a_missing_extra_is_one_line_naming_it(tmp_path: Path, blocked: set[str],
                                               argv: list[str], extra: str) -> None:
    """The default install is the full CLI; a command needing an extra that is not
    installed says which, in one line (exit 2), never a traceback."""
    from standoff import Game, storage

    game = tmp_path / "g.json"
    storage.save(Game.new(), game)
    args = [a.format(game=game, out=tmp_path / "map") for a in argv]
    done = subprocess.run([sys.executable, "-c", _WITHOUT.format(blocked=sorted(blocked),
                                                                 argv=args)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: {'PNG output' if extra == 'png' else 'the judge'} needs the {extra!r} extra: "
        f"pip install 'standoff[{extra}]'"]
