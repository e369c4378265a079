"""The game pages' JavaScript (``src/standoff/judge/web/static``), checked in the test
command: ESLint 9 (the flat config ``eslint.config.mjs``, versions pinned in
``package-lock.json``) over the scripts and their tests, and the pure functions'
unit tests (``web-tests/*.test.js``) under Node's own runner, ``node --test``.

The tools come from npm: ``.ci/node.sh`` installs them (``npm ci``), and so does this
module when ``node_modules`` is missing. Without Node, or when npm cannot fetch the
packages (no registry), these tests FAIL and say why: they are never skipped, since a
page script nobody linted would otherwise pass unnoticed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from programs import program

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "standoff" / "judge" / "web" / "static"
WEB_TESTS = ROOT / "web-tests"
#: npm ci on a cold cache, on a loaded 2-core machine
INSTALL_TIMEOUT_S = 600
RUN_TIMEOUT_S = 180


def _tool(name: str) -> str:
    return program(name, "`bash .ci/node.sh` (Node 18.18 or later and npm)")


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}
    try:
        return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                              env=env, check=False)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"`{' '.join(args)}` took over {timeout:.0f} s: {exc.output!r:.2000}",
                    pytrace=False)


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """The pinned tools, installed with ``npm ci`` when missing (a clear failure,
    with npm's own words, when the registry cannot be reached)."""
    _tool("node")
    installed = ROOT / "node_modules" / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    if not installed.exists() or lock.stat().st_mtime > installed.stat().st_mtime:
        done = _run([_tool("npm"), "ci", "--no-audit", "--no-fund"], INSTALL_TIMEOUT_S)
        if done.returncode != 0:
            pytest.fail("`npm ci` could not install the page scripts' lint and test tools "
                        "(package-lock.json): is the npm registry reachable? (`bash "
                        f".ci/node.sh` installs them too)\n{done.stdout[-3000:]}"
                        f"\n{done.stderr[-3000:]}", pytrace=False)
    return ROOT / "node_modules"


def test_eslint_finds_nothing(node_modules: Path) -> None:
    """ESLint over every page script, their Node tests and its own config: no error,
    no warning."""
    eslint = node_modules / ".bin" / "eslint"
    assert eslint.exists(), f"npm ci ran but installed no {eslint}"
    done = _run([str(eslint), "--max-warnings", "0", str(STATIC.relative_to(ROOT)),
                 str(WEB_TESTS.relative_to(ROOT)), "eslint.config.mjs"], RUN_TIMEOUT_S)
    assert done.returncode == 0, f"ESLint found problems:\n{done.stdout}\n{done.stderr}"


def test_eslint_lints_the_page_scripts(node_modules: Path) -> None:
    """The config covers the page scripts (a file it ignored would pass silently): every
    script in static/ is linted, and an undefined name in one is an error."""
    eslint = node_modules / ".bin" / "eslint"
    scripts = sorted(STATIC.glob("*.js"))
    assert {p.name for p in scripts} >= {"orders.js", "logic.js", "game.js", "common.js"}
    listed = _run([str(eslint), "--format", "json", *map(str, scripts)], RUN_TIMEOUT_S)
    assert '"filePath"' in listed.stdout and listed.stdout.count('"filePath"') == len(scripts)
    bad = "/* a typo */\n\"use strict\";\nfunction f() { return OrderPadd; }\nf();\n"
    done = subprocess.run([str(eslint), "--stdin", "--stdin-filename",
                           str((STATIC / "typo.js").relative_to(ROOT))], cwd=ROOT, input=bad,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    assert done.returncode == 1 and "'OrderPadd' is not defined" in done.stdout, done.stdout


def test_pure_functions_under_node_test(node_modules: Path) -> None:
    """``node --test`` over web-tests/*.test.js: every test passes (and there are some)."""
    files = sorted(str(p.relative_to(ROOT)) for p in WEB_TESTS.glob("*.test.js"))
    assert files, f"no *.test.js in {WEB_TESTS}"
    done = _run([_tool("node"), "--test", *files], RUN_TIMEOUT_S)
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"node --test failed:\n{out[-6000:]}"
    passed = [line for line in out.splitlines() if line.startswith("# pass ")]
    assert passed and int(passed[-1].split()[-1]) >= 10, out[-2000:]
