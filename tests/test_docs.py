"""Docs that run: the Python examples of the README and of every page of the
documentation site (``docs/``) are doctests, every file, folder and ``standoff.*``
name they mention exists, and the site builds with ``mkdocs build --strict``.

Examples are the ```` ```pycon ```` blocks of a Markdown file, written as an
interactive session (``>>>`` lines and what Python printed). The blocks of one
file run in order in one namespace, in a temporary directory (an example may
write ``game.json``), with ``...`` in an output standing for the rest of a long
line (doctest's ELLIPSIS). A failure names the file and the line of the example.
"""

from __future__ import annotations

import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
#: the README and every page of the site
DOCS = (README, *sorted((ROOT / "docs").rglob("*.md")))
#: the least number of examples each page runs: a page whose examples vanish (a block
#: written as ```python, a fence broken by an edit) fails, not passes with nothing run
EXAMPLES = {"README.md": 5, "docs/architecture.md": 20, "docs/getting-started.md": 4,
            "docs/python-api.md": 15, "docs/variants/index.md": 3,
            "docs/research/selfplay.md": 10, "docs/research/environments.md": 15,
            "docs/research/mila.md": 12}

_FENCE = re.compile(r"^```pycon\n(.*?)^```$", re.M | re.S)
#: a repository path as the docs write it, not the tail of a longer path or a URL; a glob
#: (tests/test_variant_*.py) or a placeholder (docs/variants/<name>.md) must match something
_PATH = re.compile(r"(?<![\w./-])(?:src|tests|docs|benchmarks|tools)/(?:[\w./*-]|<\w+>)*[\w/*>]")
_PLACEHOLDER = re.compile(r"<\w+>")
#: a dotted name in the package (standoff.core.report.game_report), not a file name
#: (./standoff.db) or a URL
_NAME = re.compile(r"(?<![\w./-])standoff(?:\.[A-Za-z_]\w*)+")
_FILE_SUFFIXES = {"db", "json", "toml", "txt", "md", "py", "png", "svg"}


def _blocks(path: Path) -> list[tuple[int, str]]:
    """(line number of the block's first line, 0-based; its text) of each pycon block."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)), m.group(1)) for m in _FENCE.finditer(text)]


def _run_examples(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """Run every pycon block of ``path``; the number of examples run."""
    blocks = _blocks(path)
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {"__name__": path.stem}
    ran = 0
    for lineno, block in blocks:
        test = parser.get_doctest(block, globs, f"{path.name}:{lineno + 1}", str(path), lineno)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs  # the next block sees what this one defined
        ran += len(test.examples)
    assert runner.failures == 0, "".join(report)
    return ran


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("doc", [d for d in DOCS if _blocks(d)], ids=_name)
def test_doctests(doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run_examples(doc, tmp_path, monkeypatch) >= EXAMPLES.get(_name(doc), 1)


def _docstring_examples(path: Path) -> list[tuple[str, int, str]]:
    """(qualified name, line, docstring) of every docstring in a source file that holds
    an example, read from the source (a compiled core keeps no method docstrings to
    find at run time, and the examples must run on both builds)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=True)
            if doc and ">>> " in doc:
                name = getattr(node, "name", "<module>")
                out.append((name, getattr(node, "lineno", 1), doc))
    return out


PACKAGE_SOURCES = sorted((ROOT / "src" / "standoff").rglob("*.py"))


def test_examples_in_docstrings_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Doc examples run as doctests": those in the package's docstrings too, each
    in the namespace of its own module."""
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    ran: dict[str, int] = {}
    for path in PACKAGE_SOURCES:
        found = _docstring_examples(path)
        if not found:
            continue
        dotted = ".".join(path.relative_to(ROOT / "src").with_suffix("").parts)
        module = importlib.import_module(dotted.removesuffix(".__init__"))
        for name, lineno, doc in found:
            test = parser.get_doctest(doc, dict(vars(module)), f"{_name(path)}:{name}",
                                      str(path), lineno)
            runner.run(test, out=report.append)
            ran[_name(path)] = ran.get(_name(path), 0) + len(test.examples)
    assert runner.failures == 0, "".join(report)
    assert ran.get("src/standoff/core/game.py", 0) >= 2 and ran.get(
        "src/standoff/playtest/__init__.py", 0) >= 4, ran


def test_pages_with_examples_still_have_them() -> None:
    """Every page counted in EXAMPLES exists and has examples (a page moved or renamed
    must take its count with it)."""
    for name in EXAMPLES:
        assert _blocks(ROOT / name), f"{name} has no pycon examples any more"


def test_site_builds_strict(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a link to a page or an anchor that is not there, or
    a page left out of the nav, fails the build (mkdocs.yml's ``validation``)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
        capture_output=True, text=True, env=env, timeout=300, check=False)
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}{run.stderr}"
    assert (tmp_path / "site" / "judge" / "api-contract" / "index.html").is_file()


def test_no_untested_python_blocks() -> None:
    """An example written as a ```python block would never run: write it as pycon."""
    for path in DOCS:
        assert "```python" not in path.read_text(encoding="utf-8"), _name(path)


