"""Housekeeping that rots silently unless a test holds it (issue 27, section 5).

* The map tools in ``tools/`` name files of the repository (the variant files
  they read or write, the docs they write): when a file moves, the tool must move
  with it. Three tools pointed at ``src/standoff/variants/`` long after the
  variants moved to ``src/standoff/core/variants/``, and one wrote its output there.
* Test and case-file headers cite where their rules come from; they cited
  absolute paths of the machine they were written on.
* The CLI's command modules shared helpers by importing each other's underscore
  names; what they share now has a public name in one module.
* ``standoff serve`` creates ``standoff.db`` (and SQLite's ``-wal``/``-shm``)
  where it runs, which is often the checkout: git must not offer it.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "standoff"

#: ``ROOT / "src" / "standoff" / ...`` (or ``HERE / ...``) chains of literal parts
_CHAIN = re.compile(r'\b(ROOT|HERE)((?:\s*/\s*"[^"]+")+)')
#: repository paths named in the tools' text: ``src/standoff/...``, ``docs/...``, ``tests/...``
_NAMED = re.compile(r"(?<![\w./-])((?:src/standoff|docs|tests)/[\w./-]*\w)")


def _tool_files() -> list[Path]:
    return sorted(p for p in (ROOT / "tools").rglob("*") if p.suffix in (".py", ".toml"))


def test_every_repository_path_a_tool_names_exists() -> None:
    missing = []
    for path in _tool_files():
        text = path.read_text(encoding="utf-8")
        here = path.parent
        for base, parts in _CHAIN.findall(text):
            start = ROOT if base == "ROOT" else here
            target = start.joinpath(*re.findall(r'"([^"]+)"', parts))
            if not target.exists():
                missing.append(f"{path.relative_to(ROOT)}: {base}{parts}")
        for named in _NAMED.findall(text):
            if not (ROOT / named.rstrip(".")).exists():
                missing.append(f"{path.relative_to(ROOT)}: {named}")
    assert not missing, "paths that no longer exist:\n" + "\n".join(missing)


#: an absolute path of some machine: /work/..., /home/..., /root/..., /tmp/...
_MACHINE = re.compile(r"(?<![\w.~-])/(?:work|home|root|tmp)/\w")


def test_no_test_or_source_file_names_a_path_of_one_machine() -> None:
    """Paths beside the checkout are written relative to it (``../shared/...``)."""
    found = []
    for base in (ROOT / "tests", SRC):
        for path in sorted(base.rglob("*")):
            if (not path.is_file() or "__pycache__" in path.parts or "artifacts" in path.parts
                    or path.suffix not in (".py", ".txt", ".md", ".toml", ".html", ".js")):
                continue
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if _MACHINE.search(line) and path != Path(__file__).resolve():
                    found.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("package", ["cli", "cases"])
def test_modules_import_no_underscore_name_of_another(package: str) -> None:
    found = []
    for path in sorted((SRC / package).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and alias.name != "__version__":
                        found.append(f"{path.name}: from {'.' * node.level}"
                                     f"{node.module or ''} import {alias.name}")
    assert not found, "\n".join(found)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_git_ignores_the_database_standoff_serve_creates() -> None:
    names = ["standoff.db", "standoff.db-wal", "standoff.db-shm", "standoff.db-journal"]
    # --no-index: ignored whether or not such a file was ever tracked; the names
    # need not exist
    answer = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert answer.stdout.split() == names, answer.stderr