def _mentioned_paths(path: Path) -> list[str]:
    found = {m.group(0) for m in _PATH.finditer(path.read_text(encoding="utf-8"))}
    return sorted({_PLACEHOLDER.sub("*", p.rstrip(".")) for p in found})


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_path_mentioned_exists(doc: Path) -> None:
    """A path the docs name (``src/standoff/core/resolver.py``, ``tests/cases/datc/*.txt``)
    is a file or folder of the repository: a file moved without its docs fails here."""
    paths = _mentioned_paths(doc)
    if doc == ARCHITECTURE:  # the map of the tree: a pattern that stopped matching fails
        assert any(p.startswith("src/standoff/") for p in paths)
    missing = [p for p in paths
               if not (any(ROOT.glob(p)) if "*" in p else (ROOT / p).exists())]
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


def _resolves(dotted: str) -> bool:
    """``standoff.a.b.c``: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_dotted_name_mentioned_exists(doc: Path) -> None:
    """``standoff.core.report.game_report``, ``standoff.COMPILED``: every module and
    attribute the docs name by its dotted path is there (file names such as
    ``standoff.db`` excepted)."""
    names = {m.group(0).rstrip(".") for m in _NAME.finditer(doc.read_text(encoding="utf-8"))}
    names = {n for n in names if n.rsplit(".", 1)[-1] not in _FILE_SUFFIXES}
    # judge modules need the judge extra, which the test extra brings
    missing = sorted(n for n in names if not _resolves(n))
    assert not missing, f"{doc.name} names what standoff does not have: {missing}"


#: "`src/x.py` (`name`, `Class.method`)", "(`src/x.py`, `name`)"; "`name` in `src/x.py`",
#: "`name`, `other` (`src/x.py`)"
_NAMES = r"((?:\s*`[A-Za-z_][\w.]*`\s*(?:,|/|and)?)+)"
_IN_FILE = (re.compile(r"`(src/[\w/]+\.py)`\s*\(" + _NAMES),
            re.compile(r"\(`(src/[\w/]+\.py)`," + _NAMES),
            re.compile(_NAMES + r"\s+in\s+`(src/[\w/]+\.py)`"),
            re.compile(_NAMES + r"\s*\(`(src/[\w/]+\.py)`\)"))


def _named_definitions(doc: Path) -> list[tuple[str, str]]:
    """(file, name) for every function, class or attribute the doc places in a file."""
    text = doc.read_text(encoding="utf-8")
    pairs = [(m.group(1), m.group(2)) for r in _IN_FILE[:2] for m in r.finditer(text)]
    pairs += [(m.group(2), m.group(1)) for r in _IN_FILE[2:] for m in r.finditer(text)]
    return sorted({(path, name) for path, names in pairs
                   for name in re.findall(r"`([A-Za-z_][\w.]*)`", names)})


@pytest.mark.parametrize("doc", DOCS, ids=_name)
def test_every_definition_is_where_the_docs_say(doc: Path) -> None:
    """``src/standoff/core/movement.py`` (``_backup``): the file defines ``_backup``
    (a function, a class, a method or an attribute), so a rename cannot leave the
    docs pointing at nothing."""
    missing = []
    for path, name in _named_definitions(doc):
        last = name.rsplit(".", 1)[-1]
        source = (ROOT / path).read_text(encoding="utf-8") if (ROOT / path).exists() else ""
        if not re.search(rf"(?m)^\s*(?:async\s+)?(?:def|class)\s+{last}\b"
                         rf"|^\s*(?:self\.)?{last}\s*[:=]", source):
            missing.append(f"{name} in {path}")
    assert not missing, f"{doc.name} places names where they are not defined: {missing}"
